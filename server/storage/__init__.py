"""The referee's records file (SQLite): accounts, stakes, matches with their rounds and moves, runs,
tournaments, ratings and the viewer's replay files, all in one file with one versioned schema.

`records` opens the file (`connect`, `Records`), `schema` numbers its versions and upgrades older files,
`runs` groups recorded matches for the viewer and `recorded_games` is the read side that the bot's
commands (replay, review, measurements) use.
"""
