"""A guarded tool's held call in Microsoft Agent Framework's own pause and resume: the gate
decides, the framework carries the question and the answer.

- A call the gate holds (``gate.aneeds_approval``), in a run with a session, pauses the run:
  the tool raises the framework's ``UserInputRequiredException`` carrying a function approval
  request for exactly that call, which the run returns in ``response.user_input_requests``.
  The call's id is noted in the session's state; the gate's approval request waits in its
  store. Other calls of the same tool (ones the gate lets run, or refuses) are not paused.
- The framework invokes a paused call again only once a person approved it
  (``request.to_function_approval_response(approved=True)``, in the same session): the note
  is removed and the approval recorded in the gate (``gate.answer``, under the tool's
  ``approver``), then the call goes through the gate, which runs it once under the approval.
- A rejected call never reaches the tool: the framework answers the model with its own
  refusal ("Error: Tool call invocation was rejected by user."). With
  :func:`record_rejections` among the agent's middleware, the rejection is recorded in the
  gate too (``gate.answer``, by the call's id, under the tool's ``approver``); else the
  gate's approval request keeps waiting (decide it with ``gate.reject``).
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

__all__ = ["HELD", "RejectionRecorder", "answer_approved", "pause_if_held", "record_rejections"]

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


async def pause_if_held(
    tool: StandardFunctionTool, ctx: Any, arguments: Any, context: Any, call_id: Any
) -> None:
    """Pause the run (``UserInputRequiredException`` with a function approval request) when
    the tool's gate holds this call and the run has a session to resume it in."""
    guarded = guarded_of(tool.standard_tool)
    if guarded is None or not isinstance(call_id, str) or not call_id:
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
    """Before a guarded call runs: when it is a call paused in this session, invoked again
    (the framework does so only for an approved one), record the approval in the gate under
    the tool's approver. An approval the gate cannot record (no approver named, or the
    approver is the call's own actor) ends the run, raised to the app."""
    held = _held(getattr(ctx, "session", None), create=False)
    if held is None or held.pop(call_id, None) is None:
        return False
    guarded = guarded_of(tool.standard_tool)
    if guarded is not None:
        try:
            guarded.gate.answer(guarded, arguments, context, approved=True, approver=tool.approver)
        except UsageError as error:
            raise MiddlewareFailure(str(error)) from error
    return True


class RejectionRecorder(FunctionMiddleware):
    """Function middleware that records in the gate each paused call of ``tools`` a person
    rejected in the run's session (see :func:`record_rejections`); it lets every call
    through as it is."""

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


def record_rejections(tools: Any) -> RejectionRecorder:
    """Function middleware for an agent running ``tools`` (exported here; an agent's
    middleware: ``Agent(..., middleware=[record_rejections(tools)])``): a paused call a person
    rejects is recorded in its gate as rejected, under the tool's ``approver`` and the call's
    id, with the caller's tenant and actor noted when it paused (the approver function, if
    one, is given that identity and the request id as the call's context)."""
    return RejectionRecorder([tools] if hasattr(tools, "standard_tool") else list(tools))
