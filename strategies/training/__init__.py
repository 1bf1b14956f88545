"""Training the `learned` strategy: the TD(lambda) self-play learner, its learning curve, and the
Gymnasium/PettingZoo environments. These look opponents up by name in the registry, so they sit
above it; what `learned` needs to play lives in `strategies.learning`.

Nothing is imported here on purpose: the environments load gymnasium/pettingzoo only when their
modules are imported.
"""
