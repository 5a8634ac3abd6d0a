"""Standard tools as Google ADK tools."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Iterable
from typing import Any

from google.adk.tools.base_tool import BaseTool
from google.genai import types

import standard_tool as st
from standard_tool.adapters import (
    METADATA_KEY,
    build_context,
    export_tools,
    pack_metadata,
    to_export,
)
from standard_tool.boundary import Approver, check_approver, guarded_of, with_request_id
from standard_tool.exceptions import ToolRefusedError
from standard_tool.names import GEMINI_NAMES, NameRule

from ._approvals import guarded_call
from ._context import ContextGetter, context_from_adk

__all__ = [
    "NAMES",
    "StandardAdkTool",
    "ToolError",
    "to_google_adk",
    "to_google_adk_tools",
]

NAMES: NameRule = GEMINI_NAMES
"""The names an ADK tool gets: what Gemini accepts (a letter or ``_`` first, then letters,
digits, ``_``, ``.``, ``:`` and ``-``, 64 characters at most)."""

REPORTED = (st.ToolValidationError, st.ToolExecutionError, ToolRefusedError)
"""The errors a model reads as an ``{"error": ...}`` result (their ``str()``)."""
_PLAIN = (str, int, float, bool, type(None))


class ToolError(dict):  # type: ignore[type-arg]
    """A failed call's result, ``{"error": <the error's message>}``: what ADK's own tools
    answer a failure with (a raised error would end the run). :attr:`error` is the typed
    error behind it."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error=str(error))
        self.error = error


class StandardAdkTool(BaseTool):
    """A Google ADK ``BaseTool`` that runs a standard tool.

    Its declaration carries the tool's input JSON Schema as it is
    (``parameters_json_schema``: Gemini's OpenAPI subset does not apply). A sync tool runs
    inline on the event loop, as ADK runs its own function tools; an async tool is awaited.
    A failed call (invalid input, a failure, a timeout, a refusal) is the result
    ``{"error": <message>}`` (a :class:`ToolError`), which names the tool and the fields and
    quotes no value. A result that is no JSON object reaches the model as ``{"result":
    value}``, as ADK sends every such result.

    A guarded tool's call has the call's id as its request id; a call its gate holds asks a
    person through ADK's own confirmation (see ``_approvals``).
    """

    def __init__(
        self,
        tool: st.StandardTool,
        *,
        name: str,
        context: ContextGetter | None = None,
        approver: Approver | None = None,
    ) -> None:
        super().__init__(name=name, description=tool.description)
        self._standard = tool
        self._get_context = context or context_from_adk
        self._guarded = guarded_of(tool) is not None
        self._inline: bool | None = None
        self.approver = approver

    @property
    def standard_tool(self) -> st.StandardTool:
        """The standard tool this ADK tool runs."""
        return self._standard

    @property
    def custom_metadata(self) -> dict[str, Any] | None:
        """ADK's tool metadata, with what an ADK tool has no slot for (title, output schema,
        meta, an original name) under ``"standard_tool"`` (made on first use)."""
        held: dict[str, Any] | None = self.__dict__.get("_metadata")
        if held is None or METADATA_KEY not in held:
            held = {**(held or {}), METADATA_KEY: pack_metadata(self._standard, name=self.name)}
            self.__dict__["_metadata"] = held
        return held

    @custom_metadata.setter
    def custom_metadata(self, value: dict[str, Any] | None) -> None:
        self.__dict__["_metadata"] = value

    @property
    def parameters_json_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments the model provides: the tool's input schema."""
        schema: dict[str, Any] = copy.deepcopy(st.input_json_schema(self._standard))
        return schema

    def _get_declaration(self) -> types.FunctionDeclaration:
        return types.FunctionDeclaration(
            name=self.name,
            description=self.description,
            parameters_json_schema=self.parameters_json_schema,
        )

    # -- a call ----------------------------------------------------------------------------

    def call_context(self, tool_context: Any) -> Any:
        """The standard context of a call, built from its ``ToolContext``, with the call's
        id as the request id of a guarded tool."""
        context = build_context(self._standard.name, self._get_context, tool_context)
        if self._guarded:
            context = with_request_id(
                self._standard, context, getattr(tool_context, "function_call_id", None)
            )
        return context

    async def call(self, arguments: Any, context: Any) -> Any:
        """The standard tool's result: a sync tool called inline, an async one awaited."""
        inline = self._inline
        if inline is None:
            inline = self._inline = not _runs_async(self._standard)
        if inline:
            return st.call(self._standard, arguments, context)
        return await st.acall(self._standard, arguments, context)

    async def invoke(self, tool_context: Any, arguments: Any) -> Any:
        """The standard tool's result for one call (typed errors raised)."""
        context = self.call_context(tool_context)
        if self._guarded:
            return await guarded_call(self, tool_context, arguments, context)
        return await self.call(arguments, context)

    async def run_async(self, *, args: dict[str, Any], tool_context: Any) -> Any:
        try:
            result = await self.invoke(tool_context, args)
        except REPORTED as error:
            return ToolError(error)
        return result if type(result) in _PLAIN else st.jsonable(result)

    def __repr__(self) -> str:
        return f"StandardAdkTool({self.name!r})"


def _runs_async(tool: Any) -> bool:
    """Whether ``tool`` has an async path (``acall`` would await it rather than use a
    worker thread)."""
    aexecute = getattr(tool, "aexecute", None)
    return inspect.iscoroutinefunction(aexecute) or inspect.iscoroutinefunction(
        getattr(tool, "execute", None)
    )


def to_google_adk(
    tool: Any,
    *,
    name: str | None = None,
    context: ContextGetter | None = None,
    approver: Approver | None = None,
) -> StandardAdkTool:
    """A Google ADK ``BaseTool`` running ``tool`` (anything :func:`standard_tool.adopt`
    takes).

    Args:
        tool: the tool to run.
        name: the name the model sees (checked against :data:`NAMES`); by default the tool's
            name made valid for it (``from_google_adk`` restores the original).
        context: builds the standard context from the call's ``ToolContext``; by default the
            value of ``standard_context(...)`` around the run (see ``_context``).
        approver: who decides on a guarded tool's held calls in ADK's own confirmation
            (``ToolConfirmation``), which carries no approver: a name, or a function of the
            call's standard context giving one. The gate records each decision under it;
            needed once a person answers in ADK (else that resumed run raises
            ``UsageError``).
    """
    check_approver(approver)
    standard, name = to_export(tool, name, NAMES)
    return StandardAdkTool(standard, name=name, context=context, approver=approver)


def to_google_adk_tools(
    tools: Iterable[Any] | Any,
    *,
    context: ContextGetter | None = None,
    approver: Approver | None = None,
) -> list[StandardAdkTool]:
    """ADK tools for one tool or several; two names that collide raise ``ToolNameError``."""
    return export_tools(
        tools,
        lambda tool, name: to_google_adk(tool, name=name, context=context, approver=approver),
        NAMES,
    )
