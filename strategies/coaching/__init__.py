"""What a person playing the bots needs, shared by the /play page and the terminal: checking a
selection of cards before it is sent, the coach's ranked moves in words, and the game review."""
