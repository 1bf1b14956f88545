"""How to tell the user to run this tool again, in a form that works in their shell as printed."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

NAME = "rummy-vision"


def command_name(argv0: str | None = None) -> str:
    """`rummy-vision` when that name runs this very script (an activated .venv, or the script on PATH);
    otherwise the path the user typed (e.g. `.venv/bin/rummy-vision`), so a printed hint runs as shown."""
    invoked = argv0 if argv0 is not None else sys.argv[0]
    if Path(invoked).name != NAME:  # run as `python -m ...` or from tests: the installed name is the best bet
        return NAME
    found = shutil.which(NAME)
    if found is not None and _same_file(found, invoked):
        return NAME
    return invoked if os.sep in invoked else NAME


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False
