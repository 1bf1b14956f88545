"""What the margin and the win table share on disk: the error an unusable file raises, the first read of a
file, and the resumable layer-by-layer build."""
