"""The walk every dialect is: each subschema converted once, in order, with local ``$ref``
resolved by one resolver (:meth:`Dialect.resolve`, :func:`lookup`) that every dialect, the
drafts' and the providers', shares."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn
from urllib.parse import unquote

from ...exceptions import SchemaNotExpressibleError

__all__ = ["ACTIONS", "MAX_DEPTH", "MAX_INLINED", "MISSING", "Change", "Dialect", "lookup"]

MAX_DEPTH = 256
"""Subschemas (and JSON values) nested deeper than this are refused."""
MAX_INLINED = 100_000
"""Subschemas produced past this count while inlining references are refused."""

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
# fmt: on
_NULL = object()
"""Stands in for an anyOf/oneOf branch that admits only null."""


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


def _discriminator_mapping(node: Mapping[str, Any]) -> dict[str, Any] | None:
    """The references of an OpenAPI ``discriminator`` (pydantic emits them), if any."""
    discriminator = node.get("discriminator")
    mapping = discriminator.get("mapping") if isinstance(discriminator, dict) else None
    return mapping if isinstance(mapping, dict) else None


ACTIONS = ("rewritten", "described", "dropped", "refused")
"""What a dialect can do to a keyword, in the order :class:`Change` lists them."""


@dataclass(frozen=True)
class Change:
    """What a conversion did to one keyword of the schema it converted.

    ``pointer`` is a JSON Pointer into the converted (draft 2020-12) schema: the keyword
    itself where the schema has it, else the schema object it concerns. ``action`` is one of
    :data:`ACTIONS`: ``rewritten`` (said another way the target reads, with the same or a
    wider meaning), ``described`` (left out, its rule written into the description for the
    model to read), ``dropped`` (left out without a note) or ``refused`` (the target cannot
    express it: the conversion raises SchemaNotExpressibleError). ``detail`` says how, in
    words (for a refusal, the error's reason).
    """

    pointer: str
    keyword: str
    action: str
    detail: str


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
    record: list[Change] | None = None
    """Where :meth:`change` appends what the steps did (``None``: nowhere)."""

    def __init__(self, target: str, root: Any) -> None:
        self.target, self.root = target, root
        self.stack: list[str] = [""]  # JSON Pointers of the references being inlined
        self.count = 0

    def run(self) -> Any:
        """The converted root schema."""
        try:
            return self.schema(self.root, "", 0)
        except RecursionError:
            reason = "the schema nests deeper than Python's recursion limit"
            self.change("", "depth", "refused", reason)
            raise SchemaNotExpressibleError(self.target, "depth", "", reason) from None

    def change(self, pointer: str, keyword: str, action: str, detail: str) -> None:
        """Note in :attr:`record` that a step did ``action`` to ``keyword`` at ``pointer``."""
        if self.record is not None:
            self.record.append(Change(pointer, keyword, action, detail))

    def fail(self, keyword: str, pointer: str, reason: str) -> NoReturn:
        """Raise SchemaNotExpressibleError for ``keyword`` at ``pointer`` (noted as refused)."""
        self.change(pointer, keyword, "refused", reason)
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
        """``node`` with its ``$ref`` replaced by a converted copy of what it names, and its
        other keywords :meth:`beside` it; a reference back into a schema being inlined is
        :meth:`recursive`."""
        ref, at = node["$ref"], _ptr(pointer, "$ref")
        target_pointer = self.target_of(ref, at)
        if target_pointer in self.stack:
            return self.recursive(node, target_pointer, pointer, depth)
        target = self.lookup(ref, at)
        self.stack.append(target_pointer)
        try:
            resolved = self.schema(target, target_pointer, depth + 1)
        finally:
            self.stack.pop()
        return self.beside(resolved, node, pointer, depth)

    def recursive(
        self, node: Mapping[str, Any], target_pointer: str, pointer: str, depth: int
    ) -> dict[str, Any]:
        """A ``$ref`` pointing back into a schema being inlined: refused, unless the target
        can keep it (a dialect with references overrides this)."""
        self.fail(
            "$ref",
            _ptr(pointer, "$ref"),
            f"the recursive reference {node['$ref']!r} cannot be inlined",
        )

    def beside(
        self, resolved: Any, node: Mapping[str, Any], pointer: str, depth: int
    ) -> dict[str, Any]:
        """``resolved`` (what a ``$ref`` stands for) joined with the converted siblings of the
        ``$ref`` in ``node``: merged where they agree, else both under ``allOf``."""
        rest = self.node({k: v for k, v in node.items() if k != "$ref"}, pointer, depth)
        merged = _merge(resolved, rest) if isinstance(resolved, dict) else None
        return (
            merged if merged is not None else {**rest, "allOf": [resolved, *rest.get("allOf", [])]}
        )

    def target_of(self, ref: Any, at: str) -> str:
        """The JSON Pointer a local ``$ref`` names (``at`` is where the ``$ref`` stands)."""
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
            self.fail("$ref", at, f"only local JSON Pointer references can be inlined, not {ref!r}")
        return unquote(ref[1:])

    def lookup(self, ref: str, at: str) -> Any:
        """The subschema a local ``$ref`` names, which must exist."""
        node = lookup(self.root, ref[1:])
        if node is MISSING:
            self.fail("$ref", at, f"{ref!r} points at nothing")
        return node

    def resolve(self, ref: Any, at: str) -> tuple[str, Any]:
        """The JSON Pointer and the subschema a local, not recursive, ``$ref`` names."""
        target_pointer = self.target_of(ref, at)
        if target_pointer in self.stack:
            self.fail("$ref", at, f"the recursive reference {ref!r} cannot be inlined")
        return target_pointer, self.lookup(ref, at)


MISSING: Any = object()
"""What :func:`lookup` returns when a pointer names nothing."""


def lookup(root: Any, fragment: str) -> Any:
    """The value the JSON Pointer ``fragment`` (as written in a ``$ref`` after ``#``: each
    token percent- and tilde-escaped) names in ``root``, or :data:`MISSING`."""
    node = root
    for token in map(_unescape, fragment.split("/")[1:]):
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return MISSING
    return node
