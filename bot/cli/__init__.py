"""`rummy-vision`: one command line, a subcommand per use (the console script is `bot.cli:app`)."""

from bot.cli.main import app, main

__all__ = ["app", "main"]
