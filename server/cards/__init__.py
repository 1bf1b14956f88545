"""Card pictures: a drawn scene per landmark (or a real photo from `serve --images DIR`), varied per card.

Each landmark gets a scene from a small family of drawings (a clock tower, a step pyramid, sails, a
bridge...) in a palette seeded by its name; each card is a different 'photo' of it (viewpoint, crop,
light, colour, focus, noise). The pictures bots receive show no text: the landmark's name is drawn
only on request, for people (`?caption=1`, `serve --captions`). PNGs carry no metadata.

- drawing, towers, halls, landscapes, families: the scenes
- variation: one photo of a scene; caption: the name band; render: a card's picture
- serving: picture bytes per card token, in byte-bounded caches; prerender: the worker that draws the
  pages' pictures ahead; picture_folder: those pictures on disk beside the records file; routes: GET /cards/{token}.png
"""

from server.cards.render import HEIGHT, WIDTH, draw_card, to_png
from server.cards.serving import CardImages

__all__ = ["HEIGHT", "WIDTH", "CardImages", "draw_card", "to_png"]
