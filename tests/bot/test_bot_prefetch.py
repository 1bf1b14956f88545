"""Cards labelled on the opponent's turn: PrefetchingBot, the labels handed to the replay file, and where the
runner uses them."""

from __future__ import annotations

import threading

from bot.players.match_bots import StrategyBot
from bot.players.prefetch import PrefetchingBot, is_paid
from rummy.labels import CardLabel


class RecordingRecognizer:
    def __init__(self) -> None:
        self.asked: list[list[tuple[int, str]]] = []
        self.done = threading.Event()

    def recognize(self, cards, catalog, **_options):
        self.asked.append(list(cards))
        self.done.set()
        # Even ids are recognised (as the catalog's first name), odd ones left unknown.
        return {card_id: CardLabel(None if card_id % 2 else catalog[0], 0.5, "test") for card_id, _url in cards}


def state(my_ids, opp_ids):
    return {
        "AllCardTypes": ["giralda", "bryggen"],
        "MyHand": [[i, f"https://cards.example/{i}.png"] for i in my_ids],
        "OppHand": [[i, f"https://cards.example/{i}.png"] for i in opp_ids],
        "IsMover": False,
    }


def test_prefetch_asks_about_every_card_in_view_once() -> None:
    recognizer = RecordingRecognizer()
    bot = PrefetchingBot(lambda gamestate: {"Give": 1}, recognizer)
    bot.prefetch(state(range(1, 11), range(11, 21)))
    assert recognizer.done.wait(10)
    assert sorted(card_id for card_id, _url in recognizer.asked[0]) == list(range(1, 21))
    bot._prefetching.join(10)  # type: ignore[union-attr]
    recognizer.done.clear()
    bot.prefetch(state(range(1, 12), range(12, 21)))  # card 11 moved hands; card 21 is new below
    bot.prefetch(state(range(1, 12), range(12, 22)))
    assert recognizer.done.wait(10)
    assert recognizer.asked[1] == [(21, "https://cards.example/21.png")]


def test_strategies_with_a_paid_recognizer_prefetch_and_others_do_not() -> None:
    assert is_paid("azure") and is_paid("local:customvision") and is_paid("corrected:azure")
    assert not is_paid("oracle") and not is_paid("noisy:0.1")
    paid = StrategyBot("greedy", "azure", lambda gamestate: RecordingRecognizer(), None)
    free = StrategyBot("greedy", "oracle", lambda gamestate: RecordingRecognizer(), None)
    assert isinstance(paid.new_match(state([1], [2])), PrefetchingBot)
    assert not isinstance(free.new_match(state([1], [2])), PrefetchingBot)


def test_a_paid_recognizers_prefetch_hands_its_landmarks_to_the_record() -> None:
    recognizer = RecordingRecognizer()
    bot = PrefetchingBot(lambda gamestate: {"Give": 1}, recognizer)
    recorded: list[dict[int, str]] = []
    bot.label_view(state(range(1, 5), range(5, 9)), recorded.append)
    bot._prefetching.join(10)  # type: ignore[union-attr]
    assert recorded == [{2: "giralda", 4: "giralda", 6: "giralda", 8: "giralda"}]  # unknown cards are not named
    assert len(recognizer.asked) == 1  # the same calls as a prefetch: the record costs none more


def test_a_free_recognizers_bot_labels_the_opponents_turn_only_for_a_record_and_each_card_once() -> None:
    recognizer = RecordingRecognizer()
    bot = StrategyBot("greedy", "oracle", lambda gamestate: recognizer, None).new_match(state([1], [2]))
    bot.label_view(state(range(1, 5), range(5, 9)), None)
    assert recognizer.asked == []  # no record: our strategies learn from their own turns, so nothing is asked
    recorded: list[dict[int, str]] = []
    bot.label_view(state(range(1, 5), range(5, 9)), recorded.append)  # at once, in the caller's thread
    bot.label_view(state(range(1, 5), range(5, 10)), recorded.append)  # card 9 is new
    assert [sorted(card_id for card_id, _url in asked) for asked in recognizer.asked] == [list(range(1, 9)), [9]]
    assert recorded == [{2: "giralda", 4: "giralda", 6: "giralda", 8: "giralda"}, {}]
