"""The margin objective: the expected final margin of every position, its file, build, check and reader."""
