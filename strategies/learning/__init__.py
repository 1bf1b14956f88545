"""Learning by self-play: count-level features, a TD(lambda) value learner, the `learned` strategy,
and Gymnasium/PettingZoo environments.

Nothing is imported here on purpose: `import strategies` stays free of numpy and gymnasium, and the
environments load gymnasium/pettingzoo only when their modules are imported.
"""
