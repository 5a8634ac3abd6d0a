"""What a typed Python function says about itself: its input model, output type and docs."""

from __future__ import annotations

import inspect
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import GenerateJsonSchema

from .._text import clip
from ..exceptions import UsageError
from ..schema._schema import PydanticSchema
from ._docstrings import parse_docstring

__all__ = ["CONTEXT_PARAMETER", "FunctionSignature", "inspect_function", "warn_undescribed"]

CONTEXT_PARAMETER = "context"
"""A parameter with this name receives the per-call context; it is never in the schema."""


class _ToolJsonSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema without the titles it makes up from field names."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


class _ArgumentsJsonSchema(_ToolJsonSchema):
    """Also without the title of the synthetic arguments model (the tool's name says it)."""

    def generate(self, schema: Any, mode: Any = "validation") -> dict[str, Any]:
        result = super().generate(schema, mode=mode)
        result.pop("title", None)
        return result


@dataclass(frozen=True, slots=True)
class FunctionSignature:
    """The parts of a function a tool is built from."""

    name: str
    description: str
    input: PydanticSchema
    output: PydanticSchema | None
    takes_context: bool
    is_async: bool
    positional: tuple[str, ...]
    """Parameters that must be passed by position (positional-only ones)."""
    renamed: tuple[tuple[str, str], ...]
    """(field, parameter) pairs where the model field had to be renamed (the alias keeps the name)."""
    untyped: tuple[str, ...] = ()
    """Parameters with no type annotation (the schema takes any value for them)."""


def inspect_function(
    function: Callable[..., Any], localns: Mapping[str, Any] | None = None
) -> FunctionSignature:
    """Read a function's signature, type hints and docstring into a :class:`FunctionSignature`.

    ``localns`` resolves annotations naming types local to the defining scope.
    """
    target = inspect.unwrap(function)
    if not callable(target):
        raise UsageError(f"a tool needs a function, not {type(function).__name__}")
    name = getattr(target, "__name__", None) or type(target).__name__
    try:
        signature = inspect.signature(target)
        hints = get_type_hints(target, localns=dict(localns or {}), include_extras=True)
    except (TypeError, ValueError, NameError) as exc:
        raise UsageError(f"cannot read the signature of {name!r}: {exc}") from exc
    doc = parse_docstring(inspect.getdoc(target))
    _warn_unknown(name, doc.params, signature.parameters)

    fields: dict[str, Any] = {}
    positional: list[str] = []
    renamed: list[tuple[str, str]] = []
    untyped: list[str] = []
    takes_context = False
    for param in signature.parameters.values():
        if param.name == CONTEXT_PARAMETER:
            takes_context = True
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise UsageError(
                f"tool {name!r}: parameter {param.name!r} is variadic; a tool's arguments "
                "must be named"
            )
        if param.kind is param.POSITIONAL_ONLY:
            positional.append(param.name)
        if param.name not in hints:
            untyped.append(param.name)
        annotation = hints.get(param.name, Any)
        default = ... if param.default is param.empty else param.default
        field = _field(default, doc.params.get(param.name))
        if _clashes(param.name):
            internal = f"arg{len(renamed)}_"
            renamed.append((internal, param.name))
            field = _field(default, doc.params.get(param.name), alias=param.name)
            fields[internal] = (annotation, field)
        else:
            fields[param.name] = (annotation, field)

    model = create_model(
        _model_name(name),
        __config__=ConfigDict(extra="forbid", arbitrary_types_allowed=False),
        **fields,
    )
    output = None
    if hints.get("return", Any) is not Any:  # no annotation, or Any: no declared output
        output = PydanticSchema(hints["return"], generator=_ToolJsonSchema)
    return FunctionSignature(
        name=name,
        description=doc.description,
        input=PydanticSchema(model, generator=_ArgumentsJsonSchema),
        output=output,
        takes_context=takes_context,
        is_async=inspect.iscoroutinefunction(target),
        positional=tuple(positional),
        renamed=tuple(renamed),
        untyped=tuple(untyped),
    )


def _field(default: Any, description: str | None, alias: str | None = None) -> Any:
    """A parameter's field: its default, and the docstring's description and the alias only
    when given (an explicit ``None`` would erase what ``Annotated[..., Field(...)]`` gives)."""
    given: dict[str, Any] = {"description": description, "alias": alias}
    return Field(default, **{key: value for key, value in given.items() if value is not None})


def warn_undescribed(tool: str, signature: FunctionSignature, described: bool) -> None:
    """Warn when a tool made from a function tells the model little: parameters with no
    type, or no description (no docstring, and ``described`` false: none was given)."""
    missing: list[str] = []
    fixes: list[str] = []
    if signature.untyped:
        names = ", ".join(repr(clip(name)) for name in signature.untyped)
        several = len(signature.untyped) > 1
        missing.append(
            f"no type for its parameter{'s' if several else ''} {names} "
            "(the model is told any value will do)"
        )
        fixes.append(f"annotate {'them' if several else 'it'}")
    if not described and not signature.description:
        missing.append("no docstring (the tool has no description)")
        fixes.append("write a docstring or pass description=")
    if missing:
        _warn(
            f"tool {clip(tool)!r}: function {clip(signature.name)!r} has "
            f"{' and '.join(missing)}: {', and '.join(fixes)}"
        )


def _warn_unknown(tool: str, documented: Iterable[str], parameters: Mapping[str, Any]) -> None:
    """Warn about docstring argument entries that name no parameter (a typo, a stale entry)."""
    unknown = [name for name in documented if name not in parameters]
    if not unknown:
        return
    names = ", ".join(repr(name) for name in unknown)
    which = "which are not parameters" if len(unknown) > 1 else "which is not a parameter"
    _warn(f"tool {tool!r}: the docstring describes {names}, {which}")


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
"""The folder of the whole ``standard_tool`` package."""


def _warn(message: str) -> None:
    """A ``UserWarning`` pointing at the first caller outside this package."""
    frame = sys._getframe(1)
    level = 2
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    warnings.warn(message, UserWarning, stacklevel=level)


def _clashes(name: str) -> bool:
    """Whether pydantic would refuse or shadow ``name`` as a field name."""
    return name.startswith(("_", "model_")) or hasattr(BaseModel, name)


def _model_name(function_name: str) -> str:
    return "".join(part.capitalize() for part in function_name.split("_") if part) or "Arguments"
