"""A guarded tool's held call in the Agents SDK's own pause and resume: the gate decides, the
SDK carries the question and the answer.

- The SDK's ``needs_approval`` for a call is the gate's own ``aneeds_approval``, under the
  call's standard context with the call id as its request id and strict mode's ``null``s
  undone, exactly as the call itself is made: a call the gate holds pauses the run
  (``result.interruptions``), its approval request waiting in the gate's store.
- A call a person approved in the SDK (``state.approve(item)``, then ``Runner.run(agent,
  state)``) has that approval recorded in the gate (``gate.answer``, under the tool's
  ``approver``) before it is made through the gate, which runs it once under the approval.
- A call a person rejected (a bare ``state.reject(item)``) never reaches the tool; the SDK asks
  ``RunConfig.tool_error_formatter`` what the model reads, and :func:`rejection_formatter`
  records the rejection in the gate and answers the gate's ``denied`` refusal line.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from agents import Agent, FunctionTool

import standard_tool as st
from standard_tool.boundary import REJECTED, guarded_of, request_id_of
from standard_tool.exceptions import ToolRefusedError, UsageError

if TYPE_CHECKING:
    from ._export import StandardFunctionTool

__all__ = [
    "PAUSES",
    "answer_approved",
    "needs_approval",
    "rejection_formatter",
]

PAUSES = any(field.name == "needs_approval" for field in dataclasses.fields(FunctionTool))
"""Whether this SDK pauses a run for a person's approval (0.2.x does not: there a held call
is the ``held_for_review`` refusal the model reads)."""


Formatter = Callable[[Any], "str | None | Awaitable[str | None]"]
"""The SDK's ``RunConfig.tool_error_formatter``: ``(ToolErrorFormatterArgs) -> text``."""


async def needs_approval(tool: StandardFunctionTool, ctx: Any, params: Any, call_id: Any) -> bool:
    """The SDK's ``needs_approval`` of a guarded tool: whether its gate holds this call (its
    approval request then waits in the gate's store, showing the arguments whole)."""
    guarded = guarded_of(tool.standard_tool)
    if guarded is None or not isinstance(params, Mapping):
        return False
    try:
        context = tool.call_context(ctx, call_id)
    except st.ToolExecutionError:  # the call itself says so, and runs nothing
        return False
    arguments = tool.undone(copy.deepcopy(dict(params)))
    return await guarded.gate.aneeds_approval(guarded, arguments, context) is not None


def answer_approved(tool: StandardFunctionTool, ctx: Any, arguments: Any, context: Any) -> None:
    """Before a guarded call runs: when a person approved it in the SDK's pause, record that
    approval in the gate under the tool's approver (a ``UsageError`` when none is named, or
    when the approver is the call's own actor and the gate forbids it). Nothing is recorded
    for a call decided already, nor for arguments other than the ones held: the call is then
    answered from its receipt, or refused."""
    approved = getattr(ctx, "is_tool_approved", None)
    call_id = getattr(ctx, "tool_call_id", None)
    name = getattr(ctx, "tool_name", None) or tool.name
    if (
        not callable(approved)
        or not isinstance(call_id, str)
        or approved(name, call_id) is not True
    ):
        return
    guarded = guarded_of(tool.standard_tool)
    if guarded is not None:
        guarded.gate.answer(guarded, arguments, context, approved=True, approver=tool.approver)


async def rejected(tool: StandardFunctionTool, run_ctx: Any, call_id: str) -> str:
    """Record in the gate that a person rejected the held call ``call_id`` (when its approval
    request still waits, for this tool), under the tool's approver; the text the model reads:
    the gate's ``denied`` refusal line, through the tool's failure function."""
    guarded = guarded_of(tool.standard_tool)
    assert guarded is not None
    context = tool.call_context(run_ctx, call_id)
    request_id = request_id_of(context)
    if request_id is not None:  # a context that cannot carry it was never held under it
        guarded.gate.answer(guarded, None, context, approved=False, approver=tool.approver)
    return await tool.report(
        run_ctx, ToolRefusedError(guarded.name, "denied", REJECTED, request_id or call_id)
    )


def rejection_formatter(tools: Any, *, formatter: Formatter | None = None) -> Formatter:
    """A ``RunConfig(tool_error_formatter=...)`` that takes a person's rejection in the SDK to
    the gate: for a call of one of ``tools`` (exported guarded tools; an ``Agent`` gives its
    own) rejected with a bare ``state.reject(item)``, it records the rejection in the tool's
    gate under its approver (``gate.answer``) and returns the text the model reads, the gate's
    ``denied`` refusal line (as every refusal reads, through the tool's failure function).
    Every other error, and other tools' rejections, go to ``formatter`` (the SDK's default
    text when ``None``).

    Only a rejection the SDK asks this formatter about reaches the gate: one given with its
    own ``rejection_message`` is the SDK's text alone, and its approval request keeps waiting
    in the gate (decide it with ``gate.reject``); it never runs either way. The SDK logs an
    error this formatter raises (an approver function that fails, a store that cannot be
    reached) and answers its default text; the request then keeps waiting too.

    Each guarded tool must have been exported with ``approver=``: else a ``UsageError`` here.
    """
    from ._export import StandardFunctionTool

    ours: dict[str, StandardFunctionTool] = {}
    for tool in _function_tools(tools):
        if not isinstance(tool, StandardFunctionTool) or guarded_of(tool.standard_tool) is None:
            continue
        if tool.approver is None:
            raise UsageError(
                f"tool {tool.name!r}: a rejection is recorded with its approver: export it "
                "with approver= (a name or a function of the call's context)"
            )
        if ours.setdefault(tool.name, tool) is not tool:
            raise UsageError(f"two guarded tools are named {tool.name!r}")

    async def format_error(args: Any) -> str | None:
        tool = ours.get(args.tool_name) if args.kind == "approval_rejected" else None
        if tool is not None:
            return await rejected(tool, args.run_context, args.call_id)
        if formatter is None:
            return None
        message = formatter(args)
        return await message if inspect.isawaitable(message) else message

    return format_error


def _function_tools(tools: Any) -> Iterable[Any]:
    items = [tools] if isinstance(tools, (FunctionTool, Agent)) else list(tools)
    for item in items:
        yield from item.tools if isinstance(item, Agent) else [item]
