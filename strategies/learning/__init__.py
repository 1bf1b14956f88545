"""The `learned` strategy: count-level features, the value model and its one-move look-ahead, and
exact values of fixed positions to measure it by. Training it is `strategies.training`.

Nothing is imported here on purpose: `import strategies` stays free of numpy.
"""
