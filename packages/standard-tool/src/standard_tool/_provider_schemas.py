"""The input-schema dialects of the model providers: one :class:`Dialect` walk, one step per rule.

Every provider dialect starts from draft 2020-12 and keeps the schema's meaning in one
direction: whatever is valid under the original is valid under the rendered schema (a
provider's model then sends nothing the tool would not have accepted for that reason alone;
the tool still validates against its own schema). So a keyword a provider lacks is dropped
(widening), and its rule is written into the description for the model to read, never
silently lost. Only what cannot be widened is refused, with the keyword and its location:
recursion where the target has no references, a root that is not an object.

OpenAI's strict mode is the one exception, and it is documented: it closes objects (the
model can only send declared properties), makes every property required and an optional
one nullable; the return half reads ``null`` for an optional field that does not allow it
as "absent" (see ``_calls``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar
from urllib.parse import unquote

from ._dialects import MAX_DEPTH, Dialect, _merge, _ptr, _unescape
from .exceptions import SchemaNotExpressibleError

__all__ = [
    "PROVIDER_DIALECTS",
    "STRICT_LIMITS",
    "HfOutputDialect",
    "ProviderDialect",
    "admits_null",
]

Step = Callable[[Dialect, dict[str, Any], str], dict[str, Any]]

# fmt: off
_DROPPED = frozenset((
    "$schema", "$id", "$defs", "definitions", "$anchor", "$dynamicAnchor", "$recursiveAnchor",
    "$vocabulary", "$comment",
))
_SILENT = frozenset((
    "$comment", "readOnly", "writeOnly", "deprecated", "discriminator", "title",
    "contentMediaType", "contentEncoding", "contentSchema", "$dynamicRef", "$recursiveRef",
    "additionalItems", "unevaluatedItems", "unevaluatedProperties", "examples", "example",
))
"""Keywords dropped without a note: annotations, or rules a model never needed to read."""
_ANNOTATIONS = frozenset(("title", "description", "default", "examples", "example", "nullable"))
_OF_TYPE = {
    "object": ("properties", "required", "additionalProperties", "patternProperties",
               "minProperties", "maxProperties", "propertyNames", "dependentRequired",
               "dependentSchemas", "propertyOrdering"),
    "array": ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains",
              "minContains", "maxContains"),
    "string": ("minLength", "maxLength", "pattern", "format"),
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
}
_OF_TYPE["integer"] = _OF_TYPE["number"]
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
# fmt: on
STRICT_LIMITS = {"properties": 5000, "nesting": 10, "enum": 1000}
"""OpenAI's documented limits for a strict schema: properties in all, object nesting levels,
enum values in all."""
_NOTE_WIDTH = 120
_CONDITIONS = frozenset((
    "not", "if", "then", "else", "contains", "propertyNames", "dependentSchemas",
    "unevaluatedProperties", "unevaluatedItems", "contentSchema", "additionalItems",
))  # fmt: skip
"""Subschema keywords that only narrow what their node accepts."""


def admits_null(schema: Any, resolve: Callable[[str], Any] | None = None) -> bool:
    """Whether a JSON Schema (2020-12) accepts ``null``, as far as its types and values say.

    ``resolve`` follows a ``$ref`` (without it a reference counts as refusing ``null``).
    """
    if schema is True:
        return True
    if not isinstance(schema, dict):
        return False
    if "$ref" in schema:
        target = resolve(schema["$ref"]) if resolve is not None else False
        if not admits_null(target, resolve):
            return False
    types = schema.get("type")
    if types is not None and not (types == "null" or (isinstance(types, list) and "null" in types)):
        return schema.get("nullable") is True
    if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
        return False
    if "const" in schema and schema["const"] is not None:
        return False
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and not any(admits_null(b, resolve) for b in branches):
            return False
    branches = schema.get("allOf")
    if isinstance(branches, list) and not all(admits_null(b, resolve) for b in branches):
        return False
    return "not" not in schema


def _types(node: Mapping[str, Any]) -> list[str]:
    types = node.get("type")
    if isinstance(types, str):
        return [types]
    return [t for t in types if isinstance(t, str)] if isinstance(types, list) else []


def _is_object(node: Mapping[str, Any]) -> bool:
    types = _types(node)
    return "object" in types or (not types and "properties" in node)


def _note(node: dict[str, Any], text: str) -> dict[str, Any]:
    """``node`` with ``text`` added to its description."""
    description = node.get("description")
    node["description"] = f"{description} ({text})" if description else f"({text})"
    return node


def _rule(keyword: str, value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
    if len(text) > _NOTE_WIDTH:
        text = text[: _NOTE_WIDTH - 3] + "..."
    return f"{keyword}: {text}"


def _move_to_description(node: dict[str, Any], keywords: list[str]) -> dict[str, Any]:
    """``node`` without ``keywords``; those a model should know of are noted in its description."""
    if not keywords:
        return node
    noted = [
        _rule(k, node[k])
        for k in keywords
        if k not in _SILENT and not (k == "additionalProperties" and node[k] is False)
    ]
    out = {k: v for k, v in node.items() if k not in keywords}
    return _note(out, "; ".join(noted)) if noted else out


class ProviderDialect(Dialect):
    """A provider's dialect: local references inlined, recursion kept (as ``$ref`` into one
    root ``$defs``) where the target allows it, the root made an object, then :attr:`steps`.

    A reference is inlined until it points back into a schema being inlined: that one is
    recursion (a model used twice is not), and stays a reference.
    """

    label: ClassVar[str] = "the provider"
    """How messages name the target."""
    recursion: ClassVar[bool] = True
    """Whether the target resolves ``$ref`` (so that recursion can stay)."""
    object_root: ClassVar[bool] = True
    """Whether the root must be an object (tool arguments)."""
    dropped_early: ClassVar[frozenset[str]] = frozenset()
    """Keywords holding subschemas the target lacks: noted and dropped before the walk."""
    spells_nullable: ClassVar[bool] = False
    """Whether the target spells null ``nullable: true`` (OpenAPI) rather than as a type."""

    def __init__(self, target: str, root: Any) -> None:
        super().__init__(target, root)
        self.kept: dict[str, str] = {}  # JSON Pointer of a recursive target -> its $defs name

    def run(self) -> Any:
        root = _object_root(self, self.root) if self.object_root else self.root
        try:
            out = self.schema(root, "", 0)
            defs: dict[str, Any] = {}
            done: set[str] = set()
            while len(done) < len(self.kept):
                for pointer, name in list(self.kept.items()):
                    if pointer not in done:
                        done.add(pointer)
                        self.stack = ["", pointer]
                        defs[name] = self.schema(_at(self, pointer), pointer, 1)
        except RecursionError:
            self.fail("depth", "", "the schema nests deeper than Python's recursion limit")
        if defs and isinstance(out, dict):
            out["$defs"] = defs
        return self.finish(out)

    def finish(self, out: dict[str, Any]) -> dict[str, Any]:
        """The rendered root, once everything is converted."""
        return out

    def leaf(self, value: Any, pointer: str, depth: int) -> Any:
        if isinstance(value, bool):
            return {} if value else {"not": {}}
        return self.clone(value, pointer, depth)

    def clone(self, value: Any, pointer: str, depth: int) -> Any:
        """A copy of a plain JSON value (scalars are shared: they never change)."""
        if isinstance(value, (str, int, float, bool)) or value is None:
            return value
        if depth > MAX_DEPTH:
            self.guard(pointer, depth)
        if isinstance(value, dict):
            return {k: self.clone(v, pointer, depth + 1) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.clone(v, pointer, depth + 1) for v in value]
        return super().clone(value, pointer, depth)

    def children(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        additional = node.get("additionalProperties")
        out = super().children(node, pointer, depth)
        if isinstance(additional, bool):  # kept as a boolean, which every target reads
            out["additionalProperties"] = additional
        return out

    def node(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        if self.spells_nullable:
            node = _null_branches_out(node)
        if "$ref" in node:
            return self.reference(node, pointer, depth)
        if isinstance(node.get("allOf"), list):
            node = _all_of_folded(node)
        dropped = [k for k in node if k in self.dropped_early]
        if dropped:
            node = _move_to_description(dict(node), dropped)
        out = self.children({k: v for k, v in node.items() if k not in _DROPPED}, pointer, depth)
        for step in self.steps:
            out = step(self, out, pointer)
        return out

    def reference(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        """A ``$ref`` inlined, or kept when its target is recursive and the target allows it."""
        ref = node["$ref"]
        target = unquote(ref[1:]) if isinstance(ref, str) and ref.startswith("#") else None
        if target is None or target not in self.stack:  # not a reference back into itself
            return self.inline(node, pointer, depth)
        if not self.recursion:
            self.fail(
                "$ref",
                _ptr(pointer, "$ref"),
                f"{ref!r} is recursive, and {self.label} has no references to express recursion",
            )
        if target == "":
            kept = {"$ref": "#"}
        else:
            name = self.kept.get(target)
            if name is None:
                name = _def_name(target, set(self.kept.values()))
                self.kept[target] = name
            kept = {"$ref": f"#/$defs/{name}"}
        return self.beside(kept, node, pointer, depth)

    def inline(self, node: Mapping[str, Any], pointer: str, depth: int) -> dict[str, Any]:
        at = _ptr(pointer, "$ref")
        target_pointer, target = self.resolve(node["$ref"], at)
        self.stack.append(target_pointer)
        try:
            resolved = self.schema(target, target_pointer, depth + 1)
        finally:
            self.stack.pop()
        return self.beside(resolved, node, pointer, depth)

    def beside(
        self, resolved: Any, node: Mapping[str, Any], pointer: str, depth: int
    ) -> dict[str, Any]:
        """``resolved`` (what a ``$ref`` stands for) with the converted siblings of the
        ``$ref`` in ``node``, then the steps once more over the whole."""
        rest = {k: v for k, v in node.items() if k != "$ref" and k not in _DROPPED}
        if not rest:
            return resolved if isinstance(resolved, dict) else {}
        siblings = self.children(rest, pointer, depth)
        if "$ref" in resolved:
            out = {**siblings, **resolved}
        else:
            merged = _merge(resolved, siblings)
            out = merged if merged is not None else {**siblings, "allOf": [resolved]}
        for step in self.steps:
            out = step(self, out, pointer)
        return out


def _all_of_folded(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """``node`` with the ``allOf`` branches that hold no reference folded in, where they
    agree (before the walk: a branch alone may say less than a schema must)."""
    merged: dict[str, Any] = {k: v for k, v in node.items() if k != "allOf"}
    rest = []
    for branch in node["allOf"]:
        folded = None
        if isinstance(branch, dict) and not _has_ref(branch):
            folded = _merge(merged, branch)
        if folded is None:
            rest.append(branch)
        else:
            merged = folded
    if rest:
        merged["allOf"] = rest
    return merged


def _has_ref(node: Any) -> bool:
    return any(True for _ in _local_refs(node))


def _at(dialect: Dialect, pointer: str) -> Any:
    node = dialect.root
    for token in pointer.split("/")[1:]:
        token = _unescape(token)
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def _def_name(pointer: str, taken: set[str]) -> str:
    tokens = [_unescape(t) for t in pointer.split("/")[1:]]
    if len(tokens) == 2 and tokens[0] in ("$defs", "definitions"):
        base = tokens[1]
    else:
        base = "_".join(t for t in tokens if t not in ("$defs", "definitions")) or "root"
    base = re.sub(r"[^A-Za-z0-9_.-]", "_", base)  # a name that needs no escaping in a $ref
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name


def _local_refs(node: Any, skip_defs: bool = True) -> Iterator[str]:
    """The JSON Pointers every local ``$ref`` under ``node`` names (definitions not entered)."""
    stack = [node]
    containers = (dict, list)
    while stack:
        current = stack.pop()
        if type(current) is dict:
            ref = current.get("$ref")
            if type(ref) is str and (ref == "#" or ref.startswith("#/")):
                yield _unescape(ref[1:])
            for key, value in current.items():
                if type(value) in containers and not (skip_defs and key in _DEFINITIONS):
                    stack.append(value)
        elif type(current) is list:
            stack.extend(value for value in current if type(value) in containers)


_DEFINITIONS = frozenset(("$defs", "definitions"))


# --- the root ---------------------------------------------------------------------------------


def _object_root(dialect: Dialect, root: Any) -> dict[str, Any]:
    """The root as one object schema: a tool's arguments are always an object.

    A root reference is followed, and a root ``anyOf``/``oneOf``/``allOf`` of objects becomes
    one object that accepts what any branch accepts (properties joined, only what every
    branch requires required). A root that admits no object is refused.
    """
    if isinstance(root, bool):
        root = {} if root else {"not": {}}
    node = dict(root)
    if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#"):
        target = _target(dialect, node["$ref"], "/$ref")
        node.pop("$ref")
        joined = _merge(target, node)
        node = joined if joined is not None else {**node, "allOf": [target, *node.get("allOf", [])]}
    for key in ("anyOf", "oneOf", "allOf"):
        branches = node.get(key)
        if not isinstance(branches, list) or not branches:
            continue
        resolved = [_resolved(dialect, b, f"/{key}/{i}") for i, b in enumerate(branches)]
        if key == "allOf":
            merged: dict[str, Any] | None = {k: v for k, v in node.items() if k != key}
            for branch in resolved:
                merged = _merge(merged, branch) if merged is not None else None
            if merged is not None:
                node = merged
            continue
        objects = [b for b in resolved if _is_object(b) or b.get("type") is None]
        if not objects:  # arguments are an object: the other branches never apply
            dialect.fail(key, f"/{key}", "no branch of this root accepts an object")
        node = {k: v for k, v in node.items() if k != key}
        node.update(_joined(objects))
    types = _types(node)
    if types and "object" not in types:
        dialect.fail("type", "/type", f"tool arguments are an object; this root is {types}")
    if node.get("not") == {}:
        dialect.fail("not", "/not", "this schema accepts no arguments at all")
    node["type"] = "object"
    if types and len(types) > 1:
        node = {k: v for k, v in node.items() if k not in _other_type_keywords("object")}
        node["type"] = "object"
    node.setdefault("properties", {})
    return node


def _other_type_keywords(kind: str) -> set[str]:
    return {k for t, keys in _OF_TYPE.items() if t != kind for k in keys}


def _target(dialect: Dialect, ref: str, at: str) -> dict[str, Any]:
    _, node = dialect.resolve(ref, at)
    if isinstance(node, bool):
        return {} if node else {"not": {}}
    return dict(node)


def _resolved(dialect: Dialect, branch: Any, at: str) -> dict[str, Any]:
    if isinstance(branch, bool):
        return {} if branch else {"not": {}}
    if isinstance(branch.get("$ref"), str):
        rest = {k: v for k, v in branch.items() if k != "$ref"}
        return {**_target(dialect, branch["$ref"], at + "/$ref"), **rest}
    return dict(branch)


def _joined(objects: list[dict[str, Any]]) -> dict[str, Any]:
    """One open object accepting what any of ``objects`` accepts."""
    properties: dict[str, list[Any]] = {}
    for branch in objects:
        for name, sub in (branch.get("properties") or {}).items():
            alternatives = properties.setdefault(name, [])
            if sub not in alternatives:
                alternatives.append(sub)
    required = None
    for branch in objects:
        names = set(branch.get("required") or ())
        required = names if required is None else required & names
    out: dict[str, Any] = {
        "type": "object",
        "properties": {
            name: subs[0] if len(subs) == 1 else {"anyOf": subs}
            for name, subs in properties.items()
        },
    }
    if required:
        out["required"] = [name for name in out["properties"] if name in required]
    return out


# --- steps shared by several providers --------------------------------------------------------


def const_as_enum(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``const`` as a one-value ``enum``."""
    if "const" in node:
        value = node.pop("const")
        enum = node.get("enum")
        node["enum"] = [value] if not isinstance(enum, list) or value in enum else []
    return node


def one_of_as_any_of(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``oneOf`` as ``anyOf`` (wider: a value matching several branches is accepted too)."""
    if isinstance(node.get("oneOf"), list):
        branches = node.pop("oneOf")
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
    return merged if merged is not None else node


def array_items(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """An array schema always says what its items are."""
    if "array" in _types(node) and "items" not in node:
        node["items"] = {}
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
    return _note(node, "items by position: " + ", ".join(_brief(b) for b in prefix))


def _brief(schema: Any) -> str:
    if isinstance(schema, dict) and isinstance(schema.get("type"), str):
        return str(schema["type"])
    return json.dumps(schema, separators=(",", ":"))[:40]


def object_properties(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """An object schema always has ``properties``."""
    if "object" in _types(node) and "properties" not in node:
        node["properties"] = {}
    return node


def type_lists_split(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """A ``type`` list of several non-null types as an ``anyOf`` of single types, each branch
    taking the keywords that apply to its type (``[T, "null"]`` stays: it spells nullable)."""
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
        for key in _OF_TYPE.get(kind, ()):
            if key in node:
                branch[key] = node[key]
                moved.add(key)
        branches.append(branch)
    if "null" in types:
        branches.append({"type": "null"})
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
        kept = [b for b in branches if not _only_null(b)]
        if len(kept) == len(branches):
            continue
        nullable = True
        node = {k: v for k, v in node.items() if k != key}
        if len(kept) == 1 and isinstance(kept[0], dict):
            merged = _merge(kept[0], node)
            node = merged if merged is not None else {**node, key: kept}
        elif kept:
            node[key] = kept
    enum = node.get("enum")
    if isinstance(enum, list) and None in enum:
        nullable = True
        node["enum"] = [v for v in enum if v is not None]
        if not node["enum"]:
            node.pop("enum")
    if nullable:
        node["nullable"] = True
    return node


def _only_null(branch: Any) -> bool:
    """Whether a union branch admits ``null`` alone (once converted, ``{"nullable": true}``
    would mean "anything or null": only the source's ``{"type": "null"}`` says it)."""
    return (
        isinstance(branch, dict)
        and branch.get("type") in ("null", ["null"])
        and branch.keys() <= _ANNOTATIONS | {"type"}
    )


def _null_branches_out(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """``node`` with the null branches of its unions said by ``nullable: true`` instead, a
    lone remaining branch merged in (before the walk, while a null branch is still one)."""
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if not isinstance(branches, list):
            continue
        kept = [b for b in branches if not _only_null(b)]
        if len(kept) == len(branches) or not kept:
            continue
        out = {k: v for k, v in node.items() if k != key}
        out["nullable"] = True
        merged = _merge(kept[0], out) if len(kept) == 1 and isinstance(kept[0], dict) else None
        node = merged if merged is not None else {**out, key: kept}
    return node


# --- OpenAI ------------------------------------------------------------------------------------


def ref_alone(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """A kept ``$ref`` stands alone; its siblings go to a node that holds it in ``anyOf``."""
    if "$ref" in node and len(node) > 1 and "anyOf" not in node:
        ref = node.pop("$ref")
        node["anyOf"] = [{"$ref": ref}]
    return node


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
        out = _move_to_description(out, ["format"])
    extra = [k for k in out if k not in _STRICT_KEYWORDS]
    return _move_to_description(out, extra)


def strict_objects(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Every object closed, every property required, an optional one made nullable.

    An object that admits undeclared properties on purpose (``additionalProperties`` true or
    a schema, ``patternProperties``: a mapping) has no strict form.
    """
    if not _is_object(node):
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
    properties = node.get("properties") or {}
    required = set(node.get("required") or ())
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
        kinds = list(dict.fromkeys(_json_type(v) for v in enum))
        node["type"] = kinds[0] if len(kinds) == 1 else kinds
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


def _json_type(value: Any) -> str:
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


# --- Anthropic, Gemini (JSON Schema), chat templates ------------------------------------------


class AnthropicDialect(ProviderDialect):
    """Anthropic ``input_schema``: draft 2020-12 with an object root and no root combinators."""

    label = "Anthropic"
    steps = (all_of_merged, const_as_enum)


class GeminiJsonSchemaDialect(ProviderDialect):
    """Gemini ``parametersJsonSchema``: JSON Schema with an object root."""

    label = "Gemini parametersJsonSchema"
    steps = (all_of_merged, const_as_enum, array_items)


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
        node["type"] = names[0] if len(names) == 1 else names
    return node


class HfDialect(ProviderDialect):
    """Chat-template tools (``transformers``' ``get_json_schema`` conventions): references
    inlined, ``nullable: true`` for null, unions of bare types as ``type`` lists."""

    label = "chat templates"
    spells_nullable = True
    steps = (all_of_merged, const_as_enum, nullable_keyword, bare_any_of_as_type_list)


class HfOutputDialect(HfDialect):
    """A chat-template tool's ``return`` schema: any root."""

    object_root = False


# --- Gemini parameters (OpenAPI subset) -------------------------------------------------------


def gemini_bounds(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """An exclusive bound as the inclusive bound (wider), noted in the description."""
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        limit = node.get(flag)
        if isinstance(limit, (int, float)) and not isinstance(limit, bool):
            node = _move_to_description(node, [flag])
            other = node.get(bound)
            if not isinstance(other, (int, float)) or (
                limit > other if bound == "minimum" else limit < other
            ):
                node[bound] = limit
    return node


def gemini_enums(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Enums hold strings only: any other enum is written into the description instead."""
    enum = node.get("enum")
    if isinstance(enum, list) and not all(isinstance(v, str) for v in enum):
        node = _move_to_description(node, ["enum"])
        if "type" not in node:
            kinds = list(dict.fromkeys(_json_type(v) for v in enum))
            if len(kinds) == 1:
                node["type"] = kinds[0]
    elif isinstance(enum, list) and "type" not in node:
        node["type"] = "string"
    return node


def gemini_objects(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """An object has declared properties; a free-form object (a mapping) is left untyped."""
    if node.get("type") != "object":
        if isinstance(node.get("required"), list) and not isinstance(node.get("properties"), dict):
            node = _move_to_description(node, ["required"])
        return node
    properties = node.get("properties")
    if not properties:
        node = {k: v for k, v in node.items() if k not in ("type", "properties", "required")}
        return _note(node, "a JSON object")
    required = node.get("required")
    if isinstance(required, list):
        node["required"] = [name for name in required if name in properties]
        if not node["required"]:
            node.pop("required")
    return node


def gemini_any_of_alone(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``anyOf`` shares its node with annotations only: other keywords go into each branch."""
    branches = node.get("anyOf")
    if not isinstance(branches, list):
        return node
    rules = {k: v for k, v in node.items() if k != "anyOf" and k not in _ANNOTATIONS}
    if not rules:
        return node
    spread = []
    for branch in branches:
        merged = _merge(branch, rules) if isinstance(branch, dict) else None
        if merged is None:
            out = {k: v for k, v in node.items() if k not in rules}
            return _move_to_description(out, [])
        spread.append(merged)
    out = {k: v for k, v in node.items() if k not in rules}
    out["anyOf"] = spread
    return out


def gemini_keywords(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """Only the keywords of Gemini's schema; the others are written into the description."""
    return _move_to_description(node, [k for k in node if k not in _GEMINI_KEYWORDS])


def gemini_single_type(dialect: Dialect, node: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``type`` is one name."""
    types = node.get("type")
    if isinstance(types, list) and len(types) == 1:
        node["type"] = types[0]
    return node


class GeminiDialect(ProviderDialect):
    """Gemini ``parameters``: the OpenAPI 3.0 subset Gemini reads. No references (so no
    recursion), one type per node, ``nullable``, string enums, ``anyOf`` alone on its node,
    objects with declared properties."""

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


def strict_problem(schema: dict[str, Any]) -> SchemaNotExpressibleError | None:
    """Why ``schema`` has no OpenAI strict form, or ``None`` when it has one."""
    try:
        OpenAIStrictDialect("openai-strict", schema).run()
    except SchemaNotExpressibleError as error:
        return error
    return None
