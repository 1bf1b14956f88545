"""Recipes that reproduce this repository's figures: `python tools/measure.py --help` in a checkout.

Not installed: what a user measures about their own bots stays in `rummy-vision measure`. The commands
are in tools/recipes/ (app.py); their results go to the repository's `measurements/`.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, Python puts tools/ first on the path; the checkout's top must be there instead, so
    # that `tools.recipes` and the product (`bot`, `strategies`, ...) are this checkout's.
    sys.path[0] = str(Path(__file__).resolve().parents[1])
    from tools.recipes.app import main  # after the path is set, on purpose

    main()
