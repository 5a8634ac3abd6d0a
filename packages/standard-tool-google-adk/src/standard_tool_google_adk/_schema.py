"""A Gemini ``types.Schema`` (the OpenAPI 3.0 subset of a ``FunctionDeclaration``'s
``parameters``) as the JSON Schema it means.

- ``type`` is lowercased (``STRING`` -> ``"string"``; ``TYPE_UNSPECIFIED`` says nothing);
- ``nullable: true`` adds ``"null"`` to the type (``null`` to an ``enum``, a ``{"type":
  "null"}`` branch to an ``anyOf``);
- ``enum`` values are strings in Gemini's dialect: under an ``integer`` or ``number`` type,
  those that spell a number are that number;
- ``anyOf``, ``items``, ``properties`` (in ``propertyOrdering`` order, the others after),
  ``additionalProperties``, ``$defs`` and ``$ref`` are rendered in turn;
- ``required``, ``format``, ``pattern``, ``title``, ``description``, ``default``, ``minimum``,
  ``maximum``, ``minLength``, ``maxLength``, ``minItems``, ``maxItems``, ``minProperties`` and
  ``maxProperties`` are kept; ``example`` becomes ``examples: [example]``.
"""

from __future__ import annotations

import json
from typing import Any

from google.genai import types

__all__ = ["schema_to_json"]

_KEPT = (
    ("title", "title"),
    ("description", "description"),
    ("format", "format"),
    ("pattern", "pattern"),
    ("minimum", "minimum"),
    ("maximum", "maximum"),
    ("min_length", "minLength"),
    ("max_length", "maxLength"),
    ("min_items", "minItems"),
    ("max_items", "maxItems"),
    ("min_properties", "minProperties"),
    ("max_properties", "maxProperties"),
)
_DEPTH = 64
"""How deep a schema may nest (a ``types.Schema`` can hold itself)."""


def schema_to_json(schema: types.Schema | dict[str, Any] | None) -> dict[str, Any]:
    """The JSON Schema a Gemini ``types.Schema`` (or its dict form) means; ``None`` is
    ``{}``."""
    if schema is None:
        return {}
    if isinstance(schema, dict):
        schema = types.Schema.model_validate(schema)
    return _render(schema, _DEPTH)


def _type(schema: types.Schema) -> str | None:
    kind = schema.type
    if kind is None:
        return None
    name = str(getattr(kind, "value", kind)).lower()
    return None if name == "type_unspecified" else name


def _render(schema: types.Schema, depth: int) -> dict[str, Any]:
    if depth <= 0:
        raise ValueError("the schema nests too deeply")
    out: dict[str, Any] = {}
    kind = _type(schema)
    nullable = schema.nullable is True
    if kind is not None:
        out["type"] = [kind, "null"] if nullable and kind != "null" else kind
    if schema.enum is not None:
        values: list[Any] = [_enum_value(value, kind) for value in schema.enum]
        if nullable and None not in values:
            values.append(None)
        out["enum"] = values
    for field, key in _KEPT:
        value = getattr(schema, field)
        if value is not None:
            out[key] = value
    if schema.default is not None:
        out["default"] = schema.default
    if schema.example is not None:
        out["examples"] = [schema.example]
    if schema.any_of is not None:
        branches = [_render(branch, depth - 1) for branch in schema.any_of]
        if nullable and kind is None and {"type": "null"} not in branches:
            branches.append({"type": "null"})
        out["anyOf"] = branches
    if schema.items is not None:
        out["items"] = _render(schema.items, depth - 1)
    if schema.properties is not None:
        order = [key for key in schema.property_ordering or () if key in schema.properties]
        order += [key for key in schema.properties if key not in order]
        out["properties"] = {key: _render(schema.properties[key], depth - 1) for key in order}
    if schema.required is not None:
        out["required"] = list(schema.required)
    extra = schema.additional_properties
    if extra is not None:
        out["additionalProperties"] = (
            _render(extra, depth - 1) if isinstance(extra, types.Schema) else extra
        )
    defs = schema.defs
    if defs is not None:
        out["$defs"] = {key: _render(sub, depth - 1) for key, sub in defs.items()}
    ref = schema.ref
    if ref is not None:
        out["$ref"] = ref
    return out


def _enum_value(value: Any, kind: str | None) -> Any:
    """An enum value: Gemini writes them as strings, also under a numeric type."""
    if kind not in ("integer", "number") or not isinstance(value, str):
        return value
    try:
        number = json.loads(value)
    except ValueError:
        return value
    if kind == "integer" and type(number) is int:
        return number
    if kind == "number" and type(number) in (int, float):
        return number
    return value
