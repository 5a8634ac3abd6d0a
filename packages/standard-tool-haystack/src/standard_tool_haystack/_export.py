"""Standard tools as Haystack tools."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any

from haystack.components.agents.state.state import State
from haystack.tools.errors import ToolInvocationError
from haystack.tools.tool import Tool

import standard_tool as st
from standard_tool.adapters import METADATA_KEY, export_tools, pack_metadata, to_export
from standard_tool.boundary import Approver, check_approver, guarded_of, with_request_id
from standard_tool.exceptions import ToolRefusedError
from standard_tool.names import OPENAI_NAMES, NameRule

from ._context import call_id_of, current_context

__all__ = ["NAMES", "STATE", "StandardHaystackTool", "to_haystack", "to_haystack_tools"]

NAMES: NameRule = OPENAI_NAMES
"""The names a Haystack tool gets: what the providers' chat APIs accept."""
STATE = "_standard_tool_state"
"""The parameter of a guarded tool's functions that the Agent fills with the run's ``State``."""

REPORTED = (st.ToolValidationError, st.ToolExecutionError, ToolRefusedError)
"""The errors a model's call reads as Haystack's error result (their ``str()``)."""
_PLAIN = (str, int, float, bool, type(None))
_ARGUMENTS = inspect.Parameter("arguments", inspect.Parameter.VAR_KEYWORD)
_KEYWORDS = inspect.Signature([_ARGUMENTS])
"""The functions' signature as Haystack reads it on every call (no annotation to resolve)."""
_WITH_STATE = inspect.Signature(
    [inspect.Parameter(STATE, inspect.Parameter.KEYWORD_ONLY, annotation=State), _ARGUMENTS]
)
"""A guarded tool's: the Agent fills the parameter annotated ``State`` with the run's."""


class StandardHaystackTool(Tool):
    """A Haystack ``Tool`` that runs a standard tool.

    ``parameters`` is the tool's input JSON Schema, unchanged (derived on first use). Its
    ``function`` and ``async_function`` take the arguments as keywords and return the
    result as JSON data, raising the project's typed errors. ``invoke`` / ``invoke_async``
    (what the Agent calls) raise Haystack's ``ToolInvocationError`` with the error's message
    instead (invalid input names the tool and each failing field; no value, traceback or
    context value), which the Agent turns into an error result the model reads.

    A guarded tool takes the run's ``State`` (parameter :data:`STATE`) to find the model's id
    of its call, which is its request id; an unguarded one takes none.
    """

    def __init__(
        self, tool: st.StandardTool, *, name: str, approver: Approver | None = None
    ) -> None:
        # Tool's own __init__ would derive the schema now and check it again: both wait.
        self.name = name
        self.description = tool.description
        self.outputs_to_string = None
        self.inputs_from_state = None
        self.outputs_to_state = None
        self._standard = tool
        self._parameters: dict[str, Any] | None = None
        self.guarded = guarded_of(tool) is not None
        self.approver = approver
        self.function, self.async_function = self._functions()

    @property
    def standard_tool(self) -> st.StandardTool:
        """The standard tool this Haystack tool runs."""
        return self._standard

    @property
    def parameters(self) -> dict[str, Any]:
        """The tool's input JSON Schema, as it is."""
        if self._parameters is None:
            schema = st.input_json_schema(self._standard)
            self._parameters = schema if isinstance(schema, dict) else {}
        return self._parameters

    @parameters.setter
    def parameters(self, value: dict[str, Any]) -> None:
        self._parameters = value

    @property
    def metadata(self) -> dict[str, Any]:
        """What a Haystack tool has no field for (title, output schema, meta, an original
        name), under ``"standard_tool"``."""
        return {METADATA_KEY: pack_metadata(self._standard, name=self.name)}

    def call_context(self, call_id: Any = None) -> Any:
        """The standard context of a call: the value of ``standard_context`` around the run,
        with the model's ``call_id`` as a guarded tool's request id."""
        context = current_context()
        if self.guarded:
            context = with_request_id(self._standard, context, call_id)
        return context

    def _functions(self) -> tuple[Callable[..., Any], Callable[..., Any]]:
        tool = self._standard
        name = self.name

        if not self.guarded:

            def run(**arguments: Any) -> Any:
                return _plain(st.call(tool, arguments, current_context()))

            async def arun(**arguments: Any) -> Any:
                return _plain(await st.acall(tool, arguments, current_context()))

            run.__signature__ = arun.__signature__ = _KEYWORDS  # type: ignore[attr-defined]
            return run, arun

        def guarded_run(**arguments: Any) -> Any:
            state = arguments.pop(STATE, None)
            context = self.call_context(call_id_of(state, name, arguments))
            return _plain(st.call(tool, arguments, context))

        async def guarded_arun(**arguments: Any) -> Any:
            state = arguments.pop(STATE, None)
            context = self.call_context(call_id_of(state, name, arguments))
            return _plain(await st.acall(tool, arguments, context))

        guarded_run.__signature__ = _WITH_STATE  # type: ignore[attr-defined]
        guarded_arun.__signature__ = _WITH_STATE  # type: ignore[attr-defined]
        return guarded_run, guarded_arun

    def invoke(self, **kwargs: Any) -> Any:
        """One call, as the Agent makes it: the result, or ``ToolInvocationError`` with the
        failure's message (the typed error is its ``__cause__``)."""
        try:
            return self.function(**kwargs)  # type: ignore[misc]
        except REPORTED as error:
            raise ToolInvocationError(str(error), tool_name=self.name) from error

    async def invoke_async(self, **kwargs: Any) -> Any:
        """:meth:`invoke` from async code (an async tool awaited, a sync one on a thread)."""
        try:
            return await self.async_function(**kwargs)  # type: ignore[misc]
        except REPORTED as error:
            raise ToolInvocationError(str(error), tool_name=self.name) from error

    def __deepcopy__(self, memo: dict[int, Any]) -> StandardHaystackTool:
        """A copy running the same standard tool (and so the same gate)."""
        copied = StandardHaystackTool(self._standard, name=self.name, approver=self.approver)
        copied.description = self.description
        return copied

    def to_dict(self) -> dict[str, Any]:
        """The tool's definition, as traces show it (a standard tool's code does not
        serialize: :meth:`from_dict` refuses it)."""
        data = {"name": self.name, "description": self.description, "parameters": self.parameters}
        return {"type": f"{__name__}.{type(self).__name__}", "data": data}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tool:
        """Refused: a standard tool is exported again, not deserialized."""
        raise TypeError("a StandardHaystackTool is not deserialized: export the tool again")

    def __repr__(self) -> str:
        return f"StandardHaystackTool({self.name!r})"


def _plain(result: Any) -> Any:
    return result if type(result) in _PLAIN else st.jsonable(result)


def to_haystack(tool: Any, *, name: str | None = None, approver: Approver | None = None) -> Tool:
    """A Haystack ``Tool`` running ``tool`` (anything :func:`standard_tool.adopt` takes).

    Args:
        tool: the tool to run.
        name: the name the model sees (checked against :data:`NAMES`); by default the tool's
            name made valid for it (``from_haystack`` restores the original).
        approver: who decides on a guarded tool's held calls through
            :class:`~standard_tool_haystack.GateConfirmation`: a name, or a function of the
            call's standard context giving one.
    """
    check_approver(approver)
    standard, name = to_export(tool, name, NAMES)
    return StandardHaystackTool(standard, name=name, approver=approver)


def to_haystack_tools(
    tools: Iterable[Any] | Any, *, approver: Approver | None = None
) -> list[Tool]:
    """Haystack tools for one tool or several; two names that collide raise ``ToolNameError``."""
    return export_tools(
        tools, lambda tool, name: to_haystack(tool, name=name, approver=approver), NAMES
    )
