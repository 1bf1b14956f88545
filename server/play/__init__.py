"""The /play page: a person plays the house bots and characters through the referee, with a coach."""
