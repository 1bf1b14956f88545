# Rummy Vision starter bot: an Azure Custom Vision classifier names the landmark on each card; a greedy player.
#
# Runs unchanged in the arena's editor (Python standard library + requests) and locally with
# `rummy-vision play --bot THIS_FILE.py`. The arena calls calculate_move(gamestate) on every turn;
# module globals (the label cache, the rate limiter) live for the whole match.
#
# Train a classifier with one tag per landmark (tags named like the landmarks, e.g. "trevi fountain";
# `rummy-vision recognizers train-customvision DIR` or the portal: Classification, Multiclass), publish it, and
# paste its prediction URL for image URLs (".../classify/iterations/NAME/url") and prediction key
# below, or set the environment variables locally. Never share a file with your key in it.
import ipaddress
import os
import time
import unicodedata
from collections import deque
from concurrent.futures import ThreadPoolExecutor, wait
from urllib.parse import urlsplit

import requests

PREDICTION_URL = os.environ.get(
    "CUSTOM_VISION_PREDICTION_URL",
    "https://YOUR-RESOURCE.cognitiveservices.azure.com/customvision/v3.0/Prediction/PROJECT-ID/classify/iterations/ITERATION-NAME/url",
)
PREDICTION_KEY = os.environ.get("CUSTOM_VISION_PREDICTION_KEY", "PASTE-YOUR-PREDICTION-KEY-HERE")
THRESHOLD = float(os.environ.get("CUSTOM_VISION_THRESHOLD", "0.5"))  # the top tag's least probability
# Free (F0) prediction keys allow about 2 calls a second; S0 keys 10 a second. Set what your key allows.
CALLS_PER_PERIOD = int(os.environ.get("CUSTOM_VISION_CALLS_PER_PERIOD", "2"))
PERIOD_SECONDS = float(os.environ.get("CUSTOM_VISION_PERIOD_SECONDS", "1"))
SAFETY_SECONDS = 1.0  # answer at least this long before the move's ResponseDeadline
MAX_THINK_SECONDS = 4.0  # never spend longer than this on one move, whatever the deadline
PARALLEL_CALLS = 8

# Other names a tag may carry (a classifier's tags may be named in any language).
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

LABELS = {}  # picture URL -> landmark (a catalog name) or None when no tag reached THRESHOLD
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


def key_is_set():
    return PREDICTION_KEY and not PREDICTION_KEY.startswith("PASTE-") and "YOUR-RESOURCE" not in PREDICTION_URL


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


def image_url(prediction_url):
    """The prediction URL for image bytes beside the one for URLs: `.../url` -> `.../image`."""
    base, _, query = prediction_url.partition("?")
    base = base.rstrip("/")
    base = base[: -len("/url")] + "/image" if base.lower().endswith("/url") else base + "/image"
    return base + ("?" + query if query else "")


def analyze(url, catalog, timeout):
    """Ask the classifier which landmark the picture at `url` shows; store the answer in LABELS."""
    try:
        body = picture_body(url, PREDICTION_URL, "Url", timeout)
        target = PREDICTION_URL if "json" in body else image_url(PREDICTION_URL)
        headers = {"Prediction-Key": PREDICTION_KEY, **body.pop("headers", {})}
        response = requests.post(target, headers=headers, timeout=timeout, **body)
        if response.status_code != 200:
            FAILED_AT[url] = time.monotonic()
            return
        predictions = sorted(response.json().get("predictions", []), key=lambda p: -p.get("probability", 0))
        top = predictions[0] if predictions else {}
        sure = top.get("probability", 0) >= THRESHOLD
        LABELS[url] = to_catalog(top.get("tagName", ""), catalog) if sure else None
    except (requests.RequestException, ValueError):
        FAILED_AT[url] = time.monotonic()
    finally:
        _pending.pop(url, None)


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


# ---- begin shared block: greedy player (the same in every starter template that has it) ----
SET_POINTS = {("same", 3): 20, ("same", 4): 30, ("same", 5): 50, ("diff", 3): 25, ("diff", 4): 35}


def best_set(hand_by_type):
    """The highest-scoring set among labelled cards: (points, card ids) or (0, [])."""
    best = (0, [])
    for ids in hand_by_type.values():
        for size in (3, 4, 5):
            if len(ids) >= size and SET_POINTS[("same", size)] > best[0]:
                best = (SET_POINTS[("same", size)], ids[:size])
    kinds = [ids[0] for ids in hand_by_type.values() if ids]
    for size in (3, 4):
        if len(kinds) >= size and SET_POINTS[("diff", size)] > best[0]:
            best = (SET_POINTS[("diff", size)], kinds[:size])
    return best


def calculate_move(gamestate):
    catalog = gamestate.get("AllCardTypes") or []
    my_hand = [tuple(card) for card in gamestate["MyHand"]]
    opp_hand = [tuple(card) for card in gamestate["OppHand"]]
    label_cards(my_hand + opp_hand, catalog, stop_time(gamestate))
    say_labels(my_hand + opp_hand)

    mine = {}
    for card_id, url in my_hand:
        if LABELS.get(url):
            mine.setdefault(LABELS[url], []).append(card_id)
    points, ids = best_set(mine)
    if points:
        return {"Lay": ids}
    if opp_hand:
        # Take the card of the type we hold most; an unknown card counts as a type we hold none of.
        def want(card):
            return len(mine.get(LABELS.get(card[1]), [])) if LABELS.get(card[1]) else -1

        return {"Take": max(opp_hand, key=want)[0]}

    # The opponent has no cards (the round is over after this move anyway): give our rarest type,
    # or an unknown card (unknown cards are still played).
    def rarity(card):
        label = LABELS.get(card[1])
        return len(mine.get(label, [])) if label else 0

    return {"Give": min(my_hand, key=rarity)[0]}


# ---- end shared block: greedy player ----
