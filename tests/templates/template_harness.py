"""Play one match with a bot file using nothing but the standard library and `requests`.

Run as `python -I -S template_harness.py REQUESTS_DIR BASE BOT_ID PASSWORD BOT_FILE STYLE`: -I -S leave
only the standard library on sys.path; REQUESTS_DIR holds requests and its dependencies and nothing
else. It talks to the referee the way an arena client does and prints one JSON line with the result.
"""

import importlib.util
import json
import sys
import time

requests_dir, base, bot_id, password, bot_file, style = sys.argv[1:7]
sys.path.append(requests_dir)
importable = []
for name in ("httpx", "rummy", "numpy", "fastapi", "bot", "recognizers", "strategies"):
    try:
        __import__(name)
        importable.append(name)
    except ImportError:
        pass
if importable:
    raise SystemExit(f"not an isolated interpreter: {importable} can be imported")

import requests  # noqa: E402

spec = importlib.util.spec_from_file_location("user_bot", bot_file)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)


def call(name, **fields):
    for _attempt in range(50):
        answer = requests.post(
            base + "GM-" + name, json={"BotId": bot_id, "BotPassword": password, **fields}, timeout=30
        ).json()
        if answer["Result"] != "CALL_ALREADY_IN_PROCESS":
            return answer
        time.sleep(0.05)
    raise SystemExit(f"{name} kept answering CALL_ALREADY_IN_PROCESS")


offer = call(
    "OfferGame",
    MaximumWaitTime=5000,
    GameStyleId=int(style),
    DontPlayAgainstSameUser=False,
    DontPlayAgainstSameBot=False,
    OpponentId="housebot-practise",
)
key = offer["PlayerKey"]
state = offer.get("GameState")
moves, refused, think = 0, 0, []
while state is None or state["GameStatus"] == "RUNNING":
    if state is None or not state["IsMover"]:
        state = call("PollForGameState", MaximumWaitTime=5000, PlayerKey=key).get("GameState") or state
        continue
    started = time.monotonic()
    move = module.calculate_move(state)
    think.append(time.monotonic() - started)
    answer = call("MakeMove", PlayerKey=key, Move=move)
    if answer["Result"] == "SUCCESS":
        moves += 1
    else:
        refused += 1
        if refused > 5:
            raise SystemExit(f"moves refused: {answer}")
    state = answer.get("GameState") or state
print(json.dumps({"status": state["GameStatus"], "moves": moves, "refused": refused, "max_think_s": max(think)}))
