"""The bot side: the arena client, running a user's calculate_move, and the `rummy-vision` CLI."""
