"""The local referee: the arena's REST protocol over FastAPI, house bots, card images, records."""
