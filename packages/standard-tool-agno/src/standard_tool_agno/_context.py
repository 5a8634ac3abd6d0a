"""How the standard per-call ``context`` maps to Agno's ``RunContext``, and what the model
sent for a call.

An Agno run hands a tool its ``RunContext`` (the run and session ids, the user id, the
run's ``dependencies``, ``metadata`` and ``session_state``). A standard tool run by Agno
receives, as its context, what ``context=`` of ``to_agno`` makes of the call's
``RunContext``; by default the run's ``dependencies``
(``agent.run(..., dependencies={"actor": "alice"})``) as a ``dict``, else ``None``. A guarded
tool also gets the model's call id as ``context["request_id"]``.

An Agno function adopted as a standard tool that takes a ``RunContext`` (``run_context``)
receives one whose ``dependencies`` are the standard context's items (a mapping), or
``{"context": context}`` (any other value), or none.

Agno rewrites a call's top-level string arguments before any tool sees them (``"none"``
and ``"null"`` become ``None``, ``"true"`` and ``"false"`` become booleans, whatever
their case and surrounding spaces). :func:`sent_arguments` reads back what the model sent
from the run's messages, where the model's call is kept as it came.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from agno.run import RunContext

__all__ = ["ContextGetter", "context_from_run", "run_context", "sent_arguments"]

ContextGetter = Callable[[Any], Any]
"""Builds the standard context from a call's ``RunContext`` (``None`` outside a run)."""


def context_from_run(run_context: Any) -> Any:
    """The standard context of a call: the run's ``dependencies`` (a copy), else ``None``."""
    dependencies = getattr(run_context, "dependencies", None)
    return dict(dependencies) if isinstance(dependencies, Mapping) else None


def run_context(context: Any, messages: Any = None) -> RunContext:
    """The ``RunContext`` an Agno function is called with for the standard ``context`` (one
    given as such is used as it is)."""
    if isinstance(context, RunContext):
        return context
    if context is None:
        dependencies: dict[str, Any] | None = None
    elif isinstance(context, Mapping):
        dependencies = dict(context)
    else:
        dependencies = {"context": context}
    made = RunContext(
        run_id=f"run-{uuid.uuid4().hex}",
        session_id=f"session-{uuid.uuid4().hex}",
        dependencies=dependencies,
    )
    made.messages = messages
    return made


def _rewritten(value: Any) -> Any:
    """A top-level argument as Agno rewrites it before a tool sees it."""
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("none", "null"):
            return None
        if word in ("true", "false"):
            return word == "true"
    return value


def sent_arguments(messages: Any, call_id: Any, name: str, given: Mapping[str, Any]) -> Any:
    """The arguments the model sent for the call ``call_id`` of ``name``, read from the
    latest assistant message that holds that call, when they are what Agno made ``given``
    from (Agno rewrote some strings, or dropped a key it keeps for itself); else ``given``
    (no such message, or a call whose arguments a hook changed since)."""
    if not isinstance(call_id, str) or not isinstance(messages, list):
        return dict(given)
    for message in reversed(messages):
        calls = getattr(message, "tool_calls", None) if message.role == "assistant" else None
        found = [
            call.get("function") or {}
            for call in calls or []
            if isinstance(call, Mapping) and call.get("id") == call_id
        ]
        found = [call for call in found if call.get("name") == name]
        if not found:
            continue
        texts = {call.get("arguments") or "{}" for call in found}
        if len(texts) != 1:  # one id, several calls: which is which cannot be told
            return dict(given)
        try:
            sent = json.loads(texts.pop())
        except (TypeError, ValueError):
            return dict(given)
        if isinstance(sent, dict) and all(
            key in sent and _rewritten(sent[key]) == value for key, value in given.items()
        ):
            return sent
        return dict(given)
    return dict(given)
