"""A game review as one self-contained HTML page: inline CSS and an inline SVG chart, no other file.

The same page is the viewer's review view (/viewer/review/{id}) and `rummy-vision review --html`.
It fits a 390 px phone: wide tables scroll inside their own box, never the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from rummy.belief import EXPECTED

CHART_WIDTH, CHART_HEIGHT, PAD = 600, 220, 30

STYLE = """
*{box-sizing:border-box}
body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;padding:12px;max-width:960px;color:#1d2430;background:#f7f7f4}
h1{font-size:1.3em;margin:.2em 0}h2{font-size:1.1em;margin:1.2em 0 .4em}
.note{background:#fff4d6;border:1px solid #e0c060;padding:8px;border-radius:6px;overflow-wrap:anywhere}
.note.exact{background:#e4f5e4;border-color:#7ab87a}
.scroll{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{padding:4px 6px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top;overflow-wrap:anywhere}
td.num{text-align:right;white-space:nowrap}
.estimate{color:#8a5a00;font-style:italic}
svg{width:100%;height:auto;background:#fff;border:1px solid #ddd;border-radius:6px}
.meta{color:#555;overflow-wrap:anywhere}
a{color:#1a56a0}
"""


def _value(value: float, objective: str) -> str:
    return f"{value:+.1f}" if objective == "margin" else f"{value:.0%}"


def _loss(value: float, objective: str) -> str:
    return f"{value:.1f} pts" if objective == "margin" else f"{value * 100:.1f} %"


def _kind(decision: Mapping[str, Any]) -> str:
    expected = f", {EXPECTED}" if decision.get("Expected") else ""
    if decision["Exact"]:
        return f"exact{expected} ({escape(decision['Source'])})"
    return f'<span class="estimate">estimate{expected} ({escape(decision["Source"])})</span>'


def _beliefs(decisions: Sequence[Mapping[str, Any]], viewer_link: str | None) -> str:
    """Each decision made or graded on an uncertain belief, with what the belief held of the unsure cards."""
    rows = []
    for decision in decisions:
        graded, believed = decision.get("Belief") or (), decision.get("PlayerBelief") or ()
        if not graded and not believed:
            continue
        step = str(decision["Step"])
        if viewer_link:
            step = f'<a href="{escape(viewer_link)}/step/{decision["Step"]}">{step}</a>'
        rows.append(
            f"<tr><td class=num>{step}</td><td>{escape(str(decision['Player']))}</td>"
            f"<td>{'<br>'.join(escape(line) for line in graded)}</td>"
            f"<td>{'<br>'.join(escape(line) for line in believed)}</td></tr>"
        )
    if not rows:
        return ""
    head = (
        "<tr><th>Step</th><th>Player</th><th>The review's values are expected over</th>"
        "<th>What the player believed</th></tr>"
    )
    return (
        f"<h2>Decisions on an uncertain belief</h2><p class=meta>Their values are {EXPECTED}: a card's "
        "landmarks with their chances.</p>"
        f'<div class="scroll"><table id="beliefs">{head}{"".join(rows)}</table></div>'
    )


def chart_svg(review: Mapping[str, Any]) -> str:
    """Seat 0's win probability (or margin) before each decision, one line per round; dashed where estimated."""
    points = review["Chart"]
    objective = review["Objective"]
    if not points:
        return "<p>No decisions to chart.</p>"
    values = [point["Value"] for point in points]
    if objective == "win":
        low, high = 0.0, 1.0
    else:
        bound = max(1.0, *(abs(value) for value in values))
        low, high = -bound, bound
    count = len(points)

    def x(index: int) -> float:
        return PAD + (CHART_WIDTH - 2 * PAD) * (index / max(1, count - 1))

    def y(value: float) -> float:
        return CHART_HEIGHT - PAD - (CHART_HEIGHT - 2 * PAD) * ((value - low) / (high - low))

    middle = (low + high) / 2
    parts = [
        f'<svg viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img" aria-label="chart" id="chart">',
        f'<line x1="{PAD}" x2="{CHART_WIDTH - PAD}" y1="{y(middle):.1f}" y2="{y(middle):.1f}" stroke="#bbb"/>',
        f'<text x="2" y="{y(high) + 4:.1f}" font-size="11">{_value(high, objective)}</text>',
        f'<text x="2" y="{y(low) + 4:.1f}" font-size="11">{_value(low, objective)}</text>',
    ]
    for index, point in enumerate(points):
        if index and point["Round"] != points[index - 1]["Round"]:
            boundary = (x(index) + x(index - 1)) / 2
            parts.append(
                f'<line x1="{boundary:.1f}" x2="{boundary:.1f}" y1="{PAD}" y2="{CHART_HEIGHT - PAD}" stroke="#999" '
                'stroke-dasharray="2 3"/>'
            )
        if index and point["Round"] == points[index - 1]["Round"]:
            before = points[index - 1]
            dash = "" if before["Exact"] and point["Exact"] else ' stroke-dasharray="6 4"'
            parts.append(
                f'<line x1="{x(index - 1):.1f}" y1="{y(before["Value"]):.1f}" x2="{x(index):.1f}" '
                f'y2="{y(point["Value"]):.1f}" stroke="#1a56a0" stroke-width="2"{dash}/>'
            )
        fill = "#1a56a0" if point["Exact"] else "#fff"
        parts.append(
            f'<circle cx="{x(index):.1f}" cy="{y(point["Value"]):.1f}" r="3.5" fill="{fill}" stroke="#1a56a0">'
            f"<title>step {point['Step']}: {_value(point['Value'], objective)}"
            f"{'' if point['Exact'] else ' (estimate)'}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _rows(decisions: Sequence[Mapping[str, Any]], objective: str, viewer_link: str | None) -> str:
    rows = []
    for decision in decisions:
        step = str(decision["Step"])
        if viewer_link:
            step = f'<a href="{escape(viewer_link)}/step/{decision["Step"]}">{step}</a>'
        rows.append(
            "<tr>"
            f"<td class=num>{step}</td><td>{escape(str(decision['Player']))}</td>"
            f"<td>{escape(decision['Played'])}</td><td>{escape(decision['Best'])}</td>"
            f"<td class=num>{_loss(decision['loss'], objective)}</td><td>{_kind(decision)}</td>"
            "</tr>"
        )
    return "".join(rows)


def _table(decisions: Sequence[Mapping[str, Any]], objective: str, viewer_link: str | None, table_id: str) -> str:
    head = "<tr><th>Step</th><th>Player</th><th>Played</th><th>Better move</th><th>Loss</th><th>Value</th></tr>"
    return f'<div class="scroll"><table id="{table_id}">{head}{_rows(decisions, objective, viewer_link)}</table></div>'


def _figures(t: Mapping[str, Any], objective: str) -> str:
    """A player's loss figures in the totals table."""
    # Per decision and on average: a sum of P(win) losses is no probability, so none is shown.
    if objective == "win":
        accuracy = "-" if t.get("Accuracy") is None else f"{t['Accuracy']:.0f}%"
        grades = f"{t.get('Inaccuracies')}/{t.get('Mistakes')}/{t.get('Blunders')}"
        mean = _loss(t["MeanLoss"], objective)
        return f"<td class=num>{accuracy}</td><td class=num>{mean}</td><td class=num>{grades}</td>"
    return f"<td class=num>{_loss(t['TotalLoss'], objective)}</td><td class=num>{_loss(t['MeanLoss'], objective)}</td>"


def review_html(review: Mapping[str, Any], *, viewer_link: str | None = None) -> str:
    """The whole page; `viewer_link` (e.g. "/viewer#game/7") makes each step number open the viewer there."""
    objective = review["Objective"]
    what = "win probability" if objective == "win" else "expected final margin"
    players = review["Players"]
    notes = "".join(
        f'<p class="note{" exact" if review["AllExact"] else ""}" id="notes">{escape(note)}</p>'
        for note in review["Notes"]
    )
    win = objective == "win"
    totals = "".join(
        f"<tr><td>{escape(str(t['Player']))}</td><td class=num>{t['Decisions']}</td>"
        f"<td class=num>{t['BestMoves']}</td>{_figures(t, objective)}<td class=num>{t['ExactDecisions']}</td></tr>"
        for t in review["Totals"]
    )
    heads = (
        "<th>Accuracy</th><th>Mean loss</th><th>Inaccuracies/mistakes/blunders</th>"
        if win
        else "<th>Total loss</th><th>Mean loss</th>"
    )
    summaries = "".join(
        f'<p class="summary">{escape(str(t["Player"]))}: {escape(str(t.get("Summary", "")))}</p>'
        for t in review["Totals"]
    )
    results = "".join(
        f"<li>Round {r['Round'] + 1}: {r['Points'][0]} to {r['Points'][1]}"
        f"{'' if r['Winner'] is None else ', won by ' + escape(str(players[r['Winner']]))}</li>"
        for r in review["Results"]
    )
    back = f'<p><a href="{escape(viewer_link)}">Open the match in the viewer</a></p>' if viewer_link else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review of {escape(review["Title"])}</title><style>{STYLE}</style></head>
<body>
<h1>Review of {escape(review["Title"])}</h1>
<p class="meta">Each decision is graded by its loss of {what} against the engine's best move.
Values: {escape(review["Grader"])}.</p>
{notes}{back}
<h2>Totals</h2>
<div class="scroll"><table id="totals"><tr><th>Player</th><th>Decisions</th><th>Best moves</th>{heads}
<th>Exact</th></tr>{totals}</table></div>
{summaries}
<ul>{results}</ul>
<h2>{escape(str(players[0]))}'s {what} through the match</h2>
<p class="meta">Before each decision, with best play from there; filled dots are exact, hollow dots and dashed
lines estimates; dotted verticals separate rounds.</p>
{chart_svg(review)}
<h2>Biggest mistakes</h2>
{_table(review["Worst"], objective, viewer_link, "worst") if review["Worst"] else "<p>No move lost value.</p>"}
<h2>Every decision</h2>
{_table(review["Decisions"], objective, viewer_link, "decisions")}
{_beliefs(review["Decisions"], viewer_link)}
</body></html>
"""
