"""The model providers' input-schema dialects: each a :class:`ProviderDialect` with one step
per rule of the provider (``_steps`` holds the shared ones)."""

from __future__ import annotations

from typing import Any

from ._provider import (
    ANNOTATIONS,
    ProviderDialect,
    admits_null,
    is_object,
    move_to_description,
    note,
)
from ._steps import (
    all_of_merged,
    array_items,
    bare_any_of_as_type_list,
    const_as_enum,
    json_type,
    nullable_keyword,
    object_properties,
    one_of_as_any_of,
    ref_alone,
    tuples_as_items,
    type_lists_split,
)
from ._walk import Dialect, _merge, _ptr

__all__ = ["PROVIDER_DIALECTS", "STRICT_LIMITS", "HfOutputDialect"]

# fmt: off
_STRICT_KEYWORDS = frozenset((
    "type", "properties", "required", "additionalProperties", "items", "enum", "anyOf", "$ref",
    "description", "title", "pattern", "format", "multipleOf", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "minItems", "maxItems",
))
_STRICT_FORMATS = frozenset((
    "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid",
))
_GEMINI_KEYWORDS = frozenset((
    "type", "format", "title", "description", "nullable", "enum", "items", "properties",
    "required", "anyOf", "minimum", "maximum", "minItems", "maxItems", "minLength",
    "maxLength", "pattern", "default", "propertyOrdering", "example", "minProperties",
    "maxProperties",
))
_CONDITIONS = frozenset((
    "not", "if", "then", "else", "contains", "propertyNames", "dependentSchemas",
    "unevaluatedProperties", "unevaluatedItems", "contentSchema", "additionalItems",
))
"""Subschema keywords that only narrow what their node accepts."""
# fmt: on
STRICT_LIMITS = {"properties": 5000, "nesting": 10, "enum": 1000}
"""OpenAI's documented limits for a strict schema: properties in all, object nesting levels,
enum values in all."""


class OpenAIDialect(ProviderDialect):
    """OpenAI function parameters without strict mode: an object root, arrays with ``items``,
    objects with ``properties``; the rest of JSON Schema as it is."""

    label = "OpenAI"
    steps = (all_of_merged, const_as_enum, array_items, object_properties)


def strict_keywords(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Only the keywords strict mode supports; the others (``default``, ``minLength``, a
    ``format`` outside its list...) are written into the description."""
    out = node
    fmt = node.get("format")
    if isinstance(fmt, str) and fmt not in _STRICT_FORMATS:
        out = move_to_description(out, ["format"], dialect, pointer)
    extra = [k for k in out if k not in _STRICT_KEYWORDS]
    return move_to_description(out, extra, dialect, pointer)


def strict_objects(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Every object closed, every property required, an optional one made nullable.

    An object that admits undeclared properties on purpose (``additionalProperties`` true or
    a schema, ``patternProperties``: a mapping), or any object at all (no declared properties,
    not closed) below the root, has no strict form: closed, it would accept ``{}`` alone. The
    root is the one exception: a tool without declared arguments takes none.
    """
    if not is_object(node):
        return node
    additional = node.get("additionalProperties")
    if additional is True or isinstance(additional, dict) and additional != {"not": {}}:
        dialect.fail(
            "additionalProperties",
            _ptr(pointer, "additionalProperties"),
            "strict mode closes every object: a mapping of free keys has no strict form",
        )
    if "patternProperties" in node:
        dialect.fail(
            "patternProperties",
            _ptr(pointer, "patternProperties"),
            "strict mode closes every object: keys by pattern have no strict form",
        )
    if pointer and not node.get("properties") and additional is not False:
        dialect.fail(
            "properties",
            pointer,
            "strict mode closes every object: an object of any properties has no strict form",
        )
    properties = node.get("properties") or {}
    required = set(node.get("required") or ())
    if additional is not False:
        dialect.change(
            pointer, "additionalProperties", "rewritten", "closed: undeclared properties refused"
        )
    for name in properties:
        if name not in required:
            dialect.change(
                _ptr(_ptr(pointer, "properties"), name),
                "required",
                "rewritten",
                "an optional property made required"
                + ("" if admits_null(properties[name]) else ", and nullable (null: absent)"),
            )
    out = dict(node)
    out["type"] = "object"
    out["properties"] = {
        name: sub if name in required or admits_null(sub) else _with_null(sub)
        for name, sub in properties.items()
    }
    out["required"] = list(properties)
    out["additionalProperties"] = False
    return out


def _with_null(schema: Any) -> dict[str, Any]:
    """``schema`` that also accepts ``null``."""
    out = dict(schema)
    types = out.get("type")
    if isinstance(out.get("enum"), list):
        out["enum"] = [*out["enum"], None]
    if isinstance(types, str) and "anyOf" not in out:
        out["type"] = [types, "null"]
        return out
    if isinstance(types, list) and "anyOf" not in out:
        out["type"] = [*types, "null"]
        return out
    if isinstance(out.get("anyOf"), list) and "$ref" not in out:
        out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        return out
    annotations = {k: out.pop(k) for k in ("description", "title") if k in out}
    return {"anyOf": [out, {"type": "null"}], **annotations}


def strict_typed(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Every position has a type: an ``enum`` gets the types of its values; a schema that
    accepts any value has no strict form."""
    if node.get("items") == {}:  # an array of anything, said here or by array_items
        dialect.fail("items", _ptr(pointer, "items"), "strict mode needs a type for array items")
    if "type" in node or "anyOf" in node or "$ref" in node:
        return node
    enum = node.get("enum")
    if isinstance(enum, list) and enum:
        kinds = list(dict.fromkeys(json_type(v) for v in enum))
        node["type"] = kinds[0] if len(kinds) == 1 else kinds
        dialect.change(pointer, "type", "rewritten", "an enum typed by the types of its values")
        return node
    dialect.fail(
        "type", pointer, "strict mode needs a type at every position; this one accepts any value"
    )


def strict_no_all_of(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``allOf`` that cannot be folded has no strict form."""
    if "allOf" in node:
        dialect.fail(
            "allOf",
            _ptr(pointer, "allOf"),
            "strict mode has no allOf, and these branches cannot be merged",
        )
    return node


class OpenAIStrictDialect(ProviderDialect):
    """OpenAI strict mode (Structured Outputs): closed objects, every property required (an
    optional one nullable), ``anyOf`` only, the supported keywords only, within the limits."""

    label = "OpenAI strict mode"
    dropped_early = _CONDITIONS
    steps = (
        all_of_merged,
        strict_no_all_of,
        one_of_as_any_of,
        const_as_enum,
        tuples_as_items,
        array_items,
        type_lists_split,
        strict_keywords,
        strict_objects,
        strict_typed,
        ref_alone,
    )

    def finish(self, out: dict[str, Any]) -> dict[str, Any]:
        found = _strict_measure(out)
        for what, count in found.items():
            if count > STRICT_LIMITS[what]:
                self.fail(
                    {"properties": "properties", "enum": "enum", "nesting": "depth"}[what],
                    "",
                    f"strict mode allows at most {STRICT_LIMITS[what]} {what}"
                    f"{' levels' if what == 'nesting' else ''}; this schema has {count}",
                )
        return out


def _strict_measure(root: dict[str, Any]) -> dict[str, int]:
    """Properties and enum values in all, and the deepest object nesting, of a rendered
    strict schema (definitions counted once, one level down)."""
    properties = enums = deepest = 0
    stack: list[tuple[Any, int]] = [(root, 0)]
    defs = root.get("$defs")
    if type(defs) is dict:
        stack.extend((sub, 1) for sub in defs.values())
    while stack:
        node, level = stack.pop()
        if type(node) is not dict:
            continue
        found = node.get("properties")
        if type(found) is dict:
            properties += len(found)
            level += 1
            deepest = max(deepest, level)
            stack.extend((sub, level) for sub in found.values())
        enum = node.get("enum")
        if type(enum) is list:
            enums += len(enum)
        items = node.get("items")
        if type(items) is dict:
            stack.append((items, level))
        branches = node.get("anyOf")
        if type(branches) is list:
            stack.extend((sub, level) for sub in branches)
    return {"properties": properties, "enum": enums, "nesting": deepest}


class AnthropicDialect(ProviderDialect):
    """Anthropic ``input_schema``: draft 2020-12 with an object root and no root combinators."""

    label = "Anthropic"
    steps = (all_of_merged, const_as_enum)


class GeminiJsonSchemaDialect(ProviderDialect):
    """Gemini ``parametersJsonSchema``: JSON Schema with an object root."""

    label = "Gemini parametersJsonSchema"
    steps = (all_of_merged, const_as_enum, array_items)


class HfDialect(ProviderDialect):
    """Chat-template tools (``transformers``' ``get_json_schema`` conventions): references
    inlined, ``nullable: true`` for null, unions of bare types as ``type`` lists."""

    label = "chat templates"
    spells_nullable = True
    steps = (all_of_merged, const_as_enum, nullable_keyword, bare_any_of_as_type_list)


class HfOutputDialect(HfDialect):
    """A chat-template tool's ``return`` schema: any root."""

    object_root = False


def gemini_bounds(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """An exclusive bound as the inclusive bound (wider), noted in the description."""
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        limit = node.get(flag)
        if isinstance(limit, (int, float)) and not isinstance(limit, bool):
            node = move_to_description(node, [flag])
            dialect.change(
                _ptr(pointer, flag),
                flag,
                "described",
                f"as the inclusive {bound} (wider), the exclusive bound written into the "
                "description",
            )
            other = node.get(bound)
            if not isinstance(other, (int, float)) or (
                limit > other if bound == "minimum" else limit < other
            ):
                node[bound] = limit
    return node


def gemini_enums(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Enums hold strings only: any other enum is written into the description instead, the
    node typed by its values (several kinds of scalars: an ``anyOf`` of one branch per kind,
    the strings still an enum)."""
    enum = node.get("enum")
    if isinstance(enum, list) and not all(isinstance(v, str) for v in enum):
        node = move_to_description(node, ["enum"], dialect, pointer)
        if "type" not in node and "anyOf" not in node:
            kinds = list(dict.fromkeys(json_type(v) for v in enum))
            if len(kinds) == 1:
                node["type"] = kinds[0]
            elif not {"array", "object"} & set(kinds):
                strings = [v for v in enum if isinstance(v, str)]
                node["anyOf"] = [
                    {"type": kind, "enum": strings} if kind == "string" else {"type": kind}
                    for kind in kinds
                ]
    elif isinstance(enum, list) and "type" not in node:
        node["type"] = "string"
        dialect.change(pointer, "type", "rewritten", "an enum of strings typed 'string'")
    return node


_TO_JSON_SCHEMA = "field='parametersJsonSchema' renders JSON Schema, which can say it"


def gemini_objects(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """An object has declared properties: a free-form object (a mapping, or any object) has
    no Gemini form below the root (a root without properties: a tool without arguments)."""
    if node.get("type") != "object":
        if isinstance(node.get("required"), list) and not isinstance(node.get("properties"), dict):
            node = move_to_description(node, ["required"], dialect, pointer)
        return node
    properties = node.get("properties")
    if not properties:
        if pointer:
            dialect.fail(
                "properties",
                pointer,
                "a Gemini parameters object declares at least one property; this one declares "
                f"none ({_TO_JSON_SCHEMA})",
            )
        node = {k: v for k, v in node.items() if k not in ("type", "properties", "required")}
        dialect.change(
            pointer, "properties", "described", "arguments without properties: the root left "
            "without a type, 'a JSON object' written into the description"
        )  # fmt: skip
        return note(node, "a JSON object")
    required = node.get("required")
    if isinstance(required, list):
        if any(name not in properties for name in required):
            dialect.change(
                _ptr(pointer, "required"),
                "required",
                "dropped",
                "the names of undeclared properties left out",
            )
        node["required"] = [name for name in required if name in properties]
        if not node["required"]:
            node.pop("required")
    return node


def gemini_any_of_alone(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``anyOf`` shares its node with annotations only: other keywords go into each branch, or,
    where a branch says otherwise, into the description."""
    branches = node.get("anyOf")
    if not isinstance(branches, list):
        return node
    rules = {k: v for k, v in node.items() if k != "anyOf" and k not in ANNOTATIONS}
    if not rules:
        return node
    spread = []
    for branch in branches:
        merged = _merge(branch, rules) if isinstance(branch, dict) else None
        if merged is None:  # a branch disagrees: the rules are written into the description
            return move_to_description(node, list(rules), dialect, pointer)
        spread.append(merged)
    for key in rules:
        dialect.change(_ptr(pointer, key), key, "rewritten", "moved into each branch of anyOf")
    out = {k: v for k, v in node.items() if k not in rules}
    out["anyOf"] = spread
    return out


def gemini_typed(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Every position has a type (or is an ``anyOf`` of typed branches), array items too: a
    position that accepts values of any type has no Gemini form."""
    items = node.get("items")
    if node.get("type") == "array" and not (isinstance(items, dict) and _typed(items)):
        _untyped(dialect, _ptr(pointer, "items"), "values of any type")  # no items, or {}
    if pointer and not _typed(node):
        _untyped(dialect, pointer, "null alone" if node.get("nullable") else "values of any type")
    return node


def _typed(node: dict[str, Any]) -> bool:
    return "type" in node or "anyOf" in node


def _untyped(dialect: Dialect, pointer: str, accepted: str) -> None:
    dialect.fail(
        "type",
        pointer,
        f"Gemini parameters need a type at every position; this one accepts {accepted}, "
        f"which no Gemini type says ({_TO_JSON_SCHEMA})",
    )


def gemini_keywords(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Only the keywords of Gemini's schema; the others are written into the description."""
    return move_to_description(
        node, [k for k in node if k not in _GEMINI_KEYWORDS], dialect, pointer
    )


def gemini_single_type(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``type`` is one name."""
    types = node.get("type")
    if isinstance(types, list) and len(types) == 1:
        node["type"] = types[0]
    return node


class GeminiDialect(ProviderDialect):
    """Gemini ``parameters``: the OpenAPI 3.0 subset Gemini reads. No references (so no
    recursion), one type per node, ``nullable``, string enums, ``anyOf`` alone on its node,
    objects with declared properties, a type at every position."""

    label = "Gemini parameters"
    recursion = False
    spells_nullable = True
    dropped_early = _CONDITIONS | {"patternProperties", "additionalProperties"}
    steps = (
        all_of_merged,
        one_of_as_any_of,
        const_as_enum,
        tuples_as_items,
        array_items,
        nullable_keyword,
        type_lists_split,
        gemini_single_type,
        gemini_bounds,
        gemini_enums,
        gemini_objects,
        gemini_keywords,
        gemini_any_of_alone,
        gemini_typed,
    )


PROVIDER_DIALECTS: dict[str, type[ProviderDialect]] = {
    "openai": OpenAIDialect,
    "openai-strict": OpenAIStrictDialect,
    "anthropic": AnthropicDialect,
    "gemini": GeminiDialect,
    "gemini-json-schema": GeminiJsonSchemaDialect,
    "hf": HfDialect,
}
"""The built-in provider dialects, by the name ``convert_schema`` takes."""
