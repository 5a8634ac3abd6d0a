"""Shared by the cross-framework tests: ``runtimes`` is importable, and the source x target
table the every-path tests fill is printed at the end of the run. ``real_tools/`` is left out
of a run of this folder: its corpus needs the packages the ``real-tools`` session installs, and
runs when named (``pytest integration_tests/real_tools``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
collect_ignore = ["real_tools"]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    runtimes = sys.modules.get("runtimes")
    if runtimes is None or not runtimes.RESULTS:
        return
    terminalreporter.write_sep(
        "=", "every path: source (rows; 'own API': written with it) x target (columns)"
    )
    for line in runtimes.table():
        terminalreporter.write_line(line)
