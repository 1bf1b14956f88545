"""The landmark's name in a band under the scene: for people only (viewer, play page, `serve --captions`).

The images bots receive carry no caption by default; a caption would give the answer away.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

CAPTION_HEIGHT = 52


def draw_caption(image: Image.Image, landmark: str) -> None:
    draw = ImageDraw.Draw(image)
    top = image.height - CAPTION_HEIGHT
    draw.rectangle((0, top, image.width, image.height), fill=(250, 248, 240))
    words, lines, line = landmark.split(), [], ""
    font = ImageFont.load_default(size=20)
    for word in words:
        candidate = f"{line} {word}".strip()
        if line and draw.textlength(candidate, font=font) > image.width - 16:
            lines.append(line)
            line = word
        else:
            line = candidate
    lines.append(line)
    if len(lines) > 2:
        font = ImageFont.load_default(size=14)
        lines = [" ".join(words)]
    height = CAPTION_HEIGHT / len(lines)
    for index, text in enumerate(lines):
        draw.text((image.width / 2, top + height * (index + 0.5)), text, font=font, fill=(20, 20, 20), anchor="mm")
