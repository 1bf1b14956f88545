import sys
from pathlib import Path

# Shared helpers for these tests live next to them (no package).
sys.path.insert(0, str(Path(__file__).parent))
