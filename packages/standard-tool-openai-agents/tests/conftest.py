"""Shared helpers: an Agents SDK run driven by the package's scripted model; no tracing."""

from __future__ import annotations

import os

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")

from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

from standard_tool_openai_agents._scripted import run_agent  # noqa: E402


@pytest.fixture
def agent() -> Callable[..., Any]:
    """``await agent(tools, replies, context=None)``: see :func:`run_agent`."""
    return run_agent


__all__ = ["agent"]
