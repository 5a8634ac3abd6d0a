"""Digests of what a tool promises: SHA-256 over RFC 8785 canonical JSON, so that key order and
the spelling of a number never change them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._protocols import StandardTool
from .._text import clip
from ..exceptions import UsageError
from ..schema._canonical import digest
from ..schema._json import json_issues
from ..tools._json_schemas import input_json_schema, output_json_schema

__all__ = ["declaration", "schema_digest", "tool_digest"]


def declaration(tool: StandardTool) -> dict[str, Any]:
    """What ``tool`` promises, as JSON data: name, title, description, input and output schema
    (JSON Schema draft 2020-12; ``None`` for no output schema) and meta."""
    meta = getattr(tool, "meta", None)
    found = {
        "name": tool.name,
        "title": getattr(tool, "title", None),
        "description": getattr(tool, "description", None) or "",
        "input_schema": input_json_schema(tool),
        "output_schema": output_json_schema(tool),
        "meta": dict(meta) if isinstance(meta, Mapping) else {},
    }
    issues = json_issues(found)
    if issues is not None:
        raise UsageError(f"tool {clip(tool.name)!r} declares what is not JSON data: {issues[0]}")
    return found


def schema_digest(schema: Any) -> str:
    """``sha256:`` and the hex SHA-256 of the canonical JSON of ``schema`` (JSON data)."""
    issues = json_issues(schema)
    if issues is not None:
        raise UsageError(f"a schema to digest is JSON data; this one is not: {issues[0]}")
    return digest(schema)


def tool_digest(tool: StandardTool) -> str:
    """The digest of everything ``tool`` promises: name, title, description, input and output
    schema, and meta (see :func:`declaration`)."""
    return digest(declaration(tool))
