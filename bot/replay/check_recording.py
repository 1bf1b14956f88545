"""Replay a recorded match (what `play` writes) through the local rules and list every divergence.

For each move the bot sent, the gamestate before it and the server's answer are compared with what
the local rules (a `RulesConfig`, whose switches cover the choices the arena's help leaves open)
predict: the move's result (accepted or INVALID_MOVE), the hands (the cards that moved, and one new
card when the mover draws), the points, the deck count and turns left, whether the round ended,
and at the match's end the final points, MyScore and the status. Points of a Lay are predicted
from the labels recorded with the move (a strategy's recognizer); when a laid card has no label
the points are not checked and the check says so. The opponent's moves are not checked: the bot
never sees what they were, only their effect.

Besides the rules' switches (`RulesConfig`), `Readings` covers the open readings that only a recording
can settle: the match decided by rounds won or by total points, a tied match drawn or decided by points,
`RemainingRounds` counting the current round or not, and the mover drawing after its move or before it
(at the start of its turn). `fitting_readings` tries every combination and says which fit.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar

from bot.replay.recording import ReplayError, read_replay
from rummy import DEFAULT_RULES, MalformedLay, MyScore, PointsShown, RulesConfig
from rummy.messages import Gamestate, MessageError, check_replay_line


@dataclass(frozen=True)
class Divergence:
    line: int  # the line of the move in the recording (1-based)
    what: str  # "move result", "hands", "points", "deck", "turns", "end of round", "score", "status"
    expected: str
    found: str

    def describe(self) -> str:
        return f"line {self.line}: {self.what}: the local rules expect {self.expected}, the recording has {self.found}"


class MatchDecided(StrEnum):
    """The match's winner: most rounds won, or most total points."""

    ROUNDS = "rounds"
    POINTS = "points"


class TiedMatch(StrEnum):
    """Equal rounds won: the match is DRAWN, or total points decide."""

    DRAWN = "drawn"
    POINTS = "points"


class RoundsLeft(StrEnum):
    """RemainingRounds counts the current round (1 in the last round) or only the rounds after it (0 there)."""

    WITH_CURRENT = "with-current"
    WITHOUT_CURRENT = "without-current"


class DrawTime(StrEnum):
    """The mover draws after its move, or at the start of its turn."""

    AFTER = "after"
    BEFORE = "before"


@dataclass(frozen=True)
class Readings:
    """The open readings a recording settles (the local referee plays the first of each). A reading's plain
    name ("points", "without-current": a CLI option, a test) becomes its enum member here, the edge."""

    match_decided: MatchDecided = MatchDecided.ROUNDS
    tied_match: TiedMatch = TiedMatch.DRAWN
    remaining_rounds: RoundsLeft = RoundsLeft.WITH_CURRENT
    draw: DrawTime = DrawTime.AFTER

    CHOICES: ClassVar[dict[str, type[StrEnum]]] = {
        "match_decided": MatchDecided,
        "tied_match": TiedMatch,
        "remaining_rounds": RoundsLeft,
        "draw": DrawTime,
    }

    @classmethod
    def named(cls, match_decided: str, tied_match: str, remaining_rounds: str, draw: str) -> Readings:
        """The readings as a command line names them; ValueError names any that is not one of its values."""
        return cls(match_decided, tied_match, remaining_rounds, draw)  # type: ignore[arg-type]  # __post_init__

    def __post_init__(self) -> None:
        for name, reading in self.CHOICES.items():
            value = getattr(self, name)
            if value not in reading._value2member_map_:
                raise ValueError(f"{name} is {value!r}, must be one of {', '.join(reading)}")
            object.__setattr__(self, name, reading(value))

    def describe(self) -> str:
        return ", ".join(f"{name}={getattr(self, name)}" for name in self.CHOICES)


DEFAULT_READINGS = Readings()


@dataclass
class CheckReport:
    path: Path
    moves_checked: int = 0
    unchecked_points: int = 0  # Lays whose points could not be predicted (a card without a label)
    skipped: int = 0  # moves whose answer could not be compared (no gamestate right after them)
    divergences: list[Divergence] = field(default_factory=list)
    unchecked_status: str = ""  # why the match's status could not be checked under these readings, if so


def _ids(hand: list[Any]) -> list[int]:
    return [int(card[0]) for card in hand]


def _malformed(move: Any, before: Gamestate, rules: RulesConfig) -> str | None:
    """Why the local rules refuse `move` in `before`, or None when it is well formed."""
    if not isinstance(move, dict) or len(move) != 1:
        return "not an object with exactly one key"
    ((kind, value),) = move.items()
    mine, theirs = _ids(before["MyHand"]), _ids(before["OppHand"])
    if kind == "Lay":
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            return "Lay is not a list of ids"
        if not rules.min_lay <= len(value) <= rules.max_lay:
            return f"Lay of {len(value)} ids"
        if len(set(value)) != len(value):
            return "Lay repeats an id"
        if not set(value) <= set(mine):
            return "Lay names a card not in the hand"
        return None
    if kind in ("Take", "Give"):
        if not isinstance(value, int):
            return f"{kind} is not an id"
        return None if value in (theirs if kind == "Take" else mine) else f"{kind} of a card not in that hand"
    return f"unknown move {kind!r}"


class _Checker:
    def __init__(self, path: Path, rules: RulesConfig, readings: Readings = DEFAULT_READINGS) -> None:
        self.rules = rules
        self.readings = readings
        self.round_finals: dict[int, tuple[int, int]] = {}  # RemainingRounds of a round -> its final points
        self.report = CheckReport(path)
        self.labels: dict[str, str] = {}  # picture URL -> landmark, from the moves' labels
        self.seen: set[str] = set()
        self.i_moved_first: bool | None = None

    def diverge(self, line: int, what: str, expected: object, found: object) -> None:
        self.report.divergences.append(Divergence(line, what, str(expected), str(found)))

    def see(self, state: Gamestate, line: int = 0) -> None:
        for _card_id, url in [*state["MyHand"], *state["OppHand"]]:
            self.seen.add(str(url))
        left = state.get("RemainingRounds")
        if (
            self.readings.remaining_rounds == RoundsLeft.WITH_CURRENT
            and state.get("GameStatus") == "RUNNING"
            and isinstance(left, int)
            and left < 1
        ):
            self.diverge(
                line, "rounds left", "RemainingRounds >= 1 while a round runs (it counts the current one)", left
            )
        if state.get("RemainingMoves") == self.rules.max_turns and state.get("GameStatus") == "RUNNING":
            self.i_moved_first = bool(state.get("IsMover"))

    def check_move(self, line: int, record: dict[str, Any], before: Gamestate, after: Gamestate | None) -> None:
        rules = self.rules
        move = record.get("move")
        urls = {int(card[0]): str(card[1]) for card in [*before["MyHand"], *before["OppHand"]]}
        for card_id, landmark in (record.get("labels") or {}).items():
            if int(card_id) in urls and landmark:
                self.labels[urls[int(card_id)]] = str(landmark)
        why = _malformed(move, before, rules)
        wasted_malformed = why is not None and rules.malformed_lay == MalformedLay.WASTE and "Lay" in (move or {})
        expected = "INVALID_MOVE" if why is not None and not wasted_malformed else "SUCCESS"
        found = record.get("result")
        if found in ("SUCCESS", "INVALID_MOVE"):
            self.report.moves_checked += 1
            if found != expected:
                self.diverge(line, "move result", f"{expected} ({why or 'a well-formed move'})", found)
        if not record.get("applied") or after is None or not isinstance(move, dict):
            if record.get("applied"):
                self.report.skipped += 1
            return
        self.check_answer(line, move, before, after, wasted_malformed)

    def apply_move(
        self,
        move: dict[str, Any],
        before: Gamestate,
        after: Gamestate,
        malformed: bool,
        mine: list[int],
        theirs: list[int],
    ) -> tuple[int | None, list[int]]:
        """The set points the move scores (None when its cards' labels are not all known) and the mover's hand
        after it; a Take or Give moves its card between `mine` and `theirs` in place."""
        ((kind, value),) = move.items()
        points: int | None = 0
        if kind == "Lay" and not malformed:
            url_of = {int(card[0]): str(card[1]) for card in before["MyHand"]}
            kinds = [self.labels.get(url_of[card_id]) for card_id in value]
            if all(kinds):
                points = self.rules.set_points(tuple(Counter(kinds).values()))
            else:
                points = None
                self.report.unchecked_points += 1
            laid = points != 0 if points is not None else not set(value) & set(_ids(after["MyHand"]))
            if laid:
                mine = [card_id for card_id in mine if card_id not in value]
        elif kind == "Take":
            theirs.remove(value)
            mine.append(value)
        elif kind == "Give":
            mine.remove(value)
            theirs.append(value)
        return points, mine

    def check_answer(
        self, line: int, move: dict[str, Any], before: Gamestate, after: Gamestate, malformed: bool
    ) -> None:
        rules = self.rules
        net = rules.points_shown == PointsShown.NET
        mine, theirs = _ids(before["MyHand"]), _ids(before["OppHand"])
        my_sets = before["MyPoints"] + (rules.hand_penalty * len(mine) if net else 0)
        opp_sets = before["OppPoints"] + (rules.hand_penalty * len(theirs) if net else 0)
        points, mine = self.apply_move(move, before, after, malformed, mine, theirs)
        # The mover draws when both hands still hold cards, or (draw_after_emptying) whenever the deck has one.
        draws = before["CardsInDeck"] > 0 if rules.draw_after_emptying else bool(mine and theirs)
        turns_left = before["RemainingMoves"] - int(draws)
        round_over = not ((mine or draws) and theirs) or turns_left <= 0
        if self.readings.draw == DrawTime.BEFORE:
            # Nobody draws after a move: the next mover draws as its turn starts (so the answer shows it).
            turns_left = before["RemainingMoves"] - 1
            round_over = not (mine and theirs) or turns_left <= 0
            if not round_over and before["CardsInDeck"] > 0:
                draws = True
                theirs = [*theirs, -1]  # the opponent's card drawn as its turn starts (its id is not known here)
            else:
                draws = False
        same_round = after.get("RemainingRounds") == before.get("RemainingRounds") and after["GameStatus"] == "RUNNING"
        if not round_over:
            if not same_round:
                self.diverge(line, "end of round", "the round to go on", "the round ended")
                return
            if self.readings.draw == DrawTime.BEFORE:
                self.check_running_drawn_before(line, after, mine, theirs, draws, turns_left, before)
                theirs = theirs[:-1] if draws else theirs
            else:
                self.check_running(line, after, mine, theirs, draws, turns_left, before)
            mine_drew = draws and self.readings.draw == DrawTime.AFTER
            if points is not None:
                shown = my_sets + points - (rules.hand_penalty * (len(mine) + mine_drew) if net else 0)
                if after["MyPoints"] != shown:
                    self.diverge(line, "points", f"MyPoints {shown}", f"MyPoints {after['MyPoints']}")
            opp_drew = draws and self.readings.draw == DrawTime.BEFORE
            opp_shown = opp_sets - (rules.hand_penalty * (len(theirs) + opp_drew) if net else 0)
            if after["OppPoints"] != opp_shown:
                self.diverge(line, "points", f"OppPoints {opp_shown}", f"OppPoints {after['OppPoints']}")
            return
        if same_round:
            self.diverge(line, "end of round", "the round to end", "the round went on")
            return
        if draws and self.readings.draw == DrawTime.AFTER:
            mine = [*mine, -1]  # the drawn card (its id is not known here)
        if points is None:
            return
        finals = (my_sets + points - rules.hand_penalty * len(mine), opp_sets - rules.hand_penalty * len(theirs))
        self.round_finals[int(before.get("RemainingRounds") or 0)] = finals
        if after["GameStatus"] != "RUNNING" and (after["MyPoints"], after["OppPoints"]) != finals:
            self.diverge(line, "points", f"final points {finals}", f"{(after['MyPoints'], after['OppPoints'])}")

    def check_final(self, line: int, final: Gamestate, first_remaining: int, round_keys: list[int]) -> None:
        """MyScore/OppScore and the status of the match's last gamestate, from its points, the rules and the
        readings. `first_remaining` is the first gamestate's RemainingRounds; `round_keys` the RemainingRounds
        of each round the recording saw, in order."""
        counts_current = self.readings.remaining_rounds == RoundsLeft.WITH_CURRENT
        rounds = max(1, first_remaining if counts_current else first_remaining + 1)
        mine, theirs = final["MyPoints"], final["OppPoints"]
        score = (final["MyScore"], final["OppScore"])
        if round_keys:  # the last round's final points are the last gamestate's
            self.round_finals.setdefault(round_keys[-1], (mine, theirs))
        totals: tuple[int, int] | None = None
        if self.rules.my_score == MyScore.POINTS:
            if rounds == 1 and score != (mine, theirs):
                self.diverge(line, "score", f"MyScore/OppScore {(mine, theirs)} (the points)", f"{score}")
            totals = score
            won = lost = None
        else:
            if sum(score) != rounds:
                what = "rounds, RemainingRounds counting the current one" if counts_current else "rounds"
                self.diverge(line, "score", f"MyScore + OppScore = {rounds} {what}", f"{score}")
            won, lost = score
            if rounds == 1:  # the last round's points decide it (equal points: the second mover)
                i_win = mine > theirs if mine != theirs else self.i_moved_first is False
                won, lost = (1, 0) if i_win else (0, 1)
            if all(key in self.round_finals for key in round_keys) and len(round_keys) == rounds:
                totals = (
                    sum(self.round_finals[key][0] for key in round_keys),
                    sum(self.round_finals[key][1] for key in round_keys),
                )
        by_points = self.readings.match_decided == MatchDecided.POINTS or (
            won is not None and won == lost and self.readings.tied_match == TiedMatch.POINTS
        )
        if won is None and not by_points:
            return  # MyScore holds points: who won the most rounds is not in the recording
        if by_points:
            if totals is None:
                self.report.unchecked_status = "the match's total points are not all in the recording"
                return
            expected = "WON" if totals[0] > totals[1] else "LOST" if totals[1] > totals[0] else "DRAWN"
        else:
            assert won is not None and lost is not None
            expected = "WON" if won > lost else "LOST" if lost > won else "DRAWN"
        if final["GameStatus"] != expected:
            why = f" (total points {totals[0]}-{totals[1]})" if by_points and totals else ""
            self.diverge(line, "status", expected + why, final["GameStatus"])

    def check_running_drawn_before(
        self,
        line: int,
        after: Gamestate,
        mine: list[int],
        theirs: list[int],
        drew: bool,
        turns_left: int,
        before: Gamestate,
    ) -> None:
        """After our move, under draw=before: our hand as the move left it; the opponent's with one new card."""
        after_mine, after_theirs = _ids(after["MyHand"]), _ids(after["OppHand"])
        known = [card_id for card_id in theirs if card_id != -1]
        new = [card_id for card_id in after_theirs if card_id not in known]
        if sorted(after_mine) != sorted(mine) or set(known) - set(after_theirs) or len(new) != int(drew):
            expected = f"MyHand {sorted(mine)}, OppHand {sorted(known)}{' + 1 drawn' if drew else ''}"
            self.diverge(line, "hands", expected, f"MyHand {sorted(after_mine)}, OppHand {sorted(after_theirs)}")
        deck = before["CardsInDeck"] - int(drew)
        if after["CardsInDeck"] != deck:
            self.diverge(line, "deck", f"CardsInDeck {deck}", f"CardsInDeck {after['CardsInDeck']}")
        if after["RemainingMoves"] != turns_left:
            self.diverge(line, "turns", f"RemainingMoves {turns_left}", f"RemainingMoves {after['RemainingMoves']}")

    def check_running(
        self,
        line: int,
        after: Gamestate,
        mine: list[int],
        theirs: list[int],
        draws: bool,
        turns_left: int,
        before: Gamestate,
    ) -> None:
        after_mine, after_theirs = _ids(after["MyHand"]), _ids(after["OppHand"])
        new = [card_id for card_id in after_mine if card_id not in mine]
        if sorted(after_theirs) != sorted(theirs) or set(mine) - set(after_mine) or len(new) != int(draws):
            expected = f"MyHand {sorted(mine)}{' + 1 drawn' if draws else ''}, OppHand {sorted(theirs)}"
            self.diverge(line, "hands", expected, f"MyHand {sorted(after_mine)}, OppHand {sorted(after_theirs)}")
        deck = before["CardsInDeck"] - int(draws)
        if after["CardsInDeck"] != deck:
            self.diverge(line, "deck", f"CardsInDeck {deck}", f"CardsInDeck {after['CardsInDeck']}")
        if after["RemainingMoves"] != turns_left:
            self.diverge(line, "turns", f"RemainingMoves {turns_left}", f"RemainingMoves {after['RemainingMoves']}")


def check_recording(
    path: str | Path, rules: RulesConfig = DEFAULT_RULES, readings: Readings = DEFAULT_READINGS
) -> CheckReport:
    """Every divergence between the recording at `path` and the local rules `rules` under `readings`."""
    path = Path(path)
    return _check(path, checked_replay(path), rules, readings)


def checked_replay(path: Path) -> list[dict[str, Any]]:
    """The lines of the replay file at `path`, each of its declared type (rummy.messages; the bounds are the
    viewer's, not checked here: a count past them is a divergence to report): ReplayError names the line and
    the field that is not what the format says."""
    lines = read_replay(path)
    for number, line in enumerate(lines, start=1):
        try:
            check_replay_line(line, bounds=False)
        except MessageError as error:
            raise ReplayError(f"{path}:{number}: {error}") from None
    return lines


def _check(path: Path, records: list[dict[str, Any]], rules: RulesConfig, readings: Readings) -> CheckReport:
    checker = _Checker(path, rules, readings)
    before: Gamestate | None = None
    for index, record in enumerate(records):
        if record["type"] == "gamestate":
            before = record["gamestate"]
            checker.see(before, index + 1)
        elif record["type"] == "move" and before is not None and before.get("IsMover"):
            after = None
            for later in records[index + 1 :]:
                if later["type"] == "move" and later.get("applied"):
                    break  # another move of this turn was the one played
                if later["type"] == "gamestate":
                    if later.get("call") == "GM-MakeMove" or later["gamestate"]["GameStatus"] != "RUNNING":
                        after = later["gamestate"]
                    break
            if record.get("result") == "INVALID_MOVE" or record.get("applied"):
                checker.check_move(index + 1, record, before, after)
    states = [(number, r["gamestate"]) for number, r in enumerate(records, start=1) if r["type"] == "gamestate"]
    if states and states[-1][1].get("GameStatus") in ("WON", "LOST", "DRAWN"):
        keys: list[int] = []
        for _number, state in states:
            if state.get("GameStatus") != "RUNNING":
                continue  # the match's end: its RemainingRounds is no round's
            key = int(state.get("RemainingRounds") or 0)
            if not keys or keys[-1] != key:
                keys.append(key)
        checker.check_final(states[-1][0], states[-1][1], int(states[0][1].get("RemainingRounds") or 0), keys)
    return checker.report


@dataclass(frozen=True)
class Fit:
    rules: RulesConfig
    readings: Readings
    report: CheckReport

    def describe(self) -> str:
        switches = ", ".join(f"{name}={getattr(self.rules, name)}" for name in RULE_CHOICES)
        return f"{switches}, {self.readings.describe()}"


# The rules' open switches (RulesConfig) that check-recording tries, with their values.
RULE_CHOICES: dict[str, tuple[Any, ...]] = {
    "malformed_lay": tuple(MalformedLay),
    "draw_after_emptying": (False, True),
    "points_shown": tuple(PointsShown),
    "my_score": tuple(MyScore),
}


def every_reading(paths: list[Path]) -> list[tuple[Fit, ...]]:
    """For every combination of the rules' switches and the readings, each recording's report."""
    recordings = [(path, checked_replay(path)) for path in paths]
    found = []
    names = [*RULE_CHOICES, *Readings.CHOICES]
    values: list[tuple[Any, ...]] = [*RULE_CHOICES.values(), *(tuple(kind) for kind in Readings.CHOICES.values())]
    for combination in itertools.product(*values):
        chosen = dict(zip(names, combination))
        rules = replace(DEFAULT_RULES, **{name: chosen[name] for name in RULE_CHOICES})
        readings = Readings(**{item.name: chosen[item.name] for item in fields(Readings)})
        found.append(tuple(Fit(rules, readings, _check(path, lines, rules, readings)) for path, lines in recordings))
    return found
