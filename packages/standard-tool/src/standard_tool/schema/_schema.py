"""Schemas: one validating, self-describing shape over pydantic types, raw JSON Schema and others."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cached_property
from itertools import islice
from typing import Any, Literal

from .._protocols import JsonSchemaTarget, Result, StandardSchema
from .._text import clip
from ..exceptions import Issue, UsageError
from ._json import MAX_DEPTH, MAX_ISSUES, TOO_DEEP, json_issues, jsonable
from ._rules import issues_of

__all__ = ["MAX_DEPTH", "MAX_ISSUES", "JsonSchema", "PydanticSchema", "as_schema", "jsonable"]

_MAX_MESSAGE = 300

Side = Literal["input", "output"]


def as_schema(obj: Any) -> StandardSchema | None:
    """Return ``obj`` as a :class:`StandardSchema`, or ``None`` for ``None``.

    Accepts a StandardSchema as is, a raw JSON Schema (dict or bool), a pydantic model class,
    or anything pydantic's ``TypeAdapter`` accepts (dataclasses, TypedDicts, primitives,
    ``Annotated`` constraints).
    """
    if obj is None or isinstance(obj, (JsonSchema, PydanticSchema)):
        return obj
    if isinstance(obj, (Mapping, bool)):
        return JsonSchema(obj)
    if not isinstance(obj, type) and isinstance(obj, StandardSchema):
        return obj
    return PydanticSchema(obj)


class JsonSchema:
    """A raw JSON Schema, validated with full draft 2020-12 semantics (or the dialect its
    ``$schema`` declares). The dict is the source of truth and is emitted unchanged."""

    __slots__ = ("__dict__", "resources", "schema")

    def __init__(
        self, schema: Mapping[str, Any] | bool, *, resources: Mapping[str, Any] | None = None
    ) -> None:
        """``resources`` maps URIs to the documents ``$ref`` may name; nothing is fetched."""
        if not isinstance(schema, (Mapping, bool)):
            raise UsageError(f"a JSON Schema is a dict or a bool, not {type(schema).__name__}")
        self.schema = schema if isinstance(schema, (dict, bool)) else dict(schema)
        self.resources = dict(resources or {})

    def __repr__(self) -> str:
        return f"JsonSchema({self.schema!r})"

    def __reduce__(self) -> tuple[Any, ...]:  # the compiled validator is rebuilt on use
        return (_json_schema, (self.schema, self.resources))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JsonSchema) and other.schema == self.schema

    __hash__ = None  # type: ignore[assignment]

    @cached_property
    def _validator(self) -> Any:
        import jsonschema_rs

        registry = jsonschema_rs.Registry(list(self.resources.items())) if self.resources else None
        try:
            return jsonschema_rs.validator_for(self.schema, registry=registry, offline=True)
        except (ValueError, jsonschema_rs.ReferencingError) as exc:
            raise UsageError(f"invalid JSON Schema: {clip(str(exc), _MAX_MESSAGE)}") from exc

    def check(self) -> JsonSchema:
        """Compile now, raising :class:`UsageError` for a schema that is not valid JSON Schema."""
        self._validator  # noqa: B018
        return self

    def validate(self, value: Any, /) -> Result:
        """Check that ``value`` is JSON data, then that it matches the schema."""
        issues = self.issues(value)
        return Result(value) if issues is None else Result(issues=issues)

    def issues(self, value: Any, /) -> tuple[Issue, ...] | None:
        """What :meth:`validate` finds wrong with ``value`` (at most ``MAX_ISSUES``), or ``None``."""
        issues = json_issues(value)
        if issues is not None:
            return issues
        return self.data_issues(value)

    def data_issues(self, value: Any, /) -> tuple[Issue, ...] | None:
        """:meth:`issues` of a value known to be JSON data (what :func:`jsonable` returned, or
        what a JSON reader read): the schema alone, no walk of the value first."""
        validator = self._validator
        try:
            if validator.is_valid(value):
                return None
            errors = validator.iter_errors(value)
            return tuple(islice((i for error in errors for i in issues_of(error)), MAX_ISSUES))
        except ValueError:  # jsonschema-rs refusing what the walk let through: not expected
            return (Issue("is not JSON data"),)

    def json_schema(
        self, *, side: Side = "input", target: JsonSchemaTarget = "draft-2020-12"
    ) -> dict[str, Any]:
        from .dialects._registry import convert_schema

        schema = self.schema
        if schema is True:
            schema = {}
        elif schema is False:
            schema = {"not": {}}
        return convert_schema(schema, target)  # type: ignore[return-value]


class PydanticSchema:
    """A pydantic type (model class, dataclass, TypedDict, primitive, ``Annotated``...)."""

    __slots__ = ("_adapter", "_cache", "_generator", "type")

    def __init__(self, type_: Any, *, generator: type | None = None) -> None:
        from pydantic import BaseModel, TypeAdapter
        from pydantic.errors import PydanticSchemaGenerationError, PydanticUserError

        self.type = type_
        self._generator = generator
        self._cache: dict[tuple[str, str], dict[str, Any]] = {}
        if _is_model_class(type_, BaseModel):
            self._adapter = None
            return
        try:
            self._adapter = TypeAdapter(type_)
        except (PydanticSchemaGenerationError, PydanticUserError, TypeError) as exc:
            raise UsageError(
                f"not a schema: {type_!r} is neither a StandardSchema, a JSON Schema dict, "
                f"nor a type pydantic can validate ({exc.__class__.__name__})"
            ) from exc

    def __repr__(self) -> str:
        return f"PydanticSchema({self.type!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_pydantic_schema, (self.type, self._generator))

    @property
    def validator(self) -> Any:
        """The pydantic-core ``SchemaValidator``."""
        if self._adapter is None:
            return self.type.__pydantic_validator__
        return self._adapter.validator

    def validate(self, value: Any, /) -> Result:
        try:
            return Result(self.validator.validate_python(value))
        except RecursionError:
            return Result(issues=TOO_DEEP)
        except Exception as exc:  # pydantic is imported by then; its import is not on every call
            from pydantic import ValidationError

            if isinstance(exc, ValidationError):
                return Result(issues=issues_from_pydantic(exc))
            raise

    def json_schema(
        self, *, side: Side = "input", target: JsonSchemaTarget = "draft-2020-12"
    ) -> dict[str, Any]:
        key = (side, target)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._generate(side, target)
        return copy.deepcopy(cached)

    def _generate(self, side: Side, target: JsonSchemaTarget) -> dict[str, Any]:
        from pydantic.json_schema import GenerateJsonSchema

        if target != "draft-2020-12":
            from .dialects._registry import convert_schema

            return convert_schema(self.json_schema(side=side), target)  # type: ignore[return-value]
        mode: Literal["validation", "serialization"] = (
            "validation" if side == "input" else "serialization"
        )
        generator = self._generator or GenerateJsonSchema
        schema: dict[str, Any]
        if self._adapter is None:
            schema = self.type.model_json_schema(mode=mode, schema_generator=generator)
        else:
            schema = self._adapter.json_schema(mode=mode, schema_generator=generator)
        return schema


def _json_schema(schema: Any, resources: Mapping[str, Any]) -> JsonSchema:
    return JsonSchema(schema, resources=resources)


def _pydantic_schema(type_: Any, generator: type | None) -> PydanticSchema:
    return PydanticSchema(type_, generator=generator)


def _is_model_class(obj: Any, base: type) -> bool:
    """Whether ``obj`` is a subclass of ``base`` (``list[int]`` passes ``isinstance(x, type)`` on 3.10)."""
    try:
        return isinstance(obj, type) and issubclass(obj, base)
    except TypeError:
        return False


def issues_from_pydantic(exc: Any, side: Side = "input") -> tuple[Issue, ...]:
    """The issues of a pydantic ``ValidationError``, messages without the input values.

    On the output side, pydantic's "Input should be ..." reads "Output should be ...".
    """
    errors = islice(exc.errors(include_url=False, include_input=False), MAX_ISSUES)
    if side == "input":
        return tuple(
            Issue(clip(error["msg"], _MAX_MESSAGE), tuple(error["loc"])) for error in errors
        )
    return tuple(
        Issue(clip(_as_output(error["msg"]), _MAX_MESSAGE), tuple(error["loc"])) for error in errors
    )


def _as_output(message: str) -> str:
    if message.startswith("Input should"):
        return "Output should" + message[len("Input should") :]
    return message
