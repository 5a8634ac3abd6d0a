"""How the standard per-call ``context`` reaches a tool run by smolagents.

smolagents calls a tool with its arguments only: there is no per-call object. A standard tool
exported to smolagents receives, as its context, what ``context=`` of ``to_smolagents`` gives
(a function called at each call), else the value set with :func:`standard_context` around
the agent run (a context variable, which smolagents' worker threads for parallel tool calls
copy), else ``None``. An adopted smolagents tool ignores the standard context.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["ContextGetter", "current_context", "standard_context"]

ContextGetter = Callable[[], Any]
"""Gives the standard context of a call (called at each call)."""

_CONTEXT: ContextVar[Any] = ContextVar("standard_tool_smolagents_context", default=None)


def current_context() -> Any:
    """The standard context set by the innermost :func:`standard_context` (else ``None``)."""
    return _CONTEXT.get()


@contextmanager
def standard_context(value: Any) -> Iterator[None]:
    """Give exported tools ``value`` as their context inside the block (an agent run)."""
    token = _CONTEXT.set(value)
    try:
        yield
    finally:
        _CONTEXT.reset(token)
