"""The starter templates repeat their cache, rate-limit, naming and labelling code on purpose: each is one
self-contained file for the arena's editor. The repeated parts are marked as shared blocks, and this test
keeps every copy of a block identical, so a fix made in one template cannot be missing from another.
"""

from __future__ import annotations

import re

import pytest

from bot.templates import TEMPLATES, template_source

BEGIN = re.compile(
    r"^# ---- begin shared block: (?P<name>[a-z ]+) \(the same in every starter template that has it\) ----$"
)
END = re.compile(r"^# ---- end shared block: (?P<name>[a-z ]+) ----$")


def shared_blocks(text: str, where: str) -> dict[str, str]:
    """{block name: its text, edge blank lines dropped}; a ValueError names a marker out of place."""
    blocks: dict[str, str] = {}
    name: str | None = None
    body: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        begin, end = BEGIN.match(line), END.match(line)
        if begin or ("shared block" in line and not end):
            if name is not None or begin is None:
                raise ValueError(f"{where}:{number}: a shared block begins inside {name!r} or is misspelt")
            name, body = begin["name"], []
        elif end:
            if end["name"] != name:
                raise ValueError(f"{where}:{number}: end of {end['name']!r} while in {name!r}")
            if name in blocks:
                raise ValueError(f"{where}:{number}: block {name!r} appears twice")
            blocks[name] = "\n".join(body).strip("\n")
            name = None
        elif name is not None:
            body.append(line)
    if name is not None:
        raise ValueError(f"{where}: block {name!r} never ends")
    return blocks


def every_templates_blocks() -> dict[str, dict[str, str]]:
    return {template: shared_blocks(template_source(template), f"{template}.py") for template in TEMPLATES}


def test_every_copy_of_a_shared_block_is_identical() -> None:
    found = every_templates_blocks()
    names = {name for blocks in found.values() for name in blocks}
    assert {"aliases", "label cache", "landmark names", "rate limit", "labelling"} <= names
    for name in sorted(names):
        copies = {template: blocks[name] for template, blocks in found.items() if name in blocks}
        assert len(copies) >= 2, f"block {name!r} is only in {sorted(copies)}: a shared block needs two copies"
        first, *others = sorted(copies)
        for other in others:
            assert copies[other] == copies[first], f"shared block {name!r} differs between {first}.py and {other}.py"


def test_the_labelling_templates_share_the_cache_limit_and_names() -> None:
    found = every_templates_blocks()
    for template in ("vision", "customvision", "strong"):
        assert {"aliases", "label cache", "landmark names", "rate limit", "labelling"} <= set(found[template])


def test_a_copy_changed_in_one_template_is_caught() -> None:
    vision = template_source("vision")
    drifted = vision.replace("    if len(_sent) >= CALLS_PER_PERIOD:", "    if len(_sent) > CALLS_PER_PERIOD:")
    assert drifted != vision
    assert shared_blocks(drifted, "vision.py")["rate limit"] != every_templates_blocks()["strong"]["rate limit"]
    with pytest.raises(ValueError, match="never ends"):
        shared_blocks(vision.replace("# ---- end shared block: greedy player ----", ""), "vision.py")
    with pytest.raises(ValueError, match="begins inside 'labelling'"):
        shared_blocks(vision.replace("# ---- end shared block: labelling ----", ""), "vision.py")
