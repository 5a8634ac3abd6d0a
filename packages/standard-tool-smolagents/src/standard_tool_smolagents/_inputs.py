"""JSON Schema to smolagents' ``inputs`` / ``output_type`` and back.

smolagents describes each argument with a ``type`` (one of its names, or a list of them), a
``description`` and ``nullable`` (which also means "may be left out"). What that cannot say
(nested objects, bounds, enums, references) goes into the description as the argument's
JSON Schema; the standard tool still validates against the whole schema. An argument that is
required and may be ``null`` is ``nullable`` too, so an agent lets a model leave it out: the
exported tool then passes ``null`` for it (:func:`required_nulls`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

__all__ = [
    "PLAIN_KEYS",
    "integers_are_numbers",
    "input_schema_of",
    "inputs_of",
    "output_schema_of",
    "output_type_of",
    "required_nulls",
]

_ORDER = ("string", "boolean", "integer", "number", "array", "object")
"""smolagents' names of the JSON types (``null`` is said with ``nullable``)."""
PLAIN_KEYS = frozenset({"type", "description", "title"})
"""The keywords a smolagents ``inputs`` entry says itself; any other is shown as JSON Schema."""
_VALUE_TYPES: dict[type, str] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    list: "array",
    dict: "object",
    type(None): "null",
}
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def _resolve(node: Any, root: Mapping[str, Any], depth: int = 0) -> Any:
    """``node`` with a local ``$ref`` at its top followed (a few levels at most)."""
    while isinstance(node, Mapping) and isinstance(node.get("$ref"), str) and depth < 8:
        ref: str = node["$ref"]
        if not ref.startswith("#"):
            return node
        target: Any = root
        for token in filter(None, ref[1:].split("/")):
            token = token.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, Mapping) or token not in target:
                return node
            target = target[token]
        node, depth = target, depth + 1
    return node


def _types(node: Any, root: Mapping[str, Any], depth: int = 0) -> set[str] | None:
    """The JSON types ``node`` admits (``None``: any)."""
    node = _resolve(node, root)
    if not isinstance(node, Mapping) or depth > 16:
        return None if node is not False else set()
    declared = node.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    for key in ("enum", "const"):
        if key in node:
            values = node[key] if key == "enum" else [node[key]]
            if isinstance(values, list):
                return {_VALUE_TYPES.get(type(v), "object") for v in values}
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list):
            found: set[str] = set()
            for branch in branches:
                types = _types(branch, root, depth + 1)
                if types is None:
                    return None
                found |= types
            return found
    for branch in node.get("allOf") or ():
        types = _types(branch, root, depth + 1)
        if types is not None:
            return types
    return None


def _refs(node: Any, found: set[str]) -> None:
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            found.add(ref[len("#/$defs/") :])
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def _shown(node: Any, root: Mapping[str, Any]) -> str:
    """``node`` as compact JSON, with the ``$defs`` it refers to (transitively)."""
    defs = root.get("$defs")
    if not isinstance(defs, Mapping):
        return _COMPACT.encode(node)
    names: set[str] = set()
    _refs(node, names)
    seen: set[str] = set()
    while names - seen:
        name = sorted(names - seen)[0]
        seen.add(name)
        _refs(defs.get(name), names)
    if not seen or not isinstance(node, Mapping):
        return _COMPACT.encode(node)
    used = {name: defs[name] for name in sorted(seen) if name in defs}
    return _COMPACT.encode({**node, "$defs": used})


@functools.cache
def integers_are_numbers() -> bool:
    """Whether smolagents' agents take an integer for a ``number`` argument (1.21 and later).
    1.20's ``validate_tool_arguments`` refuses ``0`` for a ``number``, which a model sends for
    a float as often as ``0.0``, so ``inputs`` there say ``["integer", "number"]``; no version
    takes one for a list of types holding ``number``, which always gets ``integer`` too."""
    from importlib.metadata import version

    try:
        major, minor = (int(part) for part in version("smolagents").split(".")[:2])
    except ValueError:  # a version this cannot read: a newer one
        return True
    return (major, minor) >= (1, 21)


def _entry(node: Any, root: Mapping[str, Any], required: bool) -> dict[str, Any]:
    resolved = _resolve(node, root)
    types = _types(node, root)
    nullable = not required or (types is not None and "null" in types)
    named = [t for t in _ORDER if types is not None and t in types]
    if (
        "number" in named
        and "integer" not in named
        and (len(named) > 1 or not integers_are_numbers())
    ):
        named.insert(named.index("number"), "integer")  # an integer is a JSON number too
    kind: Any = "any" if not named or types is None else named[0] if len(named) == 1 else named
    text = ""
    for source in (node, resolved):
        if isinstance(source, Mapping) and isinstance(source.get("description"), str):
            text = source["description"]
            break
    if isinstance(node, Mapping) and not set(node) <= PLAIN_KEYS:
        shown = {k: v for k, v in node.items() if k not in ("description", "title")}
        schema = "JSON Schema: " + _shown(shown, root)
        text = f"{text}\n{schema}" if text else schema
    entry: dict[str, Any] = {"type": kind, "description": text}
    if nullable:
        entry["nullable"] = True
    return entry


def inputs_of(schema: Any) -> dict[str, dict[str, Any]]:
    """smolagents ``inputs`` for an object input JSON Schema, property by property."""
    root = schema if isinstance(schema, Mapping) else {}
    node = _resolve(root, root)
    properties = node.get("properties") if isinstance(node, Mapping) else None
    if not isinstance(properties, Mapping):
        return {}
    required = node.get("required")
    names = set(required) if isinstance(required, list) else set()
    return {str(key): _entry(value, root, key in names) for key, value in properties.items()}


def required_nulls(schema: Any) -> tuple[str, ...]:
    """The arguments an object input JSON Schema requires and allows ``null`` for, which
    ``inputs`` can only call ``nullable`` (an agent reads that as "may be left out")."""
    root = schema if isinstance(schema, Mapping) else {}
    node = _resolve(root, root)
    properties = node.get("properties") if isinstance(node, Mapping) else None
    required = node.get("required") if isinstance(node, Mapping) else None
    if not isinstance(properties, Mapping) or not isinstance(required, list):
        return ()
    return tuple(
        str(key)
        for key, value in properties.items()
        if key in required and "null" in (_types(value, root) or ())
    )


def output_type_of(schema: Any) -> str:
    """smolagents' ``output_type`` for an output JSON Schema: one type, else ``any``."""
    if not isinstance(schema, Mapping):
        return "any"
    types = _types(schema, schema)
    if types is None or len(types) != 1:
        return "any"
    (kind,) = types
    return kind


def input_schema_of(inputs: Any) -> dict[str, Any]:
    """The input JSON Schema smolagents' ``inputs`` say: each argument's own JSON Schema
    keywords kept, ``any``/``image``/``audio`` unconstrained, ``nullable`` as optional and
    ``null``, no other arguments."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for key, entry in (inputs or {}).items():
        if not isinstance(entry, Mapping):
            properties[key] = {}
            required.append(key)
            continue
        prop = {k: v for k, v in entry.items() if k not in ("nullable", "type", "description")}
        if entry.get("description"):
            prop = {"description": entry["description"], **prop}
        kind = entry.get("type")
        kinds = [kind] if isinstance(kind, str) else list(kind) if isinstance(kind, list) else []
        kinds = [k for k in kinds if k in _ORDER or k == "null"]
        nullable = entry.get("nullable") is True
        if kinds and not {"any", "image", "audio"} & set(
            kinds if isinstance(kind, list) else [kind]
        ):
            if nullable and "null" not in kinds:
                kinds.append("null")
            prop["type"] = kinds[0] if len(kinds) == 1 else kinds
        properties[key] = prop
        if not nullable:
            required.append(key)
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def output_schema_of(output_type: Any, output_schema: Any = None) -> dict[str, Any] | None:
    """The output JSON Schema of a smolagents tool: its ``output_schema``, else its
    ``output_type`` (none for ``any``, ``image`` and ``audio``)."""
    if isinstance(output_schema, Mapping):
        return dict(output_schema)
    if output_type in _ORDER or output_type == "null":
        return {"type": output_type}
    return None
