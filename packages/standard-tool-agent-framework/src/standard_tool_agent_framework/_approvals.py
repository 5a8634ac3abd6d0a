"""A guarded tool's held call in Microsoft Agent Framework's own pause and resume: the gate
decides, the framework carries the question and the answer.

- A call the gate holds (``gate.aneeds_approval``), in a run with a session and the agent's
  function middleware (:func:`gate_approvals`), pauses the run: the tool raises the
  framework's ``UserInputRequiredException`` carrying a function approval request for exactly
  that call, which the run returns in ``response.user_input_requests``. The call is noted in
  the session's state (its id, tool, tenant and actor); the gate's approval request waits in
  its store. Other calls of the same tool (ones the gate lets run, or refuses) are not paused.
  Without a session or function middleware, a held call is the gate's ``held_for_review``
  refusal the model reads.
- A call is taken as approved only when the framework replays it for a person's approval
  (``request.to_function_approval_response(approved=True)``, in the same session): through
  function middleware, the framework hands the call's context that approval response
  (``context.metadata["approval_response"]``), which no model can write. A model that calls
  again under a paused call's id is asked again, never approved. The approval is recorded in
  the gate (``gate.answer``, under the tool's ``approver``), then the call goes through the
  gate, which runs it once under the approval.
- A rejected call never reaches the tool: the framework answers the model with its own
  refusal ("Error: Tool call invocation was rejected by user."), and :class:`GateApprovals`
  records the rejection in the gate (``gate.answer``, by the call's id, under the tool's
  ``approver``). The framework tells middleware of rejections through a private hook
  (``_on_approval_responses``, which its own security middleware uses).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from agent_framework import (
    Content,
    FunctionMiddleware,
    MiddlewareFailure,
    UserInputRequiredException,
)

from standard_tool.boundary import guarded_of, identity_of
from standard_tool.exceptions import UsageError

if TYPE_CHECKING:
    from ._export import StandardFunctionTool

__all__ = ["HELD", "GateApprovals", "answer_approved", "gate_approvals", "pause_if_held"]

HELD = "standard_tool_held_calls"
"""The key, in a session's ``state``, of the calls paused for a person: each call's id, with
its tool's name and its caller's tenant and actor (no argument and no other context value)."""
PAUSED = "This call waits for a person's approval."


def _held(session: Any, *, create: bool) -> dict[str, Any] | None:
    """The calls paused in a run's session, by id (``None`` without a session)."""
    state = getattr(session, "state", None)
    if not isinstance(state, dict):
        return None
    held = state.get(HELD)
    if not isinstance(held, dict):
        if not create:
            return None
        held = state[HELD] = {}
    return held


def _metadata(ctx: Any) -> dict[str, Any]:
    metadata = getattr(ctx, "metadata", None)
    return metadata if isinstance(metadata, dict) else {}


def _replayable(ctx: Any, call_id: str) -> bool:
    """Whether the framework runs this call through function middleware, where it marks a
    call it replays for a person's approval (the call's id is then in its metadata)."""
    return _metadata(ctx).get("call_id") == call_id


def _approved(ctx: Any, call_id: str) -> bool:
    """Whether the framework replays this call for a person's approval: the approval
    response it hands the call's context, approving exactly this call."""
    response = _metadata(ctx).get("approval_response")
    call = getattr(response, "function_call", None)
    return (
        getattr(response, "type", None) == "function_approval_response"
        and getattr(response, "approved", None) is True
        and getattr(call, "call_id", None) == call_id
    )


async def pause_if_held(
    tool: StandardFunctionTool, ctx: Any, arguments: Any, context: Any, call_id: Any
) -> None:
    """Pause the run (``UserInputRequiredException`` with a function approval request) when
    the tool's gate holds this call and the run has a session to resume it in."""
    guarded = guarded_of(tool.standard_tool)
    if guarded is None or not isinstance(call_id, str) or not call_id:
        return
    if not _replayable(ctx, call_id):  # no answer could be told from a model's call
        return
    held = _held(getattr(ctx, "session", None), create=True)
    if held is None:  # without a session an answer is never matched: the gate's refusal
        return
    if await guarded.gate.aneeds_approval(guarded, arguments, context) is None:
        return
    tenant, actor = identity_of(context)
    held[call_id] = {"tool": tool.name, "tenant": tenant, "actor": actor}
    call = Content.from_function_call(
        call_id=call_id, id=call_id, name=tool.name, arguments=arguments
    )
    request = Content.from_function_approval_request(id=call_id, function_call=call)
    raise UserInputRequiredException([request], PAUSED)


def answer_approved(
    tool: StandardFunctionTool, ctx: Any, arguments: Any, context: Any, call_id: Any
) -> bool:
    """Before a guarded call runs: when it is a call paused in this session that the
    framework replays for a person's approval, record the approval in the gate under the
    tool's approver. An approval the gate cannot record (no approver named, or the approver
    is the call's own actor) ends the run, raised to the app."""
    held = _held(getattr(ctx, "session", None), create=False)
    if held is None or call_id not in held or not _approved(ctx, call_id):
        return False
    del held[call_id]
    guarded = guarded_of(tool.standard_tool)
    if guarded is not None:
        try:
            guarded.gate.answer(guarded, arguments, context, approved=True, approver=tool.approver)
        except UsageError as error:
            raise MiddlewareFailure(str(error)) from error
    return True


class GateApprovals(FunctionMiddleware):
    """The agent's function middleware for guarded tools' held calls (see
    :func:`gate_approvals`): it lets every call through as it is (the framework then marks a
    call it replays for a person's approval), and records in the gate each paused call of
    ``tools`` a person rejected in the run's session."""

    def __init__(self, tools: Iterable[Any]) -> None:
        self.tools = {tool.name: tool for tool in tools if hasattr(tool, "standard_tool")}

    async def process(self, context: Any, call_next: Callable[[], Awaitable[None]]) -> None:
        await call_next()

    def _on_approval_responses(self, responses: Sequence[Content], *, session: Any) -> None:
        """The framework's notice of the answers that run nothing (rejections): each one of
        a call paused in ``session`` is recorded in its tool's gate."""
        held = _held(session, create=False)
        for response in responses:
            call = response.function_call
            call_id = getattr(call, "call_id", None)
            if held is None or not isinstance(call_id, str) or response.approved is True:
                continue
            paused = held.get(call_id)
            tool = self.tools.get(paused["tool"]) if isinstance(paused, dict) else None
            guarded = guarded_of(tool.standard_tool) if tool is not None else None
            if paused is None or tool is None or guarded is None:
                continue
            del held[call_id]
            identity = {k: paused[k] for k in ("tenant", "actor") if paused.get(k) is not None}
            context = {**identity, "request_id": call_id}
            try:
                guarded.gate.answer(guarded, None, context, approved=False, approver=tool.approver)
            except UsageError as error:
                raise MiddlewareFailure(str(error)) from error


def gate_approvals(tools: Any) -> GateApprovals:
    """Function middleware for an agent running guarded ``tools`` (exported here), which
    their held calls need to pause for a person:
    ``Agent(..., middleware=[gate_approvals(tools)])``. A paused call a person rejects is
    recorded in its gate as rejected, under the tool's ``approver`` and the call's id, with
    the caller's tenant and actor noted when it paused (an approver function is given that
    identity and the request id as the call's context)."""
    return GateApprovals([tools] if hasattr(tools, "standard_tool") else list(tools))
