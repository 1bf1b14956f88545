"""The win objective: P(win) of every position at every banked difference a deal can reach, its file,
build, check and reader."""
