"""Descriptors: the field mapping both ways, and faithful adoption of foreign schemas."""

from __future__ import annotations

from typing import Any

import mcp.types as types
import pytest

from standard_tool import Tool, input_json_schema, output_json_schema
from standard_tool.contracts import tool_digest
from standard_tool.exceptions import UsageError
from standard_tool_mcp import from_mcp_tool, to_mcp_tool
from standard_tool_mcp._compat import dump

DIGEST = "standard-tool/digest"


def _tool(**fields: Any) -> Tool:
    defaults: dict[str, Any] = {
        "name": "t",
        "description": "A tool.",
        "execute": lambda input: input,
    }
    return Tool(**{**defaults, **fields})


def test_meta_hints_become_annotations_and_the_rest_goes_to_meta() -> None:
    tool = _tool(
        meta={
            "read_only": True,
            "destructive": False,
            "idempotent": True,
            "open_world": False,
            "team": "x",
        }
    )
    wire = dump(to_mcp_tool(tool))
    assert wire["annotations"] == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }
    assert wire["_meta"] == {"team": "x", DIGEST: tool_digest(tool)}


def test_a_hint_that_is_not_a_bool_is_refused() -> None:
    with pytest.raises(UsageError, match="read_only"):
        to_mcp_tool(_tool(meta={"read_only": "yes"}))


def test_object_output_schema_is_kept_and_others_are_wrapped() -> None:
    obj = {"type": "object", "properties": {"a": {"type": "integer"}}}
    assert dump(to_mcp_tool(_tool(output_schema=obj)))["outputSchema"] == obj
    listed = {
        "type": "array",
        "items": {"$ref": "#/$defs/Item"},
        "$defs": {"Item": {"type": "string"}},
    }
    wrapped = dump(to_mcp_tool(_tool(output_schema=listed)))["outputSchema"]
    assert wrapped["type"] == "object" and wrapped["required"] == ["result"]
    assert wrapped["properties"]["result"] == {"type": "array", "items": {"$ref": "#/$defs/Item"}}
    assert wrapped["$defs"] == {"Item": {"type": "string"}}
    back = from_mcp_tool(to_mcp_tool(_tool(output_schema=listed)), session=object())  # type: ignore[arg-type]
    assert output_json_schema(back) == listed


def test_invalid_names_are_sanitized() -> None:
    assert to_mcp_tool(_tool(name="my tool/v2")).name == "my_tool_v2"


FOREIGN: list[dict[str, Any]] = [
    {  # a TypeScript server: draft-07, no description
        "name": "ts.tool",
        "inputSchema": {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"q": {"type": ["string", "null"]}},
            "additionalProperties": False,
        },
    },
    {  # $defs, nullable anyOf, everything MCP can say about a tool
        "name": "rich",
        "title": "Rich",
        "description": "Everything.",
        "inputSchema": {
            "type": "object",
            "properties": {"item": {"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}]}},
            "$defs": {"Item": {"type": "object", "properties": {"id": {"type": "integer"}}}},
        },
        "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
        "annotations": {"title": "Rich tool", "readOnlyHint": True, "openWorldHint": False},
        "icons": [{"src": "https://example.com/i.png", "mimeType": "image/png"}],
        "_meta": {"vendor/x": 1, "read_only": "clash", "mcp": "clash"},
    },
    {"name": "bare", "description": "", "inputSchema": {"type": "object"}},  # no properties
    {  # a wrapped primitive from the SDK's own high-level server (no marker): kept as is
        "name": "wrapped",
        "description": "d",
        "inputSchema": {"type": "object", "properties": {}},
        "outputSchema": {
            "type": "object",
            "properties": {"result": {"type": "integer"}},
            "required": ["result"],
        },
    },
]


@pytest.mark.parametrize("wire", FOREIGN, ids=[w["name"] for w in FOREIGN])
def test_foreign_descriptors_round_trip_exactly(wire: dict[str, Any]) -> None:
    descriptor = types.Tool.model_validate(wire)
    adopted = from_mcp_tool(descriptor, session=object())  # type: ignore[arg-type]
    served = dump(to_mcp_tool(adopted))
    assert served["_meta"].pop(DIGEST) == tool_digest(adopted)  # served with its digest
    if not served["_meta"]:
        del served["_meta"]
    assert types.Tool.model_validate(served) == descriptor
    assert adopted.input_schema.schema == wire["inputSchema"]
    assert adopted.description == (wire.get("description") or "")


def test_adopted_fields_are_documented_standard_fields() -> None:
    adopted = from_mcp_tool(types.Tool.model_validate(FOREIGN[1]), session=object())  # type: ignore[arg-type]
    assert adopted.title == "Rich"
    assert adopted.meta["read_only"] is True and adopted.meta["open_world"] is False
    assert adopted.meta["vendor/x"] == 1
    extra = adopted.meta["mcp"]
    assert extra["annotations"] == {"title": "Rich tool"}
    assert extra["_meta"] == {"read_only": "clash", "mcp": "clash"}
    assert extra["icons"][0]["src"] == "https://example.com/i.png"


def test_draft_07_input_is_validated_in_its_own_dialect() -> None:
    adopted = from_mcp_tool(types.Tool.model_validate(FOREIGN[0]), session=object())  # type: ignore[arg-type]
    assert adopted.input_schema.validate({"q": None}).ok
    assert not adopted.input_schema.validate({"q": 1}).ok
    assert not adopted.input_schema.validate({"other": 1}).ok
    assert input_json_schema(adopted)["properties"] == {"q": {"type": ["string", "null"]}}
