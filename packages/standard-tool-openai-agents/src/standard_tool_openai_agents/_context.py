"""How the standard per-call ``context`` maps to the Agents SDK's ``ToolContext``.

The SDK hands a function tool a ``ToolContext``: the run's own context object (what the app
passed as ``Runner.run(..., context=...)``), the call's id and the tool's name. A standard tool
run by the SDK receives, as its context, the run's context object (``ctx.context``); a guarded
tool also gets the call's id as ``context["request_id"]`` (when the context is a mapping, or
none, without one), which its gate runs once. An Agents SDK tool run from the standard side
receives a ``ToolContext`` whose ``context`` is the standard context (a ``RunContextWrapper``
given as the standard context is unwrapped), with ``context["request_id"]`` as its call id
when the standard context has one.
"""

from __future__ import annotations

import dataclasses
import functools
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from agents import RunContextWrapper
from agents.tool_context import ToolContext

__all__ = ["ContextGetter", "context_from_run", "tool_context"]

ContextGetter = Callable[[Any], Any]
"""Builds the standard context from the ``ToolContext`` of a call (``None`` outside a run);
where the SDK asks before the call (``needs_approval``, a rejection, ``is_enabled``), from the
run's ``RunContextWrapper``."""


def context_from_run(ctx: Any) -> Any:
    """The standard context for a call: the run's own context object (``ctx.context``)."""
    return getattr(ctx, "context", None)


@functools.lru_cache(maxsize=1)
def _takes_arguments() -> bool:
    """Whether ``ToolContext`` has ``tool_arguments`` (0.2.x has not)."""
    return any(f.name == "tool_arguments" for f in dataclasses.fields(ToolContext))


def tool_context(context: Any, *, name: str, arguments: str) -> ToolContext[Any]:
    """The ``ToolContext`` an Agents SDK tool is called with for a standard ``context``."""
    if isinstance(context, ToolContext):
        return context
    call_id = None
    if isinstance(context, RunContextWrapper):
        context = context.context
    if isinstance(context, Mapping):
        call_id = context.get("request_id")
    if not isinstance(call_id, str) or not call_id:
        call_id = f"call_{uuid.uuid4().hex}"
    fields: dict[str, Any] = {"tool_name": name, "tool_call_id": call_id}
    if _takes_arguments():
        fields["tool_arguments"] = arguments
    return ToolContext(context=context, **fields)
