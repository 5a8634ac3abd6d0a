"""One base for tools built around another object: adopted framework tools and wrappers."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, Literal, NoReturn

from .._protocols import StandardSchema
from ..exceptions import (
    NotJsonError,
    StandardToolError,
    ToolTimeoutError,
    ToolValidationError,
    UsageError,
)
from ..run._call import CoreTool, acall, call
from ..run._redact import redact_error
from ..schema._json import jsonable
from ..schema._schema import JsonSchema, as_schema
from ._json_schemas import input_json_schema

__all__ = ["FIELDS", "WrapperTool", "keyword_functions"]

FIELDS = ("name", "title", "description", "input_schema", "output_schema", "meta")
"""The fields of a standard tool, which a wrapper delegates."""
_DEFAULTS: dict[str, Any] = {"title": None, "input_schema": None, "output_schema": None}


class _Field:
    """A field given to the wrapper (or assigned), else read from the wrapped object."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        fields = obj.__dict__.get("_fields")
        if fields and self.name in fields:
            return fields[self.name]
        if self.name == "meta":
            return getattr(obj.wrapped, "meta", None) or {}
        if self.name in _DEFAULTS:
            return getattr(obj.wrapped, self.name, None)
        return getattr(obj.wrapped, self.name)

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__.setdefault("_fields", {})[self.name] = value


class WrapperTool(CoreTool):
    """A standard tool around another object: every member delegates, a subclass overrides
    only what differs (the shape of pydantic-ai's ``WrapperToolset``).

    As is, it wraps a standard tool and behaves exactly like it. An adapter's adopted tool
    wraps its framework's own tool object and overrides what its framework does differently:

    - the fields (``name``, ``title``, ``description``, ``input_schema``, ``output_schema``,
      ``meta``): given to the constructor, or else read from the same attributes of
      :attr:`wrapped`; each may be assigned, or overridden by a property;
    - :meth:`run` / :meth:`arun`, how the wrapped object is called, and :attr:`is_async` /
      :attr:`has_async`, which of them ``execute`` and ``aexecute`` use;
    - :meth:`translate`, the framework's own errors as the project's;
    - :attr:`validate_input` / :attr:`validate_output`, whether the schemas are checked here
      around the call (for frameworks that do not check them themselves);
    - :attr:`input_by_json_schema`, whether that input check is the JSON Schema a model is
      shown rather than the ``input_schema`` object's own validation (an adopted tool's rule,
      the same whichever target runs it; the framework's own validation runs on top);
    - :meth:`handle`, what a failure becomes (raised by default).
    """

    validate_input: bool = False
    """Check the input against ``input_schema`` (or its JSON Schema: see
    :attr:`input_by_json_schema`) before :meth:`run`."""
    validate_output: bool = False
    """Check the result against ``output_schema`` after :meth:`run`."""
    timeout: float | None = None
    """Seconds a :func:`~standard_tool.call` of this tool waits (``None``: no limit of its
    own; the wrapped tool's limit, if any, applies inside)."""

    def __init__(self, wrapped: Any, **fields: Any) -> None:
        """Wrap ``wrapped``; ``fields`` (any of the six) are given here instead of read from it."""
        unknown = sorted(set(fields) - set(FIELDS))
        if unknown:
            raise UsageError(f"WrapperTool takes the fields {FIELDS}, not {unknown}")
        self.wrapped = wrapped
        self._fields: dict[str, Any] = fields

    # -- the definition ------------------------------------------------------------------

    name: str = _Field()  # type: ignore[assignment]
    title: str | None = _Field()  # type: ignore[assignment]
    description: str = _Field()  # type: ignore[assignment]
    input_schema: Any = _Field()
    output_schema: Any = _Field()
    meta: Mapping[str, Any] = _Field()  # type: ignore[assignment]

    @property
    def input_by_json_schema(self) -> bool:
        """With :attr:`validate_input`: check the input against the JSON Schema a model is
        shown for the tool (``input_json_schema(self)``, full JSON Schema semantics, JSON types
        strict: ``"0"`` and ``true`` are not integers) instead of with the ``input_schema``
        object's own validation (a pydantic model's lax coercion); the input is handed on
        unchanged. Unless set (or overridden by a subclass), whether the wrapped tool checks
        its input so: a wrapper checks what its tool would."""
        assigned: bool | None = self.__dict__.get("_input_by_json_schema")
        if assigned is not None:
            return assigned
        wrapped = self.wrapped
        return (
            isinstance(wrapped, WrapperTool)
            and bool(wrapped.validate_input)
            and bool(wrapped.input_by_json_schema)
        )

    @input_by_json_schema.setter
    def input_by_json_schema(self, value: bool) -> None:
        self.__dict__["_input_by_json_schema"] = bool(value)

    # -- how it runs ---------------------------------------------------------------------

    @property
    def is_async(self) -> bool:
        """Whether ``execute`` is async (it runs :meth:`arun`; else :meth:`run`)."""
        return inspect.iscoroutinefunction(getattr(self.wrapped, "execute", None))

    @property
    def has_async(self) -> bool:
        """Whether :meth:`arun` is a native async path that ``acall`` should prefer."""
        return self.is_async or inspect.iscoroutinefunction(getattr(self.wrapped, "aexecute", None))

    def run(self, input: Any, context: Any) -> Any:
        """Run the wrapped object from sync code with a validated input."""
        return call(self.wrapped, input, context)

    async def arun(self, input: Any, context: Any) -> Any:
        """Run the wrapped object from async code with a validated input."""
        return await acall(self.wrapped, input, context)

    def translate(self, exc: Exception) -> Exception:
        """The project's error for a framework's own exception (``exc`` itself: no change)."""
        return exc

    def handle(self, error: StandardToolError) -> Any:
        """What a failure becomes: raised, by default. A :func:`~standard_tool.call` or
        :func:`~standard_tool.acall` of this tool that runs out of time comes here too.
        ``error`` quotes no value of the call's context (see ``standard_tool.run._redact``)."""
        raise error

    def _expired(self, error: ToolTimeoutError) -> Any:
        return self.handle(error)

    # -- the standard tool's execute -----------------------------------------------------

    @property
    def execute(self) -> Any:
        return self._execute_async if self.is_async else self._execute_sync

    @property
    def aexecute(self) -> Any:
        return self._execute_async if self.has_async else None

    def _execute_sync(self, input: Any, context: Any = None) -> Any:
        try:
            value = self._check("input", input)
            try:
                result = self.run(value, context)
            except StandardToolError:
                raise
            except Exception as exc:
                self._raise_translated(exc)
            return self._check("output", result)
        except StandardToolError as error:
            return self.handle(redact_error(error, context, self.name))

    async def _execute_async(self, input: Any, context: Any = None) -> Any:
        try:
            value = self._check("input", input)
            try:
                result = await self.arun(value, context)
            except StandardToolError:
                raise
            except Exception as exc:
                self._raise_translated(exc)
            return self._check("output", result)
        except StandardToolError as error:
            return self.handle(redact_error(error, context, self.name))

    def _raise_translated(self, exc: Exception) -> NoReturn:
        error = self.translate(exc)
        if error is exc:
            raise exc
        raise error from exc

    def _check(self, side: Literal["input", "output"], value: Any) -> Any:
        if not (self.validate_input if side == "input" else self.validate_output):
            return value
        schema = self._schema(side)
        if schema is None:
            return value
        checked = value
        if side == "output":  # a framework may return models or dates: check their JSON form
            try:
                checked = jsonable(value)
            except NotJsonError as exc:
                raise ToolValidationError(self.name, side, exc.issues) from None
        if type(schema) is JsonSchema:  # its issues, with no Result made
            # the output is JSON data now: the schema alone, no second walk
            issues = schema.data_issues(checked) if side == "output" else schema.issues(value)
            if issues is not None:
                raise ToolValidationError(self.name, side, issues)
            return value
        result = schema.validate(checked)
        if result.issues is not None:
            raise ToolValidationError(self.name, side, result.issues)
        return value  # checked, not transformed: the wrapped object parses its own input

    def _output_is_json(self) -> bool:
        # every result has passed _check("output"), which held it to JSON data, unless
        # handle() made one of a failure
        return (
            self.validate_output
            and self.output_schema is not None
            and type(self).handle is WrapperTool.handle
        )

    def _schema(self, side: Literal["input", "output"]) -> StandardSchema | None:
        """The field's schema as a StandardSchema (the input's JSON Schema, with
        :attr:`input_by_json_schema`), remade only when the field or that choice changes."""
        declared = self.input_schema if side == "input" else self.output_schema
        by_json = side == "input" and bool(self.input_by_json_schema)
        cache = self.__dict__.setdefault("_schemas", {})
        held = cache.get(side)
        if held is None or held[0] is not declared or held[1] is not by_json:
            schema = as_schema(declared)
            if by_json and type(schema) is not JsonSchema:  # a raw schema is its own JSON Schema
                schema = JsonSchema(input_json_schema(self))
            held = cache[side] = (declared, by_json, schema)
        checked: StandardSchema | None = held[2]
        return checked

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.wrapped!r})"


def keyword_functions(tool: Any) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """A sync and an async function running ``tool`` with its input as keyword arguments
    (``call``/``acall``): what frameworks that take a function and a coroutine are given."""

    def run(**kwargs: Any) -> Any:
        return call(tool, kwargs)

    async def arun(**kwargs: Any) -> Any:
        return await acall(tool, kwargs)

    return run, arun
