"""Raw-schema tools check input with jsonschema-rs first and walk only what it leaves
unchecked: whatever the schema, no value that is not JSON data gets through."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from standard_tool import Tool, ToolValidationError
from standard_tool._json import MAX_DEPTH
from standard_tool._plans import compile_plan, has_references

NUMBER = {"type": "number"}
SCHEMAS: dict[str, dict[str, Any]] = {
    "closed": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": NUMBER}},
        "additionalProperties": False,
    },
    "open": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": NUMBER}},
    },
    "nullable": {
        "type": "object",
        "properties": {
            "a": {"type": ["number", "null"]},
            "b": {"type": ["array", "null"], "items": {"type": ["number", "null"]}},
        },
    },
    "untyped": {"type": "object", "properties": {"a": {}, "b": {"enum": [1, None]}}},
    "any-items": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "array"}},
    },
    "extra-schema": {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": {"type": "array", "items": {"type": ["object", "null"]}},
    },
    "extra-proven": {
        "type": "object",
        "properties": {"a": {"type": "object", "additionalProperties": {"type": "integer"}}},
        "additionalProperties": {"type": "string"},
    },
    "combinators": {
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "b": {"oneOf": [{"type": "array"}, {"type": "string"}]},
        },
    },
    "closed-nested": {
        "type": "object",
        "properties": {
            "a": {
                "type": "object",
                "properties": {"x": {"type": "integer"}},
                "additionalProperties": False,
            },
            "b": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"y": {"type": "string"}},
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    },
    "nullable-object": {
        "type": "object",
        "properties": {
            "a": {"type": ["object", "null"], "properties": {"x": NUMBER}},
            "b": {"type": "array", "items": {"type": ["object", "null"]}},
        },
    },
    "root-array": {"type": "array", "items": {"type": "object", "properties": {"x": NUMBER}}},
    "patterns": {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "patternProperties": {"^p": {"type": "array"}},
    },
    "references": {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/n"}, "b": {"$ref": "#/$defs/list"}},
        "$defs": {
            "n": {"type": ["integer", "null"]},
            "list": {"type": "array", "items": {"$ref": "#/$defs/list"}},
        },
    },
}
GOOD: dict[str, Any] = {
    "closed": {"a": 1, "b": [1.5, 2]},
    "open": {"a": 1, "b": [1.5], "c": {"d": [None, "x"]}},
    "nullable": {"a": None, "b": [1.5, None]},
    "untyped": {"a": {"x": [1, 2.5]}, "b": None},
    "any-items": {"a": 1, "b": [[1], {"c": "d"}]},
    "extra-schema": {"a": 1, "c": [{"d": [1]}, None]},
    "combinators": {"a": None, "b": [1, [2]]},
    "references": {"a": 3, "b": [[], [[]]]},
    "closed-nested": {"a": {"x": 1}, "b": [{"y": "s"}, {}]},
    "extra-proven": {"a": {"n": 1}, "s": "t"},
    "nullable-object": {"a": {"x": 1.5, "w": [1]}, "b": [None, {"k": [2]}]},
    "root-array": [{"x": 1}, {"y": [1, {"z": None}]}],
    "patterns": {"a": 1, "p1": [{"z": 1}], "q": {"r": [2.5]}},
}


def _deep() -> list[Any]:
    value: list[Any] = []
    for _ in range(MAX_DEPTH + 5):
        value = [value]
    return value


BAD = {
    "object": object,
    "set": lambda: {1, 2},
    "bytes": lambda: b"x",
    "nan": lambda: float("nan"),
    "inf": lambda: float("-inf"),
    "int-key": lambda: {1: "x"},
    "too-deep": _deep,
}


def _positions(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value`` a bad value can replace, or be added (a new key, a new item)."""
    found = [path] if path else []
    if isinstance(value, dict):
        found.append((*path, "zz-new"))
        for key, item in value.items():
            found += _positions(item, (*path, key))
    elif isinstance(value, list):
        found.append((*path, len(value)))
        for index, item in enumerate(value):
            found += _positions(item, (*path, index))
    return found


def _placed(value: Any, path: tuple[Any, ...], bad: Any) -> Any:
    value = copy.deepcopy(value)
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if isinstance(parent, list) and last == len(parent):
        parent.append(bad)
    else:
        parent[last] = bad
    return value


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_good_values_pass(name: str) -> None:
    tool = Tool(name="t", description="d", input_schema=SCHEMAS[name], execute=lambda input: input)
    assert tool.execute(GOOD[name]) == GOOD[name]
    assert tool.execute(GOOD[name]) == GOOD[name]  # the second call takes the compiled path


@pytest.mark.parametrize("bad", sorted(BAD))
@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_no_value_that_is_not_json_gets_through(name: str, bad: str) -> None:
    tool = Tool(name="t", description="d", input_schema=SCHEMAS[name], execute=lambda input: "ran")
    tool.execute(GOOD[name])  # compile
    for path in _positions(GOOD[name]):
        with pytest.raises(ToolValidationError):
            tool.execute(_placed(GOOD[name], path, BAD[bad]()))


def test_what_is_planned() -> None:
    assert compile_plan(SCHEMAS["closed"]) is None  # jsonschema-rs proves it all
    assert compile_plan(SCHEMAS["open"]) is not None
    assert not has_references(SCHEMAS["open"]) and has_references(SCHEMAS["references"])
