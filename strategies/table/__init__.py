"""The perfect-play tables and the `perfect` strategy that reads them: one objective interface
(`objective.py`) over two implementations, the margin table (`margin/`) and the win table (`win/`), and what
both share on disk (`disk/`). The margin table's reader is re-exported here, as most callers want it."""

from strategies.table.disk.files import TableError
from strategies.table.margin.fileformat import MarginTable, default_table_path, load_table

__all__ = ["MarginTable", "TableError", "default_table_path", "load_table"]
