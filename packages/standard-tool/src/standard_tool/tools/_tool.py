"""The reference tool: built from a typed function or from explicit fields."""

from __future__ import annotations

import copy
import inspect
import sys
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, overload

from .._protocols import StandardSchema
from .._text import clip
from ..exceptions import UsageError
from ..run._call import Accepting, CoreTool
from ..run._waiting import timeout_seconds
from ..schema._schema import JsonSchema, as_schema
from ._execution import checker, executor, split_execute

__all__ = ["EMPTY_INPUT_SCHEMA", "Tool", "tool"]

EMPTY_INPUT_SCHEMA: Mapping[str, Any] = MappingProxyType({"type": "object", "properties": {}})
"""The input schema of a tool that declares none."""

_NO_META: Mapping[str, Any] = MappingProxyType({})


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise UsageError(f"a tool name is a non-empty string, not {clip(repr(name))}")
    if len(name) > 256 or not name.isprintable():
        raise UsageError(f"tool name {clip(name)!r} is too long or has control characters")
    return name


class Tool(CoreTool):
    """A standard tool: metadata, schemas, and an ``execute`` that validates both ways.

    Build one from explicit fields, where ``execute(input, context)`` (or ``execute(input)``)
    receives the validated input, or from a typed function with :meth:`from_function` or the
    :func:`tool` decorator, where each argument is a property of the input object.
    ``execute`` is async exactly when the underlying function is.

    ``timeout`` (seconds) bounds each :func:`~standard_tool.call` and
    :func:`~standard_tool.acall` of the tool, and so each call through an adapter; it is kept
    as the ``timeout`` attribute, which any conforming tool may declare the same way.
    """

    __slots__ = (
        "_check_input",
        "_check_output",
        "_signature",
        "_split",
        "_takes_context",
        "_to_arguments",
        "description",
        "execute",
        "function",
        "input_schema",
        "meta",
        "name",
        "output_schema",
        "timeout",
        "title",
    )

    def __init__(
        self,
        *,
        name: str,
        description: str,
        execute: Callable[..., Any],
        input_schema: Any = None,
        output_schema: Any = None,
        title: str | None = None,
        meta: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> None:
        if not callable(execute):
            raise UsageError(f"tool {name!r}: execute must be callable")
        self._setup(
            name=name,
            title=title,
            description=description,
            input_schema=as_schema(input_schema),
            output_schema=as_schema(output_schema),
            meta=meta,
            function=execute,
            takes_context=_takes_context(execute),
            to_arguments=None,
            timeout=timeout,
        )
        self._signature = False

    def _setup(
        self,
        *,
        name: str,
        title: str | None,
        description: str,
        input_schema: StandardSchema | None,
        output_schema: StandardSchema | None,
        meta: Mapping[str, Any] | None,
        function: Callable[..., Any],
        takes_context: bool,
        to_arguments: Callable[[Any], tuple[tuple[Any, ...], dict[str, Any]]] | None,
        timeout: float | None,
    ) -> None:
        self.name = _check_name(name)
        if not isinstance(description, str):
            raise UsageError(f"tool {name!r}: description must be a string")
        if title is not None and not isinstance(title, str):
            raise UsageError(f"tool {name!r}: title must be a string or None")
        self.title = title
        self.description = description
        self.input_schema = input_schema
        self.output_schema = output_schema
        self.meta = _NO_META if not meta else MappingProxyType(dict(meta))
        self.timeout = None if timeout is None else timeout_seconds(timeout, f"tool {name!r}: ")
        self.function = function
        self._takes_context = takes_context
        self._to_arguments = to_arguments
        input_checked = (
            input_schema if input_schema is not None else JsonSchema(dict(EMPTY_INPUT_SCHEMA))
        )
        self._check_input = checker(input_checked, name, "input")
        self._check_output = (
            None if output_schema is None else checker(output_schema, name, "output")
        )
        is_async = inspect.iscoroutinefunction(inspect.unwrap(function)) or (
            not inspect.isfunction(function)
            and inspect.iscoroutinefunction(type(function).__call__)
        )
        self.execute = executor(
            function,
            self._check_input,
            self._check_output,
            takes_context,
            to_arguments,
            is_async,
            input_checked,
        )
        self._split = split_execute(
            self,
            function,
            input_checked,
            self._check_input,
            output_schema,
            self._check_output,
            takes_context,
            to_arguments,
            is_async,
            keywords=to_arguments is _keywords,
        )

    @classmethod
    def from_function(
        cls,
        function: Callable[..., Any],
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        meta: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        localns: Mapping[str, Any] | None = None,
    ) -> Tool:
        """Build a tool from a typed function; its docstring gives the descriptions.

        A ``UserWarning`` says what the model will not be told: a parameter with no type
        annotation (any value will do), or no description (no docstring, none given).

        A parameter named ``context`` receives the per-call context and is not in the schema.
        ``localns`` resolves string annotations that name types local to a function
        (the :func:`tool` decorator passes its caller's locals).
        """
        from ._function import inspect_function, warn_undescribed

        signature = inspect_function(function, localns)
        warn_undescribed(name or signature.name, signature, described=description is not None)
        self = cls.__new__(cls)
        self._setup(
            name=name or signature.name,
            title=title,
            description=signature.description if description is None else description,
            input_schema=signature.input,
            output_schema=signature.output,
            meta=meta,
            function=function,
            takes_context=signature.takes_context,
            to_arguments=_arguments_builder(signature.positional, signature.renamed),
            timeout=timeout,
        )
        self._signature = True
        return self

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the underlying function directly, with no validation."""
        return self.function(*args, **kwargs)

    _exact_timeout = True  # execute ends a call at ``timeout`` itself

    def _output_is_json(self) -> bool:
        return type(self.output_schema) is JsonSchema  # a raw schema holds results to JSON

    def _accepting(self) -> Accepting:
        return self._split

    def __repr__(self) -> str:
        return f"Tool(name={self.name!r}, description={self.description[:60]!r})"

    def __copy__(self) -> Tool:
        return self  # a tool does not change once made

    def __deepcopy__(self, memo: dict[int, Any]) -> Tool:
        """A tool with its own copy of ``meta``, sharing the function and the schemas."""
        clone = Tool.__new__(type(self))
        for slot in Tool.__slots__:
            object.__setattr__(clone, slot, getattr(self, slot))
        clone.meta = (
            _NO_META if not self.meta else MappingProxyType(copy.deepcopy(dict(self.meta), memo))
        )
        return clone

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by reference where a module holds it (``@tool`` at module level), else by
        its fields; either way only where its function pickles."""
        module, qualname = (
            getattr(self.function, "__module__", None),
            getattr(self.function, "__qualname__", ""),
        )
        if module and _lookup(module, qualname) is self:
            return (_lookup, (module, qualname))
        fields = {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "timeout": self.timeout,
        }
        meta = dict(self.meta) or None
        if self._signature:
            return (_from_function, (self.function, fields, meta))
        return (_from_fields, (self.function, fields, meta, self.input_schema, self.output_schema))


def _lookup(module: str, qualname: str) -> Any:
    """The object a module holds under a dotted ``qualname`` (``None`` if there is none)."""
    import importlib

    try:
        value: Any = importlib.import_module(module)
    except ImportError:
        return None
    for part in qualname.split("."):
        value = getattr(value, part, None)
    return value


def _from_function(function: Callable[..., Any], fields: dict[str, Any], meta: Any) -> Tool:
    return Tool.from_function(function, meta=meta, **fields)


def _from_fields(
    function: Callable[..., Any], fields: dict[str, Any], meta: Any, input: Any, output: Any
) -> Tool:
    return Tool(execute=function, input_schema=input, output_schema=output, meta=meta, **fields)


def _takes_context(function: Callable[..., Any]) -> bool:
    """Whether an explicit ``execute`` takes a second (context) argument."""
    try:
        params = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return True
    if any(p.kind is p.VAR_POSITIONAL or p.name == "context" for p in params):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if not positional:
        raise UsageError("execute must take the input as its first argument")
    return len(positional) >= 2


def _keywords(model: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Each field of a validated arguments model as a keyword argument."""
    return (), dict(model.__dict__)


def _arguments_builder(
    positional: tuple[str, ...], renamed: tuple[tuple[str, str], ...]
) -> Callable[[Any], tuple[tuple[Any, ...], dict[str, Any]]]:
    """How a validated arguments model becomes ``(args, kwargs)`` for the function."""
    renames = dict(renamed)
    if not positional and not renames:
        return _keywords

    def build(model: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        kwargs = {renames.get(key, key): value for key, value in model.__dict__.items()}
        return tuple(kwargs.pop(name) for name in positional), kwargs

    return build


@overload
def tool(
    function: Callable[..., Any],
    /,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    meta: Mapping[str, Any] | None = None,
    timeout: float | None = None,
) -> Tool: ...
@overload
def tool(
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    meta: Mapping[str, Any] | None = None,
    timeout: float | None = None,
) -> Callable[[Callable[..., Any]], Tool]: ...
def tool(
    function: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    meta: Mapping[str, Any] | None = None,
    timeout: float | None = None,
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Turn a typed function (sync or async) into a :class:`Tool`; usable bare or with options.

    ``timeout`` (seconds) bounds every :func:`~standard_tool.call` and
    :func:`~standard_tool.acall` of the tool, and every framework call through an adapter.
    """
    options: dict[str, Any] = {
        "name": name,
        "title": title,
        "description": description,
        "meta": meta,
    }
    if timeout is not None:
        options["timeout"] = timeout_seconds(timeout, "tool(): ")
    if function is not None:
        return Tool.from_function(function, **options, localns=sys._getframe(1).f_locals)

    def decorate(fn: Callable[..., Any]) -> Tool:
        return Tool.from_function(fn, **options, localns=sys._getframe(1).f_locals)

    return decorate
