"""What jsonschema-rs proves about a valid value, and the JSON check it leaves to Python.

jsonschema-rs looks at a value only where the schema makes it look. Where it looks, it
refuses what is not JSON data (``ValueError``: a set, bytes, an object) and reads NaN and
infinity as ``null``; it converts the keys of the root dict at once, refusing non-string
ones, but the keys of a nested dict only for some keywords. So where a ``type`` without
``null`` applies, a valid value is JSON data, and the nesting jsonschema-rs follows is the
schema's own. A *plan*, compiled once from a schema, checks only the rest of a valid value:
the keys of nested dicts, extra properties, positions without a ``type``, nullable
positions (NaN reads as ``null``), and anything under a keyword this module does not follow,
each with the plain walk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._json import MAX_DEPTH, plain

__all__ = ["Plan", "compile_plan", "has_references"]

Plan = Callable[[Any, int], bool]
"""``plan(value, depth)``: whether the parts of a valid ``value`` that jsonschema-rs did not
check are JSON data (``False`` also when unsure: the full walk decides)."""

_TYPES = frozenset({"string", "integer", "number", "boolean", "array", "object", "null"})
_NARROWING = frozenset(
    {
        "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
        "$comment", "$schema", "format", "contentEncoding", "contentMediaType",
        "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems",
        "uniqueItems", "required", "minProperties", "maxProperties",
    }
)  # fmt: skip
"""Keywords that only annotate, or narrow what ``type`` admits."""
_FOLLOWED = frozenset({"type", "properties", "additionalProperties", "items"})
_MAX_LEVELS = 32
_REFERENCES = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})


walk: Plan = plain
"""The plan for a position jsonschema-rs does not check: the plain walk."""


def compile_plan(schema: Any, level: int = 0) -> Plan | None:
    """The plan for ``schema`` (``None``: jsonschema-rs proves everything)."""
    if not isinstance(schema, dict) or level > _MAX_LEVELS:
        return walk
    types = schema.get("type")
    types = [types] if isinstance(types, str) else types
    if not isinstance(types, list) or not types or not _TYPES.issuperset(types):
        return walk
    if any(key not in _NARROWING and key not in _FOLLOWED for key in schema):
        return walk
    objects = _object_plan(schema, level) if "object" in types else None
    arrays = _array_plan(schema, level) if "array" in types else None
    if objects is walk or arrays is walk:
        return walk
    if "null" not in types:
        if objects is None and arrays is None:
            return None
        if types == ["object"] and objects is not None:  # a valid value is a dict
            return objects
    return _node_plan(objects, arrays)


def _node_plan(objects: Plan | None, arrays: Plan | None) -> Plan:
    def check(value: Any, depth: int) -> bool:
        kind = type(value)
        if kind is dict:
            return objects is None or objects(value, depth)
        if kind is list:
            return arrays is None or arrays(value, depth)
        if kind is float:  # NaN and infinity pass as null
            return not value - value
        if isinstance(value, (dict, list, tuple, float)):  # subclasses, tuples: walk
            return plain(value, depth)
        return True

    return check


def _object_plan(schema: dict[str, Any], level: int) -> Plan | None:
    properties = schema.get("properties", {})
    additional = schema.get("additionalProperties", True)
    if not isinstance(properties, dict) or not isinstance(additional, (bool, dict)):
        return walk
    children = {name: compile_plan(sub, level + 1) for name, sub in properties.items()}
    planned = tuple((name, plan) for name, plan in children.items() if plan is not None)
    extra: Plan = walk
    if isinstance(additional, dict):
        extra = compile_plan(additional, level + 1) or _proven
    elif additional is False:
        if level == 0 and not planned:  # jsonschema-rs converts the keys of the root itself
            return None
        extra = _nothing  # a valid value has no other keys; the check makes sure of it
    declared = frozenset(properties)
    covers = declared.issuperset

    def check(value: dict[str, Any], depth: int) -> bool:
        if not covers(value):  # keys jsonschema-rs may not have converted, nor looked under
            for key in value.keys() - declared:
                if type(key) is not str or not extra(value[key], depth + 1):
                    return False
        for name, plan in planned:
            if name in value and not plan(value[name], depth + 1):
                return False
        return True

    return check


def _nothing(value: Any, depth: int) -> bool:
    return False


def _proven(value: Any, depth: int) -> bool:
    return True


def _array_plan(schema: dict[str, Any], level: int) -> Plan | None:
    items = schema.get("items", True)
    if items is False:
        return None
    if not isinstance(items, dict):  # any items, or the tuple form of draft 7
        return walk
    plan = compile_plan(items, level + 1)
    if plan is None:
        return None

    def check(value: list[Any], depth: int) -> bool:
        return all(plan(item, depth + 1) for item in value)

    return check


def has_references(schema: Any) -> bool:
    """Whether ``schema`` uses ``$ref`` (or a dynamic reference) anywhere: then its nesting,
    and so jsonschema-rs's, is not bounded by the schema's own."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if not _REFERENCES.isdisjoint(node):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


assert MAX_DEPTH > _MAX_LEVELS + 1  # planned nesting stays within the depth limit
