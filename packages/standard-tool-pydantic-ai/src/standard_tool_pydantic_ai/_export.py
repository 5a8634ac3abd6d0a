"""Standard tools as PydanticAI tools and toolsets."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from functools import cached_property
from typing import Any, Literal

import pydantic_core
from pydantic import ValidationError
from pydantic_ai import RunContext, Tool
from pydantic_ai._function_schema import FunctionSchema
from pydantic_ai.exceptions import ModelRetry
from pydantic_ai.messages import ToolReturn
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import FunctionToolset

import standard_tool as st
from standard_tool.adapters import (
    LARGE_NUMBER,
    METADATA_KEY,
    Accepted,
    acall_accepted,
    accepting,
    accepting_json,
    adopt_each,
    issues_from_pydantic,
    pack_metadata,
)
from standard_tool.boundary import Approver, check_approver, guarded_of, with_request_id
from standard_tool.exceptions import (
    Issue,
    NotJsonError,
    ServerError,
    StandardToolError,
    ToolExecutionError,
    ToolNameError,
    ToolRefusedError,
    ToolValidationError,
    UsageError,
)
from standard_tool.names import OPENAI_NAMES, NameMap, NameRule, sanitize_name

from ._approvals import approved_context, check_expires_in, record_denials
from ._boundary import deferral
from ._compat import ToolFailed
from ._context import ContextOption, context_getter, deps

__all__ = [
    "METADATA_KEY",
    "NAMES",
    "OnFailure",
    "StandardPydanticAITool",
    "to_pydantic_ai",
    "to_pydantic_ai_toolset",
]

NAMES: NameRule = OPENAI_NAMES
"""The names a PydanticAI tool gets: what the chat models it is sent to accept."""

OnFailure = Literal["report", "retry", "raise"]
"""What a failure of the tool (it raised, timed out, or broke its output schema) becomes."""
_ON_FAILURE = ("report", "retry", "raise")
_SCALARS = frozenset({str, int, float, bool, type(None)})
_FAILURES = (ToolExecutionError, ServerError, NotJsonError, ToolValidationError)

TYPED_ERRORS: ContextVar[bool] = ContextVar("standard_tool_pydantic_ai_typed", default=False)
"""Set while a standard caller runs an exported tool through PydanticAI: its errors are raised
as they are. The exported tool clears it for what runs beneath it (an agent run inside the
tool reports its own tools' errors to its own model)."""


class _Unset(enum.Enum):
    """A field not derived yet (an enum member: copies of the tool see it as itself)."""

    UNSET = enum.auto()


_UNSET: Any = _Unset.UNSET


def _nothing_wrong(value: Any) -> None:
    return None


class AcceptedArguments(dict[str, Any]):
    """Arguments the tool's own check accepted in PydanticAI's validation step, as the dict
    PydanticAI carries to the call; ``accepted`` is what the check made of them, which the
    call runs on without checking them again. Changed in place (by a hook between the two
    steps), the dict drops it, and the call checks the arguments as they are then."""

    __slots__ = ("accepted",)

    accepted: Accepted | None

    def __setitem__(self, key: str, value: Any) -> None:
        self.accepted = None
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self.accepted = None
        super().__delitem__(key)

    def __ior__(self, other: Any) -> AcceptedArguments:  # type: ignore[override,misc]
        self.accepted = None
        return super().__ior__(other)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.accepted = None
        super().update(*args, **kwargs)

    def pop(self, *args: Any) -> Any:
        self.accepted = None
        return super().pop(*args)

    def popitem(self) -> tuple[str, Any]:
        self.accepted = None
        return super().popitem()

    def setdefault(self, key: str, default: Any = None) -> Any:
        self.accepted = None
        return super().setdefault(key, default)

    def clear(self) -> None:
        self.accepted = None
        super().clear()

    def __reduce__(self) -> Any:
        return (dict, (dict(self),))  # a plain dict elsewhere: checked again there


class StandardArgsValidator:
    """PydanticAI's argument validator for a standard tool.

    It checks the arguments against the tool's input schema (raw JSON Schema with full
    2020-12 semantics, or the tool's own schema) before PydanticAI calls the tool, so an
    approval-required call is refused before anyone is asked. Invalid arguments raise
    ``ModelRetry`` with the tool's name and every failing field; valid ones are returned as
    they came, since the tool parses its own input.
    """

    def __init__(self, tool: st.StandardTool) -> None:
        self.tool = tool

    @cached_property
    def _guarded(self) -> bool:
        """A guarded tool's gate checks the input itself, after visibility and under the call's
        request id, and refuses it as ``invalid_arguments``."""
        return guarded_of(self.tool) is not None

    @cached_property
    def _accept(self) -> Callable[[Any], Accepted] | None:
        """The tool's own input check (``None`` for a guarded tool, whose gate checks, and for
        a tool whose ``execute`` does not split: its arguments are checked by ``issues``)."""
        return None if self._guarded else accepting(self.tool)

    @cached_property
    def _accept_json(self) -> Callable[[Any], Accepted | None] | None:
        """The tool's own input check from the arguments' JSON text (see ``_accept``)."""
        return None if self._guarded else accepting_json(self.tool)

    @cached_property
    def _issues(self) -> Callable[[Any], Sequence[Issue] | None]:
        """What is wrong with a value, by the tool's input schema (compiled on first use)."""
        schema = st.as_schema(getattr(self.tool, "input_schema", None))
        if schema is None or self._guarded:
            return _nothing_wrong
        if isinstance(schema, st.PydanticSchema):  # pydantic-core directly: no Result made
            validate_python = schema.validator.validate_python

            def pydantic_issues(value: Any) -> Sequence[Issue] | None:
                try:
                    validate_python(value)
                except ValidationError as exc:
                    return issues_from_pydantic(exc)
                except RecursionError:
                    return [Issue("is nested too deeply")]
                return None

            return pydantic_issues
        validate = schema.validate
        return lambda value: validate(value).issues

    def validate_json(
        self, input: str | bytes | bytearray, *, allow_partial: Any = False, **_: Any
    ) -> Any:
        partial = allow_partial not in (False, "off")
        accept_json = None if partial else self._accept_json
        if accept_json is not None:  # read and checked at once: the call reuses it
            try:
                accepted = accept_json(input or "{}")
            except ToolValidationError as error:
                raise self._invalid(error.issues) from None
            if accepted is not None:
                arguments = AcceptedArguments(accepted.input)
                arguments.accepted = accepted
                return arguments
        try:
            value = pydantic_core.from_json(
                input or "{}", allow_partial=allow_partial if partial else False
            )
        except ValueError as error:  # pydantic-core reads at most 4300 digits, as Python does
            why = (
                f"the arguments hold {LARGE_NUMBER}"
                if str(error).startswith("number out of range")
                else "the arguments are not valid JSON"
            )
            raise self._invalid([Issue(why)]) from None
        return self._check(value, partial)

    def validate_python(self, input: Any, *, allow_partial: Any = False, **_: Any) -> Any:
        return self._check(input, allow_partial not in (False, "off"))

    def issues(self, value: Any) -> Sequence[Issue] | None:
        """What is wrong with ``value`` as the tool's arguments, or ``None``."""
        issues = self._issues(value)
        if issues is None and not isinstance(value, dict):
            return [Issue("the arguments must be a JSON object")]
        return issues

    def _check(self, value: Any, partial: bool) -> Any:
        if partial:  # a call still streaming in: nothing to check yet
            return value if isinstance(value, dict) else {}
        accept = self._accept
        if accept is not None and type(value) is dict:  # checked once: the call reuses it
            try:
                accepted = accept(value)
            except ToolValidationError as error:
                raise self._invalid(error.issues) from None
            arguments = AcceptedArguments(value)
            arguments.accepted = accepted
            return arguments
        issues = self.issues(value)
        if issues is not None:
            raise self._invalid(issues)
        return value

    def _invalid(self, issues: Iterable[Issue]) -> Exception:
        error = ToolValidationError(self.tool.name, "input", issues)
        if TYPED_ERRORS.get():
            return error
        if self._guarded:  # the refusal's line, as the gate would word it (no call was made)
            return ModelRetry(
                str(ToolRefusedError(self.tool.name, "invalid_arguments", str(error)))
            )
        return ModelRetry(str(error))

    def __getstate__(self) -> dict[str, Any]:
        return {"tool": self.tool}  # the compiled schema is made again on use


class _StandardFunctionSchema(FunctionSchema):
    """The function schema of an exported tool: the tool's own JSON Schemas, derived on first
    use, and a call that hands the arguments to the standard tool as one dict."""

    def __init__(self, owner: StandardPydanticAITool) -> None:
        self._owner = owner
        self._json_schema = self._return_schema = _UNSET
        super().__init__(
            function=self._call_with_keywords,
            name=owner.name,
            description=owner.standard_tool.description,
            validator=StandardArgsValidator(owner.standard_tool),  # type: ignore[arg-type]
            json_schema=_UNSET,
            takes_ctx=True,
            is_async=True,
            return_schema=_UNSET,
        )

    @property
    def json_schema(self) -> dict[str, Any]:
        if self._json_schema is _UNSET:
            self._json_schema = st.input_json_schema(self._owner.standard_tool)
        schema: dict[str, Any] = self._json_schema
        return schema

    @json_schema.setter
    def json_schema(self, value: dict[str, Any]) -> None:
        self._json_schema = value

    @property  # type: ignore[override]
    def return_schema(self) -> dict[str, Any] | None:
        if self._return_schema is _UNSET:
            self._return_schema = st.output_json_schema(self._owner.standard_tool)
        schema: dict[str, Any] | None = self._return_schema
        return schema

    @return_schema.setter
    def return_schema(self, value: dict[str, Any] | None) -> None:
        self._return_schema = value

    async def call(self, args_dict: dict[str, Any], ctx: RunContext[Any]) -> Any:
        """Run the standard tool for one call: its result, or the failure as ``on_failure``
        says (invalid arguments are a ``ModelRetry``)."""
        owner = self._owner
        get_context = owner._get_context
        context = ctx.deps if get_context is deps else get_context(ctx)
        guarded = owner._guarded
        if guarded is not None:
            context = with_request_id(owner._standard, context, ctx.tool_call_id)
            if ctx.tool_call_approved:  # a person approved it in PydanticAI: the gate records it
                context = approved_context(
                    guarded, args_dict, context, ctx, owner._approver, owner._expires_in
                )
        typed = TYPED_ERRORS.get()
        token = TYPED_ERRORS.set(False) if typed else None
        try:
            accepted = args_dict.accepted if type(args_dict) is AcceptedArguments else None
            if accepted is None:
                result = await st.acall(owner._standard, args_dict, context)
            else:  # checked in PydanticAI's validation step: not checked again
                result = await acall_accepted(owner._standard, accepted, context)
            return result if type(result) in _SCALARS else _serializable(result)
        except ToolRefusedError as refusal:
            if typed:
                raise
            return owner._refused(refusal, ctx)
        except _FAILURES as error:
            if typed:
                raise
            if isinstance(error, ToolValidationError) and error.target == "input":
                raise ModelRetry(str(error)) from error
            return owner._failed(error)
        finally:
            if token is not None:
                TYPED_ERRORS.reset(token)

    async def _call_with_keywords(self, ctx: RunContext[Any], /, **arguments: Any) -> Any:
        return await self.call(arguments, ctx)


class StandardPydanticAITool(Tool[Any]):
    """A PydanticAI ``Tool`` that runs a standard tool.

    The model sees the tool's input JSON Schema as it is (``parameters_json_schema``), its
    output JSON Schema as ``return_schema``, and title, meta and output schema under
    ``metadata["standard_tool"]``; all three are derived on first use. Arguments are
    validated before the call (invalid ones are a ``ModelRetry``); what a failure of the
    tool becomes is ``on_failure``.
    """

    def __init__(
        self,
        tool: st.StandardTool,
        *,
        name: str | None = None,
        context: ContextOption = "deps",
        on_failure: OnFailure = "report",
        strict: bool | None = None,
        approver: Approver | None = None,
        approval_expires_in: float | None = None,
    ) -> None:
        if on_failure not in _ON_FAILURE:
            raise UsageError(f"on_failure must be one of {_ON_FAILURE}, not {on_failure!r}")
        self._approver = check_approver(approver)
        self._expires_in = check_expires_in(approval_expires_in)
        self._standard = tool
        self._get_context = context_getter(context)
        self._on_failure = on_failure
        self._guarded = guarded_of(tool)
        self.name = name or tool.name
        schema = _StandardFunctionSchema(self)
        super().__init__(
            schema.function,
            takes_ctx=True,
            name=self.name,
            description=tool.description,
            strict=strict,
            function_schema=schema,
        )
        self._metadata: Any = _UNSET

    @property
    def standard_tool(self) -> st.StandardTool:
        """The standard tool this PydanticAI tool runs."""
        return self._standard

    @property
    def metadata(self) -> dict[str, Any] | None:
        """PydanticAI's tool metadata: the ``standard_tool`` entry, derived on first use."""
        if self._metadata is _UNSET:
            self._metadata = {METADATA_KEY: pack_metadata(self._standard, name=self.name)}
        metadata: dict[str, Any] | None = self._metadata
        return metadata

    @metadata.setter
    def metadata(self, value: dict[str, Any] | None) -> None:
        self._metadata = value

    async def call(self, ctx: RunContext[Any], arguments: dict[str, Any]) -> Any:
        """Run the standard tool for one call: its result, or the failure as ``on_failure``
        says (invalid arguments are a ``ModelRetry``)."""
        return await self.function_schema.call(arguments, ctx)

    def _failed(self, error: StandardToolError) -> Any:
        message = str(error)
        if self._on_failure == "raise":
            raise error
        if self._on_failure == "retry":
            raise ModelRetry(message) from error
        return _report(error)

    def _refused(self, refusal: ToolRefusedError, ctx: RunContext[Any]) -> Any:
        """A refused call, as the model reads it: invalid arguments are a ``ModelRetry``; a
        call its gate held ends the run with ``DeferredToolRequests`` when it can (see
        :func:`deferral`); any other refusal is a failed result; each with the refusal's line."""
        if refusal.code == "invalid_arguments":
            raise ModelRetry(str(refusal)) from refusal
        deferred = deferral(refusal, self._guarded, ctx)
        if deferred is not None:
            raise deferred from refusal
        return _report(refusal)

    async def prepare_tool_def(self, ctx: RunContext[Any]) -> ToolDefinition | None:
        """The tool's definition for this run step; ``None`` (not offered to the model) for a
        guarded tool its gate hides from this run's context. For a guarded tool, first records
        in its gate the denials PydanticAI answered in the run's last request (see
        :func:`record_denials`)."""
        guarded = self._guarded
        if guarded is not None:
            record_denials(guarded, ctx, self._get_context, self._approver)
            if not guarded.gate.visible([guarded.wrapped], self._get_context(ctx)):
                return None
        return await super().prepare_tool_def(ctx)

    def __repr__(self) -> str:
        return f"StandardPydanticAITool({self.name!r})"


def _report(error: StandardToolError) -> Any:
    """``error`` as a failed tool result the model reads (``ToolFailed``; on PydanticAI 1.x,
    which has none, its message as the result)."""
    message = str(error)
    if ToolFailed is not None:
        raise ToolFailed(message) from error
    return ToolReturn(return_value=message, metadata={METADATA_KEY: {"error": message}})


def is_exported(native: Any) -> bool:
    """Whether ``native`` (a ``Tool`` or a toolset's tool) runs a standard tool exported here."""
    if isinstance(native, StandardPydanticAITool):
        return True
    return isinstance(
        getattr(getattr(native, "call_func", None), "__self__", None), _StandardFunctionSchema
    )


def _serializable(result: Any) -> Any:
    """``result`` as PydanticAI gets it: as it is when pydantic serializes it (PydanticAI
    does so for the model), else as JSON data (``standard_tool.jsonable``)."""
    if type(result) in _SCALARS:
        return result
    try:
        pydantic_core.to_jsonable_python(result)
    except Exception:
        return st.jsonable(result)
    return result


def to_pydantic_ai(
    tool: Any,
    *,
    name: str | None = None,
    context: ContextOption = "deps",
    on_failure: OnFailure = "report",
    strict: bool | None = None,
    approver: Approver | None = None,
    approval_expires_in: float | None = None,
) -> Tool[Any]:
    """A PydanticAI ``Tool`` running ``tool`` (anything :func:`standard_tool.adopt` takes).

    Args:
        tool: the tool to run.
        name: the name the model sees; by default the tool's name made valid for
            :data:`NAMES` (the original is kept in the metadata, ``from_pydantic_ai``
            restores it).
        context: what the tool receives as its context: the run's ``deps`` (``"deps"``), the
            whole ``RunContext`` (``"run_context"``), or what a function of the
            ``RunContext`` returns.
        on_failure: what a failure of the tool becomes: ``"report"`` a failed tool result
            the model reads (``ToolFailed``; PydanticAI 1.x, which has none, gets the message
            as the result), ``"retry"`` a ``ModelRetry`` (it counts against the tool's
            retries), ``"raise"`` the typed error, out of ``agent.run``.
        strict: PydanticAI's ``strict`` for the tool; ``None`` leaves it to PydanticAI.
        approver: for a guarded tool, who decides on its held calls in PydanticAI's deferred
            tools (``DeferredToolResults``), as the gate records them: a name, or a function
            of the call's standard context that gives one (``lambda context:
            context["reviewer"]``). PydanticAI carries no approver: without one, a decision
            to record raises ``UsageError`` out of ``agent.run``.
        approval_expires_in: seconds an approval given in PydanticAI holds once recorded (the
            call runs at once, under it; one that lapses meanwhile, behind a slow policy say,
            is held again).
    """
    standard = st.adopt(tool)
    return StandardPydanticAITool(
        standard,
        name=name or sanitize_name(standard.name, NAMES),
        context=context,
        on_failure=on_failure,
        strict=strict,
        approver=approver,
        approval_expires_in=approval_expires_in,
    )


def _label(index: int, tool: st.StandardTool) -> str:
    first_line = (tool.description or "").strip().split("\n", 1)[0][:60]
    return f"#{index} {tool.name!r}" + (f" ({first_line})" if first_line else "")


def to_pydantic_ai_toolset(
    tools: Iterable[Any] | Any,
    *,
    id: str | None = None,
    context: ContextOption = "deps",
    on_failure: OnFailure = "report",
    strict: bool | None = None,
    approver: Approver | None = None,
    approval_expires_in: float | None = None,
) -> FunctionToolset[Any]:
    """A ``FunctionToolset`` of one tool or several, in order, each as :func:`to_pydantic_ai`
    makes it; two tools whose names collide (before or after sanitizing) raise
    ``ToolNameError`` naming both."""
    names = NameMap(NAMES)
    seen: list[tuple[int, st.StandardTool]] = []
    exported = []
    for index, standard in enumerate(adopt_each(tools)):
        try:
            name = names.add(standard.name)
        except ToolNameError as error:
            target = sanitize_name(standard.name, NAMES)
            other = next((i, t) for i, t in seen if sanitize_name(t.name, NAMES) == target)
            raise ToolNameError(
                f"{error}: {_label(*other)} and {_label(index, standard)}"
            ) from None
        seen.append((index, standard))
        exported.append(
            to_pydantic_ai(
                standard,
                name=name,
                context=context,
                on_failure=on_failure,
                strict=strict,
                approver=approver,
                approval_expires_in=approval_expires_in,
            )
        )
    return FunctionToolset(exported, id=id)
