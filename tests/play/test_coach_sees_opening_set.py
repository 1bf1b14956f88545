"""The person's coach on /play decides on certain labels even when the opponent opens the round with a set:
the page shows that set's cards with their landmarks, and the coach's deck counts them, so its values are
the position's own and never an expectation over a belief (issue 38, item 6)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bot.matches.local_match import Contender, play_round
from bot.matches.match_records import store_rounds
from rummy import Match, parse_move, render_gamestate
from server.play.ledger import Ledger
from server.play.views import move_text
from server.storage.records import Records
from strategies.coaching.coach import position_of


def test_the_coach_counts_the_opening_set_the_person_was_shown(tmp_path: Path) -> None:
    # Seat 1 moves first on this deal and greedy opens it with a set of one landmark (30 points).
    result = play_round("display:open:0", (Contender("greedy"), Contender("greedy")))
    path, (game_id,) = store_rounds(tmp_path / "records.sqlite3", [(result, 0)], ("human", "greedy"))
    records = Records(path)
    try:
        record = records.match_record(game_id)
        assert record is not None
        # The records as they stand when the person first moves: the opening move only.
        records.db.execute(
            "DELETE FROM moves WHERE game_id=? AND move_seq > (SELECT MIN(move_seq) FROM moves WHERE game_id=?"
            " AND applied=1)",
            (game_id, game_id),
        )
        ledger = Ledger(records, game_id)
        [opening] = ledger.moves()
        assert opening.seat == 1 and opening.kind == "lay" and opening.points == 30
        # What the person's page says of that move: every card with its landmark.
        shown = move_text(opening, you=0, opponent="greedy")
        assert all(card["Landmark"] and card["Landmark"] in shown for card in opening.cards), shown

        match = Match(seed=str(record["Seed"]), rounds=int(record["NumberOfRounds"]))
        match.apply(1, parse_move(opening.move))
        played = match.current
        in_hands = [card.kind for card in (*played.hands[0], *played.hands[1])]
        deck = ledger.deck_counts(0, in_hands)  # as the coach reads it (server.play.hall)
    finally:
        records.close()
    assert deck == dict(Counter(card.kind for card in played.deck))
    # One position, the true one: the coach's values are exact for it, with nothing left to believe.
    labels = {card.id: card.kind for card in (*played.hands[0], *played.hands[1])}
    gamestate = render_gamestate(match, 0, game_id=game_id, opponent_id="greedy")
    position = position_of(gamestate, labels, deck)
    assert sum(position.state.deck_counts()) == gamestate["CardsInDeck"]
