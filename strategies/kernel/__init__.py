"""The compiled count-level kernel (numba): canonical index, move generator, transitions, layer passes
and on-demand exact solving.

Importing this package points numba's on-disk cache at the user cache directory before numba is
imported, so compiled code survives between runs (the first run compiles, later ones load).
"""

from strategies.kernel.jit import configure_cache

configure_cache()

from strategies.kernel.tables import KernelTables, KernelUnsupported, check_supported, kernel_tables  # noqa: E402

__all__ = ["KernelTables", "KernelUnsupported", "check_supported", "kernel_tables"]
