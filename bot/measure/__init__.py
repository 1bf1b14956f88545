"""Measurements behind the figures of docs/, run as `rummy-vision measure NAME`.

Each module measures one thing and returns its figures as plain data; `record.write_result` keeps
them, with the command, commit, seeds, machine and load, in the top-level `measurements/` folder.
"""
