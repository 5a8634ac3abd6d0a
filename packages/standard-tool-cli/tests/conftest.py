"""This folder is on ``sys.path``: its helpers (``script``, ``file_store``) import by name."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from script import run  # noqa: E402

__all__ = ["run"]
