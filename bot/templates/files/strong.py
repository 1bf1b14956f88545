# Rummy Vision strong bot: Azure Computer Vision names the landmark on each card; an expectimax
# search over card counts (exact when the rest of the round fits its budget) picks the move.
#
# Runs unchanged in the arena's editor (Python standard library + requests) and locally with
# `rummy-vision play --bot THIS_FILE.py`. The arena calls calculate_move(gamestate) on every turn;
# module globals (the label cache, the rate limiter, the cards seen this round) live for the whole
# match. Without a key (or when Azure cannot be reached) every card is unknown and the search plays
# on hand sizes and points alone: it still answers a legal move in time.
#
# Settings: paste your endpoint and key below for the arena editor, or set the environment
# variables locally. Never share a file with your key in it.
import ipaddress
import os
import time
import unicodedata
from collections import deque
from concurrent.futures import ThreadPoolExecutor, wait
from itertools import combinations
from urllib.parse import urlsplit

import requests

# ---- begin shared block: azure settings (the same in every starter template that has it) ----
AZURE_ENDPOINT = os.environ.get("AZURE_VISION_ENDPOINT", "https://YOUR-RESOURCE.cognitiveservices.azure.com")
AZURE_KEY = os.environ.get("AZURE_VISION_KEY", "PASTE-YOUR-COMPUTER-VISION-KEY-HERE")
# Free trial keys: 20 calls per 60 s (and 5,000 a month); student/standard keys: 20 calls per 1 s.
CALLS_PER_PERIOD = int(os.environ.get("AZURE_CALLS_PER_PERIOD", "20"))
PERIOD_SECONDS = float(os.environ.get("AZURE_PERIOD_SECONDS", "60"))
# ---- end shared block: azure settings ----
SAFETY_SECONDS = 1.0  # answer at least this long before the move's ResponseDeadline
MAX_THINK_SECONDS = 4.0  # never spend longer than this on labelling, whatever the deadline
SEARCH_SECONDS = 0.5  # the search's own time budget per move (within the deadline too)
SEARCH_NODES = 3000  # and its node budget: whichever runs out first ends the search
PARALLEL_CALLS = 8

# Other names Azure may give a landmark (it answers in English, sometimes the local name).
# ---- begin shared block: aliases (the same in every starter template that has it) ----
ALIASES = {
    "brandenburger tor": "brandenburg gate",
    "houses of parliament": "palace of westminster",
    "westminster palace": "palace of westminster",
    "elizabeth tower": "big ben",
    "clock tower westminster": "big ben",
    "the alamo": "alamo mission in san antonio",
    "alamo": "alamo mission in san antonio",
    "alamo mission": "alamo mission in san antonio",
    "fontana di trevi": "trevi fountain",
    "iwo jima memorial": "marine corps war memorial",
    "us marine corps war memorial": "marine corps war memorial",
    "victoria terminus": "chhatrapati shivaji terminus",
    "chhatrapati shivaji maharaj terminus": "chhatrapati shivaji terminus",
    "mount fitz roy": "fitz roy",
    "monte fitz roy": "fitz roy",
    "cerro chalten": "fitz roy",
    "opera garnier": "palais garnier",
    "palais garnier opera": "palais garnier",
    "kutubiyya mosque": "koutoubia mosque",
    "sheikh zayed grand mosque": "sheikh zayed mosque",
    "slieve liag": "slieve league",
    "zijin cheng": "forbidden city",
    "palace museum": "forbidden city",
    "step pyramid of djoser": "pyramid of djoser",
    "vikingskipshuset": "viking ship museum",
    "brivibas piemineklis": "freedom monument",
    "saint josephs oratory of mount royal": "saint joseph's oratory",
    "st josephs oratory": "saint joseph's oratory",
    "london city hall": "city hall, london",
    "city hall": "city hall, london",
    "ko phi phi": "phi phi islands",
    "alcatraz": "alcatraz island",
    "mount vernon estate": "mount vernon",
    "jal mahal palace": "jal mahal",
    "la giralda": "giralda",
}
# ---- end shared block: aliases ----

LABELS = {}  # picture URL -> landmark (a catalog name) or None when Azure saw no catalog landmark
# ---- begin shared block: label cache (the same in every starter template that has it) ----
FAILED_AT = {}  # picture URL -> time of the last failed call (retried after RETRY_AFTER_SECONDS)
RETRY_AFTER_SECONDS = 10.0
_sent = deque()  # times of the calls in the current rate-limit window
_pool = ThreadPoolExecutor(max_workers=PARALLEL_CALLS)
_pending = {}  # picture URL -> future of a call still running (it fills LABELS when it lands)
# ---- end shared block: label cache ----


# ---- begin shared block: landmark names (the same in every starter template that has it) ----
def normalize(name):
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).lower().replace("'", "")
    words = "".join(c if c.isalnum() else " " for c in plain).split()
    words = ["saint" if w == "st" else "mount" if w == "mt" else w for w in words]
    return " ".join(words)


def to_catalog(name, catalog):
    """The catalog entry a landmark name (from Azure, or a classifier's tag) denotes, or None."""
    wanted = normalize(name)
    by_norm = {normalize(entry): entry for entry in catalog}
    if wanted in by_norm:
        return by_norm[wanted]
    alias = ALIASES.get(wanted)
    if alias is None and wanted.startswith("the "):
        alias = ALIASES.get(wanted[4:])
    return alias if alias in catalog else None


# ---- end shared block: landmark names ----


# ---- begin shared block: azure key check (the same in every starter template that has it) ----
def key_is_set():
    return AZURE_KEY and not AZURE_KEY.startswith("PASTE-") and "YOUR-RESOURCE" not in AZURE_ENDPOINT


# ---- end shared block: azure key check ----


# ---- begin shared block: picture bytes (the same in every starter template that has it) ----
# A card on a local referee (127.0.0.1, a LAN address) cannot be fetched by Azure's cloud: its bytes are
# sent instead. "auto": bytes when the card's host is private and the service's is not (a local referee
# started with `serve --vision` is asked by URL); "always" or "never" to choose yourself.
SEND_PICTURE_BYTES = os.environ.get("SEND_PICTURE_BYTES", "auto")


def is_private_host(url):
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def picture_bytes(url, service_url, timeout):
    """The picture's bytes when the service cannot fetch `url` itself, else None (send the URL)."""
    if SEND_PICTURE_BYTES == "never":
        return None
    if SEND_PICTURE_BYTES != "always" and (not is_private_host(url) or is_private_host(service_url)):
        return None
    response = requests.get(url, timeout=timeout)
    response.raise_for_status()
    return response.content


def picture_body(url, service_url, url_field, timeout):
    """requests.post arguments carrying the picture: its bytes when needed, else {url_field: url}."""
    data = picture_bytes(url, service_url, timeout)
    if data is None:
        return {"json": {url_field: url}}
    return {"data": data, "headers": {"Content-Type": "application/octet-stream"}}


# ---- end shared block: picture bytes ----


# ---- begin shared block: label log (the same in every starter template that has it) ----
def say_labels(cards):
    """One line in the move's log (the arena's editor shows it): how many cards have a label."""
    known = sum(1 for _card_id, url in cards if LABELS.get(url))
    waiting = sum(1 for _card_id, url in cards if url in _pending)
    print(f"labels: {known} of {len(cards)} cards known, {len(cards) - known} unknown ({waiting} calls waiting)")


# ---- end shared block: label log ----


# ---- begin shared block: rate limit (the same in every starter template that has it) ----
def take_call_slot():
    """True if a call may go now under CALLS_PER_PERIOD per PERIOD_SECONDS (no waiting: moves are timed)."""
    now = time.monotonic()
    while _sent and _sent[0] <= now - PERIOD_SECONDS:
        _sent.popleft()
    if len(_sent) >= CALLS_PER_PERIOD:
        return False
    _sent.append(now)
    return True


# ---- end shared block: rate limit ----


# ---- begin shared block: azure call (the same in every starter template that has it) ----
def analyze(url, catalog, timeout):
    """Ask Azure which landmark the picture at `url` shows; store the answer in LABELS."""
    try:
        body = picture_body(url, AZURE_ENDPOINT, "url", timeout)
        headers = {"Ocp-Apim-Subscription-Key": AZURE_KEY, **body.pop("headers", {})}
        response = requests.post(
            AZURE_ENDPOINT.rstrip("/") + "/vision/v3.2/analyze",
            params={"details": "Landmarks"},
            headers=headers,
            timeout=timeout,
            **body,
        )
        if response.status_code != 200:
            FAILED_AT[url] = time.monotonic()
            return
        best = None
        for category in response.json().get("categories", []):
            for landmark in (category.get("detail") or {}).get("landmarks", []):
                found = to_catalog(landmark.get("name", ""), catalog)
                if found and (best is None or landmark.get("confidence", 0) > best[1]):
                    best = (found, landmark.get("confidence", 0))
        LABELS[url] = best[0] if best else None
    except (requests.RequestException, ValueError):
        FAILED_AT[url] = time.monotonic()
    finally:
        _pending.pop(url, None)


# ---- end shared block: azure call ----


# ---- begin shared block: labelling (the same in every starter template that has it) ----
def label_cards(cards, catalog, stop_at):
    """Label the unseen cards in parallel, as far as the rate limit and the time allow.

    Calls still running at `stop_at` keep going in the background and fill LABELS for later turns.
    """
    if not key_is_set():
        return
    futures = []
    for _card_id, url in cards:
        if url in LABELS or url in _pending:
            continue
        if time.monotonic() - FAILED_AT.get(url, -1e9) < RETRY_AFTER_SECONDS:
            continue
        if not take_call_slot():
            break
        timeout = max(0.5, min(5.0, stop_at - time.monotonic() + 2.0))
        _pending[url] = _pool.submit(analyze, url, catalog, timeout)
        futures.append(_pending[url])
    waiting = list(_pending.values())
    if waiting:
        wait(waiting, timeout=max(0.0, stop_at - time.monotonic()))


def stop_time(gamestate):
    """When to stop thinking: SAFETY_SECONDS before the deadline, and at most MAX_THINK_SECONDS."""
    now = time.monotonic()
    deadline_ms = gamestate.get("ResponseDeadline")
    if isinstance(deadline_ms, (int, float)) and deadline_ms > 0:
        left = deadline_ms / 1000.0 - time.time() - SAFETY_SECONDS
        return now + max(0.05, min(left, MAX_THINK_SECONDS))
    return now + MAX_THINK_SECONDS


# ---- end shared block: labelling ----


# ---- the player: counts of each landmark type in each hand and in the deck, searched ----------------

SAME_POINTS = {3: 20, 4: 30, 5: 50}
DIFF_POINTS = {3: 25, 4: 35}
HAND_PENALTY = 3
WIN_BONUS = 40  # a won round is worth this many points of margin to the search
LEAF_SET_WEIGHT = 0.7  # how much of the sets a hand can still lay in its turns a leaf counts as laid
CARDS_PER_TYPE = 10

_round_key = None
_seen = {}  # picture URL -> card id, every card seen this round (hands only; laid cards stay in here)


def hand_value(counts, unknown, lays):
    """The best sets a hand can lay in `lays` turns: (set points, cards left over), unknown cards left too."""
    points, left = _hand_value(tuple(sorted(counts, reverse=True)), lays)
    return points, left + unknown


_HAND_VALUES = {}


def _hand_value(counts, lays):
    key = (counts, lays)
    if key in _HAND_VALUES:
        return _HAND_VALUES[key]
    best = (0, sum(counts))
    if lays > 0:
        for i, n in enumerate(counts):
            for size, pts in SAME_POINTS.items():
                if n >= size:
                    rest = list(counts)
                    rest[i] -= size
                    p, left = _hand_value(tuple(sorted(rest, reverse=True)), lays - 1)
                    best = max(best, (p + pts, left), key=lambda v: v[0] - HAND_PENALTY * v[1])
        holding = [i for i, n in enumerate(counts) if n > 0]
        for size, pts in DIFF_POINTS.items():
            if len(holding) >= size:
                rest = list(counts)
                for i in holding[:size]:  # the largest piles, since counts are sorted
                    rest[i] -= 1
                p, left = _hand_value(tuple(sorted(rest, reverse=True)), lays - 1)
                best = max(best, (p + pts, left), key=lambda v: v[0] - HAND_PENALTY * v[1])
    _HAND_VALUES[key] = best
    return best


# A state: (hands, unknown, deck, points, remaining, mover, first) with hands a pair of 4-tuples of counts,
# unknown a pair of unlabelled-card counts, deck a 4-tuple, points a pair; player 0 is us.
# Moves: ("lay", counts taken, points), ("waste",), ("take", type or -1 for unknown), ("give", type or -1).


def legal_moves(state):
    hands, unknown, _deck, _points, _remaining, mover, _first = state
    mine, theirs = hands[mover], hands[1 - mover]
    moves = []
    for t in range(4):
        for size, pts in SAME_POINTS.items():
            if mine[t] >= size:
                moves.append(("lay", tuple(size if i == t else 0 for i in range(4)), pts))
    holding = [t for t in range(4) if mine[t] > 0]
    if len(holding) == 4:
        moves.append(("lay", (1, 1, 1, 1), DIFF_POINTS[4]))
    for trio in combinations(holding, 3):  # with all four types held, any three of them
        moves.append(("lay", tuple(1 if t in trio else 0 for t in range(4)), DIFF_POINTS[3]))
    if any(n >= 2 for n in mine) and len(holding) >= 2:
        moves.append(("waste",))
    moves.extend(("take", t) for t in range(4) if theirs[t] > 0)
    if unknown[1 - mover]:
        moves.append(("take", -1))
    moves.extend(("give", t) for t in range(4) if mine[t] > 0)
    if unknown[mover]:
        moves.append(("give", -1))
    return list(dict.fromkeys(moves))


def _moved(state, move):
    hands, unknown, deck, points, remaining, mover, first = state
    hands = [list(hands[0]), list(hands[1])]
    unknown = list(unknown)
    points = list(points)
    kind = move[0]
    if kind == "lay":
        hands[mover] = [n - k for n, k in zip(hands[mover], move[1])]
        points[mover] += move[2]
    elif kind in ("take", "give"):
        src, dst = (1 - mover, mover) if kind == "take" else (mover, 1 - mover)
        if move[1] < 0:
            unknown[src] -= 1
            unknown[dst] += 1
        else:
            hands[src][move[1]] -= 1
            hands[dst][move[1]] += 1
    return (tuple(hands[0]), tuple(hands[1])), tuple(unknown), deck, tuple(points), remaining, mover, first


def _ended(state):
    hands, unknown, _deck, _points, remaining, _mover, _first = state
    empty = any(sum(hands[p]) + unknown[p] == 0 for p in (0, 1))
    return empty or remaining <= 0


def final_value(state):
    hands, unknown, _deck, points, _remaining, _mover, first = state
    scores = [points[p] - HAND_PENALTY * (sum(hands[p]) + unknown[p]) for p in (0, 1)]
    margin = scores[0] - scores[1]
    we_win = margin > 0 or (margin == 0 and first == 1)  # on equal scores the second mover wins
    return margin + (WIN_BONUS if we_win else -WIN_BONUS)


def leaf_value(state):
    """Points so far, plus the sets each player can still lay in the turns it has left, less 3 a card left."""
    hands, unknown, _deck, points, remaining, mover, _first = state
    value = 0.0
    for p, sign in ((0, 1), (1, -1)):
        turns = (remaining + (1 if p == mover else 0)) // 2  # the mover has the odd turn
        set_points, left = hand_value(hands[p], unknown[p], turns)
        value += sign * (points[p] + LEAF_SET_WEIGHT * set_points - HAND_PENALTY * left)
    return value


def draws(state):
    """(state after the mover's draw and the turn's end, probability) for each type the deck may give."""
    hands, unknown, deck, points, remaining, mover, first = state
    total = sum(deck)
    if total == 0:
        unknown = list(unknown)
        unknown[mover] += 1
        return [((hands, tuple(unknown), deck, points, remaining - 1, 1 - mover, first), 1.0)]
    outcomes = []
    for t in range(4):
        if deck[t]:
            new_hands = [list(hands[0]), list(hands[1])]
            new_hands[mover][t] += 1
            new_deck = tuple(n - (i == t) for i, n in enumerate(deck))
            new_state = (tuple(new_hands[0]), tuple(new_hands[1]))
            outcomes.append(((new_state, unknown, new_deck, points, remaining - 1, 1 - mover, first), deck[t] / total))
    return outcomes


class OutOfBudget(Exception):
    pass


class Search:
    def __init__(self, stop_at, nodes):
        self.stop_at = stop_at
        self.nodes_left = nodes
        self.memo = {}
        self.exact = True  # every line reached the round's end

    def value(self, state, depth):
        """Expected final value for us: we maximise, the opponent minimises, draws are averaged."""
        key = (state, depth)
        if key in self.memo:
            return self.memo[key]
        self.nodes_left -= 1
        if self.nodes_left < 0 or (self.nodes_left % 64 == 0 and time.monotonic() > self.stop_at):
            raise OutOfBudget
        if depth == 0:
            self.exact = False
            result = leaf_value(state)
        else:
            values = [self.after_move(state, move, depth - 1) for move in legal_moves(state)]
            result = max(values) if state[5] == 0 else min(values)
        self.memo[key] = result
        return result

    def after_move(self, state, move, depth):
        moved = _moved(state, move)
        if _ended(moved):
            return final_value(moved)
        total = 0.0
        for after, probability in draws(moved):
            total += probability * (final_value(after) if _ended(after) else self.value(after, depth))
        return total


def best_move(state, stop_at, nodes=SEARCH_NODES):
    """Iterative deepening until the budget runs out or the search is exact; the deepest finished answer."""
    moves = legal_moves(state)
    if not moves:
        return None
    best = max(moves, key=lambda move: leaf_value(_moved(state, move)))  # a one-glance answer, for safety
    search = Search(stop_at, nodes)
    for depth in range(state[4] + 1):  # plies searched after the move at the root
        search.exact = True
        search.memo.clear()
        try:
            scored = [(search.after_move(state, move, depth), move) for move in moves]
        except OutOfBudget:
            break
        best = max(scored, key=lambda pair: pair[0])[1]
        if search.exact:  # every line reached the round's end: deeper cannot change the answer
            break
    return best


def _round_state(gamestate, my_hand, opp_hand):
    """The count-level state from what we have seen; also the round's types in the order of the counts."""
    global _round_key, _seen
    key = (gamestate.get("GameId"), gamestate.get("RemainingRounds"))
    if key != _round_key:
        _round_key, _seen = key, {}
    for card_id, url in my_hand + opp_hand:
        _seen[url] = card_id
    tally = {}
    for url in _seen:
        if LABELS.get(url):
            tally[LABELS[url]] = tally.get(LABELS[url], 0) + 1
    types = sorted(tally, key=lambda name: -tally[name])[:4]  # a round has 4 types; more means a misreading
    while len(types) < 4:
        types.append(f"?{len(types)}")  # a type we have not seen yet

    def counts(hand):
        c = [0, 0, 0, 0]
        unknown = 0
        for _card_id, url in hand:
            label = LABELS.get(url)
            if label in types:
                c[types.index(label)] += 1
            else:
                unknown += 1
        return tuple(c), unknown

    mine, my_unknown = counts(my_hand)
    theirs, their_unknown = counts(opp_hand)
    deck = [max(0, CARDS_PER_TYPE - tally.get(name, 0)) for name in types]
    in_deck = int(gamestate.get("CardsInDeck", sum(deck)))
    while sum(deck) > in_deck:  # unknown cards in view are of some type too: trim the fullest piles
        deck[deck.index(max(deck))] -= 1
    # Who moved first this round: the player to move has had as many turns as the other, or one more.
    turns = 20 - int(gamestate.get("RemainingMoves", 20))
    first = 0 if turns % 2 == 0 else 1
    points = (int(gamestate.get("MyPoints", 0)), int(gamestate.get("OppPoints", 0)))
    remaining = int(gamestate.get("RemainingMoves", 20))
    state = ((mine, theirs), (my_unknown, their_unknown), tuple(deck), points, remaining, 0, first)
    return state, types


def to_card_move(move, types, my_hand, opp_hand):
    def ids_of(hand, t):
        if t < 0:
            return [card_id for card_id, url in hand if LABELS.get(url) not in types]
        return [card_id for card_id, url in hand if LABELS.get(url) == types[t]]

    kind = move[0]
    if kind == "lay":
        ids = []
        for t, k in enumerate(move[1]):
            ids += ids_of(my_hand, t)[:k]
        return {"Lay": ids}
    if kind == "waste":  # two of one type and one of another: never a set, so the turn passes
        pair = next(t for t in range(4) if len(ids_of(my_hand, t)) >= 2)
        other = next(t for t in range(4) if t != pair and ids_of(my_hand, t))
        return {"Lay": ids_of(my_hand, pair)[:2] + ids_of(my_hand, other)[:1]}
    if kind == "take":
        return {"Take": ids_of(opp_hand, move[1])[0]}
    return {"Give": ids_of(my_hand, move[1])[0]}


def decide(gamestate, stop_at, nodes=SEARCH_NODES):
    """The move for `gamestate` given the labels in LABELS (no network): what calculate_move plays."""
    my_hand = [tuple(card) for card in gamestate["MyHand"]]
    opp_hand = [tuple(card) for card in gamestate["OppHand"]]
    state, types = _round_state(gamestate, my_hand, opp_hand)
    move = best_move(state, stop_at, nodes)
    if move is None:  # nothing to do by the counts (cannot happen with cards in hand): any legal move
        return {"Give": my_hand[0][0]} if my_hand else {"Take": opp_hand[0][0]}
    return to_card_move(move, types, my_hand, opp_hand)


def calculate_move(gamestate):
    catalog = gamestate.get("AllCardTypes") or []
    stop_at = stop_time(gamestate)
    search_seconds = min(SEARCH_SECONDS, max(0.05, stop_at - time.monotonic()) / 2)
    cards = [tuple(card) for card in gamestate["MyHand"] + gamestate["OppHand"]]
    label_cards(cards, catalog, stop_at - search_seconds)
    say_labels(cards)
    return decide(gamestate, time.monotonic() + search_seconds)
