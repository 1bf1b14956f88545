import sys
from pathlib import Path

# Lets the core tests share their small random-play helpers without a package.
sys.path.insert(0, str(Path(__file__).parent))
