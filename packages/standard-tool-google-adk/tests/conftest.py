"""ADK 2.0 warns when an experimental feature it uses is on (JSON Schema declarations, tool
confirmation); later releases made them stable. Those warnings are ADK's, not errors here."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent
EXPERIMENTAL = pytest.mark.filterwarnings(r"ignore:\[EXPERIMENTAL\]:UserWarning")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(EXPERIMENTAL)
