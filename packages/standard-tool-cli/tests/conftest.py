"""The helpers of ``script`` are importable by the test modules."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from script import run  # noqa: E402

__all__ = ["run"]
