"""A person's decision in PydanticAI's deferred tools, recorded in the gate of a guarded tool.

PydanticAI carries the question (``DeferredToolRequests``) and the answer
(``DeferredToolResults``); the gate decides, and keeps the decision with its approver, bound to
the call's digest, used once:

- approved (``True``, ``ToolApproved()``): PydanticAI calls the tool again with
  ``ctx.tool_call_approved``; the call's approval is recorded (:meth:`Gate.answer`), then the
  call goes through the gate, which runs it once (a second resume is answered by its receipt);
- approved with other arguments (``ToolApproved(override_args=...)``): another call. The
  arguments held are recorded as rejected, and the new ones go through the gate under a request
  id of their own (the call's, ``+``, a digest of the new arguments), where they are held for
  their own approval: the run ends with ``DeferredToolRequests`` again;
- denied (``False``, ``ToolDenied(message)``): PydanticAI never calls the tool, and answers the
  model with the denial. The exported tool finds that answer at the next step (its
  ``prepare_tool_def`` reads the run's last request) and records the rejection, with the
  denial's message as its reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pydantic_core
from pydantic_ai import RunContext
from pydantic_ai.messages import ModelRequest, ModelResponse

from standard_tool.boundary import (
    Approver,
    GuardedTool,
    call_digest,
    request_id_of,
    with_request_id,
)
from standard_tool.exceptions import UsageError

__all__ = ["approved_context", "check_expires_in", "record_denials"]

REPLACED = "Approved with other arguments, held for their own review under request id {}."
"""The reason recorded for held arguments a person replaced (``ToolApproved(override_args=)``)."""
_MISSING: Any = object()
_DIGITS = 16
"""Hex digits of the new arguments' digest in the request id of changed arguments."""


def check_expires_in(expires_in: Any) -> float | None:
    """``approval_expires_in`` as an export takes it: ``None`` or a positive number of seconds."""
    if expires_in is None:
        return None
    if type(expires_in) not in (int, float) or not 0 < expires_in < float("inf"):
        raise UsageError(f"approval_expires_in is a positive number of seconds, not {expires_in!r}")
    return float(expires_in)


def approved_context(
    guarded: GuardedTool,
    arguments: Any,
    context: Any,
    ctx: RunContext[Any],
    approver: Approver | None,
    expires_in: float | None,
) -> Any:
    """Record in the gate the approval PydanticAI carried for this call (``ctx.tool_call_approved``)
    and give the context the call then goes through the gate with.

    The arguments the call was held with are the ones in the run's messages: the same arguments
    are approved under the call's request id; other ones (``override_args``) make another call,
    whose request id is derived from the call's and the new arguments' digest, and the ones held
    are recorded as rejected. Where the run's messages do not hold the call, the approval is
    recorded only for arguments bound to the call's approval request (the gate's digest), and
    other ones are refused by the gate as another call under its request id.

    A decision to record with no ``approver`` named, an approver who is the call's own actor
    (unless the gate allows it), or a context with no request id, is a ``UsageError``, raised
    out of ``agent.run``."""
    gate = guarded.gate
    request_id = request_id_of(context)
    held = _called_with(ctx.messages, ctx.tool_call_id)
    if request_id is not None and held is not _MISSING and not _same(guarded.name, held, arguments):
        derived = _derived(guarded.name, request_id, arguments)
        gate.answer(
            guarded,
            held,
            context,
            approved=False,
            approver=approver,
            reason=REPLACED.format(derived),
        )
        moved = with_request_id(guarded, context, derived, replace=True)
        if request_id_of(moved) != derived:  # it cannot carry another: the gate refuses it
            return context
        context = moved
    gate.answer(
        guarded, arguments, context, approved=True, approver=approver, expires_in=expires_in
    )
    return context


def record_denials(
    guarded: GuardedTool,
    ctx: RunContext[Any],
    get_context: Callable[[RunContext[Any]], Any],
    approver: Approver | None,
) -> None:
    """Record in the gate each denial PydanticAI answered the model with in the run's last
    request (``outcome="denied"``): the rejection of the call's approval request, when it is
    this gate's and bound to exactly that call, with the denial's message as its reason. A
    decision made already is left as it is (a second resume records nothing)."""
    messages = ctx.messages
    if not messages or not isinstance(messages[-1], ModelRequest):
        return
    for part in messages[-1].parts:
        if part.part_kind != "tool-return" or getattr(part, "outcome", None) != "denied":
            continue
        call_id = part.tool_call_id
        arguments = _called_with(messages, call_id)
        if arguments is _MISSING:
            continue
        call_ctx = dataclasses.replace(ctx, tool_call_id=call_id, tool_name=part.tool_name)
        context = with_request_id(guarded, get_context(call_ctx), call_id)
        if request_id_of(context) is None:  # no request id: the call was never held under it
            continue
        reason = part.content if isinstance(part.content, str) else ""
        gate = guarded.gate
        gate.answer(guarded, arguments, context, approved=False, approver=approver, reason=reason)


def _called_with(messages: list[Any], call_id: str | None) -> Any:
    """The arguments of the tool call ``call_id`` in ``messages`` (the latest response first),
    as JSON data; ``_MISSING`` when it is not there or its arguments are not a JSON object."""
    if call_id is None:
        return _MISSING
    for message in reversed(messages):
        if not isinstance(message, ModelResponse):
            continue
        for part in message.parts:
            if part.part_kind == "tool-call" and part.tool_call_id == call_id:
                args = part.args
                try:
                    value = pydantic_core.from_json(args or "{}") if isinstance(args, str) else args
                except ValueError:
                    return _MISSING
                return value if isinstance(value, dict) else _MISSING
    return _MISSING


def _same(name: str, held: Any, arguments: Any) -> bool:
    """Whether two sets of arguments are the same call's (the same canonical JSON)."""
    try:
        return call_digest(name, "", held, None) == call_digest(name, "", arguments, None)
    except Exception:  # not JSON data: not the arguments held
        return False


def _derived(name: str, request_id: str, arguments: Any) -> str:
    """The request id of changed arguments: the call's, and a digest of the new arguments."""
    try:
        digest = call_digest(name, "", arguments, None)
    except Exception:  # not JSON data: the gate refuses it under any request id
        digest = "sha256:" + "0" * _DIGITS
    return f"{request_id}+{digest.partition(':')[2][:_DIGITS]}"
