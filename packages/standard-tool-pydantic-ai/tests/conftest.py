"""The helpers of ``agent_runs`` are importable by the test modules."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def _no_leftover_typed_errors() -> None:
    """Each test starts outside any standard caller's run of an exported tool."""
    from standard_tool_pydantic_ai._export import TYPED_ERRORS

    assert TYPED_ERRORS.get() is False
