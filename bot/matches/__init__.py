"""Local matches and tournaments: in-process or over a private server, their statistics, ratings and records."""
