"""The JSON Schemas of any conforming tool, in a chosen dialect."""

from __future__ import annotations

from typing import Any

from .._protocols import JsonSchemaTarget, StandardTool
from ..schema._schema import as_schema

__all__ = ["input_json_schema", "output_json_schema"]


def input_json_schema(
    tool: StandardTool, *, target: JsonSchemaTarget = "draft-2020-12"
) -> dict[str, Any]:
    """The JSON Schema of the tool's input; ``{"type": "object", "properties": {}}`` if none."""
    schema = as_schema(getattr(tool, "input_schema", None))
    if schema is None:
        return {"type": "object", "properties": {}}
    return schema.json_schema(side="input", target=target)


def output_json_schema(
    tool: StandardTool, *, target: JsonSchemaTarget = "draft-2020-12"
) -> dict[str, Any] | None:
    """The JSON Schema of the tool's output (serialized form), or ``None`` if it declares none."""
    schema = as_schema(getattr(tool, "output_schema", None))
    if schema is None:
        return None
    return schema.json_schema(side="output", target=target)
