# Rummy Vision starter bot: random legal moves, no API keys (like the arena editor's first template).
#
# The arena (or `rummy-vision play --bot THIS_FILE.py` locally) calls calculate_move(gamestate) on
# every turn of this bot; module globals live for the whole match. Python standard library only.
import random

moves_played = 0  # an example of match-long state


def calculate_move(gamestate):
    global moves_played
    moves_played += 1

    my_cards = [card[0] for card in gamestate["MyHand"]]
    opp_cards = [card[0] for card in gamestate["OppHand"]]

    options = []
    if my_cards:
        options.append("Give")
    if opp_cards:
        options.append("Take")
    if len(my_cards) >= 3:
        options.append("Lay")

    choice = random.choice(options)
    if choice == "Give":
        return {"Give": random.choice(my_cards)}
    if choice == "Take":
        return {"Take": random.choice(opp_cards)}
    # Three to five random cards: a set scores, anything else wastes the turn (still a legal move).
    size = random.randint(3, min(5, len(my_cards)))
    return {"Lay": random.sample(my_cards, size)}
