"""What plays a seat: a user's bot file or a named strategy, behind one `MatchBot` interface."""
