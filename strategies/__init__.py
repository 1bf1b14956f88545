"""Strategies that choose Lay, Take or Give for a count-level state."""
