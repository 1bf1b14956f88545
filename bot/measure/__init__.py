"""Measurements of a user's own bots and recognizers, run as `rummy-vision measure NAME` (bot/cli/measure.py).

Each module measures one thing and returns its figures as plain data; `record.write_result` keeps them,
with the command, seeds, machine, load and what was measured, in `measurements/` under the current
directory unless told otherwise. The recipes behind this repository's own figures build on these from
tools/recipes/, which is not installed.
"""
