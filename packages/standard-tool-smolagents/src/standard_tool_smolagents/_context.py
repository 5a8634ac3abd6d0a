"""How the standard per-call ``context`` reaches a tool run by smolagents.

smolagents calls a tool with its arguments only: there is no per-call object. A standard tool
exported to smolagents receives, as its context, what ``context=`` of ``to_smolagents`` gives
(a function called at each call), else the value set with :func:`standard_context` around
the agent run (a context variable, which smolagents' worker threads for parallel tool calls
copy), else ``None``. An adopted smolagents tool ignores the standard context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from standard_tool.adapters import AmbientContext

__all__ = ["ContextGetter", "current_context", "standard_context"]

ContextGetter = Callable[[], Any]
"""Gives the standard context of a call (called at each call)."""

_AMBIENT = AmbientContext("standard_tool_smolagents_context")
current_context = _AMBIENT.get
"""The standard context set by the innermost :func:`standard_context` (else ``None``)."""
standard_context = _AMBIENT.around
"""Give exported tools a value as their context inside the block (an agent run)."""
