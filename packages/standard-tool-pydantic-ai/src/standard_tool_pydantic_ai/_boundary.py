"""What a guarded tool (``standard_tool.boundary``) takes from a PydanticAI run: the tool
call's id as the request id, the run's context for visibility, and PydanticAI's own
human-in-the-loop (deferred tools) for a held call."""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.exceptions import ApprovalRequired
from pydantic_ai.tools import DeferredToolRequests

from standard_tool.adapters import METADATA_KEY
from standard_tool.boundary import GuardedTool
from standard_tool.exceptions import ToolRefusedError

__all__ = ["deferral"]

_DEPTH = 32
"""Wrappers looked through for a guarded tool, and output specs looked into."""


def deferral(
    refusal: ToolRefusedError, guarded: GuardedTool | None, ctx: RunContext[Any]
) -> ApprovalRequired | None:
    """PydanticAI's ``ApprovalRequired`` for a call the gate of ``guarded`` held itself with
    ``refusal``, when this run can end with ``DeferredToolRequests`` (the agent's
    ``output_type`` includes it); its metadata holds the refusal's payload and the call's
    approval request, whole (``metadata["standard_tool"]``). A ``held_for_review`` refusal the
    gate did not make (one a tool inside raised, or read from a remote server) is never put to
    a person: it is reported as the refusal it is.

    A call PydanticAI resumed as approved is deferred again when its gate holds it anew: other
    arguments than the ones held (``override_args``), or an approval that lapsed (PydanticAI
    ends the run with ``DeferredToolRequests`` again, the call's metadata holding the new
    approval request)."""
    if refusal.approval is None or guarded is None:
        return None
    if not _defers(getattr(getattr(ctx, "agent", None), "output_type", None), _DEPTH):
        return None
    try:
        held = guarded.gate.held(refusal)
    except Exception:  # the gate's store failed: nothing to put to a person
        return None
    if held is None:
        return None
    return ApprovalRequired(
        metadata={METADATA_KEY: {**refusal.payload, "approval": held.request()}}
    )


def _defers(spec: Any, depth: int) -> bool:
    """Whether the output spec ``spec`` names ``DeferredToolRequests`` (in a list or union,
    or wrapped in an output marker such as ``ToolOutput``)."""
    if depth <= 0 or spec is None:
        return False
    if spec is DeferredToolRequests:
        return True
    if isinstance(spec, (list, tuple, set, frozenset)):
        return any(_defers(item, depth - 1) for item in spec)
    if typing.get_origin(spec) in (typing.Union, types.UnionType):
        return any(_defers(item, depth - 1) for item in typing.get_args(spec))
    inner = getattr(spec, "outputs", None) or getattr(spec, "output_type", None)
    return inner is not None and inner is not spec and _defers(inner, depth - 1)
