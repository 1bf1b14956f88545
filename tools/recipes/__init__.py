"""The recipes behind this project's own figures: `python tools/measure.py NAME` (tools/recipes/app.py).

Each module measures one thing of this repository (the referee's throughput, the tables' timings, the
starter templates, ...) and returns its figures as plain data; `record.write_result` keeps them, with the
command, the repository's commit, seeds, machine and load, in the repository's `measurements/` folder,
where the docs cite them. What a user measures about their own bots stays in the product
(`rummy-vision measure`, bot/measure/), which these import; the product never imports them.
"""
