"""Convert JSON Schemas between draft 2020-12, draft-07 and the OpenAPI 3.0 Schema Object, and
into the dialects of the model providers (``_provider_schemas``)."""

from __future__ import annotations

import copy
import operator
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal, NoReturn
from urllib.parse import unquote

from .exceptions import SchemaNotExpressibleError, UsageError

__all__ = [
    "BUILTIN_DIALECTS",
    "Dialect",
    "convert_schema",
    "detect_dialect",
    "dialects",
    "register_dialect",
]

MAX_DEPTH = 256
"""Subschemas (and JSON values) nested deeper than this are refused."""
MAX_INLINED = 100_000
"""Subschemas produced past this count while inlining references are refused."""

_URI_2020 = "https://json-schema.org/draft/2020-12/schema"
_URI_07 = "http://json-schema.org/draft-07/schema#"
_DRAFT_07_URI = re.compile(r"json-schema\.org/draft-0[467]/")

# fmt: off
_ONE = frozenset((
    "additionalProperties", "additionalItems", "contains", "not", "if", "then", "else",
    "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema",
))
_LIST = frozenset(("allOf", "anyOf", "oneOf", "prefixItems"))
_MAP = frozenset((
    "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies",
))
_ANNOTATIONS = frozenset((
    "title", "description", "default", "examples", "example", "deprecated", "readOnly",
    "writeOnly", "$comment",
))
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
_NULL = object()
"""Stands in for an anyOf/oneOf branch that admits only null."""


def detect_dialect(schema: Mapping[str, Any] | bool) -> Literal["draft-2020-12", "draft-07"]:
    """The dialect named by ``$schema``: draft-04/06/07 read as draft-07, all else as 2020-12."""
    uri = schema.get("$schema") if isinstance(schema, Mapping) else None
    return "draft-07" if isinstance(uri, str) and _DRAFT_07_URI.search(uri) else "draft-2020-12"


PROVIDER_DIALECTS = ("openai", "openai-strict", "anthropic", "gemini", "gemini-json-schema", "hf")
"""The model providers' dialects (``standard_tool.providers`` renders tools in them)."""
BUILTIN_DIALECTS = ("draft-2020-12", "draft-07", "openapi-3.0", *PROVIDER_DIALECTS)
_REGISTERED: dict[str, type[Dialect]] = {}


def register_dialect(name: str, dialect: type[Dialect]) -> None:
    """Make ``dialect`` a target of :func:`convert_schema` (and of ``json_schema(target=name)``)."""
    if name in BUILTIN_DIALECTS:
        raise UsageError(f"{name!r} is a built-in dialect and cannot be replaced")
    if not (isinstance(dialect, type) and issubclass(dialect, Dialect)):
        raise UsageError(f"a dialect is a Dialect subclass, not {dialect!r}")
    _REGISTERED[name] = dialect


def dialects() -> list[str]:
    """The names of every dialect a schema can be converted to."""
    return [*BUILTIN_DIALECTS, *sorted(_REGISTERED)]


def convert_schema(schema: Mapping[str, Any] | bool, target: str) -> dict[str, Any] | bool:
    """A new copy of ``schema`` in the ``target`` dialect; raises SchemaNotExpressibleError."""
    if target not in BUILTIN_DIALECTS and target not in _REGISTERED:
        raise UsageError(f"unknown schema dialect {target!r}; use one of {dialects()}")
    if not isinstance(schema, (Mapping, bool)):
        raise UsageError(f"a JSON Schema is a mapping or a boolean, not {type(schema).__name__}")
    source = detect_dialect(schema)
    walk = _REGISTERED.get(target)
    if target in PROVIDER_DIALECTS:
        from ._provider_schemas import PROVIDER_DIALECTS as PROVIDERS

        walk = PROVIDERS[target]
    if walk is not None:
        if source != "draft-2020-12":
            schema = _To2020("draft-2020-12", schema).run()
    else:
        walk = {
            ("draft-2020-12", "draft-07"): _To07,
            ("draft-07", "draft-2020-12"): _To2020,
        }.get((source, target), _ToOpenAPI if target == "openapi-3.0" else Dialect)
    converted: dict[str, Any] | bool = walk(target, schema).run()
    return converted


def _ptr(base: str, token: str | int) -> str:
    """``base`` extended by one RFC 6901 reference token."""
    if type(token) is str and "~" not in token and "/" not in token:
        return f"{base}/{token}"
    return f"{base}/{str(token).replace('~', '~0').replace('/', '~1')}"


def _unescape(token: str) -> str:
    """A JSON Pointer token from a URI fragment, decoded."""
    return unquote(token).replace("~1", "/").replace("~0", "~")


def _kind(key: str, value: Any) -> str:
    """How keyword ``key`` holds subschemas: ``one``, ``list``, ``map``, or ``""`` for none."""
    if key in _LIST or key == "items":
        return "list" if isinstance(value, list) else "one" if key == "items" else ""
    if key in _MAP:
        return "map" if isinstance(value, Mapping) else ""
    return "one" if key in _ONE else ""


def _splice(node: Mapping[str, Any], old: str, new: Mapping[str, Any]) -> dict[str, Any]:
    """``node`` with key ``old`` replaced, where it stands, by the entries of ``new``."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == old:
            out.update(new)
        elif key not in new:
            out[key] = value
    return out


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any] | None:
    """``over`` laid on ``base``, or None if they disagree on anything but an annotation."""
    if any(k in base and base[k] != v and k not in _ANNOTATIONS for k, v in over.items()):
        return None
    return {**base, **over}


def _is_null(branch: Any) -> bool:
    """Whether an anyOf/oneOf branch is just ``{"type": "null"}`` (plus annotations)."""
    return (
        isinstance(branch, Mapping)
        and branch.get("type") in ("null", ["null"])
        and branch.keys() <= _ANNOTATIONS | {"type"}
    )


def _discriminator_mapping(node: Mapping[str, Any]) -> dict[str, Any] | None:
    """The references of an OpenAPI ``discriminator`` (pydantic emits them), if any."""
    discriminator = node.get("discriminator")
    mapping = discriminator.get("mapping") if isinstance(discriminator, dict) else None
    return mapping if isinstance(mapping, dict) else None


def _is_number(value: Any) -> bool:
    """Whether ``value`` is a JSON number (booleans are not)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Dialect:
    """A conversion of one schema into a dialect: a walk over every subschema.

    As is, a plain deep copy. A new dialect subclasses it and lists its :attr:`steps`, each
    a function ``step(dialect, schema, pointer) -> schema`` applied in order to every schema
    object once its subschemas are converted (one step per rule of the target); a dialect
    that needs more overrides :meth:`node` or :meth:`leaf`. :meth:`inline` replaces a local
    ``$ref`` by a converted copy of its target, :meth:`fail` refuses what the target cannot
    express. Register it with :func:`register_dialect`; its input is always draft 2020-12
    (a draft-07 schema is converted to 2020-12 first).
    """

    steps: tuple[Callable[[Dialect, dict[str, Any], str], dict[str, Any]], ...] = ()
    """What this dialect does to each schema object, in order."""

    def __init__(self, target: str, root: Any) -> None:
        self.target, self.root = target, root
        self.stack: list[str] = [""]  # JSON Pointers of the references being inlined
        self.count = 0

    def run(self) -> Any:
        """The converted root schema."""
        try:
            return self.schema(self.root, "", 0)
        except RecursionError:
            raise SchemaNotExpressibleError(
                self.target, "depth", "", "the schema nests deeper than Python's recursion limit"
            ) from None

    def fail(self, keyword: str, pointer: str, reason: str) -> NoReturn:
        """Raise SchemaNotExpressibleError for ``keyword`` at ``pointer``."""
        raise SchemaNotExpressibleError(self.target, keyword, pointer, reason)

    def guard(self, pointer: str, depth: int) -> None:
        """Refuse nesting deeper than MAX_DEPTH."""
        if depth > MAX_DEPTH:
            self.fail("depth", pointer, f"schemas nested over {MAX_DEPTH} levels deep are refused")

    def schema(self, value: Any, pointer: str, depth: int) -> Any:
        """Convert one subschema."""
        self.guard(pointer, depth)
        self.count += 1
        if self.count > MAX_INLINED and len(self.stack) > 1:
            self.fail("$ref", pointer, f"inlining grows the schema past {MAX_INLINED} subschemas")
        if isinstance(value, Mapping):
            return self.node(value, pointer, depth)
        return self.leaf(value, pointer, depth)

    def node(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        """Convert a schema object: its subschemas, then each of :attr:`steps`."""
        out = self.children(node, pointer, depth)
        for step in self.steps:
            out = step(self, out, pointer)
        return out

    def leaf(self, value: Any, pointer: str, depth: int) -> Any:
        """Convert a boolean schema (or a malformed one, copied as is)."""
        return self.clone(value, pointer, depth)

    def children(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        """A copy of ``node`` with every subschema converted and every other value copied."""
        out: dict[str, Any] = {}
        for key, value in node.items():
            at, kind = _ptr(pointer, key), _kind(key, value)
            if kind == "one":
                out[key] = self.schema(value, at, depth + 1)
            elif kind:
                subs: dict[Any, Any] = {}
                for name, sub in value.items() if kind == "map" else enumerate(value):
                    if key == "dependencies" and isinstance(sub, list):
                        subs[name] = self.clone(sub, _ptr(at, name), depth + 1)
                    else:
                        subs[name] = self.schema(sub, _ptr(at, name), depth + 1)
                out[key] = subs if kind == "map" else list(subs.values())
            else:
                out[key] = self.clone(value, at, depth + 1)
        return out

    def clone(self, value: Any, pointer: str, depth: int) -> Any:
        """A deep copy of a plain JSON value."""
        self.guard(pointer, depth)
        if isinstance(value, Mapping):
            return {k: self.clone(v, _ptr(pointer, k), depth + 1) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.clone(v, _ptr(pointer, i), depth + 1) for i, v in enumerate(value)]
        return value if value is _NULL else copy.deepcopy(value)

    def rename(self, node: Mapping[str, Any], keyword: str) -> str:
        """What ``keyword`` of ``node`` is called in the target."""
        return keyword

    def move_refs(self, out: dict[str, Any]) -> dict[str, Any]:
        """``out`` with its ``$ref`` and discriminator mapping pointed at renamed locations."""
        if "$ref" in out:
            out["$ref"] = self.move_ref(out["$ref"])
        mapping = _discriminator_mapping(out)
        if mapping is not None:
            out["discriminator"]["mapping"] = {k: self.move_ref(v) for k, v in mapping.items()}
        return out

    def move_ref(self, ref: Any) -> Any:
        """``ref`` with each keyword on its local JSON Pointer renamed for the target."""
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return ref
        tokens, node, i = ref[2:].split("/"), self.root, 0
        while i < len(tokens) and isinstance(node, Mapping) and _unescape(tokens[i]) in node:
            key = _unescape(tokens[i])
            value, kind = node[key], _kind(key, node[key])
            tokens[i] = new if (new := self.rename(node, key)) != key else tokens[i]
            if kind in ("list", "map") and i + 1 < len(tokens):
                i, name = i + 1, _unescape(tokens[i + 1])
                if kind == "map":
                    value = value.get(name)
                else:
                    value = value[int(name)] if name.isdigit() and int(name) < len(value) else None
            elif kind != "one":
                break
            node, i = value, i + 1
        return "#/" + "/".join(tokens)

    def merge_defs(self, out: dict[str, Any], old: str, new: str, pointer: str) -> dict[str, Any]:
        """``out`` with definitions container ``old`` renamed to ``new``, merging both."""
        defs = out.get(old)
        if not isinstance(defs, Mapping):
            return out
        if isinstance(out.get(new), Mapping):
            clash = sorted(defs.keys() & out[new].keys())
            if clash:
                self.fail(old, _ptr(pointer, old), f"{new!r} also defines {', '.join(clash)}")
            defs = {**out[new], **defs}
        return _splice(out, old, {new: defs})

    def refuse(self, node: Mapping[str, Any], pointer: str, banned: Mapping[str, str]) -> None:
        """Raise for the first keyword of ``node`` the target cannot express."""
        for key in node:
            if key in banned:
                self.fail(key, _ptr(pointer, key), banned[key])

    def inline(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        """``node`` with its ``$ref`` replaced by a converted copy of the target."""
        at = _ptr(pointer, "$ref")
        target_pointer, target = self.resolve(node["$ref"], at)
        self.stack.append(target_pointer)
        try:
            resolved = self.schema(target, target_pointer, depth + 1)
        finally:
            self.stack.pop()
        rest = self.node({k: v for k, v in node.items() if k != "$ref"}, pointer, depth)
        merged = _merge(resolved, rest) if isinstance(resolved, dict) else None
        return (
            merged if merged is not None else {**rest, "allOf": [resolved, *rest.get("allOf", [])]}
        )

    def resolve(self, ref: Any, at: str) -> tuple[str, Any]:
        """The JSON Pointer and the subschema a local ``$ref`` names."""
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
            self.fail("$ref", at, f"only local JSON Pointer references can be inlined, not {ref!r}")
        target_pointer = unquote(ref[1:])
        if target_pointer in self.stack:
            self.fail("$ref", at, f"the recursive reference {ref!r} cannot be inlined")
        node = self.root
        for token in map(_unescape, ref[1:].split("/")[1:]):
            if isinstance(node, Mapping) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                self.fail("$ref", at, f"{ref!r} points at nothing")
        return target_pointer, node


class _To07(Dialect):
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


class _To2020(Dialect):
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


class _ToOpenAPI(Dialect):
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
