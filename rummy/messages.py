"""The protocol's messages, declared once: the gamestate the arena sends, a move a bot answers, the lines of a
replay file; and the one validator, `check`, that every reader of them runs at its edge.

Each message is a TypedDict (what mypy sees), its fields annotated with what a value must be: `Range` for a
whole number's bounds, `MaxLen` for a text's or a list's length, `Lenient` for a field a reader drops when it
does not fit rather than refusing the whole message (a value only shown, never acted on). `check(Model, data)`
walks those annotations and returns `data` unchanged (extra keys stay) or raises `MessageError`, one line
naming the field and what it must be: `gamestate.MyHand[2][0] must be a card id (a whole number), not "7"`.

The bounds are what a match can have (a count past them only makes readers build huge answers): a file
naming RemainingRounds 10^6 is refused before the viewer builds a round per round number.

Users: the bot client (every GameState it receives, bot/client/protocol_client.py), the replay upload
(server/replay_upload.py), `check-recording` (bot/replay/check_recording.py); `render_gamestate` builds a
`Gamestate`, and `Lay/Take/Give.to_json` a `MoveMessage`. Moves a bot answers are checked by
`rummy.moves.parse_move`, whose errors the referee sends back (it knows the rules' Lay sizes).
"""

import json
import math
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import (
    Annotated,
    Any,
    Literal,
    NamedTuple,
    NotRequired,
    Required,
    TypedDict,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

# RemainingRounds: the viewer builds one round per round number (an upload naming 10^6 once made every public
# steps answer take 9 s and 440 MB).
MAX_ROUNDS = 100
MAX_CARDS = 100  # in a hand, a catalog, or labelled on one line
MAX_TEXT = 200  # a name, a landmark, a status
MAX_URL = 2000
MAX_POINTS = 10_000  # points, or MyScore under the points reading of the rules
MAX_COUNT = 100_000  # moves or fallbacks of a whole match
MAX_CARD_ID = 2**53  # ids the browser's numbers hold exactly
MAX_MOMENT_MS = 2**53
MAX_ID = 2**63 - 1


class MessageError(ValueError):
    """A message that is not of its declared shape; the text names the field, what it must be and what came."""


@dataclass(frozen=True)
class Range:
    low: int
    high: int


@dataclass(frozen=True)
class MaxLen:
    limit: int


@dataclass(frozen=True)
class Items:
    """A JSON array of exactly these items, in order (a [card id, URL] pair)."""

    types: tuple[Any, ...]


@dataclass(frozen=True)
class Named:
    """How an error message names what a value must be, when the plain type would say it badly."""

    text: str


@dataclass(frozen=True)
class Lenient:
    """A field a reader drops when it does not fit (`fits`), rather than refusing the message; `check` skips it."""


LENIENT = Lenient()

Text = Annotated[str, MaxLen(MAX_TEXT)]
Url = Annotated[str, MaxLen(MAX_URL)]
CardId = Annotated[int, Range(-MAX_CARD_ID, MAX_CARD_ID), Named("a card id (a whole number)")]
HandCard = Annotated[list[int | str], Items((CardId, Url)), Named("a [card id, URL] pair")]
Hand = Annotated[list[HandCard], MaxLen(MAX_CARDS), Named(f"a list of at most {MAX_CARDS} [card id, URL] pairs")]
Points = Annotated[int, Range(-MAX_POINTS, MAX_POINTS)]
Rounds = Annotated[int, Range(0, MAX_ROUNDS)]
Moment = Annotated[int, Range(0, MAX_MOMENT_MS)]
Count = Annotated[int, Range(0, MAX_COUNT)]
MatchId = Annotated[int, Range(0, MAX_ID)]
CardIdText = Annotated[str, Named("a card id")]  # a JSON object's key: checked by `_card_id_text`
Labels = Annotated[
    dict[CardIdText, Text], MaxLen(MAX_CARDS), Named(f"an object of at most {MAX_CARDS} card ids and landmarks")
]


class Gamestate(TypedDict):
    """One player's view of a match, as the arena sends it (rules.md, "The gamestate"): `render_gamestate`
    writes every key, in this order. The arena sends them all, but only the five every reader here needs are
    required; the others (NotRequired) are checked when present, so a replay file kept by hand still reads."""

    AllCardTypes: NotRequired[Annotated[list[str], MaxLen(MAX_CARDS), LENIENT]]
    MyHand: Hand
    OppHand: Hand
    MyPoints: NotRequired[Points]
    OppPoints: NotRequired[Points]
    MyScore: NotRequired[Points]  # rounds won, or points under the other reading of the rules
    OppScore: NotRequired[Points]
    RemainingRounds: Rounds
    RemainingMoves: NotRequired[Annotated[int, Range(0, MAX_CARDS * 2)]]
    CardsInDeck: NotRequired[Annotated[int, Range(0, MAX_CARDS)]]
    # Epoch milliseconds: a whole number from the arena; a decimal one is read too rather than end the match.
    ResponseDeadline: NotRequired[Annotated[int | float, Range(0, MAX_MOMENT_MS)]]
    GameStatus: Text  # RUNNING, or how the match ended (rummy.engine.Status on the local referee)
    IsMover: bool
    GameId: NotRequired[MatchId | None]
    OpponentId: NotRequired[Text | None]


GAMESTATE_KEYS: tuple[str, ...] = tuple(Gamestate.__annotations__)


class LayMessage(TypedDict):
    Lay: list[int]


class TakeMessage(TypedDict):
    Take: int


class GiveMessage(TypedDict):
    Give: int


MoveMessage = LayMessage | TakeMessage | GiveMessage
MOVE_KEYS = tuple(key for shape in (LayMessage, TakeMessage, GiveMessage) for key in shape.__annotations__)
MOVE_SHAPES = "{'Lay': [ids]}, {'Take': id} or {'Give': id}"


def move_shape(value: Any) -> MoveMessage | None:
    """`value` if it has one of the three shapes of a move (a Lay of any length up to MAX_CARDS, since a move as
    sent may be malformed), else None. The rules' own checks are `rummy.moves.parse_move`'s."""
    if not isinstance(value, dict) or len(value) != 1:
        return None
    ((kind, body),) = value.items()
    ids = body if kind == "Lay" else [body]
    if kind not in MOVE_KEYS or not isinstance(ids, list) or len(ids) > MAX_CARDS:
        return None
    if not all(isinstance(card_id, int) and not isinstance(card_id, bool) for card_id in ids):
        return None
    return value  # type: ignore[return-value]  # the shape was checked just above


# --- the lines of a replay file (bot/replay/recording.py describes each field) ---------------------------------

Time = Annotated[float, LENIENT]  # "t": Unix time in seconds


class HeaderLine(TypedDict):
    type: Literal["header"]
    version: int  # rummy.replay_lines.parse_replay checks it is the format's
    t: NotRequired[Time]
    game_id: NotRequired[MatchId | None]
    bot_id: NotRequired[Text | None]
    opponent_id: NotRequired[Text | None]
    bot: NotRequired[Annotated[str | None, LENIENT]]
    recognizer: NotRequired[Any]
    base_url: NotRequired[Annotated[str | None, LENIENT]]
    game_style_id: NotRequired[Annotated[Moment | None, LENIENT]]
    move_time_ms: NotRequired[Annotated[Moment | None, LENIENT]]


class GamestateLine(TypedDict):
    type: Literal["gamestate"]
    t: NotRequired[Time]
    call: NotRequired[Text | None]
    result: NotRequired[Text | None]
    gamestate: Gamestate


class MoveLine(TypedDict):
    type: Literal["move"]
    t: NotRequired[Time]
    move: NotRequired[Any]  # as sent: may be anything a bot answered; an applied one has a `move_shape`
    source: NotRequired[Annotated[Literal["bot", "fallback"] | None, LENIENT]]
    reason: NotRequired[Annotated[str | None, LENIENT]]
    result: NotRequired[Text | None]
    applied: NotRequired[bool]
    error: NotRequired[Annotated[str | None, LENIENT]]
    think_ms: NotRequired[Annotated[float | None, LENIENT]]
    rtt_ms: NotRequired[Annotated[float | None, LENIENT]]
    budget_ms: NotRequired[Annotated[float | None, LENIENT]]
    attempts: NotRequired[Annotated[int | None, LENIENT]]
    retried_after: NotRequired[Annotated[list[str] | None, LENIENT]]
    response_deadline: NotRequired[Annotated[Moment | None, LENIENT]]
    labels: NotRequired[Labels | None]
    remaining_rounds: NotRequired[Annotated[Rounds | None, LENIENT]]
    log: NotRequired[Annotated[str, LENIENT]]


class LabelsLine(TypedDict):
    type: Literal["labels"]
    t: NotRequired[Time]
    remaining_rounds: Rounds
    labels: NotRequired[Labels | None]


class NoteLine(TypedDict):
    type: Literal["note"]
    t: NotRequired[Time]
    message: NotRequired[Annotated[str, LENIENT]]


class EndLine(TypedDict):
    type: Literal["end"]
    t: NotRequired[Time]
    game_id: NotRequired[MatchId | None]
    status: Text
    my_score: NotRequired[Points | None]  # the last gamestate's MyScore
    opp_score: NotRequired[Points | None]
    moves: NotRequired[Count | None]
    fallbacks: NotRequired[Count | None]
    duration_s: NotRequired[Annotated[float | None, LENIENT]]


ReplayLine = HeaderLine | GamestateLine | MoveLine | LabelsLine | NoteLine | EndLine
REPLAY_LINES: dict[str, type] = {
    "header": HeaderLine,
    "gamestate": GamestateLine,
    "move": MoveLine,
    "labels": LabelsLine,
    "note": NoteLine,
    "end": EndLine,
}


# --- the validator -------------------------------------------------------------------------------------------

# A checker returns None for a value that fits, else (where inside the value, what is wrong): ("[2][0]",
# "must be ..."). The path is built only on failure, so a valid message costs no string work.
Problem = tuple[str, str]


class How(NamedTuple):
    skip_lenient: bool  # Lenient fields pass whatever they hold (`check`), or are checked too (`fits`)
    bounds: bool  # Range and MaxLen apply, or only the types do


Checker = Callable[[Any], Problem | None]


def check(model: Any, data: Any, where: str = "", *, bounds: bool = True) -> Any:
    """`data` unchanged if it fits `model` (a TypedDict or any annotation above), else MessageError naming the
    first field that does not, what it must be and what it is. `where` names `data` itself (e.g. "GameState").
    Fields marked Lenient are not checked (see `fits`). Without `bounds`, only the types are: for a reader that
    compares values with the rules (check-recording reports a RemainingRounds of -1 as a divergence) rather
    than storing or drawing them."""
    problem = _checker(model, How(skip_lenient=True, bounds=bounds))(data)
    if problem is not None:
        path, text = problem
        raise MessageError(f"{_join(where, path) or 'the message'} {text}")
    return data


def fits(model: Any, data: Any) -> bool:
    """Whether `data` fits `model`, its Lenient fields included: what a reader keeps of a Lenient field."""
    return _checker(model, How(skip_lenient=False, bounds=True))(data) is None


def field_type(model: Any, key: str) -> Any:
    """The annotation of a TypedDict's field, for `fits`."""
    return _hints(model)[key][0]


def check_replay_line(line: Mapping[str, Any], where: str = "", *, bounds: bool = True) -> ReplayLine | None:
    """A replay file's line checked (`check`) against its type's model; None for a type the format does not
    name (a reader skips those)."""
    model = REPLAY_LINES.get(str(line.get("type")))
    return None if model is None else check(model, line, where, bounds=bounds)  # type: ignore[no-any-return]


def excerpt(value: Any, limit: int = 40) -> str:
    """A short JSON excerpt of a value, for an error message (never the whole of a big one)."""
    try:
        text = json.dumps(value, default=repr)
    except (ValueError, TypeError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _join(where: str, path: str) -> str:
    if not where or not path or path.startswith("["):
        return where + path
    return f"{where}.{path}"


@cache
def _hints(model: Any) -> dict[str, tuple[Any, bool]]:
    """A TypedDict's fields: {name: (annotation, required)}."""
    found = {}
    for name, hint in get_type_hints(model, include_extras=True).items():
        required = name in model.__required_keys__
        found[name] = (hint, required)
    return found


def _unwrap(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    """An annotation without Annotated/Required/NotRequired, and the metadata it carried."""
    marks: tuple[Any, ...] = ()
    while True:
        origin = get_origin(hint)
        if origin is Annotated:
            marks += hint.__metadata__
            hint = hint.__origin__
        elif origin in (Required, NotRequired):
            hint = get_args(hint)[0]
        else:
            return hint, marks


def describe(hint: Any) -> str:
    """What a value of `hint` is, in words: "a whole number from 0 to 100", "a text of at most 200 characters"."""
    hint, marks = _unwrap(hint)
    named = next((mark.text for mark in marks if isinstance(mark, Named)), None)
    bounds = next((mark for mark in marks if isinstance(mark, Range)), None)
    limit = next((mark.limit for mark in marks if isinstance(mark, MaxLen)), None)
    if named is not None:
        return named
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [describe(option) for option in get_args(hint)]
        return " or ".join(options)
    if origin is Literal:
        return "one of " + ", ".join(json.dumps(value) for value in get_args(hint))
    if hint is int:
        return "a whole number" + (f" from {bounds.low} to {bounds.high}" if bounds else "")
    if hint is str:
        return "a text" + (f" of at most {limit} characters" if limit else "")
    simple = {float: "a number", bool: "true or false", type(None): "null", Any: "any value"}
    if hint in simple:
        return simple[hint]
    if origin in (list, tuple, dict) or is_typeddict(hint):
        kind = "an object" if origin is dict or is_typeddict(hint) else "a list"
        return kind + (f" of at most {limit} items" if limit else "")
    return str(hint)


@cache
def _checker(hint: Any, how: How) -> Checker:
    """A function that checks a value against `hint` (compiled once per annotation)."""
    base, marks = _unwrap(hint)
    if how.skip_lenient and LENIENT in marks:
        return lambda _value: None
    if is_typeddict(base):
        return _object_checker(base, how)
    origin = get_origin(base)
    if origin in (Union, types.UnionType):
        return _union_checker(hint, how)
    if origin in (list, tuple, dict):
        return _container_checker(hint, how)
    return _scalar_checker(hint, how)


def _must(hint: Any, value: Any) -> Problem:
    return "", f"must be {describe(hint)}, not {excerpt(value)}"


def _scalar_checker(hint: Any, how: How) -> Checker:
    base, marks = _unwrap(hint)
    bounds = next((mark for mark in marks if isinstance(mark, Range) and how.bounds), None)
    limit = next((mark.limit for mark in marks if isinstance(mark, MaxLen) and how.bounds), None)
    if base is Any:
        return lambda _value: None
    if get_origin(base) is Literal:
        allowed = get_args(base)
        return lambda value: None if value in allowed and type(value) in map(type, allowed) else _must(hint, value)
    if base is int:

        def whole(value: Any) -> Problem | None:
            if isinstance(value, bool) or not isinstance(value, int):
                return _must(hint, value)
            if bounds is not None and not bounds.low <= value <= bounds.high:
                return "", f"must be from {bounds.low} to {bounds.high}, not {excerpt(value)}"
            return None

        return whole
    accepted: dict[Any, Callable[[Any], bool]] = {
        float: lambda value: isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value),
        str: lambda value: isinstance(value, str) and (limit is None or len(value) <= limit),
        bool: lambda value: isinstance(value, bool),
        type(None): lambda value: value is None,
    }
    if base not in accepted:
        raise TypeError(f"rummy.messages cannot check {hint!r}")
    test = accepted[base]
    return lambda value: None if test(value) else _must(hint, value)


def _union_checker(hint: Any, how: How) -> Checker:
    base, _marks = _unwrap(hint)
    options = [_checker(option, how) for option in get_args(base)]
    not_none = [option for option in get_args(base) if option is not type(None)]
    single = _checker(not_none[0], how) if len(not_none) == 1 else None

    def either(value: Any) -> Problem | None:
        if any(option(value) is None for option in options):
            return None
        # `X | None` with a value that is not None: X's own problem says more when it is an item's or a bound's.
        own = single(value) if single is not None and value is not None else None
        if own is not None and own != _must(not_none[0], value):
            return own
        return _must(hint, value)

    return either


def _container_checker(hint: Any, how: How) -> Checker:
    base, marks = _unwrap(hint)
    limit = next((mark.limit for mark in marks if isinstance(mark, MaxLen) and how.bounds), None)
    origin, args = get_origin(base), get_args(base)
    fixed = next((mark.types for mark in marks if isinstance(mark, Items)), None)
    if fixed is not None:
        items = [_checker(item, how) for item in fixed]

        def pair(value: Any) -> Problem | None:
            if not isinstance(value, list | tuple) or len(value) != len(items):
                return _must(hint, value)
            for index, item in enumerate(items):
                problem = item(value[index])
                if problem is not None:
                    return _under(f"[{index}]", problem)
            return None

        return pair
    if origin is list:
        item = _checker(args[0], how)

        def listed(value: Any) -> Problem | None:
            if not isinstance(value, list) or (limit is not None and len(value) > limit):
                return _must(hint, value)
            for index, element in enumerate(value):
                problem = item(element)
                if problem is not None:
                    return _under(f"[{index}]", problem)
            return None

        return listed
    entry = _checker(args[1], how)

    def mapped(value: Any) -> Problem | None:
        if not isinstance(value, dict) or (limit is not None and len(value) > limit):
            return _must(hint, value)
        for key, element in value.items():
            if not _card_id_text(key):
                return "", f"must be keyed by card ids, not {excerpt(key)}"
            problem = entry(element)
            if problem is not None:
                return _under(f"[{json.dumps(key)}]", problem)
        return None

    return mapped


def _card_id_text(key: Any) -> bool:
    """A JSON object's key naming a card id (the only keyed objects of the messages: labels)."""
    return isinstance(key, str) and key.lstrip("-").isdigit() and abs(int(key)) <= MAX_CARD_ID


def _under(step: str, problem: Problem) -> Problem:
    """A part's problem as its whole's: "[0]" under "MyHand" is "MyHand[0]", "IsMover" under "" is "IsMover"."""
    path, text = problem
    return _join(step, path), text


def _object_checker(model: Any, how: How) -> Checker:
    fields = [(name, _checker(hint, how), required, hint) for name, (hint, required) in _hints(model).items()]

    def checked(value: Any) -> Problem | None:
        if not isinstance(value, dict):
            return "", f"must be a JSON object, not {excerpt(value)}"
        for name, field, required, hint in fields:
            if name not in value:
                if required:
                    return name, f"is missing (it must be {describe(hint)})"
                continue
            problem = field(value[name])
            if problem is not None:
                return _under(name, problem)
        return None

    return checked
