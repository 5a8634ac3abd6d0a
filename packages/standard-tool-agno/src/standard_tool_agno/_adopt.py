"""Agno functions as standard tools."""

from __future__ import annotations

import asyncio
import copy
import inspect
from collections.abc import Iterable
from functools import cached_property
from typing import Any

from agno.agent import Agent
from agno.tools.function import Function, FunctionCall
from agno.tools.toolkit import Toolkit

import standard_tool as st
from standard_tool.adapters import AdoptedTool, adopt_all, not_adoptable
from standard_tool.boundary import request_id_of
from standard_tool.exceptions import ToolRefusedError

from ._context import run_context
from ._export import StandardFunction

__all__ = ["AgnoTool", "from_agno", "from_agno_tools"]

HELD = "This call needs a person's confirmation, which only an Agno run asks for."
"""The message of the ``held_for_review`` refusal of a function that waits for a person."""


class AgnoTool(AdoptedTool):
    """A standard tool that runs an Agno ``Function`` as a run does: a copy processed as a
    run processes it (its schema derived from the entrypoint, unless given or marked
    ``skip_entrypoint_processing``; not strict), called through ``FunctionCall.execute``
    (``aexecute`` for an async entrypoint), so that the function's own hooks run.

    The input schema is that processed ``parameters``, checked here with full JSON Schema
    semantics (Agno checks nothing against it). A failed call (Agno's
    ``FunctionExecutionResult`` with ``status="failure"``) is a ``ToolExecutionError`` with
    Agno's message. A function that waits for a person (``requires_confirmation``,
    ``requires_user_input`` or ``external_execution``) is the ``held_for_review`` refusal,
    since only a run asks a person. A tool's ``RunContext`` is made from the standard
    context (see ``_context``).
    """

    framework = "Agno"
    exported = (StandardFunction,)
    wrapped: Function

    def __init__(self, native: Function) -> None:
        metadata = native.metadata if isinstance(native, StandardFunction) else None
        super().__init__(
            native,
            name=native.name,
            description=native.description or "",
            metadata=metadata,
            **({"title": native.title} if native.title is not None else {}),
        )

    @cached_property
    def processed(self) -> Function:
        """The function as a run has it: a per-run copy, processed (not strict)."""
        processed = self.wrapped._per_run_copy()
        processed.process_entrypoint(strict=bool(self.wrapped.strict))
        return processed

    def native_input_schema(self) -> Any:
        return copy.deepcopy(self.processed.parameters)

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.processed.entrypoint)

    @property
    def has_async(self) -> bool:
        return True

    def _call(self, input: Any, context: Any) -> FunctionCall:
        native = self.processed
        if native.requires_confirmation or native.requires_user_input or native.external_execution:
            raise ToolRefusedError(self.name, "held_for_review", HELD, request_id_of(context))
        function = native._per_run_copy()
        function._run_context = run_context(context)
        return FunctionCall(
            function=function, arguments=dict(input), call_id=request_id_of(context)
        )

    def run(self, input: Any, context: Any) -> Any:
        if self.standard_tool is not None:
            return st.call(self.standard_tool, input, context)
        return self._outcome(self._call(input, context).execute())

    async def arun(self, input: Any, context: Any) -> Any:
        if self.standard_tool is not None:
            return await st.acall(self.standard_tool, input, context)
        call = self._call(input, context)
        if self.is_async:
            return self._outcome(await call.aexecute())
        return self._outcome(await asyncio.to_thread(call.execute))

    def _outcome(self, outcome: Any) -> Any:
        if outcome.status != "success":
            raise st.ToolExecutionError(self.name, outcome.error or "the function failed")
        return outcome.result


def from_agno(tool: Any) -> AgnoTool:
    """A standard tool that runs an Agno ``Function`` (from ``@tool``, built directly, or
    exported here) as a run does."""
    if isinstance(tool, Function):
        return AgnoTool(tool)
    raise not_adoptable(
        tool,
        "an Agno function",
        holders=(Toolkit, Agent),
        holder="an Agno toolkit or agent",
        many="from_agno_tools(...)",
    )


def from_agno_tools(tools: Any) -> list[AgnoTool]:
    """Standard tools for a ``Toolkit``'s functions (sync ones, as a ``run()`` has them), an
    ``Agent``'s tools (functions it takes become ``Function``s, as Agno makes them), one
    function, or an iterable of these."""
    return adopt_all(tools, _adopt, single=(Function, Toolkit, Agent), tools_of=_tools_of)


def _tools_of(item: Any) -> Iterable[Any] | None:
    if isinstance(item, Toolkit):
        return list(item.get_functions().values())
    if isinstance(item, Agent):
        out: list[Any] = []
        for held in item.tools if isinstance(item.tools, list) else []:
            tools = _tools_of(held)
            out.extend([held] if tools is None else tools)
        return out
    return None


def _adopt(item: Any) -> AgnoTool:
    """A function, or a plain callable an agent takes (as Agno makes it a ``Function``)."""
    if callable(item) and not isinstance(item, (Function, Toolkit, Agent)):
        item = Function.from_callable(item)
    return from_agno(item)
