"""How the standard per-call ``context`` maps to LlamaIndex's workflow ``Context``.

LlamaIndex's per-call object is the workflow ``Context`` that an agent passes to a
``FunctionTool`` parameter typed as ``Context``. A standard tool run by LlamaIndex receives,
as its context, the value stored in that Context's store under :data:`CONTEXT_KEY` (``None``
when there is none, or outside an agent run). A LlamaIndex tool that takes a Context, run
from the standard side, receives the standard context itself when it is a workflow
``Context``, else a fresh ``Context`` whose store holds the standard context under
:data:`CONTEXT_KEY` and, for a mapping, each of its string keys.
"""

from __future__ import annotations

from . import _quiet  # noqa: F401  # isort: skip  (first: imports LlamaIndex quietly)
import functools
from collections.abc import Callable, Mapping
from typing import Any

from llama_index.core.workflow import Context, StartEvent, StopEvent, Workflow, step

__all__ = ["CONTEXT_KEY", "ContextGetter", "context_from_workflow", "workflow_context"]

CONTEXT_KEY = "standard_tool_context"
"""The key, in a workflow Context's store, of the standard context."""

ContextGetter = Callable[[Any], Any]
"""Builds the standard context from the workflow ``Context`` of a call (``None`` outside an
agent run); it may return an awaitable."""


async def _get(ctx: Any, key: str) -> Any:
    store = getattr(ctx, "store", None)  # llama-index-workflows; 0.12.38 has ctx.get
    if store is not None:
        return await store.get(key, default=None)
    return await ctx.get(key, default=None)


async def _set(ctx: Any, key: str, value: Any) -> None:
    store = getattr(ctx, "store", None)
    if store is not None:
        await store.set(key, value)
    else:
        await ctx.set(key, value)


async def context_from_workflow(ctx: Any) -> Any:
    """The standard context a workflow Context carries (``None`` when it carries none)."""
    if ctx is None:
        return None
    return await _get(ctx, CONTEXT_KEY)


class _Standalone(Workflow):
    """The workflow a Context made outside any run belongs to."""

    @step
    async def finish(self, ev: StartEvent) -> StopEvent:
        return StopEvent()


@functools.lru_cache(maxsize=1)
def _standalone() -> Workflow:
    return _Standalone()


async def workflow_context(context: Any) -> Any:
    """The workflow ``Context`` a LlamaIndex tool receives for a standard ``context``."""
    if isinstance(context, Context):
        return context
    ctx = Context(_standalone())
    if isinstance(context, Mapping):
        for key, value in context.items():
            if isinstance(key, str):
                await _set(ctx, key, value)
    if context is not None:
        await _set(ctx, CONTEXT_KEY, context)
    return ctx
