"""A person plays a house bot in the terminal, through a referee's /play routes (the same seat, coach and
review as the browser page). Cards are shown by landmark name; every input is checked before it is sent."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from rummy import bounded_json
from rummy.capped_http import RECORD_BYTES, capped_client
from rummy.terminal_text import escape
from strategies.coaching.selection import HandCard, Verdict, check_selection

HELP = (
    "Moves: [b]lay 1 2 3[/b] (your cards by number or name, e.g. [b]lay big ben, big ben, giralda[/b]), "
    "[b]take 4[/b] or [b]take giralda[/b] (one of their cards), [b]give 2[/b] (one of yours). "
    "Also [b]hint[/b] (the coach), [b]help[/b], [b]quit[/b]."
)
COMMANDS = ("lay", "take", "give", "hint", "help", "quit")


REVIEW_TIMEOUT_S = 180.0


class PlayApiError(RuntimeError):
    """The server refused a request; the message is its explanation."""


class PlayApi:
    """The /play JSON routes of a referee at `base` (http://host:port)."""

    def __init__(self, base: str, client: httpx.Client | None = None) -> None:
        self.client = client or capped_client(RECORD_BYTES, whole_s=60.0, base_url=base.rstrip("/"), timeout=30)

    def _answer(self, response: httpx.Response) -> dict[str, Any]:
        try:
            body: dict[str, Any] = bounded_json.loads(response.content)
        except ValueError:
            raise PlayApiError(f"the server answered HTTP {response.status_code} without JSON") from None
        if response.status_code >= 400:
            raise PlayApiError(str(body.get("ErrorMessage") or f"HTTP {response.status_code}"))
        return body

    def options(self) -> dict[str, Any]:
        return self._answer(self.client.get("/play/api/options"))

    def start(self, opponent: str, style: int, coach: str | None, name: str, objective: str = "win") -> dict[str, Any]:
        body = {
            "Opponent": opponent,
            "GameStyleId": style,
            "Name": name,
            "Coach": {"Strategy": coach, "Objective": objective},
        }
        return self._answer(self.client.post("/play/api/games", json=body))

    def state(self, token: str, since: int = -1, wait_ms: int = 0) -> dict[str, Any]:
        return self._answer(self.client.get(f"/play/api/games/{token}", params={"since": since, "wait": wait_ms}))

    def move(self, token: str, action: str, mine: list[int], theirs: list[int], confirm: bool) -> dict[str, Any]:
        body = {"Action": action, "Mine": mine, "Theirs": theirs, "ConfirmPass": confirm}
        return self._answer(self.client.post(f"/play/api/games/{token}/move", json=body))

    def coach(self, token: str, top: int = 5) -> dict[str, Any]:
        return self._answer(self.client.get(f"/play/api/games/{token}/coach", params={"top": top}))

    def review(self, token: str) -> dict[str, Any]:
        # Grading a whole game is CPU work on the server (more where a player never saw an opening set: each
        # deck make-up is graded), and a busy machine stretches it: the review may take longer than a move.
        return self._answer(self.client.get(f"/play/api/games/{token}/review", timeout=REVIEW_TIMEOUT_S))

    def close(self) -> None:
        self.client.close()


@dataclass(frozen=True)
class Command:
    action: str  # lay, take, give, hint, help, quit
    mine: tuple[int, ...] = ()
    theirs: tuple[int, ...] = ()


class InputError(ValueError):
    """A line that names no command or no cards; the message says what was wrong."""


def _pick(tokens: Sequence[str], hand: Sequence[dict[str, Any]], whose: str) -> list[int]:
    """Card ids for numbers (1-based positions) or landmark names; a repeated name picks the next such card."""
    chosen: list[int] = []
    for token in tokens:
        token = token.strip().lower()
        if not token:
            continue
        if token.isdigit():
            index = int(token)
            if not 1 <= index <= len(hand):
                raise InputError(f"{whose} hand has cards 1 to {len(hand)}; there is no card {index}")
            card_id = int(hand[index - 1]["Id"])
            if card_id in chosen:
                raise InputError(f"card {index} is named twice")
            chosen.append(card_id)
            continue
        matches = [card for card in hand if (card.get("Landmark") or "").lower() == token]
        if not matches:
            matches = [card for card in hand if (card.get("Landmark") or "").lower().startswith(token)]
            if len({card.get("Landmark") for card in matches}) > 1:
                names = ", ".join(sorted({str(card["Landmark"]) for card in matches}))
                raise InputError(f"{token!r} could be {names}: type more of the name")
        free = [card for card in matches if int(card["Id"]) not in chosen]
        if not matches:
            raise InputError(f"{whose} hand has no {token!r}")
        if not free:
            raise InputError(f"{whose} hand has only {len(matches)} {matches[0]['Landmark']}")
        chosen.append(int(free[0]["Id"]))
    return chosen


def parse_command(line: str, state: dict[str, Any]) -> Command:
    """Read one input line against the current hands; InputError says what is wrong."""
    text = line.strip()
    if not text:
        raise InputError("type a move, or help")
    word, _, rest = text.partition(" ")
    word = word.lower()
    matches = [command for command in COMMANDS if command.startswith(word)] if len(word) >= 1 else []
    action = word if word in COMMANDS else (matches[0] if len(matches) == 1 else None)
    if action is None:
        raise InputError(f"{word!r} is not a command: use lay, take, give, hint, help or quit")
    if action in ("hint", "help", "quit"):
        return Command(action)
    if "," in rest:
        tokens = [token for token in rest.split(",") if token.strip()]
    elif all(token.isdigit() for token in rest.split()):
        tokens = rest.split()
    else:
        tokens = [rest] if rest.strip() else []  # one landmark name, spaces and all
    if not tokens:
        raise InputError(f"{action} which card(s)? e.g. {action} 2")
    if action == "take":
        return Command(action, theirs=tuple(_pick(tokens, state["OppHand"], "their")))
    return Command(action, mine=tuple(_pick(tokens, state["MyHand"], "your")))


def verdict_for(command: Command, state: dict[str, Any], confirm: bool = False) -> Verdict:
    """The shared selection check (the page's /check runs the same function)."""
    mine = [HandCard(int(card["Id"]), card.get("Landmark")) for card in state["MyHand"]]
    theirs = [HandCard(int(card["Id"]), card.get("Landmark")) for card in state["OppHand"]]
    return check_selection(command.action, command.mine, command.theirs, mine, theirs, confirm_pass=confirm)


def format_value(value: float | None, objective: str) -> str:
    if value is None:
        return "?"
    return f"{value:+.1f}" if objective == "margin" else f"{value:.0%}"


def format_loss(value: float, objective: str) -> str:
    """One decision's loss, as every review shows it (0.1 point, 0.1% of P(win))."""
    return f"{value:.1f}" if objective == "margin" else f"{value:.1%}"


class TerminalGame:
    """The game loop: show the board, read a line, check it, send it; then the result and the review."""

    def __init__(
        self,
        api: PlayApi,
        console: Console,
        read_line: Callable[[str], str],
        *,
        viewer_base: str = "",
        wait_ms: int = 5000,
        own_server: bool = False,
        records_file: str = "",
    ) -> None:
        self.own_server = own_server
        # With a referee of its own (gone when the game ends), the links need `serve` on this file.
        self.records_file = records_file
        self.api = api
        self.console = console
        self.read_line = read_line
        self.viewer_base = viewer_base
        self.wait_ms = wait_ms
        self.shown_events = 0
        self.quit = False
        self.state: dict[str, Any] = {}  # the last state shown
        self.token = ""

    def play(self, opponent: str, style: int, coach: str | None, name: str, objective: str = "win") -> dict[str, Any]:
        state = self.api.start(opponent, style, coach, name, objective)
        token = self.token = state["Session"]
        self.console.print(
            f"[b]Game {state['GameId']}[/b]: you ({escape(state['You'])}) against [b]{escape(state['Opponent'])}[/b], "
            f"{state['Style']['Text']}. {HELP}"
        )
        while state["Running"] and not self.quit:
            self._show_events(state)
            if not state["IsMover"]:
                state = self.api.state(token, state["Version"], self.wait_ms)
                continue
            self._show_board(state)
            self.state = state
            state = self._turn(token, state)
        self._show_events(state)
        self.state = state
        if self.quit:
            if self.own_server:
                self.console.print("You left the match; it stops with this referee and is recorded as ABORTED.")
            else:
                self.console.print("You left the match: your seat loses on time when its deadline passes.")
            return state
        self._show_end(token, state)
        return state

    # --- one turn -----------------------------------------------------------------------------

    def _turn(self, token: str, state: dict[str, Any]) -> dict[str, Any]:
        while True:
            try:
                line = self.read_line("your move> ")
            except EOFError:
                self.quit = True
                return state
            try:
                command = parse_command(line, state)
            except InputError as error:
                self.console.print(f"[red]Not sent:[/red] {error}.")
                continue
            if command.action == "quit":
                self.quit = True
                return state
            if command.action == "help":
                self.console.print(HELP)
                continue
            if command.action == "hint":
                self._show_coach(token)
                continue
            verdict = verdict_for(command, state)
            confirm = False
            if verdict.needs_confirm:
                self.console.print(f"[yellow]Warning:[/yellow] {verdict.message}.")
                try:
                    answer = self.read_line("pass anyway? [y/N] ")
                except EOFError:
                    answer = ""
                if answer.strip().lower() not in ("y", "yes"):
                    self.console.print("Not sent.")
                    continue
                confirm = True
            elif not verdict.ok:
                self.console.print(f"[red]Not a move:[/red] {verdict.message}.")
                continue
            try:
                sent = self.api.move(token, command.action, list(command.mine), list(command.theirs), confirm)
            except PlayApiError as error:
                self.console.print(f"[red]Refused:[/red] {error}")
                continue
            if not sent["Sent"] or sent["Result"] != "SUCCESS":
                reason = sent.get("ErrorMessage") or sent["Verdict"]["Message"]
                self.console.print(f"[red]Not played[/red] ({sent.get('Result') or 'not sent'}): {reason}")
                if sent["State"]["Running"] and sent["State"]["IsMover"]:
                    state = sent["State"]
                    continue
            new_state: dict[str, Any] = sent["State"]
            return new_state

    # --- showing ------------------------------------------------------------------------------

    def _show_events(self, state: dict[str, Any]) -> None:
        for event in state["Events"][self.shown_events :]:
            style = "green" if event["IsYou"] else "cyan"
            self.console.print(f"[{style}]{event['Step']:>3}. {escape(event['Text'])}[/{style}]")
            if event.get("RoundEnded"):
                self.console.print(f"[b]{escape(event['RoundEnded']['Text'])}[/b]")
        self.shown_events = len(state["Events"])

    def _show_board(self, state: dict[str, Any]) -> None:
        left_s = max(0, (state["ResponseDeadline"] - state["ServerNowMs"]) // 1000)
        deadline = "no time limit" if state["Style"]["NoLimit"] else f"{left_s} s to move"
        self.console.print(
            f"\n[b]Round {state['Round'] + 1} of {state['Rounds']}[/b] · {state['RemainingMoves']} turns left · "
            f"{state['CardsInDeck']} in the deck · points you {state['Points'][0]}, them {state['Points'][1]} · "
            f"rounds won {state['RoundsWon'][0]}-{state['RoundsWon'][1]} · {deadline} · [b]your turn[/b]"
        )
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column("#", justify="right")
        table.add_column(f"your hand ({len(state['MyHand'])})")
        table.add_column(f"{escape(state['Opponent'])} ({len(state['OppHand'])})")
        for index in range(max(len(state["MyHand"]), len(state["OppHand"]))):
            mine = state["MyHand"][index]["Landmark"] if index < len(state["MyHand"]) else ""
            theirs = state["OppHand"][index]["Landmark"] if index < len(state["OppHand"]) else ""
            table.add_row(str(index + 1), mine or "", theirs or "")
        self.console.print(table)

    def _show_coach(self, token: str) -> None:
        try:
            advice = self.api.coach(token)
        except PlayApiError as error:
            self.console.print(f"[red]No advice:[/red] {error}")
            return
        searched = f"estimates, searched {advice['Depth']} turn(s) ahead"
        how = advice.get("How") or ("exact values" if advice["Exact"] else searched)
        table = Table(title=f"Coach: {advice['Strategy']}, {advice['Objective']} objective, {how}")
        table.add_column("move")
        table.add_column("value", justify="right")
        for move in advice["Moves"]:
            table.add_row(move["Label"], format_value(move["Value"], advice["Objective"]))
        self.console.print(table)
        self.console.print(advice["Explanation"])
        if advice.get("ExactHint"):
            self.console.print(advice["ExactHint"], style="dim", highlight=False)

    def _show_end(self, token: str, state: dict[str, Any]) -> None:
        self.console.print(f"\n[b]{state['Result']}[/b] (rounds won {state['RoundsWon'][0]}-{state['RoundsWon'][1]})")
        if state.get("OpponentNote"):
            self.console.print(f"[yellow]Note:[/yellow] {escape(state['OpponentNote'])}", soft_wrap=True)
        try:
            review = self.api.review(token)
        except PlayApiError as error:
            self.console.print(f"[red]No review:[/red] {error}")
            return
        objective = review["Objective"]
        kind = "exact values" if review.get("Exact") else "estimated values"
        table = Table(title=f"Your game review (by {review['Strategy']}, {objective} objective, {kind})")
        for column in ("step", "round/turn", "you played", "value", "best", "value", "lost"):
            table.add_column(column, justify="right" if column in ("step", "value", "lost") else "left")
        for entry in review["Moves"]:
            table.add_row(
                str(entry["Step"]),
                f"{entry['Round'] + 1}/{entry['Turn']}",
                entry["Played"],
                format_value(entry["PlayedValue"], objective),
                entry["Best"],
                format_value(entry["BestValue"], objective),
                format_loss(entry["Lost"], objective) if entry["Lost"] else "-",
            )
        self.console.print(table)
        # The review engine's own sentence, as `rummy-vision review` and the viewer show it for this player.
        kind = "exact" if review.get("Exact") else "estimates"
        self.console.print(f"{review['Summary']} ({kind})", highlight=False, soft_wrap=True)
        if review.get("ExactHint"):
            self.console.print(review["ExactHint"], highlight=False)
        if review["Worst"]:
            self.console.print("[b]Your three worst moments[/b]:")
        for entry in review["Worst"]:
            self.console.print(
                f"  step {entry['Step']}: {entry['Played']} instead of {entry['Best']} "
                f"(lost {format_loss(entry['Lost'], objective)}) {self.viewer_base}{entry['Viewer']}"
            )
        if self.records_file:
            self.console.print(
                f"Replay it: rummy-vision replay {state['GameId']} --db {self.records_file}; the links above work"
                f" while `rummy-vision serve --db {self.records_file}` runs: {self.viewer_base}{state['Viewer']}",
                soft_wrap=True,
            )
            return
        self.console.print(f"Replay it: rummy-vision replay {state['GameId']} · {self.viewer_base}{state['Viewer']}")
