"""The provider dialects' walk: references inlined (recursion kept where the target has
references), the root made one object, and what a target lacks written into descriptions.

Every provider dialect starts from draft 2020-12 and keeps the schema's meaning in one
direction: whatever is valid under the original is valid under the rendered schema (a
provider's model then sends nothing the tool would not have accepted for that reason alone;
the tool still validates against its own schema). So a keyword a provider lacks is dropped
(widening), and its rule is written into the description for the model to read, never
silently lost. Only what cannot be widened is refused, with the keyword and its location:
recursion where the target has no references, a root that is not an object, a position
Gemini ``parameters`` cannot type (any value, an object of any properties), and a schema that
is not valid JSON Schema.

OpenAI's strict mode is the one exception, and it is documented: it closes objects (the
model can only send declared properties), makes every property required and an optional
one nullable; the return half reads ``null`` for an optional field that does not allow it
as "absent" (see ``standard_tool.providers._strict_undo``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar, NoReturn

from ._walk import _LIST, _MAP, _ONE, MAX_DEPTH, Dialect, _merge, _ptr, _unescape, lookup

__all__ = [
    "ANNOTATIONS",
    "MERGED",
    "NULLABLE",
    "OF_TYPE",
    "ProviderDialect",
    "Step",
    "admits_null",
    "move_to_description",
    "note",
]

Step = Callable[[Dialect, dict[str, Any], str], dict[str, Any]]
"""One rule of a target: ``step(dialect, schema, pointer) -> schema``."""

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
_KEPT_ELSEWHERE = frozenset(("$schema", "$defs", "definitions"))
"""Of the keywords every provider leaves out, those whose meaning stays: the dialect the
rendered schema is in, and the definitions its references are inlined from."""
ANNOTATIONS = frozenset(("title", "description", "default", "examples", "example", "nullable"))
OF_TYPE = {
    "object": ("properties", "required", "additionalProperties", "patternProperties",
               "minProperties", "maxProperties", "propertyNames", "dependentRequired",
               "dependentSchemas", "propertyOrdering"),
    "array": ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains",
              "minContains", "maxContains"),
    "string": ("minLength", "maxLength", "pattern", "format"),
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
}
"""The keywords that apply to each type."""
OF_TYPE["integer"] = OF_TYPE["number"]
# fmt: on
_NOTE_WIDTH = 120


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


def types_of(node: Mapping[str, Any]) -> list[str]:
    types = node.get("type")
    if isinstance(types, str):
        return [types]
    return [t for t in types if isinstance(t, str)] if isinstance(types, list) else []


def is_object(node: Mapping[str, Any]) -> bool:
    types = types_of(node)
    return "object" in types or (not types and "properties" in node)


def note(node: dict[str, Any], text: str) -> dict[str, Any]:
    """``node`` with ``text`` added to its description."""
    description = node.get("description")
    node["description"] = f"{description} ({text})" if description else f"({text})"
    return node


def _rule(keyword: str, value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
    if len(text) > _NOTE_WIDTH:
        text = text[: _NOTE_WIDTH - 3] + "..."
    return f"{keyword}: {text}"


def move_to_description(
    node: dict[str, Any],
    keywords: list[str],
    dialect: Dialect | None = None,
    pointer: str = "",
) -> dict[str, Any]:
    """``node`` without ``keywords``; those a model should know of are noted in its description
    (each noted in ``dialect``'s record as described or dropped, ``pointer`` being the node's)."""
    if not keywords:
        return node
    noted = []
    for k in keywords:
        if k not in _SILENT and not (k == "additionalProperties" and node[k] is False):
            noted.append(_rule(k, node[k]))
            if dialect is not None:
                dialect.change(_ptr(pointer, k), k, "described", _DESCRIBED)
        elif dialect is not None:
            dialect.change(_ptr(pointer, k), k, "dropped", _SILENTLY)
    out = {k: v for k, v in node.items() if k not in keywords}
    return note(out, "; ".join(noted)) if noted else out


MERGED = "its branches merged into the schema that holds them"
NULLABLE = "null said by 'nullable: true' instead"
_DESCRIBED = "left out; its rule is written into the description"
_SILENTLY = "left out without a note (an annotation, or a rule a model does not need)"


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
        _check_shapes(self, self.root)
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
                        defs[name] = self.schema(lookup(self.root, pointer), pointer, 1)
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
            for key in ("anyOf", "oneOf"):
                branches = node.get(key)
                if isinstance(branches, list) and any(only_null(b) for b in branches):
                    self.change(_ptr(pointer, key), key, "rewritten", NULLABLE)
            node = _null_branches_out(node)
        if "$ref" in node:
            at = _ptr(pointer, "$ref")
            if self.target_of(node["$ref"], at) not in self.stack:
                self.change(at, "$ref", "rewritten", "replaced by a copy of the schema it names")
            return self.inline(node, pointer, depth)
        if isinstance(node.get("allOf"), list):
            node = _all_of_folded(node)
            if "allOf" not in node:
                self.change(_ptr(pointer, "allOf"), "allOf", "rewritten", MERGED)
        dropped = [k for k in node if k in self.dropped_early]
        if dropped:
            node = move_to_description(dict(node), dropped, self, pointer)
        for key in node:
            if key in _DROPPED and key not in _KEPT_ELSEWHERE:
                self.change(_ptr(pointer, key), key, "dropped", _SILENTLY)
        out = self.children({k: v for k, v in node.items() if k not in _DROPPED}, pointer, depth)
        for step in self.steps:
            out = step(self, out, pointer)
        return out

    def recursive(
        self, node: Mapping[str, Any], target_pointer: str, pointer: str, depth: int
    ) -> dict[str, Any]:
        """A reference back into a schema being inlined, kept as a ``$ref`` (into the root's
        ``$defs``) where the target has references, refused where it has none."""
        if not self.recursion:
            self.fail(
                "$ref",
                _ptr(pointer, "$ref"),
                f"{node['$ref']!r} is recursive, and {self.label} has no references to express "
                "recursion",
            )
        if target_pointer == "":
            kept = {"$ref": "#"}
        else:
            name = self.kept.get(target_pointer)
            if name is None:
                name = _def_name(target_pointer, set(self.kept.values()))
                self.kept[target_pointer] = name
            kept = {"$ref": f"#/$defs/{name}"}
        return self.beside(kept, node, pointer, depth)

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


def _check_shapes(dialect: Dialect, root: Any) -> None:
    """Refuse a schema whose keywords do not hold what JSON Schema says they hold (a
    ``properties`` that is not an object of schemas, ``items`` that is not a schema, a
    ``required`` that is not a list of names...), naming the keyword and where: checked once,
    before any provider's walk relies on those shapes."""
    stack: list[tuple[Any, str]] = [(root, "")]
    while stack:
        node, pointer = stack.pop()
        if not isinstance(node, Mapping):
            continue
        for key, value in node.items():
            at = _ptr(pointer, key)
            if key in _ONE or key == "items":
                subs = list(enumerate(value)) if key == "items" and type(value) is list else None
                if subs is None:
                    _schema_at(dialect, key, at, value)
                    stack.append((value, at))
                    continue
            elif key in _LIST:
                _shaped(dialect, key, at, value, (list, tuple), "a list of schemas")
                subs = list(enumerate(value))
            elif key in _MAP:
                _shaped(dialect, key, at, value, Mapping, "an object of schemas")
                subs = list(value.items())
            else:
                _checked_value(dialect, key, at, value)
                continue
            for name, sub in subs:
                if not (key == "dependencies" and type(sub) is list):
                    _schema_at(dialect, key, _ptr(at, name), sub)
                    stack.append((sub, _ptr(at, name)))


def _checked_value(dialect: Dialect, key: str, at: str, value: Any) -> None:
    """``required``, ``type`` and ``enum`` hold what the walk reads them as."""
    if key == "required" and not (
        isinstance(value, list) and all(type(name) is str for name in value)
    ):
        _invalid(dialect, key, at, "'required' is a list of property names")
    elif key == "type" and not (
        type(value) is str or isinstance(value, list) and all(type(t) is str for t in value)
    ):
        _invalid(dialect, key, at, "'type' is a type name or a list of them")
    elif key == "enum":
        _shaped(dialect, key, at, value, list, "a list of values")


def _shaped(dialect: Dialect, key: str, at: str, value: Any, kind: Any, what: str) -> None:
    if not isinstance(value, kind):
        _invalid(dialect, key, at, f"{key!r} is {what}, not {_kind_of(value)}")


def _schema_at(dialect: Dialect, key: str, at: str, value: Any) -> None:
    if not isinstance(value, (Mapping, bool)):
        _invalid(dialect, key, at, f"a schema is an object or a boolean, not {_kind_of(value)}")


def _invalid(dialect: Dialect, key: str, at: str, reason: str) -> NoReturn:
    dialect.fail(key, at, f"not a valid JSON Schema: {reason}")


def _kind_of(value: Any) -> str:
    """A JSON value's kind, named without the value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, (list, tuple)) else type(value).__name__


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
        dialect.change("/$ref", "$ref", "rewritten", "the root replaced by the schema it names")
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
                dialect.change(f"/{key}", key, "rewritten", MERGED)
            continue
        objects = [b for b in resolved if is_object(b) or b.get("type") is None]
        if not objects:  # arguments are an object: the other branches never apply
            dialect.fail(key, f"/{key}", "no branch of this root accepts an object")
        node = {k: v for k, v in node.items() if k != key}
        node.update(_joined(objects))
        dialect.change(
            f"/{key}",
            key,
            "rewritten",
            "the root's branches joined into one object that accepts what any of them accepts",
        )
    types = types_of(node)
    if types and "object" not in types:
        dialect.fail("type", "/type", f"tool arguments are an object; this root is {types}")
    if node.get("not") == {}:
        dialect.fail("not", "/not", "this schema accepts no arguments at all")
    node["type"] = "object"
    if types and len(types) > 1:
        node = {k: v for k, v in node.items() if k not in _other_type_keywords("object")}
        node["type"] = "object"
        dialect.change("/type", "type", "rewritten", "tool arguments are an object: 'object' alone")
    node.setdefault("properties", {})
    return node


def _other_type_keywords(kind: str) -> set[str]:
    return {k for t, keys in OF_TYPE.items() if t != kind for k in keys}


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


def only_null(branch: Any) -> bool:
    """Whether a union branch admits ``null`` alone (once converted, ``{"nullable": true}``
    would mean "anything or null": only the source's ``{"type": "null"}`` says it)."""
    return (
        isinstance(branch, dict)
        and branch.get("type") in ("null", ["null"])
        and branch.keys() <= ANNOTATIONS | {"type"}
    )


def _null_branches_out(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """``node`` with the null branches of its unions said by ``nullable: true`` instead, a
    lone remaining branch merged in (before the walk, while a null branch is still one), until
    no union of the node holds one (a merged branch may bring its own)."""
    changed = True
    while changed:
        changed = False
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if not isinstance(branches, list):
                continue
            kept = [b for b in branches if not only_null(b)]
            if len(kept) == len(branches) or not kept:
                continue
            out = {k: v for k, v in node.items() if k != key}
            out["nullable"] = True
            lone = kept[0] if len(kept) == 1 and isinstance(kept[0], dict) else None
            merged = _merge(lone, out) if lone is not None else None
            node = merged if merged is not None else {**out, key: kept}
            changed = True
    return node
