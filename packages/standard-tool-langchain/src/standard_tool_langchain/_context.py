"""How the standard per-call ``context`` maps to LangChain's ``RunnableConfig``.

A standard tool running inside LangChain receives, as its context, the LangGraph runtime
context of the run when one was given (``graph.invoke(..., context=...)``), else
``config["configurable"]`` without LangGraph's bookkeeping keys (``None`` when nothing is
left). A LangChain tool run from the standard side receives a mapping context as
``configurable``; any other context value is passed as ``configurable["context"]``.

A model's tool call (``invoke(ToolCall)``, as agents and LangGraph's ``ToolNode`` run it) gives
a guarded tool its id as ``request_id``, unless the app put one there: the id the tool's gate
runs the call under, so that the same call id runs it once. A mapping context (or ``None``)
gets the key; a typed one (a dataclass or pydantic ``context_schema``) gets it in a copy when
it declares a ``request_id`` field that is ``None``, and its ``actor`` and ``tenant``
attributes are what the gate reads as the caller (``standard_tool.boundary.with_request_id``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["ContextGetter", "config_for", "context_from_config"]

ContextGetter = Callable[[Mapping[str, Any] | None], Any]
"""Builds the standard context from a LangChain ``RunnableConfig`` (``None`` outside a run)."""

_RUNTIME = "__pregel_runtime"
_BOOKKEEPING = frozenset({"checkpoint_id", "checkpoint_map", "checkpoint_ns"})


def _is_bookkeeping(key: Any) -> bool:
    return isinstance(key, str) and (key.startswith("__pregel_") or key in _BOOKKEEPING)


def context_from_config(config: Mapping[str, Any] | None) -> Any:
    """The standard context for a run: LangGraph's runtime context, or ``configurable``."""
    if not config:
        return None
    configurable = config.get("configurable")
    if not configurable:
        return None
    runtime_context = getattr(configurable.get(_RUNTIME), "context", None)
    if runtime_context is not None:
        return runtime_context
    if any(_is_bookkeeping(key) for key in configurable):
        configurable = {k: v for k, v in configurable.items() if not _is_bookkeeping(k)}
    return dict(configurable) or None


def config_for(context: Any) -> dict[str, Any] | None:
    """The ``RunnableConfig`` that carries a standard context into a LangChain tool."""
    if context is None:
        return None
    if isinstance(context, Mapping):
        return {"configurable": dict(context)}
    return {"configurable": {"context": context}}
