"""A guarded tool's held call in Haystack's human in the loop: the gate decides whom to ask,
the confirmation UI asks.

:class:`GateConfirmation` is a confirmation strategy for Haystack's ``ConfirmationHook``
(``Agent(hooks={"before_tool": [ConfirmationHook({...: GateConfirmation(ui, ...)})]})``).
The hook runs it for each pending call before any tool runs, with the model's id of the call:

- A call the tool's gate would not hold (``gate.needs_approval`` says so, with the call's id
  as its request id) runs without asking: the gate itself then runs or refuses it.
- A held call is shown to the person (``confirmation_ui.get_user_confirmation``) with the
  arguments of its approval request (values the input schema marks secret masked).
  ``"confirm"`` is recorded in the gate as the approval of exactly that call (``gate.answer``,
  under the strategy's ``approver``, the caller's tenant and actor and the call's id), which the
  call then runs under, once. ``"reject"`` is recorded as a rejection, the call never runs, and
  the model reads the gate's ``denied`` refusal. ``"modify"`` is another call: the held one is
  recorded as rejected and does not run; the model reads the refusal with the person's
  arguments, and a call it makes with them is a new call, asked anew. Any other answer is a
  rejection.
- Approval comes from the person's answer only: nothing a model sends (a call id, arguments,
  a tool name) is read as one. A model that repeats a held call's id is asked about again (or
  refused by the gate, once the call is decided).

Haystack blocks while the person answers; it never pauses a run.
"""

from __future__ import annotations

import json
from typing import Any

from haystack.hooks.human_in_the_loop import ToolExecutionDecision
from haystack.hooks.human_in_the_loop.types import ConfirmationUI

from standard_tool.boundary import (
    REJECTED,
    Approval,
    Approver,
    GuardedTool,
    check_approver,
    guarded_of,
    request_id_of,
)
from standard_tool.exceptions import ToolRefusedError

__all__ = ["GateConfirmation"]

CONFIRM = "confirm"
MODIFY = "modify"
MODIFIED = "The person changed the arguments; call again with these to be asked anew: {}"


class GateConfirmation:
    """A Haystack confirmation strategy asking a person (``confirmation_ui``) only about the
    calls the guarded ``tools`` (exported here) hold, and recording their answer in the gate.

    Args:
        confirmation_ui: asks the person (``get_user_confirmation(tool_name,
            tool_description, tool_params)`` returning a ``ConfirmationUIResult``).
        approver: who answers, as the gate records it: a name, or a function of the call's
            standard context giving one (``None`` raises ``UsageError`` once there is an
            answer to record).
        tools: the exported tools whose calls this strategy confirms; a call of any other
            tool runs without asking.
    """

    def __init__(
        self, confirmation_ui: ConfirmationUI, *, approver: Approver | None, tools: Any
    ) -> None:
        self.confirmation_ui = confirmation_ui
        self.approver = check_approver(approver)
        listed = [tools] if hasattr(tools, "standard_tool") else list(tools)
        self.tools = {tool.name: tool for tool in listed if hasattr(tool, "standard_tool")}

    def _held_call(self, name: str, call_id: Any) -> tuple[GuardedTool | None, Any]:
        tool = self.tools.get(name)
        guarded = guarded_of(tool.standard_tool) if tool is not None else None
        if tool is None or guarded is None or not isinstance(call_id, str) or not call_id:
            return None, None
        return guarded, tool.call_context(call_id)

    def run(
        self,
        *,
        tool_name: str,
        tool_description: str,
        tool_params: dict[str, Any],
        tool_call_id: str | None = None,
        confirmation_strategy_context: dict[str, Any] | None = None,
    ) -> ToolExecutionDecision:
        """The decision on one pending call: run it, or not."""
        guarded, context = self._held_call(tool_name, tool_call_id)
        held = (
            guarded.gate.needs_approval(guarded, tool_params, context)
            if guarded is not None
            else None
        )
        return self._decide(tool_name, tool_description, tool_params, tool_call_id, held, context)

    async def run_async(
        self,
        *,
        tool_name: str,
        tool_description: str,
        tool_params: dict[str, Any],
        tool_call_id: str | None = None,
        confirmation_strategy_context: dict[str, Any] | None = None,
    ) -> ToolExecutionDecision:
        """:meth:`run`, with the gate's async steps awaited."""
        guarded, context = self._held_call(tool_name, tool_call_id)
        held = (
            await guarded.gate.aneeds_approval(guarded, tool_params, context)
            if guarded is not None
            else None
        )
        return self._decide(tool_name, tool_description, tool_params, tool_call_id, held, context)

    def _decide(
        self,
        name: str,
        description: str,
        params: dict[str, Any],
        call_id: str | None,
        held: Approval | None,
        context: Any,
    ) -> ToolExecutionDecision:
        run = ToolExecutionDecision(
            tool_name=name, execute=True, tool_call_id=call_id, final_tool_params=params
        )
        if held is None:
            return run
        guarded = self._held_call(name, call_id)[0]
        assert guarded is not None
        answer = self.confirmation_ui.get_user_confirmation(name, description, held.arguments)
        action = getattr(answer, "action", None)
        approved = action == CONFIRM
        reason = str(getattr(answer, "feedback", None) or ("modified" if action == MODIFY else ""))
        guarded.gate.answer(
            guarded, params, context, approved=approved, approver=self.approver, reason=reason
        )
        if approved:
            return run
        refusal = str(ToolRefusedError(guarded.name, "denied", REJECTED, request_id_of(context)))
        changed = getattr(answer, "new_tool_params", None)
        if action == MODIFY and isinstance(changed, dict) and changed:
            refusal += " " + MODIFIED.format(json.dumps(changed, ensure_ascii=False))
        return ToolExecutionDecision(
            tool_name=name, execute=False, tool_call_id=call_id, feedback=refusal
        )

    def to_dict(self) -> dict[str, Any]:
        """The strategy as traces show it: its tools' names (live tools and gates do not
        serialize: :meth:`from_dict` refuses it)."""
        data = {"tools": sorted(self.tools)}
        return {"type": f"{__name__}.{type(self).__name__}", "init_parameters": data}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GateConfirmation:
        """Refused: a GateConfirmation is made again, not deserialized."""
        raise TypeError("a GateConfirmation is not deserialized: make it again")
