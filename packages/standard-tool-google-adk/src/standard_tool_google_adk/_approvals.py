"""A guarded tool's held call in Google ADK's own confirmation: the gate decides, ADK carries
the question and the answer.

- A call its own gate holds (``gate.held(error)``) asks for confirmation with
  ``tool_context.request_confirmation(hint=..., payload=<the approval request as JSON
  data>)`` and sets ``tool_context.actions.skip_summarization``, so that the model is not
  called while the request is open: the run ends on an ``adk_request_confirmation``
  function call. The call's result meanwhile is the gate's ``held_for_review`` refusal.
  Calls the gate lets through (or refuses for another reason) ask nothing.
- The app answers in the same session with a ``FunctionResponse`` named
  ``adk_request_confirmation``, the id of that call, and ``ToolConfirmation(confirmed=...)``
  as its response. ADK then calls the tool again, with the same call id and
  ``tool_context.tool_confirmation`` set.
- Confirmed: the approval is recorded in the gate (``gate.answer``, under the tool's
  ``approver``), then the call goes through the gate, which runs it once under the approval;
  a confirmation replayed is answered from the call's receipt and runs nothing more.
- Refused: the rejection is recorded in the gate, the tool never runs, and the model reads
  the gate's ``denied`` refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from standard_tool.boundary import REJECTED, guarded_of, request_id_of
from standard_tool.exceptions import ToolRefusedError

if TYPE_CHECKING:
    from ._export import StandardAdkTool

__all__ = ["guarded_call"]


async def guarded_call(
    tool: StandardAdkTool, tool_context: Any, arguments: Any, context: Any
) -> Any:
    """A guarded tool's call in ADK: a person's answer recorded first, a held call asking."""
    guarded = guarded_of(tool.standard_tool)
    assert guarded is not None
    answer = getattr(tool_context, "tool_confirmation", None)
    if answer is not None and request_id_of(context) is not None:
        approved = answer.confirmed is True
        guarded.gate.answer(guarded, arguments, context, approved=approved, approver=tool.approver)
        if not approved:
            raise ToolRefusedError(guarded.name, "denied", REJECTED, request_id_of(context))
    try:
        return await tool.call(arguments, context)
    except ToolRefusedError as error:
        approval = guarded.gate.held(error) if answer is None else None
        if approval is not None and getattr(tool_context, "function_call_id", None):
            tool_context.request_confirmation(
                hint=f"{guarded.name}: {error.message}", payload=approval.request()
            )
            tool_context.actions.skip_summarization = True
        raise
