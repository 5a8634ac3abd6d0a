"""Shared by the cross-framework tests: ``runtimes`` is importable, and the source x target
table the every-path tests fill is printed at the end of the run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    runtimes = sys.modules.get("runtimes")
    if runtimes is None or not runtimes.RESULTS:
        return
    terminalreporter.write_sep(
        "=", "every path: source (rows; 'own API': written with it) x target (columns)"
    )
    for line in runtimes.table():
        terminalreporter.write_line(line)
