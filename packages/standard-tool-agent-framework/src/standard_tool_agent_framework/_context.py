"""How the standard per-call ``context`` maps to Microsoft Agent Framework's
``FunctionInvocationContext``.

A run hands a tool's call a ``FunctionInvocationContext``; its ``kwargs`` are the run's
``function_invocation_kwargs`` (``agent.run(..., function_invocation_kwargs={...})``), to which
the run adds its ``session``. A standard tool run by the framework receives, as its context,
those keyword arguments as a ``dict`` without the ``session`` (or what
``to_agent_framework(..., context=...)`` builds from the ``FunctionInvocationContext``); a
guarded tool also gets the model's call id as ``context["request_id"]``. A framework tool
adopted as a standard tool that takes a ``FunctionInvocationContext`` receives one whose
``kwargs`` are the standard context's items (a mapping), ``{"context": context}`` (any other
value), or empty (none).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from agent_framework import FunctionInvocationContext, FunctionTool

__all__ = ["ContextGetter", "context_from_run", "invocation_context"]

ContextGetter = Callable[[Any], Any]
"""Builds the standard context from a call's ``FunctionInvocationContext`` (``None`` when the
tool is invoked outside a run, with no context)."""

SESSION = "session"
"""The keyword argument a run adds to every call's ``kwargs``: its ``AgentSession``."""


def context_from_run(ctx: Any) -> Any:
    """The standard context of a call: the run's ``function_invocation_kwargs`` (``ctx.kwargs``
    without the run's ``session``), ``None`` outside a run."""
    kwargs = getattr(ctx, "kwargs", None)
    if not isinstance(kwargs, Mapping):
        return None
    return {key: value for key, value in kwargs.items() if key != SESSION}


def invocation_context(tool: FunctionTool, arguments: Any, context: Any) -> Any:
    """The ``FunctionInvocationContext`` a framework tool is invoked with for a standard
    ``context`` (one given as such is used as it is)."""
    if isinstance(context, FunctionInvocationContext):
        return context
    if context is None:
        kwargs: dict[str, Any] = {}
    elif isinstance(context, Mapping):
        kwargs = dict(context)
    else:
        kwargs = {"context": context}
    return FunctionInvocationContext(function=tool, arguments=dict(arguments), kwargs=kwargs)
