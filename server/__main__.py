"""`python -m server serve|bots ...`: the server's commands without the rest of the CLI."""

import typer

from server.commands import register

app = typer.Typer(name="server", no_args_is_help=True, add_completion=False)
register(app)

if __name__ == "__main__":
    app()
