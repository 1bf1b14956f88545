"""A user's arena editor file as a bot: a Python file that defines `calculate_move(gamestate)`.

As on the arena, the file's module globals persist between calls within one match, and each match
starts from a freshly executed module (so a counter or cache in a global starts over every match).
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from bot.players.user_bot_process import BotProcessError, UserBotProcess

if TYPE_CHECKING:
    from bot.players.user_bot_process import UserBotProcess

CalculateMove = Callable[[dict[str, Any]], Any]
_serial = itertools.count(1)


class UserBotError(ValueError):
    """The file cannot be used as a bot; the message says what is wrong and where."""


@dataclass(frozen=True)
class UserBotFile:
    path: Path

    @property
    def name(self) -> str:
        return self.path.stem

    def new_match(self) -> CalculateMove:
        """Execute the file as a fresh module in this process and return its calculate_move (unguarded:
        matches and `play` run the file in a bot process instead, see bot/players/user_bot_process.py)."""
        return load_module(self.path).calculate_move  # type: ignore[no-any-return]


def load_user_bot(path: str | Path) -> UserBotFile:
    """Check the file once up front (exists, compiles, defines calculate_move) so errors show before any game.

    The check runs the file in a bot process, as matches do, never in this one.
    """
    bot = UserBotFile(Path(path).expanduser().resolve())
    start_checked(bot.path).close()
    return bot


def start_checked(path: Path) -> UserBotProcess:
    """A bot process with the file loaded, or UserBotError saying why it cannot load."""
    check_source(path)
    process = UserBotProcess(path)
    try:
        process.wait_loaded()
    except BotProcessError as error:
        process.close()
        raise UserBotError(str(error)) from None
    return process


def check_source(path: Path) -> None:
    """The file exists, is readable and compiles (cheap, and the messages name the line)."""
    if not path.is_file():
        raise UserBotError(f"bot file {path} does not exist")
    try:
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
    except (OSError, UnicodeDecodeError) as error:
        raise UserBotError(f"bot file {path} is not readable: {error}") from None
    except SyntaxError as error:
        raise UserBotError(f"bot file {path} has a syntax error at line {error.lineno}: {error.msg}") from None


def load_module(path: Path) -> ModuleType:
    if not path.is_file():
        raise UserBotError(f"bot file {path} does not exist")
    try:
        source = path.read_text(encoding="utf-8")
        code = compile(source, str(path), "exec")
    except (OSError, UnicodeDecodeError) as error:
        raise UserBotError(f"bot file {path} is not readable: {error}") from None
    except SyntaxError as error:
        raise UserBotError(f"bot file {path} has a syntax error at line {error.lineno}: {error.msg}") from None
    # A unique module name per match: the arena's editor gives every match a fresh interpreter state.
    name = f"rummy_vision_user_bot_{path.stem}_{next(_serial)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:  # pragma: no cover - only for paths importlib cannot handle at all
        raise UserBotError(f"bot file {path} cannot be loaded as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    try:
        exec(code, module.__dict__)  # noqa: S102 -- running the user's bot is the point
    except Exception as error:
        del sys.modules[name]
        raise UserBotError(f"bot file {path} failed while loading: {type(error).__name__}: {error}") from None
    if not callable(getattr(module, "calculate_move", None)):
        del sys.modules[name]
        raise UserBotError(f"bot file {path} does not define calculate_move(gamestate)")
    return module
