"""Shared helpers: a Microsoft Agent Framework run driven by the package's scripted client."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from standard_tool_agent_framework._scripted import run_agent


@pytest.fixture
def agent() -> Callable[..., Any]:
    """``await agent(tools, replies, context=None, session=False)``: see :func:`run_agent`."""
    return run_agent
