"""How the standard per-call ``context`` and a guarded tool's request id reach a tool in a
Haystack run.

Haystack hands a tool no per-call object of its own (a parameter annotated ``State`` is filled
with the run's ``State``, at a cost on every call). A standard tool run by Haystack receives,
as its context, the value set with :func:`standard_context` around the run (a context
variable, which the Agent's tool threads and tasks copy), else ``None``.

A guarded tool's request id is the model's id of the call. Haystack gives a tool no call id,
so an exported guarded tool (only a guarded one) takes the run's ``State`` and finds its call
among the pending calls of the state's last message, by tool name and arguments
(:func:`call_id_of`). Identical calls in one turn (the same tool, the same arguments) take
their ids in turn, each id once: they are one and the same call, so which of them runs under
which id changes nothing. A call found nowhere (a tool invoked outside a run) has no request
id of the model's, and its gate makes one of its own.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping
from typing import Any

from standard_tool.adapters import AmbientContext

__all__ = ["call_id_of", "current_context", "standard_context"]

_AMBIENT = AmbientContext("standard_tool_haystack_context")
current_context = _AMBIENT.get
"""The standard context set by the innermost :func:`standard_context` (else ``None``)."""
standard_context = _AMBIENT.around
"""Give exported tools a value as their context inside the block (an Agent run)."""

_TAKEN: weakref.WeakKeyDictionary[Any, tuple[int, set[str]]] = weakref.WeakKeyDictionary()
"""Per run's ``State``: the pending message last looked in (its ``id``) and the ids of
identical calls taken from it."""
_LOCK = threading.Lock()


def call_id_of(state: Any, name: str, arguments: Mapping[str, Any]) -> str | None:
    """The id of the model's call of tool ``name`` with ``arguments`` among the pending calls
    of the run's ``state`` (its last message), else ``None``."""
    data = getattr(state, "data", None)
    messages = data.get("messages") if isinstance(data, dict) else None
    last = messages[-1] if isinstance(messages, list) and messages else None
    pending = getattr(last, "tool_calls", None)
    if not pending:
        return None
    ids: list[str] = [
        call.id
        for call in pending
        if call.tool_name == name and isinstance(call.id, str) and call.arguments == arguments
    ]
    if len(ids) < 2:
        return ids[0] if ids else None
    with _LOCK:
        marker, taken = _TAKEN.get(state, (0, set()))
        if marker != id(last):
            taken = set()
            _TAKEN[state] = (id(last), taken)
        for call_id in ids:
            if call_id not in taken:
                taken.add(call_id)
                return call_id
    return None
