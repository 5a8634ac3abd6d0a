"""A guarded tool's held call in Agno's own confirmation: the gate decides, Agno carries
the question and the answer.

- Agno decides whether a call waits for confirmation per function
  (``requires_confirmation``), and reads it once its model has asked for calls, before it
  runs any. An exported guarded tool answers it per model turn: whether its gate holds
  (``gate.needs_approval``, which keeps the approval request) one of the function's calls
  in the model's latest message, with what the model sent and under the call's id. A turn
  whose calls of the tool the gate all lets run (or refuses for another reason) asks
  nothing; in a turn where the gate holds one, every call of that tool in the turn waits
  (Agno cannot pause one call of a function and run another). The run pauses with the
  calls in ``run_output.tools_requiring_confirmation`` and ``active_requirements``.
- The app answers on Agno's own requirements (``requirement.confirm()`` /
  ``requirement.reject(note)``) and resumes with :func:`continue_run` /
  :func:`acontinue_run` (``agent.continue_run`` after :func:`record_answers`). Each
  answer of a paused call of an exported guarded tool is recorded in its gate first
  (``gate.answer``, under the tool's ``approver``, with the resume's context): an approval
  is read only from Agno's confirmation state of exactly that call, never from a call id,
  arguments or a name a model sent. Agno then runs a confirmed call, through the gate,
  which runs it once under the approval; a rejected call never reaches the tool, and the
  model reads Agno's refusal (the note, or "Function call was rejected by the user").
- A model that calls again under a paused call's id is asked again (the gate still holds
  it), never run. Resumed with ``agent.continue_run`` alone (no answer recorded), a
  confirmed call is the gate's ``held_for_review`` refusal the model reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from standard_tool.boundary import guarded_of

from ._context import run_context, sent_arguments

if TYPE_CHECKING:
    from ._export import StandardFunction

__all__ = ["acontinue_run", "continue_run", "held_in_turn", "record_answers"]

_CONTEXT_KEYS = ("dependencies", "metadata", "session_state", "user_id")
"""What of a resume's keyword arguments a ``RunContext`` holds."""


def _latest_calls(messages: Any) -> list[Mapping[str, Any]]:
    """The tool calls of the model's latest message that asked for any."""
    for message in reversed(messages if isinstance(messages, list) else []):
        if message.role == "assistant" and message.tool_calls:
            return [call for call in message.tool_calls if isinstance(call, Mapping)]
    return []


def held_in_turn(function: StandardFunction) -> bool:
    """Whether the gate of ``function``'s guarded tool holds one of its calls in the model's
    latest turn of the run (keeping the approval request for each one it holds)."""
    guarded = guarded_of(function.standard)
    run = function._run_context
    if guarded is None or run is None:
        return False
    held = False
    for call in _latest_calls(getattr(run, "messages", None)):
        spec = call.get("function") or {}
        if spec.get("name") != function.name or not isinstance(call.get("id"), str):
            continue
        try:
            arguments = json.loads(spec.get("arguments") or "{}")
        except (TypeError, ValueError):
            continue  # Agno answers the model itself
        if not isinstance(arguments, dict):
            continue
        try:
            context = function.call_context(run, call["id"])
            asked = guarded.gate.needs_approval(guarded, arguments, context)
        except Exception:  # the call itself says why it is refused
            continue
        held = held or asked is not None
    return held


def _functions(agent: Any) -> dict[str, StandardFunction]:
    from ._export import StandardFunction

    tools = getattr(agent, "tools", None)
    listed = tools if isinstance(tools, list) else []
    return {tool.name: tool for tool in listed if isinstance(tool, StandardFunction)}


def record_answers(agent: Any, run_output: Any, **kwargs: Any) -> None:
    """Record in their gates the answers given on ``run_output``'s paused calls of
    ``agent``'s exported guarded tools (``requirement.confirm()`` / ``.reject()``), before
    ``agent.continue_run(run_output, **kwargs)`` resumes it; ``kwargs`` give the resume's
    context as for a run (``dependencies=``...). An answer the gate cannot record (no
    approver named, or the call's own actor approving) raises ``UsageError``."""
    functions = _functions(agent)
    executions = list(getattr(run_output, "tools", None) or [])
    for requirement in getattr(run_output, "requirements", None) or []:
        execution = getattr(requirement, "tool_execution", None)
        if execution is not None and all(execution is not seen for seen in executions):
            executions.append(execution)
    context = run_context({k: v for k, v in kwargs.items() if k in _CONTEXT_KEYS})
    context.dependencies = kwargs.get("dependencies")
    context.metadata = kwargs.get("metadata")
    context.run_id = getattr(run_output, "run_id", None) or context.run_id
    context.session_id = getattr(run_output, "session_id", None) or context.session_id
    messages = getattr(run_output, "messages", None)
    for execution in executions:
        function = functions.get(execution.tool_name or "")
        guarded = guarded_of(function.standard) if function is not None else None
        answered = execution.confirmed
        if (
            function is None
            or guarded is None
            or execution.requires_confirmation is not True
            or answered not in (True, False)
            or execution.result is not None
            or not isinstance(execution.tool_call_id, str)
        ):
            continue
        call_id = execution.tool_call_id
        arguments = sent_arguments(messages, call_id, function.name, execution.tool_args or {})
        guarded.gate.answer(
            guarded,
            arguments,
            function.call_context(context, call_id),
            approved=answered,
            approver=function.approver,
            reason=execution.confirmation_note or "",
        )


def continue_run(agent: Any, run_output: Any, **kwargs: Any) -> Any:
    """:func:`record_answers`, then ``agent.continue_run(run_output, **kwargs)``."""
    record_answers(agent, run_output, **kwargs)
    return agent.continue_run(run_output, **kwargs)


async def acontinue_run(agent: Any, run_output: Any, **kwargs: Any) -> Any:
    """:func:`record_answers`, then ``await agent.acontinue_run(run_output, **kwargs)``."""
    record_answers(agent, run_output, **kwargs)
    return await agent.acontinue_run(run_output, **kwargs)
