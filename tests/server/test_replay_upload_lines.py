"""The replay upload's lines (server/replay_upload.py), checked by rummy.messages and cut down, without a server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.replay_upload import UploadError, cleaned_lines

REPLAY = Path(__file__).resolve().parents[2] / "fixtures" / "replays" / "greedy-vs-housebot-greedy.jsonl"


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def encoded(lines: list[dict]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def test_a_recorded_file_is_kept_with_what_the_viewer_reads() -> None:
    kept = cleaned_lines(REPLAY.read_bytes(), REPLAY.name)
    assert [line["type"] for line in kept] == [
        line["type"] for line in lines_of(REPLAY) if line["type"] in ("header", "gamestate", "move", "labels", "end")
    ]
    header = kept[0]
    assert header["server"].startswith("http://127.0.0.1:") and "bot" not in header and "recognizer" not in header
    assert all("error" not in line and "reason" not in line for line in kept if line["type"] == "move")


def test_an_end_line_under_the_points_reading_is_kept() -> None:
    """MyScore holds points under my_score=points, negative too: the end line's scores are bounded as a
    gamestate's MyScore is (they are declared once), not as rounds won."""
    lines = lines_of(REPLAY)
    lines[-1] = {**lines[-1], "my_score": -42, "opp_score": 180}
    end = cleaned_lines(encoded(lines), "points.jsonl")[-1]
    assert (end["my_score"], end["opp_score"]) == (-42, 180)


@pytest.mark.parametrize(
    ("kind", "change", "said"),
    [
        ("gamestate", {"IsMover": 1}, "gamestate.IsMover must be true or false, not 1"),
        ("gamestate", {"OppHand": [[1, "/a.png", "x"]]}, "gamestate.OppHand[0] must be a [card id, URL] pair"),
        ("move", {"move": {"Pass": 1}}, "an applied move must be {'Lay': [ids]}, {'Take': id} or {'Give': id}"),
        ("labels", {"labels": {"-": "big ben"}}, 'labels must be keyed by card ids, not "-"'),
    ],
)
def test_a_bad_line_is_refused_naming_the_line_and_the_field(kind: str, change: dict, said: str) -> None:
    lines = lines_of(REPLAY)
    number = next(index for index, line in enumerate(lines, start=1) if line["type"] == kind)
    line = lines[number - 1]
    if kind == "gamestate":
        line["gamestate"].update(change)
    else:
        line.update(change)
    with pytest.raises(UploadError) as raised:
        cleaned_lines(encoded(lines), "bad.jsonl")
    assert str(raised.value).startswith(f"bad.jsonl: line {number} ({kind}): {said}")
