"""Standard tools as Microsoft Agent Framework function tools."""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any, ClassVar

from agent_framework import Content, FunctionTool
from pydantic import BaseModel

import standard_tool as st
from standard_tool.adapters import (
    METADATA_KEY,
    build_context,
    export_tools,
    pack_metadata,
    result_text,
    to_export,
)
from standard_tool.boundary import Approver, check_approver, guarded_of, with_request_id
from standard_tool.exceptions import Issue, ToolRefusedError
from standard_tool.names import OPENAI_NAMES, NameRule

from ._approvals import answer_approved, pause_if_held
from ._context import ContextGetter, context_from_run

__all__ = [
    "FAILURES",
    "NAMES",
    "StandardFunctionTool",
    "to_agent_framework",
    "to_agent_framework_tools",
]

NAMES: NameRule = OPENAI_NAMES
"""The names a Microsoft Agent Framework tool gets: what the providers' APIs accept."""

REPORTED = (st.ToolValidationError, st.ToolExecutionError, ToolRefusedError)
"""The errors a model's call reads as the tool's result (their ``str()``)."""
FAILURES: ContextVar[list[Exception] | None] = ContextVar(
    "standard_tool_agent_framework_failures", default=None
)
"""Where an exported tool leaves the typed error behind a failure result the model reads."""
RAW = "raw"
"""The one key of the arguments the framework passes for a call whose arguments are not a
JSON object (malformed JSON, a list, a number...)."""


class StandardFunctionTool(FunctionTool):
    """A Microsoft Agent Framework ``FunctionTool`` that runs a standard tool.

    ``parameters()`` is the tool's input JSON Schema, unchanged (derived on first use). A
    call (``invoke``, as the framework's function loop makes it) is validated by the standard
    tool with full JSON Schema semantics; its result is the text the model reads, and a
    failed call is its error's message as that text (invalid input names the tool and each
    failing field; no traceback, no context value). With ``skip_parsing=True`` the result is
    the raw value, and a failure raises its typed error.

    A guarded tool gets the model's call id as its request id; a call its gate holds, in a
    run with a session, pauses the run for a person's approval (see ``_approvals``).
    """

    _SHALLOW_COPY_FIELDS: ClassVar[set[str]] = {
        *FunctionTool._SHALLOW_COPY_FIELDS,
        "_standard",
        "_get_context",
        "approver",
    }

    def __init__(
        self,
        tool: st.StandardTool,
        *,
        name: str,
        context: ContextGetter | None = None,
        approver: Approver | None = None,
    ) -> None:
        super().__init__(
            name=name,
            description=tool.description,
            func=None,
            input_model={},
        )
        self.func = self._run  # the framework's own __call__ path; invoke is overridden
        self._context_parameter_name = "ctx"  # a run then hands invoke its context
        self._standard = tool
        self._get_context = context or context_from_run
        self._guarded = guarded_of(tool) is not None
        self.approver = approver

    @property
    def standard_tool(self) -> st.StandardTool:
        """The standard tool this function tool runs."""
        return self._standard

    @property
    def additional_properties(self) -> dict[str, Any]:
        """The framework's slot for what it has no field for: the ``standard_tool`` entry
        (title, output schema, meta; made on first use), unless assigned."""
        held: dict[str, Any] | None = self.__dict__.get("_additional_properties")
        if held is None:
            held = {METADATA_KEY: pack_metadata(self._standard, name=self.name)}
            self.__dict__["_additional_properties"] = held
        return held

    @additional_properties.setter
    def additional_properties(self, value: dict[str, Any] | None) -> None:
        self.__dict__["_additional_properties"] = value or None

    @property
    def _input_schema(self) -> dict[str, Any]:
        return self.parameters()

    def parameters(self) -> dict[str, Any]:
        """The tool's input JSON Schema, as it is (the framework would sort its keys)."""
        if self._cached_parameters is None:
            schema = st.input_json_schema(self._standard)
            self._cached_parameters = schema if isinstance(schema, dict) else {}
        return self._cached_parameters

    def _run(self, **arguments: Any) -> Any:
        """The tool as a plain function of its arguments (``FunctionTool.__call__``)."""
        return st.call(self._standard, arguments)

    def arguments(self, arguments: Any, context: Any, kwargs: Mapping[str, Any]) -> Any:
        """The arguments of a call as JSON data: a mapping or model given, else the direct
        keyword arguments, else the context's; the framework's ``{"raw": ...}`` for
        arguments that are no JSON object is invalid input (unless the schema has ``raw``)."""
        if arguments is None:
            arguments = dict(kwargs) if kwargs else getattr(context, "arguments", None) or {}
        if isinstance(arguments, BaseModel):
            arguments = arguments.model_dump(mode="json", exclude_unset=True)
        if isinstance(arguments, Mapping):
            arguments = dict(arguments)
            properties = self.parameters().get("properties")
            if list(arguments) == [RAW] and not (
                isinstance(properties, Mapping) and RAW in properties
            ):
                issue = Issue("the arguments are not a JSON object")
                raise st.ToolValidationError(self._standard.name, "input", [issue])
        return arguments

    def call_context(self, ctx: Any, call_id: Any) -> Any:
        """The standard context of a call: built from the framework's ``ctx`` (a
        ``FunctionInvocationContext``, or ``None``), with ``call_id`` as a guarded tool's
        request id."""
        context = build_context(self._standard.name, self._get_context, ctx)
        if self._guarded:
            context = with_request_id(self._standard, context, call_id)
        return context

    async def invoke(
        self,
        *,
        arguments: Any = None,
        context: Any = None,
        tool_call_id: str | None = None,
        skip_parsing: bool = False,
        **kwargs: Any,
    ) -> Any:
        """One call, as the framework's function loop makes it: the text the model reads
        (a ``Content`` list), a failure's message included; with ``skip_parsing`` the raw
        result, a failure raised as its typed error."""
        try:
            standard = self.call_context(context, tool_call_id)
            result = await self.call(
                self.arguments(arguments, context, kwargs), standard, context, tool_call_id
            )
        except REPORTED as error:
            if skip_parsing:
                raise
            sink = FAILURES.get()
            if sink is not None:
                sink.append(error)
            return [Content.from_text(str(error))]
        if skip_parsing:
            return result
        return [Content.from_text(result_text(self._standard.name, result))]

    async def call(
        self, arguments: Any, context: Any = None, ctx: Any = None, call_id: Any = None
    ) -> Any:
        """The standard tool's result for ``arguments`` under the standard ``context`` (typed
        errors raised). In a run (``ctx``, the framework's context of the call ``call_id``),
        a held call of a guarded tool pauses the run, and one a person approved has that
        approval recorded in the gate first."""
        if self._guarded and not answer_approved(self, ctx, arguments, context, call_id):
            await pause_if_held(self, ctx, arguments, context, call_id)
        return await st.acall(self._standard, arguments, context)

    def __repr__(self) -> str:
        return f"StandardFunctionTool({self.name!r})"


def to_agent_framework(
    tool: Any,
    *,
    name: str | None = None,
    context: ContextGetter | None = None,
    approver: Approver | None = None,
) -> FunctionTool:
    """A Microsoft Agent Framework ``FunctionTool`` running ``tool`` (anything
    :func:`standard_tool.adopt` takes).

    Args:
        tool: the tool to run.
        name: the name the model sees (checked against :data:`NAMES`); by default the tool's
            name made valid for it (``from_agent_framework`` restores the original).
        context: builds the standard context from the call's ``FunctionInvocationContext``;
            by default the run's ``function_invocation_kwargs`` (without its ``session``).
        approver: who decides on a guarded tool's held calls in the framework's own pause
            and resume, which carries no approver: a name, or a function of the call's
            standard context giving one. The gate records each approval under it.
    """
    check_approver(approver)
    standard, name = to_export(tool, name, NAMES)
    return StandardFunctionTool(standard, name=name, context=context, approver=approver)


def to_agent_framework_tools(
    tools: Any,
    *,
    context: ContextGetter | None = None,
    approver: Approver | None = None,
) -> list[FunctionTool]:
    """Function tools for one tool or several; two names that collide raise ``ToolNameError``."""
    return export_tools(
        tools,
        lambda tool, name: to_agent_framework(tool, name=name, context=context, approver=approver),
        NAMES,
    )
