"""Tool descriptors: a standard tool as an ``mcp.types.Tool`` and back, field by field."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from standard_tool import JsonSchema, PydanticSchema, adopt, as_schema, input_json_schema, jsonable
from standard_tool.adapters import METADATA_KEY, pack_metadata, unpack_metadata
from standard_tool.contracts import tool_digest
from standard_tool.exceptions import UsageError
from standard_tool.names import MCP_NAMES, sanitize_name

from . import _compat
from ._content import is_media

__all__ = ["DIGEST_META", "HINTS", "WRAPPED", "Fields", "fields_of", "object_root", "to_mcp_tool"]

HINTS: Mapping[str, str] = {
    "read_only": "readOnlyHint",
    "destructive": "destructiveHint",
    "idempotent": "idempotentHint",
    "open_world": "openWorldHint",
}
"""Standard meta keys and the ``ToolAnnotations`` hints they become."""
WRAPPED = "x-standard-tool-wrapped"
"""Marks an output schema wrapped as ``{"result": ...}`` because its root is not an object."""
DIGEST_META = "standard-tool/digest"
"""The ``_meta`` key of a served tool's descriptor that holds the tool's digest
(:func:`standard_tool.contracts.tool_digest`)."""
_RESERVED = frozenset({*HINTS, "mcp"})


def _raw_schema(schema: Any, side: str) -> Any:
    """A schema's JSON form; a raw JSON Schema dict is kept exactly as written."""
    if isinstance(schema, JsonSchema) and isinstance(schema.schema, (dict, bool)):
        return copy.deepcopy(schema.schema)
    converted = as_schema(schema)
    return None if converted is None else converted.json_schema(side=side)  # type: ignore[arg-type]


def _input_schema(tool: Any) -> Any:
    schema = _raw_schema(getattr(tool, "input_schema", None), "input")
    return input_json_schema(tool) if schema is None else schema


def object_root(tool: str, schema: Any) -> dict[str, Any]:
    """An input schema whose root says ``"type": "object"``, as MCP requires.

    Arguments are always an object, so a root that admits objects among other values (no
    ``type``, as in ``{}``, ``anyOf`` or a root ``$ref``; or a list of types) is narrowed to
    objects; a root that admits no object is refused.
    """
    if schema is True:
        return {"type": "object"}
    kind = schema.get("type") if isinstance(schema, dict) else None
    if isinstance(schema, dict) and kind == "object":
        return schema
    if isinstance(schema, dict) and kind is None:
        return {"type": "object", **schema}
    if isinstance(schema, dict) and isinstance(kind, list) and "object" in kind:
        return {**schema, "type": "object"}
    raise UsageError(
        f"tool {tool!r} cannot be served over MCP: its input schema must accept an object "
        "(MCP sends arguments as one), and its root admits none"
    )


def wrap_output(schema: dict[str, Any]) -> dict[str, Any]:
    """An object output schema: unchanged if its root is an object, else wrapped in ``result``."""
    if schema.get("type") == "object":
        return schema
    inner = dict(schema)
    defs: dict[str, Any] = {k: inner.pop(k) for k in ("$defs", "definitions") if k in inner}
    dialect: dict[str, Any] = {"$schema": inner.pop("$schema")} if "$schema" in inner else {}
    return {
        **dialect,
        "type": "object",
        "properties": {"result": inner},
        "required": ["result"],
        **defs,
        WRAPPED: True,
    }


def unwrap_output(schema: dict[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`wrap_output` for a schema that carries the marker."""
    inner = dict(schema["properties"]["result"])
    extras: dict[str, Any] = {
        key: schema[key] for key in ("$schema", "$defs", "definitions") if key in schema
    }
    return {**extras, **inner} if "$schema" in extras else {**inner, **extras}


def to_mcp_tool(tool: Any, *, name: str | None = None) -> Any:
    """The MCP descriptor (``mcp.types.Tool``) of ``tool`` (anything :func:`standard_tool.adopt`
    takes), named ``name`` or the tool's name made valid for MCP (the original name is kept in
    ``_meta["standard_tool"]`` and restored by ``from_mcp_tool``).

    Meta keys ``read_only``, ``destructive``, ``idempotent`` and ``open_world`` become
    ``annotations`` hints; ``meta["mcp"]`` holds descriptor fields with no standard slot
    (``icons``, extra ``annotations``, ``execution``...); the rest of meta becomes ``_meta``.
    A non-object output schema is wrapped as ``{"result": ...}`` (see "Structured results" in
    ``docs/how-to/frameworks/mcp.md``).
    ``_meta["standard-tool/digest"]`` holds the tool's digest
    (:func:`standard_tool.contracts.tool_digest`).
    """
    import mcp.types as types

    tool = adopt(tool)
    mcp_name = name or sanitize_name(tool.name, MCP_NAMES)
    meta = dict(getattr(tool, "meta", None) or {})
    extra = dict(meta.pop("mcp", None) or {})
    annotations = dict(extra.pop("annotations", None) or {})
    for key, hint in HINTS.items():
        if key in meta:
            value = meta.pop(key)
            if not isinstance(value, bool):
                raise UsageError(f"tool {tool.name!r}: meta {key!r} must be a bool, not {value!r}")
            annotations[hint] = value
    wire: dict[str, Any] = {
        "name": mcp_name,
        "description": tool.description,
        "inputSchema": object_root(tool.name, _input_schema(tool)),
    }
    title = getattr(tool, "title", None)
    if title is not None:
        wire["title"] = title
    output_schema = getattr(tool, "output_schema", None)
    media = isinstance(output_schema, PydanticSchema) and is_media(output_schema.type)
    output = None if media else _raw_schema(output_schema, "output")
    if output is not None:
        wire["outputSchema"] = wrap_output(output)
    if annotations:
        wire["annotations"] = annotations
    extra_meta = {**dict(extra.pop("_meta", None) or {}), **jsonable(meta)}
    renamed = pack_metadata(tool, name=mcp_name, slots=("title", "output_schema", "meta"))
    if renamed:
        extra_meta[METADATA_KEY] = renamed
    try:
        extra_meta[DIGEST_META] = tool_digest(tool)
    except UsageError:  # a meta value that is not JSON data: the tool has no digest
        pass
    if extra_meta:
        wire["_meta"] = extra_meta
    wire.update(extra)
    return types.Tool.model_validate(wire)


@dataclass(frozen=True)
class Fields:
    """A descriptor's content in standard terms."""

    name: str
    """The name the server knows the tool by."""
    original_name: str | None
    """The tool's own name, when the server renamed it for MCP."""
    title: str | None
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    meta: dict[str, Any]
    wrapped: bool
    digest: str | None = None
    """The digest the server says the tool has (``_meta["standard-tool/digest"]``), unchecked."""


def fields_of(descriptor: Any) -> Fields:
    """What a descriptor (an ``mcp.types.Tool`` or its wire dict) says, in standard terms."""
    wire = dict(descriptor) if isinstance(descriptor, Mapping) else _compat.dump(descriptor)
    name = wire.pop("name")
    title = wire.pop("title", None)
    extra: dict[str, Any] = {}
    if wire.get("description") is None:
        extra["description"] = wire.pop("description", None)
    description = wire.pop("description", None) or ""
    input_schema = wire.pop("inputSchema")
    if not isinstance(input_schema, dict):
        raise UsageError(f"MCP tool {name!r}: inputSchema is not an object")
    output = wire.pop("outputSchema", None)
    wrapped = isinstance(output, dict) and output.get(WRAPPED) is True
    meta: dict[str, Any] = {}
    annotations = dict(wire.pop("annotations", None) or {})
    for key, hint in HINTS.items():
        if annotations.get(hint) is not None:
            meta[key] = annotations.pop(hint)
    if annotations:
        extra["annotations"] = annotations
    clashes: dict[str, Any] = {}
    wire_meta = dict(wire.pop("_meta", None) or {})
    original = unpack_metadata(wire_meta.pop(METADATA_KEY, None)).name
    claimed = wire_meta.pop(DIGEST_META, None)
    for key, value in wire_meta.items():
        (clashes if key in _RESERVED else meta)[key] = value
    if clashes:
        extra["_meta"] = clashes
    extra.update(wire)
    if extra:
        meta["mcp"] = extra
    return Fields(
        name=name,
        original_name=original,
        title=title,
        description=description,
        input_schema=input_schema,
        output_schema=unwrap_output(output) if wrapped else output,
        meta=meta,
        wrapped=wrapped,
        digest=claimed if isinstance(claimed, str) else None,
    )
