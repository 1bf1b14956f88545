"""The perfect-play margin table: its file format, the layer-by-layer build, and the `perfect` strategy."""

from strategies.table.disk.files import TableError
from strategies.table.margin.fileformat import MarginTable, default_table_path, load_table

__all__ = ["MarginTable", "TableError", "default_table_path", "load_table"]
