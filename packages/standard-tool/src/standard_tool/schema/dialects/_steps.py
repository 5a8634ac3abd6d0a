"""The rules several provider dialects share, one step each."""

from __future__ import annotations

import json
from typing import Any

from ._provider import MERGED, NULLABLE, OF_TYPE, note, only_null, types_of
from ._walk import Dialect, _merge, _ptr

__all__ = [
    "all_of_merged",
    "array_items",
    "bare_any_of_as_type_list",
    "const_as_enum",
    "json_type",
    "nullable_keyword",
    "object_properties",
    "one_of_as_any_of",
    "ref_alone",
    "tuples_as_items",
    "type_lists_split",
]


def const_as_enum(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``const`` as a one-value ``enum``."""
    if "const" in node:
        value = node.pop("const")
        dialect.change(_ptr(pointer, "const"), "const", "rewritten", "as a one-value enum")
        enum = node.get("enum")
        node["enum"] = [value] if not isinstance(enum, list) or value in enum else []
    return node


def one_of_as_any_of(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``oneOf`` as ``anyOf`` (wider: a value matching several branches is accepted too)."""
    if isinstance(node.get("oneOf"), list):
        branches = node.pop("oneOf")
        dialect.change(
            _ptr(pointer, "oneOf"),
            "oneOf",
            "rewritten",
            "as anyOf (wider: a value that matches several branches is accepted too)",
        )
        if isinstance(node.get("anyOf"), list):
            node.setdefault("allOf", []).append({"anyOf": branches})
        else:
            node["anyOf"] = branches
    return node


def all_of_merged(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``allOf`` folded into its node when the branches do not disagree."""
    branches = node.get("allOf")
    if not isinstance(branches, list):
        return node
    merged: dict[str, Any] | None = {k: v for k, v in node.items() if k != "allOf"}
    for branch in branches:
        merged = _merge(merged, branch) if merged is not None and isinstance(branch, dict) else None
    if merged is None:
        return node
    dialect.change(_ptr(pointer, "allOf"), "allOf", "rewritten", MERGED)
    return merged


def array_items(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """An array schema always says what its items are."""
    if "array" in types_of(node) and "items" not in node:
        node["items"] = {}
        dialect.change(pointer, "items", "rewritten", "an array without items: items of any value")
    return node


def tuples_as_items(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``prefixItems`` as one ``items`` schema that accepts any of the positions' schemas."""
    prefix = node.get("prefixItems")
    if not isinstance(prefix, list):
        return node
    items = node.get("items")
    closed = items == {"not": {}} or (
        isinstance(node.get("maxItems"), int) and node["maxItems"] <= len(prefix)
    )
    branches = list(prefix) if closed else [*prefix, items if isinstance(items, dict) else {}]
    unique = [b for i, b in enumerate(branches) if b not in branches[:i]]
    node = {k: v for k, v in node.items() if k not in ("prefixItems", "items")}
    node["items"] = unique[0] if len(unique) == 1 else {"anyOf": unique}
    if {} in unique:
        node["items"] = {}
    dialect.change(
        _ptr(pointer, "prefixItems"),
        "prefixItems",
        "rewritten",
        "as one items schema that accepts any position's schema, the positions in the description",
    )
    return note(node, "items by position: " + ", ".join(_brief(b) for b in prefix))


def _brief(schema: Any) -> str:
    if isinstance(schema, dict) and isinstance(schema.get("type"), str):
        return str(schema["type"])
    return json.dumps(schema, separators=(",", ":"))[:40]


def object_properties(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """An object schema always has ``properties``."""
    if "object" in types_of(node) and "properties" not in node:
        node["properties"] = {}
        dialect.change(pointer, "properties", "rewritten", "an object without properties: none")
    return node


def type_lists_split(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """A ``type`` list of several non-null types as an ``anyOf`` of single types, each branch
    taking the keywords that apply to its type (``[T, "null"]`` stays: it spells nullable).

    A branch is a new schema of the same position: it takes every step of the dialect, as a
    schema of the source does (an object branch is closed in strict mode, say)."""
    types = node.get("type")
    if not isinstance(types, list):
        return node
    named = [t for t in dict.fromkeys(types) if isinstance(t, str) and t != "null"]
    if len(named) < 2:
        return node
    branches = []
    moved: set[str] = set()
    for kind in named:
        branch: dict[str, Any] = {"type": kind}
        for key in OF_TYPE.get(kind, ()):
            if key in node:
                branch[key] = node[key]
                moved.add(key)
        for step in dialect.steps:
            branch = step(dialect, branch, pointer)
        branches.append(branch)
    if "null" in types:
        branches.append({"type": "null"})
    dialect.change(
        _ptr(pointer, "type"), "type", "rewritten", "a list of types as an anyOf, a branch a type"
    )
    out = {k: v for k, v in node.items() if k != "type" and k not in moved}
    if "anyOf" in out:
        return {**{k: v for k, v in out.items() if k != "anyOf"}, "allOf": [
            {"anyOf": out["anyOf"]}, {"anyOf": branches}]}  # fmt: skip
    out["anyOf"] = branches
    return out


def nullable_keyword(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Null spelled ``nullable: true`` (OpenAPI): from ``type`` lists, ``anyOf``/``oneOf`` null
    branches and ``null`` in an ``enum``; a lone remaining branch is merged into its node."""
    nullable = False
    types = node.get("type")
    if types == "null" or (isinstance(types, list) and "null" in types):
        dialect.change(_ptr(pointer, "type"), "type", "rewritten", NULLABLE)
    if types == "null":
        node.pop("type")
        nullable = True
    elif isinstance(types, list) and "null" in types:
        rest = [t for t in types if t != "null"]
        nullable = True
        if rest:
            node["type"] = rest[0] if len(rest) == 1 else rest
        else:
            node.pop("type")
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if not isinstance(branches, list):
            continue
        kept = [b for b in branches if not only_null(b)]
        if len(kept) == len(branches):
            continue
        nullable = True
        dialect.change(_ptr(pointer, key), key, "rewritten", NULLABLE)
        node = {k: v for k, v in node.items() if k != key}
        if len(kept) == 1 and isinstance(kept[0], dict):
            merged = _merge(kept[0], node)
            node = merged if merged is not None else {**node, key: kept}
        elif kept:
            node[key] = kept
    enum = node.get("enum")
    if isinstance(enum, list) and None in enum:
        nullable = True
        dialect.change(_ptr(pointer, "enum"), "enum", "rewritten", NULLABLE)
        node["enum"] = [v for v in enum if v is not None]
        if not node["enum"]:
            node.pop("enum")
    if nullable:
        node["nullable"] = True
    return node


def ref_alone(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """A kept ``$ref`` stands alone; its siblings go to a node that holds it in ``anyOf``."""
    if "$ref" in node and len(node) > 1 and "anyOf" not in node:
        ref = node.pop("$ref")
        node["anyOf"] = [{"$ref": ref}]
        dialect.change(
            _ptr(pointer, "$ref"),
            "$ref",
            "rewritten",
            "held alone in an anyOf, its siblings beside",
        )
    return node


def bare_any_of_as_type_list(
    dialect: Dialect, node: dict[str, Any], pointer: str
) -> dict[str, Any]:
    """An ``anyOf`` of bare types as a ``type`` list, as chat-template tools spell a union."""
    branches = node.get("anyOf")
    if (
        isinstance(branches, list)
        and len(branches) > 1
        and "type" not in node
        and all(
            isinstance(b, dict) and b.keys() == {"type"} and isinstance(b["type"], str)
            for b in branches
        )
    ):
        node = {k: v for k, v in node.items() if k != "anyOf"}
        names = sorted({b["type"] for b in branches})
        dialect.change(
            _ptr(pointer, "anyOf"), "anyOf", "rewritten", "a union of bare types as a type list"
        )
        node["type"] = names[0] if len(names) == 1 else names
    return node


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"
