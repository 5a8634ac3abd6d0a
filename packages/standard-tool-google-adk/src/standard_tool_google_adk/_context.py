"""How the standard per-call ``context`` maps to Google ADK's ``ToolContext``.

ADK hands a tool a ``ToolContext`` (the call's id, the session with its state and user, the
invocation); nothing in it is the app's own per-call object. A standard tool run by ADK
receives, as its context, what ``context=`` of ``to_google_adk`` makes of the call's
``ToolContext`` (a function of it: ``lambda tc: {"actor": tc.user_id, **tc.state.to_dict()}``, say), by
default the value set with :func:`standard_context` around the run (a context variable,
which ADK's tool calls see), else ``None``. A guarded tool also gets the call's id
(``tool_context.function_call_id``) as ``context["request_id"]``, which its gate runs once.

An ADK tool run from the standard side (adopted with ``from_google_adk``) is called with a
real ``ToolContext`` made by :func:`tool_context`: its session (kept in an in-memory session
service of this module's, never listed there) holds a copy of a mapping context as its state,
its user is the context's ``"actor"`` (else ``"user"``), and its ``function_call_id`` is the
context's ``"request_id"`` (else a new ``adk-`` id); the standard context is also set with
:func:`standard_context` during the call. A ``ToolContext`` given as the standard context is
used as it is.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from google.adk.agents.invocation_context import InvocationContext
from google.adk.sessions import InMemorySessionService, Session
from google.adk.tools.tool_context import ToolContext

from standard_tool.adapters import AmbientContext

__all__ = [
    "APP_NAME",
    "ContextGetter",
    "context_from_adk",
    "current_context",
    "standard_context",
    "tool_context",
]

ContextGetter = Callable[[Any], Any]
"""Builds the standard context of a call from its ``ToolContext``."""
APP_NAME = "standard-tool"
"""The app name of the sessions made for adopted tools' calls."""

_AMBIENT = AmbientContext("standard_tool_google_adk_context")
current_context = _AMBIENT.get
"""The standard context set by the innermost :func:`standard_context` (else ``None``)."""
context_from_adk: ContextGetter = _AMBIENT.get
"""The default standard context of a call: the value of :func:`standard_context` around
the run (else ``None``), whatever its ``ToolContext``."""
standard_context = _AMBIENT.around
"""Give exported tools a value as their context inside the block (an agent run)."""


@functools.lru_cache(maxsize=1)
def _sessions() -> InMemorySessionService:
    return InMemorySessionService()


def tool_context(context: Any = None) -> ToolContext:
    """The ``ToolContext`` an ADK tool is called with for the standard ``context``."""
    if isinstance(context, ToolContext):
        return context
    state: dict[str, Any] = {}
    user, call_id = "user", None
    if isinstance(context, Mapping):
        state = dict(context)
        actor, call_id = context.get("actor"), context.get("request_id")
        if isinstance(actor, str) and actor:
            user = actor
    if not isinstance(call_id, str) or not call_id:
        call_id = f"adk-{uuid.uuid4()}"
    session = Session(id=f"s-{uuid.uuid4().hex}", app_name=APP_NAME, user_id=user, state=state)
    invocation = InvocationContext(
        session_service=_sessions(), invocation_id=f"e-{uuid.uuid4()}", session=session
    )
    return ToolContext(invocation, function_call_id=call_id)
