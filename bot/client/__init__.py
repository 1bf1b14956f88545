"""The arena client: talks the REST protocol to the arena or a local server and plays a bot's moves in time."""
