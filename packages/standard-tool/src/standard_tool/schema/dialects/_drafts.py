"""Convert JSON Schemas between draft 2020-12, draft-07 and the OpenAPI 3.0 Schema Object."""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from typing import Any, Literal

from ._walk import _ANNOTATIONS, _NULL, Dialect, _discriminator_mapping, _merge, _ptr, _splice

__all__ = ["To07", "To2020", "ToOpenAPI", "detect_dialect"]

_URI_2020 = "https://json-schema.org/draft/2020-12/schema"
_URI_07 = "http://json-schema.org/draft-07/schema#"
_DRAFT_07_URI = re.compile(r"json-schema\.org/draft-0[467]/")

# fmt: off
_NOT_IN_07 = {
    **dict.fromkeys(("$dynamicRef", "$dynamicAnchor", "$recursiveRef"),
                    "draft-07 has no dynamic references"),
    **dict.fromkeys(("unevaluatedProperties", "unevaluatedItems"),
                    "draft-07 does not track evaluated locations"),
    **dict.fromkeys(("minContains", "maxContains"), "draft-07 'contains' cannot count matches"),
}
_NOT_IN_OPENAPI = {
    **dict.fromkeys(("prefixItems", "contains", "minContains", "maxContains"),
                    "OpenAPI 3.0 arrays have one 'items' schema"),
    **dict.fromkeys(("patternProperties", "propertyNames", "dependentRequired",
                     "dependentSchemas", "dependencies"),
                    "OpenAPI 3.0 objects have only 'properties' and 'additionalProperties'"),
    **dict.fromkeys(("if", "then", "else"), "OpenAPI 3.0 has no conditionals"),
    **dict.fromkeys(("unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef"),
                    "OpenAPI 3.0 has no dynamic evaluation"),
}
_DROPPED_IN_OPENAPI = frozenset((
    "$schema", "$id", "$comment", "$defs", "definitions", "$anchor", "$dynamicAnchor",
    "$recursiveAnchor", "$vocabulary", "contentMediaType", "contentEncoding", "contentSchema",
    "additionalItems",
))
# fmt: on


def detect_dialect(schema: Mapping[str, Any] | bool) -> Literal["draft-2020-12", "draft-07"]:
    """The dialect named by ``$schema``: draft-04/06/07 read as draft-07, all else as 2020-12."""
    uri = schema.get("$schema") if isinstance(schema, Mapping) else None
    return "draft-07" if isinstance(uri, str) and _DRAFT_07_URI.search(uri) else "draft-2020-12"


def _is_null(branch: Any) -> bool:
    """Whether an anyOf/oneOf branch is just ``{"type": "null"}`` (plus annotations)."""
    return (
        isinstance(branch, Mapping)
        and branch.get("type") in ("null", ["null"])
        and branch.keys() <= _ANNOTATIONS | {"type"}
    )


def _is_number(value: Any) -> bool:
    """Whether ``value`` is a JSON number (booleans are not)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class To07(Dialect):
    """Draft 2020-12 to draft-07."""

    def rename(self, node: Mapping[str, Any], keyword: str) -> str:
        if keyword == "items" and "prefixItems" in node:
            return "additionalItems"
        names = {"$defs": "definitions", "prefixItems": "items", "dependentSchemas": "dependencies"}
        return names.get(keyword, keyword)

    def node(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        self.refuse(node, pointer, _NOT_IN_07)
        out = self.move_refs(self.children(node, pointer, depth))
        if "prefixItems" in out:
            tuple_form = {"items": out["prefixItems"]}
            if "items" in out:
                tuple_form["additionalItems"] = out["items"]
            out.pop("additionalItems", None)  # not a 2020-12 keyword: it must not wake up
            out = _splice(out, "prefixItems", tuple_form)
        out = self.merge_defs(out, "$defs", "definitions", pointer)
        out = _join_dependencies(out)
        if "$schema" in out:
            out["$schema"] = _URI_07
        if "$ref" in out and len(out) > 1:  # draft-07 ignores the siblings of $ref
            out = _splice(out, "$ref", {"allOf": [{"$ref": out["$ref"]}, *out.get("allOf", [])]})
        return out


def _join_dependencies(out: dict[str, Any]) -> dict[str, Any]:
    """``dependentRequired`` and ``dependentSchemas`` folded into one ``dependencies``."""
    keys = [k for k in out if k in ("dependencies", "dependentRequired", "dependentSchemas")]
    if not {"dependentRequired", "dependentSchemas"} & set(keys):
        return out
    joined: dict[str, Any] = {}
    for key in keys:
        for name, dep in out[key].items() if isinstance(out[key], Mapping) else ():
            if name in joined:  # both apply: require both
                both = [
                    d if not isinstance(d, list) else {"required": d} for d in (joined[name], dep)
                ]
                dep = {"allOf": both}
            joined[name] = dep
    out = _splice(out, keys[0], {"dependencies": joined})
    return {k: v for k, v in out.items() if k not in keys[1:]}


class To2020(Dialect):
    """Draft-07 (and 06/04) to draft 2020-12."""

    def rename(self, node: Mapping[str, Any], keyword: str) -> str:
        if keyword in ("items", "additionalItems") and isinstance(node.get("items"), list):
            return "prefixItems" if keyword == "items" else "items"
        return {"definitions": "$defs", "dependencies": "dependentSchemas"}.get(keyword, keyword)

    def node(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        out = self.move_refs(self.children(node, pointer, depth))
        if isinstance(out.get("items"), list):
            tuple_form = {"prefixItems": out["items"]}
            if "additionalItems" in out:
                tuple_form["items"] = out.pop("additionalItems")
            out = _splice(out, "items", tuple_form)
        out.pop("additionalItems", None)  # without tuple-form items it had no effect
        out = self.merge_defs(out, "definitions", "$defs", pointer)
        if isinstance(out.get("dependencies"), Mapping):
            deps = out["dependencies"]
            parts = {
                "dependentRequired": {k: v for k, v in deps.items() if isinstance(v, list)},
                "dependentSchemas": {k: v for k, v in deps.items() if not isinstance(v, list)},
            }
            out = _splice(out, "dependencies", {k: v for k, v in parts.items() if v})
        for bound, flag in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
            if isinstance(out.get(flag), bool):  # draft-04's boolean form
                limit = out.pop(bound, None) if out[flag] else None
                out = _splice(out, flag, {} if limit is None else {flag: limit})
        if "$schema" in out:
            out["$schema"] = _URI_2020
        wrapped = out.get("allOf")
        only = wrapped[0] if isinstance(wrapped, list) and len(wrapped) == 1 else None
        if "$ref" not in out and isinstance(only, Mapping) and only.keys() == {"$ref"}:
            out = _splice(out, "allOf", only)
        return out


class ToOpenAPI(Dialect):
    """Draft 2020-12 or draft-07 to the OpenAPI 3.0 Schema Object, references inlined."""

    def leaf(self, value: Any, pointer: str, depth: int) -> Any:
        if isinstance(value, bool):
            return {} if value else {"not": {}}
        return self.clone(value, pointer, depth)

    def node(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        if "$ref" in node:
            return self.inline(node, pointer, depth)
        self.refuse(node, pointer, _NOT_IN_OPENAPI)
        if isinstance(node.get("items"), list):
            self.fail("items", _ptr(pointer, "items"), "OpenAPI 3.0 has no tuple-form 'items'")
        kept = {k: v for k, v in node.items() if k not in _DROPPED_IN_OPENAPI}
        for key in ("anyOf", "oneOf"):
            if isinstance(kept.get(key), list):
                kept[key] = [_NULL if _is_null(branch) else branch for branch in kept[key]]
        out = self.children(kept, pointer, depth)
        if isinstance(node.get("additionalProperties"), bool):
            out["additionalProperties"] = node["additionalProperties"]
        if _discriminator_mapping(out) is not None:  # its references are all inlined now
            del out["discriminator"]["mapping"]
        nullable = False
        for key in ("anyOf", "oneOf"):
            if isinstance(out.get(key), list) and _NULL in out[key]:
                nullable = True
                out = self.collapse(out, key, [b for b in out[key] if b is not _NULL], pointer)
        out = _annotations(_bounds(self.retype(out, pointer)))
        if nullable or (isinstance(out.get("enum"), list) and None in out["enum"]):
            out["nullable"] = True
        return out

    def collapse(
        self, out: dict[str, Any], key: str, rest: list[Any], pointer: str
    ) -> dict[str, Any]:
        """``out`` with its null branches gone from ``key``, merging a lone survivor."""
        if not rest:
            self.fail("type", _ptr(pointer, key), "OpenAPI 3.0 has no schema for null alone")
        merged = (
            _merge(rest[0], {k: v for k, v in out.items() if k != key}) if len(rest) == 1 else None
        )
        return merged if merged is not None else {**out, key: rest}

    def retype(self, out: dict[str, Any], pointer: str) -> dict[str, Any]:
        """``type`` as one name: null becomes ``nullable``, several become ``anyOf``."""
        types = out.get("type")
        names: list[Any] = (
            [types] if isinstance(types, str) else list(types) if isinstance(types, list) else []
        )
        if not names or not all(isinstance(name, str) for name in names):
            return out
        names = list(dict.fromkeys(names))
        if "null" in names:
            names.remove("null")
            out["nullable"] = True
        if not names:
            self.fail("type", _ptr(pointer, "type"), "OpenAPI 3.0 has no null type")
        if len(names) == 1:
            out["type"] = names[0]
            return out
        alternatives = [{"type": name} for name in names]
        if "anyOf" not in out:
            return _splice(out, "type", {"anyOf": alternatives})
        return _splice(out, "type", {"allOf": [*out.get("allOf", []), {"anyOf": alternatives}]})


def _bounds(out: dict[str, Any]) -> dict[str, Any]:
    """Numeric ``exclusiveMinimum``/``exclusiveMaximum`` in OpenAPI's boolean form."""
    for flag, bound, tighter in (
        ("exclusiveMinimum", "minimum", operator.ge),
        ("exclusiveMaximum", "maximum", operator.le),
    ):
        limit: Any = out.get(flag)
        other: Any = out.get(bound)
        if not _is_number(limit):
            continue
        if _is_number(other) and not tighter(limit, other):
            out = _splice(out, flag, {})  # the inclusive bound is the stricter one
        else:
            out = _splice(out, flag, {bound: limit, flag: True})
    return out


def _annotations(out: dict[str, Any]) -> dict[str, Any]:
    """``const`` as a one-value ``enum`` and ``examples`` as a single ``example``."""
    if "const" in out:
        out = _splice(out, "const", {"enum": [out["const"]]})
    if "examples" in out:
        examples = out["examples"]
        first = isinstance(examples, list) and examples and "example" not in out
        out = _splice(out, "examples", {"example": examples[0]} if first else {})
    return out
