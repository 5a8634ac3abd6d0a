"""PydanticAI tools and toolsets as standard tools."""

from __future__ import annotations

import asyncio
import copy
import inspect
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any, Literal

from pydantic import ValidationError
from pydantic_ai import RunContext, Tool
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ModelRetry
from pydantic_ai.messages import ToolReturn
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset, FunctionToolset, ToolsetTool

import standard_tool as st
from standard_tool import JsonSchema, Result
from standard_tool.adapters import (
    METADATA_KEY,
    AdoptedTool,
    Stored,
    issues_from_pydantic,
    unpack_metadata,
)
from standard_tool.dialects import convert_schema
from standard_tool.exceptions import (
    ConversionError,
    Issue,
    ServerError,
    ToolExecutionError,
    ToolNameError,
    ToolTimeoutError,
    ToolValidationError,
    UnsupportedObjectError,
)

from ._compat import ToolFailed
from ._context import run_context_for
from ._export import TYPED_ERRORS, StandardArgsValidator, is_exported

__all__ = [
    "DEFAULT_TIMEOUT",
    "PydanticAIArguments",
    "PydanticAITool",
    "from_pydantic_ai",
    "from_pydantic_ai_toolset",
    "load_pydantic_ai_toolset",
]

DEFAULT_TIMEOUT = 60.0
"""Seconds listing a toolset's tools may take before it fails."""
_MAX_MESSAGE = 300
_MARGIN = 1.0
"""Seconds a sync listing waits beyond ``timeout`` for a listing that ignores cancellation."""
_PROBE_KEY = "\x00standard-tool-probe"


class _Probe:
    """A value no argument validator that checks anything accepts."""


def _passes_anything(validator: Any) -> bool:
    """Whether ``validator`` accepts any arguments unchanged (``Tool.from_schema`` and toolsets
    whose tools are described by a raw JSON Schema): then the schema is checked here."""
    if isinstance(validator, StandardArgsValidator):
        return False
    probe = {_PROBE_KEY: _Probe()}
    try:
        return bool(validator.validate_python(probe) == probe)
    except Exception:
        return False


class PydanticAIArguments:
    """A PydanticAI tool's arguments as a standard schema, described by the JSON Schema the
    model sees: checked against that JSON Schema (JSON types strict), then by PydanticAI's
    own validator, as an adopted tool checks them; a tool exported here, by the standard
    tool it runs."""

    def __init__(self, validator: Any, schema: dict[str, Any]) -> None:
        self.validator = validator
        self.schema = schema

    @cached_property
    def _json_schema(self) -> JsonSchema:
        return JsonSchema(self.schema)

    def validate(self, value: Any, /) -> Result:
        validator = self.validator
        if isinstance(validator, StandardArgsValidator):  # a tool exported here: its issues
            issues = validator.issues(value)
            return Result(value) if issues is None else Result(issues=tuple(issues))
        refused = self._json_schema.issues(value)
        if refused is not None:
            return Result(issues=refused)
        try:
            return Result(validator.validate_python(value))
        except ValidationError as exc:
            return Result(issues=issues_from_pydantic(exc))
        except ModelRetry as exc:  # a validator asking the model to try again
            return Result(issues=(Issue(_clip(exc.message)),))

    def json_schema(
        self, *, side: Literal["input", "output"] = "input", target: str = "draft-2020-12"
    ) -> dict[str, Any]:
        schema: dict[str, Any] = convert_schema(copy.deepcopy(self.schema), target)  # type: ignore[assignment]
        return schema

    def __repr__(self) -> str:
        return f"PydanticAIArguments({self.schema!r})"


def _stored(definition: ToolDefinition) -> tuple[Stored, bool]:
    metadata = definition.metadata
    if isinstance(metadata, Mapping) and METADATA_KEY in metadata:
        return unpack_metadata(metadata[METADATA_KEY]), True
    return Stored(), False


def _clip(message: str) -> str:
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."


class PydanticAITool(AdoptedTool):
    """A standard tool that runs a PydanticAI tool through its toolset's own ``call_tool``.

    The input is checked here against the JSON Schema the model sees, JSON types strict
    (``"5"`` is not an integer), whatever target runs the tool; PydanticAI's own argument
    validation then runs as in an agent run. A tool exported here keeps the rule of the
    standard tool it runs. A tool that takes a ``RunContext`` gets one whose ``deps`` is the
    standard context. ``ModelRetry`` raised by the tool (or its validation) is a
    :class:`ToolValidationError` on the input, ``ToolFailed`` a :class:`ToolExecutionError`.
    """

    framework = "PydanticAI"
    is_async = True
    has_async = True
    validate_output = False

    def __init__(
        self,
        native: Tool[Any] | ToolsetTool[Any],
        definition: ToolDefinition,
        toolset: AbstractToolset[Any],
        listed: ToolsetTool[Any] | None = None,
    ) -> None:
        stored, present = _stored(definition)
        fields = stored.fields()
        if not present:
            returns = definition.return_schema
            fields["output_schema"] = returns if isinstance(returns, dict) and returns else None
        super().__init__(
            native,
            name=stored.name or definition.name,
            description=definition.description or "",
            **{k: v for k, v in fields.items() if k != "name"},
        )
        self.definition = definition
        self.toolset = toolset
        self._listed = listed

    @cached_property
    def _exported(self) -> bool:
        """Whether the tool is one this package exported: then its errors come back typed."""
        return is_exported(self.wrapped)

    @cached_property
    def _validator(self) -> Any:
        native = self.wrapped
        return (
            native.function_schema.validator if isinstance(native, Tool) else native.args_validator
        )

    @cached_property
    def _ours(self) -> bool:
        """Whether the tool runs a standard tool exported here (its validator is ours)."""
        return isinstance(self._validator, StandardArgsValidator)

    @cached_property
    def input_schema(self) -> Any:
        """The JSON Schema the model sees; unless PydanticAI checks nothing (a raw JSON
        Schema), with PydanticAI's own validator on top (:class:`PydanticAIArguments`)."""
        schema = self.definition.parameters_json_schema
        if _passes_anything(self._validator):
            return schema
        return PydanticAIArguments(self._validator, schema)

    @property
    def timeout(self) -> float | None:
        """PydanticAI's time limit for the tool, if it has one (enforced by PydanticAI), or
        the one assigned to this tool."""
        assigned: float | None = self.__dict__.get("_timeout")
        if assigned is not None:
            return assigned
        limit = self.definition.timeout
        return None if limit is None else float(limit)

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        self.__dict__["_timeout"] = value

    async def _toolset_tool(self, ctx: RunContext[Any]) -> ToolsetTool[Any]:
        if self._listed is not None:
            return self._listed
        tool = (await self.toolset.get_tools(ctx)).get(self.definition.name)
        if tool is None:
            raise ToolExecutionError(
                self.name, "not available in this context (its prepare function left it out)"
            )
        return tool

    async def arun(self, input: Any, context: Any) -> Any:
        name = self.definition.name
        ctx = run_context_for(context, name)
        token = TYPED_ERRORS.set(True) if self._exported else None
        try:
            async with self.toolset:
                tool = await self._toolset_tool(ctx)
                args = tool.args_validator.validate_python({} if input is None else input)
                check = tool.args_validator_func
                if check is not None:
                    checked = check(ctx, **args)
                    if inspect.isawaitable(checked):
                        await checked
                try:
                    result = await self.toolset.call_tool(name, args, ctx, tool)
                except ModelRetry as exc:
                    if not _pydantic_ai_timed_out(exc):
                        raise
                    raise _timeout(self.name, tool) from exc
        finally:
            if token is not None:
                TYPED_ERRORS.reset(token)
        return result.return_value if isinstance(result, ToolReturn) else result

    def translate(self, exc: Exception) -> Exception:
        if isinstance(exc, ValidationError):
            return ToolValidationError(self.name, "input", issues_from_pydantic(exc))
        if isinstance(exc, ModelRetry):
            return ToolValidationError(self.name, "input", [Issue(_clip(exc.message))])
        if ToolFailed is not None and isinstance(exc, ToolFailed):
            return ToolExecutionError(self.name, exc.message)
        if isinstance(exc, ApprovalRequired):
            return ToolExecutionError(self.name, "the call needs approval (ApprovalRequired)")
        if isinstance(exc, CallDeferred):
            return ToolExecutionError(
                self.name, "the call is deferred: its result comes from outside (CallDeferred)"
            )
        return exc

    def __repr__(self) -> str:
        return f"PydanticAITool({self.definition.name!r})"


def _pydantic_ai_timed_out(exc: ModelRetry) -> bool:
    """Whether PydanticAI itself raised ``exc`` for its time limit: raised from its own code
    while handling the ``TimeoutError`` of that limit (a tool's own retry, whatever its text,
    is raised from the tool's code)."""
    if not isinstance(exc.__context__, TimeoutError):
        return False
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    module = None if tb is None else tb.tb_frame.f_globals.get("__name__")
    return isinstance(module, str) and module.startswith("pydantic_ai.")


def _timeout(name: str, tool: ToolsetTool[Any]) -> ToolExecutionError:
    """The error for a call PydanticAI stopped at its time limit: the tool's own limit, else
    its toolset's (as PydanticAI picks it)."""
    limit = getattr(getattr(tool, "tool_def", None), "timeout", None)
    for holder in (tool, getattr(tool, "toolset", None)):
        if limit is None:
            limit = getattr(holder, "timeout", None)
    if isinstance(limit, (int, float)) and not isinstance(limit, bool):
        return ToolTimeoutError(name, float(limit))
    return ToolExecutionError(name, "PydanticAI stopped the call at its time limit")


def _together(tools: list[Tool[Any]]) -> FunctionToolset[Any]:
    """A toolset of ``tools`` that leaves them as they are (``add_tool`` would give them the
    toolset's retries on 1.x)."""
    toolset: FunctionToolset[Any] = FunctionToolset()
    for tool in tools:
        if tool.name in toolset.tools:
            raise ToolNameError(f"two tools are named {tool.name!r}")
        toolset.tools[tool.name] = tool
    return toolset


def from_pydantic_ai(tool: Any) -> PydanticAITool:
    """A standard tool that runs a PydanticAI ``Tool`` through PydanticAI's own runtime."""
    if isinstance(tool, Tool):
        return PydanticAITool(tool, tool.tool_def, _together([tool]))
    kind = f"{type(tool).__module__}.{type(tool).__qualname__}"
    hint = (
        "; for a toolset, use from_pydantic_ai_toolset()"
        if isinstance(tool, AbstractToolset)
        else ""
    )
    raise UnsupportedObjectError(f"not a PydanticAI Tool: {kind}{hint}")


async def load_pydantic_ai_toolset(
    toolset: AbstractToolset[Any] | Iterable[Any],
    *,
    deps: Any = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> list[PydanticAITool]:
    """Standard tools for every tool a toolset lists, in its order (async).

    The toolset is entered and asked for its tools with a ``RunContext`` whose ``deps`` is
    ``deps``, as at the start of an agent run; the tools keep that run's toolset. A toolset
    that cannot list its tools outside an agent run raises ``ConversionError``, one that does
    not answer within ``timeout`` seconds ``ServerError``.
    """
    if not isinstance(toolset, AbstractToolset):
        tools = list(toolset)
        if not all(isinstance(tool, Tool) for tool in tools):
            raise UnsupportedObjectError(
                "not a PydanticAI toolset, nor a list of PydanticAI Tools: "
                f"{type(toolset).__module__}.{type(toolset).__qualname__}"
            )
        toolset = _together(tools)
    ctx = run_context_for(deps, "")
    label = _label(toolset)
    try:
        step, listed = await asyncio.wait_for(_list(toolset, ctx, label), timeout)
    except (TimeoutError, asyncio.TimeoutError) as exc:
        raise ServerError(label, f"its tools were not listed within {timeout} s") from exc
    return [PydanticAITool(tool, tool.tool_def, step, tool) for tool in listed]


def _label(toolset: Any) -> str:
    """The toolset's name in messages: its ``label``, else its class name."""
    try:
        label = toolset.label
    except Exception:
        label = None
    return label if isinstance(label, str) and label else type(toolset).__name__


async def _list(
    toolset: AbstractToolset[Any], ctx: RunContext[Any], label: str
) -> tuple[AbstractToolset[Any], list[ToolsetTool[Any]]]:
    """The toolset of this run step and the tools it lists, as at the start of an agent run.

    Whatever the listing raises (``SystemExit`` and ``KeyboardInterrupt`` too, which would
    otherwise stop the event loop running it), or a listing that is not a mapping of
    ``ToolsetTool``, is a ``ConversionError`` naming the toolset; its own timeouts stay
    timeouts.
    """
    try:
        run = await toolset.for_run(ctx)
        step = await run.for_run_step(ctx)
        async with step:
            listed = await step.get_tools(ctx)
    except TimeoutError:
        raise
    except (Exception, KeyboardInterrupt, SystemExit) as exc:
        raise ConversionError(
            f"cannot list the tools of {label} outside an agent run: {type(exc).__name__}: {exc}"
        ) from exc
    tools = list(listed.values()) if isinstance(listed, Mapping) else None
    if tools is None or not all(
        isinstance(tool, ToolsetTool) and isinstance(tool.tool_def, ToolDefinition)
        for tool in tools
    ):
        raise ConversionError(
            f"cannot adopt the tools of {label}: its get_tools() returned "
            f"{type(listed).__name__}, not a mapping of names to ToolsetTool"
        )
    return step, tools


def from_pydantic_ai_toolset(
    toolset: AbstractToolset[Any] | Iterable[Any],
    *,
    deps: Any = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> list[PydanticAITool]:
    """Standard tools for every tool a toolset lists (or a list of ``Tool``\\ s), in order.

    From sync code, also inside a running event loop (the listing runs on the shared
    background loop); from async code, ``await load_pydantic_ai_toolset(...)`` lists on the
    caller's loop, which a toolset bound to that loop (an open connection) needs.
    """
    listing = load_pydantic_ai_toolset(toolset, deps=deps, timeout=timeout)
    if timeout is None:
        return st.run_sync(listing)
    try:  # a margin for a listing that ignores its cancellation
        return st.run_sync(listing, timeout + _MARGIN)
    except TimeoutError as exc:
        raise ServerError(_label(toolset), f"its tools were not listed within {timeout} s") from exc
