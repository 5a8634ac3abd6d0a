"""Standard tools as Agents SDK function tools."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar
from typing import Any

from agents import FunctionTool

import standard_tool as st
from standard_tool.adapters import (
    LARGE_NUMBER,
    build_context,
    export_tools,
    pack_metadata,
    result_text,
    to_export,
)
from standard_tool.boundary import Approver, check_approver, guarded_of, with_request_id
from standard_tool.exceptions import Issue, ToolRefusedError
from standard_tool.names import OPENAI_NAMES, NameRule
from standard_tool.providers import null_undo, to_openai

from ._approvals import PAUSES, answer_approved, needs_approval
from ._context import ContextGetter, context_from_run

__all__ = [
    "FAILURES",
    "NAMES",
    "ErrorFunction",
    "StandardFunctionTool",
    "report_failure",
    "to_openai_agents",
    "to_openai_agents_tools",
]

NAMES: NameRule = OPENAI_NAMES
"""The names an Agents SDK tool gets: what OpenAI models accept."""

ErrorFunction = Callable[[Any, Exception], "str | Awaitable[str]"]
"""The SDK's ``failure_error_function``: ``(run context, error) -> text the model reads``."""

_REPORTED = (st.ToolValidationError, st.ToolExecutionError, ToolRefusedError)
"""The errors a model's call reads as a tool output (their ``str()``)."""
_DERIVED = ("params_json_schema", "strict_json_schema")
FAILURES: ContextVar[list[Exception] | None] = ContextVar(
    "standard_tool_openai_agents_failures", default=None
)
"""Where an exported tool leaves the typed error behind a failure output the model reads."""


def report_failure(ctx: Any, error: Exception) -> str:
    """The text a model reads for a failed call: the error's own message, the same as in
    every framework (it names the tool and the failing fields, and quotes no value)."""
    return str(error)


class StandardFunctionTool(FunctionTool):
    """An Agents SDK ``FunctionTool`` that runs a standard tool.

    ``params_json_schema`` is the tool's input JSON Schema: its OpenAI strict rendering, with
    ``strict_json_schema`` true, exactly when the providers' strict walk finds one (else the
    schema itself, not strict); both are derived on first use. Strict mode's ``null`` for an
    absent property is removed before the tool sees the input. A failed call is a tool
    output the model reads (``failure_error_function``, by default the error's message).

    A guarded tool's gate decides the SDK's ``needs_approval`` (where the SDK has it): a call
    the gate holds pauses the run, and a person's approval in the SDK is recorded in the gate,
    under ``approver``, before the call runs through the gate; a rejection reaches the gate
    through :func:`rejection_formatter`.
    """

    def __init__(
        self,
        tool: st.StandardTool,
        *,
        name: str,
        context: ContextGetter | None = None,
        strict: bool | None = None,
        failure_error_function: ErrorFunction | None = report_failure,
        approver: Approver | None = None,
    ) -> None:
        for field in dataclasses.fields(FunctionTool):  # the SDK's defaults, as its __init__ sets
            if field.name in _DERIVED or not field.init:
                continue
            if field.default is not dataclasses.MISSING:
                setattr(self, field.name, field.default)
            elif field.default_factory is not dataclasses.MISSING:
                setattr(self, field.name, field.default_factory())
        self._standard = tool
        self._get_context = context or context_from_run
        self._strict_option = strict
        self._schema: dict[str, Any] | None = None
        self._strict: bool | None = None
        self._undo: Any = None
        self._failure = failure_error_function
        self.name = name
        self.description = tool.description
        self.on_invoke_tool = self._invoke
        if hasattr(self, "_failure_error_function"):  # 0.24+: the SDK's own failures too
            self._failure_error_function = failure_error_function
            self._use_default_failure_error_function = False
        self._guarded = guarded_of(tool) is not None
        self.approver = approver
        if self._guarded:
            self.is_enabled = self._visible
            if PAUSES:
                self.needs_approval = self._needs_approval

    @property
    def standard_tool(self) -> st.StandardTool:
        """The standard tool this function tool runs."""
        return self._standard

    @property
    def standard_tool_metadata(self) -> dict[str, Any]:
        """What a ``FunctionTool`` has no slot for (title, output schema, meta, an original
        name), as ``pack_metadata`` gives it."""
        return pack_metadata(self._standard, name=self.name)

    # -- the schema the model sees, derived on first use -----------------------------------

    def _derive(self) -> None:
        declared = to_openai(self._standard, strict=self._strict_option)
        self._strict = bool(declared["strict"])
        if self._strict:
            self._schema = declared["parameters"]
            self._undo = null_undo(self._standard)
        else:
            self._schema = copy.deepcopy(st.input_json_schema(self._standard))

    @property
    def params_json_schema(self) -> dict[str, Any]:
        if self._schema is None:
            self._derive()
        assert self._schema is not None
        return self._schema

    @params_json_schema.setter
    def params_json_schema(self, value: dict[str, Any]) -> None:
        if self._strict is None:
            self._derive()
        self._schema = value

    @property
    def strict_json_schema(self) -> bool:
        if self._strict is None:
            self._derive()
        return bool(self._strict)

    @strict_json_schema.setter
    def strict_json_schema(self, value: bool) -> None:
        if self._strict is None:
            self._derive()
        self._strict = value

    # -- a call ----------------------------------------------------------------------------

    def _visible(self, run_ctx: Any, agent: Any) -> bool:
        """Whether the guarded tool's gate shows the tool to this run (``is_enabled``)."""
        guarded = guarded_of(self._standard)
        if guarded is None:
            return True
        try:
            context = self._get_context(run_ctx)
        except Exception:  # no context to decide with: hidden
            return False
        return bool(guarded.gate.visible([guarded.wrapped], context))

    def arguments(self, input: str) -> Any:
        """The model's JSON arguments read, and strict mode's ``null``s for absent
        properties removed (:meth:`undone`)."""
        try:
            value = json.loads(input) if input else {}
        except RecursionError:
            issue = Issue("the arguments nest too deeply")
            raise st.ToolValidationError(self._standard.name, "input", [issue]) from None
        except ValueError as error:
            why = (
                f"the arguments hold {LARGE_NUMBER}"
                if "digits" in str(error)
                else "the arguments are not valid JSON"
            )
            raise st.ToolValidationError(self._standard.name, "input", [Issue(why)]) from None
        return self.undone(value)

    def undone(self, value: Any) -> Any:
        """Arguments read from JSON, with strict mode's ``null``s for absent properties
        removed."""
        if self._strict is None:
            self._derive()
        if self._undo is not None and self._strict:
            value = self._undo(value)
        return value

    def call_context(self, ctx: Any, call_id: Any) -> Any:
        """The standard context of the call ``call_id``: built from the SDK's ``ctx`` (a
        ``ToolContext``, or the run's ``RunContextWrapper`` when the SDK asks before the
        call), with ``call_id`` as the request id of a guarded tool."""
        context = build_context(self._standard.name, self._get_context, ctx)
        if self._guarded:
            context = with_request_id(self._standard, context, call_id)
        return context

    async def invoke(self, ctx: Any, input: str) -> Any:
        """The standard tool's result for one call (typed errors raised); a call a person
        approved in the SDK's pause has that approval recorded in the gate first."""
        arguments = self.arguments(input)
        context = self.call_context(ctx, getattr(ctx, "tool_call_id", None))
        if self._guarded:
            answer_approved(self, ctx, arguments, context)
        return await st.acall(self._standard, arguments, context)

    async def _needs_approval(self, ctx: Any, params: Any, call_id: Any) -> bool:
        return await needs_approval(self, ctx, params, call_id)

    async def _invoke(self, ctx: Any, input: str) -> Any:
        try:
            return result_text(self._standard.name, await self.invoke(ctx, input))
        except _REPORTED as error:
            if self._failure is None:
                raise
            sink = FAILURES.get()
            if sink is not None:
                sink.append(error)
            return await self.report(ctx, error)

    async def report(self, ctx: Any, error: Exception) -> str:
        """What the model reads for a failed call: the failure function's text (the error's
        own message when there is none)."""
        if self._failure is None:
            return str(error)
        message = self._failure(ctx, error)
        return await message if inspect.isawaitable(message) else message

    def __repr__(self) -> str:
        return f"StandardFunctionTool({self.name!r})"


def to_openai_agents(
    tool: Any,
    *,
    name: str | None = None,
    context: ContextGetter | None = None,
    strict: bool | None = None,
    failure_error_function: ErrorFunction | None = report_failure,
    approver: Approver | None = None,
) -> FunctionTool:
    """An Agents SDK ``FunctionTool`` running ``tool`` (anything :func:`standard_tool.adopt`
    takes).

    Args:
        tool: the tool to run.
        name: the name the model sees (checked against :data:`NAMES`); by default the tool's
            name made valid for it (``from_openai_agents`` restores the original).
        context: builds the standard context from the call's ``ToolContext``; by default the
            run's own context object (``ctx.context``).
        strict: ``None`` (default): strict mode exactly when the input schema has an OpenAI
            strict form; ``True``: strict, raising ``SchemaNotExpressibleError`` here when it
            has none; ``False``: the schema as it is, not strict.
        failure_error_function: the text a model reads for a failed call (invalid input, a
            failure, a timeout, a refusal); ``None`` lets the typed error end the run.
        approver: who decides on a guarded tool's held calls in the SDK's own pause and
            resume (``state.approve(item)`` / ``state.reject(item)``), which carries no
            approver: a name, or a function of the call's standard context giving one. The
            gate records each decision under it. Needed once a decision is made in the SDK
            (else the resumed run raises ``UsageError``, as the SDK's ``UserError`` cause);
            not for calls decided in the gate itself (``gate.approve``). A rejection in the
            SDK reaches the gate through ``RunConfig(tool_error_formatter=
            rejection_formatter(agent))``.
    """
    check_approver(approver)
    standard, name = to_export(tool, name, NAMES)
    if strict not in (True, False, None):
        raise st.UsageError(f"strict is True, False or None, not {strict!r}")
    native = StandardFunctionTool(
        standard,
        name=name,
        context=context,
        strict=strict,
        failure_error_function=failure_error_function,
        approver=approver,
    )
    if strict:
        native._derive()  # a schema with no strict form raises here, not in a run
    return native


def to_openai_agents_tools(
    tools: Iterable[Any] | Any,
    *,
    context: ContextGetter | None = None,
    strict: bool | None = None,
    failure_error_function: ErrorFunction | None = report_failure,
    approver: Approver | None = None,
) -> list[FunctionTool]:
    """Function tools for one tool or several; two names that collide raise ``ToolNameError``."""
    return export_tools(
        tools,
        lambda tool, name: to_openai_agents(
            tool,
            name=name,
            context=context,
            strict=strict,
            failure_error_function=failure_error_function,
            approver=approver,
        ),
        NAMES,
    )
