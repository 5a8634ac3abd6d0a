"""The breaking-change diff of two versions of a set of tools: tools added, removed and
renamed, and each change of a schema as a :class:`Finding` whose level says whether it breaks
callers (input side) or readers (output side)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._text import clip, legible
from ..exceptions import UsageError
from ..schema._canonical import canonical_json
from ..schema.dialects._walk import MISSING, _ptr, lookup
from ._finding import Finding
from ._rules import DIFF_RULES, schema_rule
from ._snapshot import load_snapshot, snapshot

__all__ = ["Diff", "diff_tools"]

MAX_DEPTH = 96
"""Schemas nested deeper than this are not compared: a change below is ``schema-changed``."""
MAX_STEPS = 20_000
"""Subschemas compared per schema, at most; past it a change is ``schema-changed``."""
_MAX_HOPS = 32
"""``$ref`` followed from one place, at most (a chain of references to references)."""

_ANNOTATIONS = {
    "title": "title/changed",
    "description": "description/changed",
    "default": "annotation/changed",
    "examples": "annotation/changed",
    "example": "annotation/changed",
    "deprecated": "annotation/changed",
    "readOnly": "annotation/changed",
    "writeOnly": "annotation/changed",
    "$comment": "annotation/changed",
}
# keyword: (kind when the limit narrows, kind when it widens, whether it is an upper limit)
_BOUNDS = {
    "maxLength": ("max-length-lowered", "max-length-raised", True),
    "minLength": ("min-length-raised", "min-length-lowered", False),
    "maxItems": ("max-items-lowered", "max-items-raised", True),
    "minItems": ("min-items-raised", "min-items-lowered", False),
    "maxProperties": ("max-properties-lowered", "max-properties-raised", True),
    "minProperties": ("min-properties-raised", "min-properties-lowered", False),
    "maximum": ("maximum-lowered", "maximum-raised", True),
    "exclusiveMaximum": ("maximum-lowered", "maximum-raised", True),
    "minimum": ("minimum-raised", "minimum-lowered", False),
    "exclusiveMinimum": ("minimum-raised", "minimum-lowered", False),
}
# keyword: (kind when added, when changed, when removed)
_CONSTRAINTS = {
    "const": ("const-added", "const-changed", "const-removed"),
    "multipleOf": ("multiple-of-added", "multiple-of-changed", "multiple-of-removed"),
    "pattern": ("pattern-added", "pattern-changed", "pattern-removed"),
    "format": ("format-added", "format-changed", "format-removed"),
}
_ONE = frozenset(
    ("not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties")
    + ("unevaluatedItems", "additionalItems", "contentSchema", "items")
)
_MAP = frozenset(("patternProperties", "dependentSchemas"))
_LIST = frozenset(("oneOf", "allOf", "anyOf", "prefixItems"))
_HANDLED = frozenset(
    (*_ANNOTATIONS, *_BOUNDS, *_CONSTRAINTS, "type", "enum", "uniqueItems", "required")
    + ("properties", "additionalProperties", "$defs", "definitions")
)
_DEFS = frozenset(("$defs", "definitions"))
_TEXT = frozenset(("title", "description", "$comment"))
"""Annotations whose change is said without the values: text, often long."""
_WORDING = frozenset(("description/changed", "title/changed"))
"""The findings a property renamed may carry and still count as the same property."""
_MAX_RENAMES = 256
"""Pairs of a property gone and one new compared, at most, to find the renamed ones."""
_SHOWN = 32
"""The longest a value is shown in a message."""
_ANY: dict[str, Any] = {}
_NOTHING: dict[str, Any] = {"not": {}}


@dataclass(frozen=True)
class Diff:
    """What changed from one version of a set of tools to another (:func:`diff_tools`).

    ``added``, ``removed`` and ``renamed`` (pairs of old and new name) list tools by name;
    ``findings`` holds every change found, tools in order of name, each a
    :class:`~standard_tool.contracts.Finding` whose rule is one of
    :data:`~standard_tool.contracts.DIFF_RULES`.
    """

    added: tuple[str, ...]
    removed: tuple[str, ...]
    renamed: tuple[tuple[str, str], ...]
    findings: tuple[Finding, ...]

    @property
    def breaking(self) -> tuple[Finding, ...]:
        """The findings that break a caller or a reader."""
        return tuple(f for f in self.findings if f.level == "breaking")

    @property
    def level(self) -> str:
        """The most serious level found: ``breaking``, ``compatible``, ``info``, or ``none``."""
        levels = {f.level for f in self.findings}
        return next((lv for lv in ("breaking", "compatible", "info") if lv in levels), "none")

    def to_dict(self) -> dict[str, Any]:
        """The diff as JSON data."""
        return {
            "level": self.level,
            "added": list(self.added),
            "removed": list(self.removed),
            "renamed": [{"from": old, "to": new} for old, new in self.renamed],
            "findings": [finding.to_dict() for finding in self.findings],
        }


def diff_tools(old: Any, new: Any) -> Diff:
    """What changed from ``old`` to ``new``: each is tools (anything
    :func:`~standard_tool.contracts.snapshot` takes) or a snapshot (a mapping whose
    ``format`` is :data:`~standard_tool.contracts.FORMAT`, as :func:`load_snapshot` reads).

    A tool gone whose input and output schemas are found under a new name is renamed. Each
    change of a tool kept (or renamed) is a finding: on the input side, a change that refuses
    some input accepted before is ``breaking`` and one that only accepts more is
    ``compatible``; on the output side the mirror (an output possible now that was not
    before breaks the readers). A property gone whose schema one new property alone has
    (descriptions and titles aside), required as it was, is renamed: one breaking finding
    (``input/property-renamed``) in place of the removal and the addition. Local ``$ref`` are
    followed; a change the diff cannot analyse is counted as breaking
    (``input/schema-changed``). Descriptions, titles and other annotations are ``info``. A
    changed value the schema declares is said from what to what.
    """
    before, after = _entries(old), _entries(new)
    removed = [name for name in before if name not in after]
    added = [name for name in after if name not in before]
    renamed: list[tuple[str, str]] = []
    for name in list(removed):
        key = _schemas(before[name])
        twin = next((other for other in added if _schemas(after[other]) == key), None)
        if twin is not None:
            renamed.append((name, twin))
            removed.remove(name)
            added.remove(twin)
    findings: list[Finding] = []
    pairs = [(name, name) for name in before if name in after] + renamed
    for old_name, new_name in sorted(pairs, key=lambda pair: pair[1]):
        if old_name != new_name:
            text = f"renamed to {clip(new_name)!r}"
            findings.append(_finding("tool/renamed", old_name, "", text))
        findings += _tool(new_name, before[old_name], after[new_name])
    for name in removed:
        findings.append(_finding("tool/removed", name, "", "the tool is gone"))
    for name in added:
        findings.append(_finding("tool/added", name, "", "the tool is new"))
    return Diff(tuple(added), tuple(removed), tuple(renamed), tuple(findings))


def _entries(side: Any) -> dict[str, dict[str, Any]]:
    """The snapshot entries of one side, by name, in order of name."""
    if isinstance(side, Mapping) and "format" in side and "tools" in side:
        data = load_snapshot(side)
    else:
        data = snapshot(side)
    return {entry["name"]: entry for entry in data["tools"]}


def _schemas(entry: Mapping[str, Any]) -> tuple[Any, Any]:
    return entry["digests"]["input"], entry["digests"]["output"]


def _finding(rule: str, tool: str, pointer: str, message: str) -> Finding:
    return Finding(rule, tool, pointer, DIFF_RULES[rule][0], message)


def _tool(name: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Finding]:
    found: list[Finding] = []
    if old["digests"]["tool"] == new["digests"]["tool"]:
        return found
    for key in ("title", "description"):
        if not _same(old[key], new[key]):
            found.append(_finding(f"{key}/changed", name, f"/{key}", f"the tool's {key} changed"))
    old_meta = old["meta"] if isinstance(old["meta"], Mapping) else {}
    new_meta = new["meta"] if isinstance(new["meta"], Mapping) else {}
    for key in sorted({*old_meta, *new_meta}):
        if key not in old_meta or key not in new_meta or not _same(old_meta[key], new_meta[key]):
            text = f"meta {clip(str(key))!r} " + (
                "added" if key not in old_meta else "removed" if key not in new_meta else "changed"
            )
            found.append(_finding("meta/changed", name, _ptr("/meta", str(key)), text))
    found += _Compare(name, "input", old["input_schema"], new["input_schema"]).run()
    old_out, new_out = old["output_schema"], new["output_schema"]
    if old_out is None and new_out is not None:
        text = "an output schema is declared"
        found.append(_finding("output/schema-added", name, "/output_schema", text))
    elif old_out is not None and new_out is None:
        text = "the output schema is no longer declared"
        found.append(_finding("output/schema-removed", name, "/output_schema", text))
    elif old_out is not None:
        found += _Compare(name, "output", old_out, new_out).run()
    return found


class _Compare:
    """One schema against its next version, on the ``input`` or ``output`` side."""

    def __init__(
        self, tool: str, side: str, old_root: Any, new_root: Any, steps: list[int] | None = None
    ) -> None:
        self.tool, self.side = tool, side
        self.old_root, self.new_root = old_root, new_root
        self.findings: list[Finding] = []
        self.seen: set[tuple[str | None, str | None]] = set()
        self.steps = [0] if steps is None else steps  # shared with the comparisons it starts

    def run(self) -> list[Finding]:
        pointer = f"/{self.side}_schema"
        try:
            self.schema(self.old_root, self.new_root, pointer, 0)
        except RecursionError:
            self.findings = [f for f in self.findings if f.level == "info"]
            self.add("schema-changed", pointer, "the schema nests too deep to compare")
        return self.findings

    def add(self, kind: str, pointer: str, message: str) -> None:
        rule, level = schema_rule(self.side, kind)
        self.findings.append(Finding(rule, self.tool, pointer, level, message))

    def note(self, rule: str, pointer: str, message: str) -> None:
        self.findings.append(_finding(rule, self.tool, pointer, message))

    # -- one subschema ---------------------------------------------------------------------

    def schema(self, old: Any, new: Any, pointer: str, depth: int) -> None:
        self.steps[0] += 1
        if depth > MAX_DEPTH or self.steps[0] > MAX_STEPS:
            if not _same(old, new):
                self.add("schema-changed", pointer, "the schema is too deep or large to compare")
            return
        old, new = _object(old), _object(new)
        if old is None or new is None:  # not a schema: compared as data
            if not _same(old, new):
                self.add("schema-changed", pointer, "a value that is not a schema changed")
            return
        if "$ref" in old or "$ref" in new:
            old_to, old_at = self.deref(old, self.old_root)
            new_to, new_at = self.deref(new, self.new_root)
            if old_to is None or new_to is None:
                if not _same(old, new):
                    self.add("ref-changed", _ptr(pointer, "$ref"), "a $ref cannot be compared")
                return
            if old_at is not None and new_at is not None:
                if (old_at, new_at) in self.seen:
                    return  # compared already, or being compared (a recursive schema)
                self.seen.add((old_at, new_at))
            old, new = old_to, new_to
        if _same(old, new) and not _has_ref(old):
            return
        self.annotations(old, new, pointer)
        if ("anyOf" in old) != ("anyOf" in new) and _only(old, new, "anyOf"):
            self.variants(_branches(old, pointer), _branches(new, pointer), pointer, depth)
            return
        self.types(old, new, pointer)
        self.enum(old, new, pointer)
        self.bounds(old, new, pointer)
        self.constraints(old, new, pointer)
        self.objects(old, new, pointer, depth)
        for key in sorted({*old, *new} - _HANDLED, key=str):
            self.keyword(key, old.get(key, MISSING), new.get(key, MISSING), pointer, depth)

    def deref(self, node: dict[str, Any], root: Any) -> tuple[dict[str, Any] | None, str | None]:
        """What ``node`` stands for once its ``$ref`` (a chain of them) is followed, with the
        pointer of the last target; None for a reference that cannot be followed."""
        at: str | None = None
        for _ in range(_MAX_HOPS):
            ref = node.get("$ref", MISSING)
            if ref is MISSING:
                return node, at
            if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
                return None, None
            target = _object(lookup(root, ref[1:]))
            if target is None:
                return None, None
            rest = {k: v for k, v in node.items() if k != "$ref"}
            at = ref
            if all(k in _ANNOTATIONS or k in _DEFS for k in rest):
                node = {**target, **rest}
            else:
                node = {**rest, "allOf": [target, *rest.get("allOf", [])]}
                return node, at
        return None, None

    def annotations(self, old: dict[str, Any], new: dict[str, Any], pointer: str) -> None:
        for key, rule in _ANNOTATIONS.items():
            before, after = old.get(key, MISSING), new.get(key, MISSING)
            if not _same(before, after):
                text = f"{key} changed" if key in _TEXT else _change(key, before, after)
                self.note(rule, _ptr(pointer, key), text)

    def types(self, old: dict[str, Any], new: dict[str, Any], pointer: str) -> None:
        before, after = _types(old.get("type")), _types(new.get("type"))
        if before == after:
            return
        at = _ptr(pointer, "type")
        if before is None or after is None:
            if not _same(old.get("type"), new.get("type")):
                self.add("schema-changed", at, "the type is not a type name or a list of them")
            return
        lost = [t for t in sorted(before) if not _covered(t, after)]
        gained = [t for t in sorted(after) if not _covered(t, before)]
        if lost:
            self.add("type-narrowed", at, f"no longer allows {', '.join(lost)}")
        if gained:
            self.add("type-widened", at, f"now allows {', '.join(gained)}")

    def enum(self, old: dict[str, Any], new: dict[str, Any], pointer: str) -> None:
        before, after = old.get("enum", MISSING), new.get("enum", MISSING)
        at = _ptr(pointer, "enum")
        if before is MISSING and after is MISSING:
            return
        if before is MISSING:
            self.add("enum-added", at, "the values are restricted to an enum")
        elif after is MISSING:
            self.add("enum-removed", at, "the enum is no longer declared")
        elif not isinstance(before, list) or not isinstance(after, list):
            if not _same(before, after):
                self.add("schema-changed", at, "the enum is not a list")
        else:
            kept, now = {_key(value) for value in before}, {_key(value) for value in after}
            for index, value in enumerate(before):
                if _key(value) not in now:
                    what = _shown(value) if _simple(value) else "a value"
                    self.add("enum-value-removed", _ptr(at, index), f"{what} removed from the enum")
            for index, value in enumerate(after):
                if _key(value) not in kept:
                    what = _shown(value) if _simple(value) else "a value"
                    self.add("enum-value-added", _ptr(at, index), f"{what} added to the enum")

    def bounds(self, old: dict[str, Any], new: dict[str, Any], pointer: str) -> None:
        for key, (narrower, wider, upper) in _BOUNDS.items():
            before, after = old.get(key, MISSING), new.get(key, MISSING)
            if before is MISSING and after is MISSING:
                continue
            at = _ptr(pointer, key)
            if (before is not MISSING and not _number(before)) or (
                after is not MISSING and not _number(after)
            ):
                if not _same(before, after):
                    self.add("schema-changed", at, f"{key} is not a number")
            elif before is MISSING:
                self.add(narrower, at, _change(key, before, after))
            elif after is MISSING:
                self.add(wider, at, _change(key, before, after))
            elif before != after:
                kind = narrower if (after < before) == upper else wider
                self.add(kind, at, _change(key, before, after))

    def constraints(self, old: dict[str, Any], new: dict[str, Any], pointer: str) -> None:
        for key, (added, changed, removed) in _CONSTRAINTS.items():
            before, after = old.get(key, MISSING), new.get(key, MISSING)
            at = _ptr(pointer, key)
            if _same(before, after):
                continue
            kind = added if before is MISSING else removed if after is MISSING else changed
            self.add(kind, at, _change(key, before, after))
        before, after = old.get("uniqueItems") is True, new.get("uniqueItems") is True
        if before != after:
            kind = "unique-items-added" if after else "unique-items-removed"
            self.add(kind, _ptr(pointer, "uniqueItems"), f"uniqueItems is {str(after).lower()}")

    # -- objects ---------------------------------------------------------------------------

    def objects(self, old: dict[str, Any], new: dict[str, Any], pointer: str, depth: int) -> None:
        before, after = _names(old.get("required")), _names(new.get("required"))
        old_props, new_props = old.get("properties", {}), new.get("properties", {})
        shaped = isinstance(old_props, Mapping) and isinstance(new_props, Mapping)
        renamed: dict[str, str] = {}
        if before is None or after is None:
            if not _same(old.get("required"), new.get("required")):
                self.add("schema-changed", _ptr(pointer, "required"), "required is not a list")
        else:
            if shaped:
                renamed = self.renames(old_props, new_props, before, after, depth)
            for name in sorted(after - before - set(renamed.values())):
                at = _ptr(_ptr(pointer, "properties"), name)
                self.add("required-added", at, f"{clip(name)!r} is required")
            for name in sorted(before - after - set(renamed)):
                at = _ptr(_ptr(pointer, "properties"), name)
                self.add("required-removed", at, f"{clip(name)!r} is no longer required")
        targets = set(renamed.values())
        if not shaped:
            if not _same(old_props, new_props):
                self.add("schema-changed", _ptr(pointer, "properties"), "properties is no object")
            return
        for name in sorted({*old_props, *new_props}, key=str):
            at = _ptr(_ptr(pointer, "properties"), name)
            if name in renamed:
                text = f"property {clip(name)!r} renamed to {clip(renamed[name])!r}"
                self.add("property-renamed", at, text)
                there = _ptr(_ptr(pointer, "properties"), renamed[name])
                self.schema(old_props[name], new_props[renamed[name]], there, depth + 1)
            elif name in targets:
                continue  # said with the name it had
            elif name in old_props and name in new_props:
                self.schema(old_props[name], new_props[name], at, depth + 1)
            elif name in old_props:
                self.property_removed(old_props[name], _governing(new, name), at, depth)
            else:
                self.property_added(_governing(old, name), new_props[name], at, depth)
        self.additional(old, new, pointer, depth)

    def renames(
        self,
        old_props: Mapping[str, Any],
        new_props: Mapping[str, Any],
        before: set[str],
        after: set[str],
        depth: int,
    ) -> dict[str, str]:
        """The properties renamed, old name to new: each gone one whose schema one new
        property alone has (descriptions and titles aside), required as it was, and that new
        one matched by it alone."""
        gone = [name for name in old_props if name not in new_props]
        came = [name for name in new_props if name not in old_props]
        if not gone or not came or len(gone) * len(came) > _MAX_RENAMES:
            return {}
        twins = {
            name: [
                other
                for other in came
                if (name in before) == (other in after)
                and self.alike(old_props[name], new_props[other], depth)
            ]
            for name in gone
        }
        claimed = Counter(other for others in twins.values() for other in others)
        return {
            name: others[0]
            for name, others in twins.items()
            if len(others) == 1 and claimed[others[0]] == 1
        }

    def alike(self, old: Any, new: Any, depth: int) -> bool:
        """Whether two subschemas differ in descriptions and titles at most."""
        scratch = _Compare(self.tool, self.side, self.old_root, self.new_root, self.steps)
        scratch.schema(old, new, "", depth + 1)
        return all(f.rule in _WORDING for f in scratch.findings)

    def property_removed(self, sub: Any, governing: Any, at: str, depth: int) -> None:
        if governing is None:
            self.add("schema-changed", at, "a property is no longer declared; patterns govern it")
        elif _is_nothing(governing):
            self.add("property-removed", at, "the property is no longer declared, and refused")
        elif _is_any(governing):
            if not _is_any(sub):
                self.add("property-undeclared", at, "the property is no longer declared")
        else:
            self.schema(sub, governing, at, depth + 1)

    def property_added(self, governing: Any, sub: Any, at: str, depth: int) -> None:
        if governing is None:
            self.add("schema-changed", at, "a property is declared that patterns governed")
        elif _is_nothing(governing) or _is_any(sub):
            self.add("property-added", at, "a property is declared")
        elif _is_any(governing):
            self.add("property-constrained", at, "a property is declared, with a schema")
        else:
            self.schema(governing, sub, at, depth + 1)

    def additional(
        self, old: dict[str, Any], new: dict[str, Any], pointer: str, depth: int
    ) -> None:
        if "additionalProperties" not in old and "additionalProperties" not in new:
            return
        before = old.get("additionalProperties", True)
        after = new.get("additionalProperties", True)
        at = _ptr(pointer, "additionalProperties")
        if _is_nothing(after) and not _is_nothing(before):
            self.add("additional-properties-closed", at, "additionalProperties is false")
        elif _is_nothing(before) and not _is_nothing(after):
            self.add("additional-properties-opened", at, "additionalProperties is no longer false")
        elif not _is_nothing(before):
            self.schema(before, after, at, depth + 1)

    # -- the other keywords ----------------------------------------------------------------

    def keyword(self, key: str, old: Any, new: Any, pointer: str, depth: int) -> None:
        at = _ptr(pointer, key)
        if key.startswith("x-"):
            if not _same(old, new):
                self.note("annotation/changed", at, f"{clip(key)} changed")
            return
        if key in ("anyOf", "allOf") and isinstance(old, list) and isinstance(new, list):
            if key == "anyOf":
                self.variants(
                    [(o, _ptr(at, i)) for i, o in enumerate(old)],
                    [(n, _ptr(at, i)) for i, n in enumerate(new)],
                    pointer,
                    depth,
                )
            elif len(old) == len(new):
                for index, (o, n) in enumerate(zip(old, new, strict=True)):
                    self.schema(o, n, _ptr(at, index), depth + 1)
            else:
                self.add("schema-changed", at, "branches of an allOf added or removed")
            return
        if key == "prefixItems" and isinstance(old, list) and isinstance(new, list):
            if len(old) == len(new):
                for index, (o, n) in enumerate(zip(old, new, strict=True)):
                    self.schema(o, n, _ptr(at, index), depth + 1)
                return
        elif (
            key == "items" and isinstance(old, (Mapping, bool)) and isinstance(new, (Mapping, bool))
        ):
            self.schema(old, new, at, depth + 1)
            return
        if self.changed(key, old, new, depth):
            self.add("schema-changed", at, f"{clip(key)} changed, in a way not analysed")

    def changed(self, key: str, old: Any, new: Any, depth: int) -> bool:
        """Whether keyword ``key`` changed in a way that matters, its references followed;
        the direction of the change is not analysed."""
        scratch = _Compare(self.tool, self.side, self.old_root, self.new_root, self.steps)
        if old is MISSING or new is MISSING:
            return not _same(old, new)
        if key in _ONE:
            scratch.schema(old, new, "", depth + 1)
        elif key in _LIST and isinstance(old, list) and isinstance(new, list):
            if len(old) != len(new):
                return True
            for o, n in zip(old, new, strict=True):
                scratch.schema(o, n, "", depth + 1)
        elif key in _MAP and isinstance(old, Mapping) and isinstance(new, Mapping):
            if old.keys() != new.keys():
                return True
            for name in old:
                scratch.schema(old[name], new[name], "", depth + 1)
        else:
            return not _same(old, new)
        return any(f.level != "info" for f in scratch.findings)

    def variants(
        self,
        old: list[tuple[Any, str]],
        new: list[tuple[Any, str]],
        pointer: str,
        depth: int,
    ) -> None:
        """anyOf branches: kept ones compared, the others added or removed; branches changed
        in place (as many on each side) compared in order."""
        unmatched: dict[bytes, list[tuple[Any, str]]] = {}
        for branch, at in new:
            unmatched.setdefault(_key(_core(branch)), []).append((branch, at))
        old_left: list[tuple[Any, str]] = []
        for branch, at in old:
            twins = unmatched.get(_key(_core(branch)))
            if not twins:
                old_left.append((branch, at))
            else:
                twin, there = twins.pop(0)
                self.schema(branch, twin, there, depth + 1)
        new_left = sorted((b for bs in unmatched.values() for b in bs), key=lambda b: _order(b[1]))
        if old_left and new_left:
            if len(old_left) != len(new_left):
                self.add("schema-changed", _ptr(pointer, "anyOf"), "anyOf branches rewritten")
                return
            for (o, _), (n, at) in zip(old_left, new_left, strict=True):
                self.schema(o, n, at, depth + 1)
            return
        for _, at in old_left:
            self.add("variant-removed", at, "a branch of the anyOf is removed")
        for _, at in new_left:
            self.add("variant-added", at, "a branch is added to the anyOf")


# -- JSON values and schemas -------------------------------------------------------------------


def _object(schema: Any) -> dict[str, Any] | None:
    """A schema as an object (``true`` is ``{}``, ``false`` ``{"not": {}}``), or None."""
    if schema is True:
        return dict(_ANY)
    if schema is False:
        return dict(_NOTHING)
    return dict(schema) if isinstance(schema, Mapping) else None


def _same(one: Any, two: Any) -> bool:
    """Whether two JSON values are equal as JSON (``1 == 1.0``, but ``1 != true``)."""
    if isinstance(one, bool) or isinstance(two, bool):
        return one is two
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return one.keys() == two.keys() and all(_same(one[k], two[k]) for k in one)
    if isinstance(one, (list, tuple)) and isinstance(two, (list, tuple)):
        return len(one) == len(two) and all(_same(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, (Mapping, list, tuple, str)) or isinstance(two, (Mapping, list, tuple, str)):
        return type(one) is type(two) and isinstance(one, str) and one == two
    return bool(one == two)


def _key(value: Any) -> bytes:
    """``value`` as canonical JSON: equal JSON values, and only they, have the same key."""
    try:
        return canonical_json(value)
    except UsageError:  # not JSON data: only the same object matches
        return f"<{id(value)}>".encode()


def _order(pointer: str) -> tuple[int, ...]:
    """The indexes along ``pointer``, to keep branches in the order they are written."""
    return tuple(int(token) for token in pointer.split("/") if token.isdigit())


def _has_ref(node: Any) -> bool:
    """Whether ``node`` holds a ``$ref`` anywhere (its target may have changed)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if "$ref" in item:
                return True
            stack += item.values()
        elif isinstance(item, list):
            stack += item
    return False


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """A value of the schema as compact JSON, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except (RecursionError, ValueError):
        return "a value nested too deep to show"
    return clip(legible(text), _SHOWN)


def _simple(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _change(key: str, before: Any, after: Any) -> str:
    """What became of keyword ``key``: declared, no longer declared, or changed, with the
    values."""
    if before is MISSING:
        return f"{key} declared: {_shown(after)}"
    if after is MISSING:
        return f"{key} no longer declared (was {_shown(before)})"
    return f"{key} changed: {_shown(before)} -> {_shown(after)}"


def _names(value: Any) -> set[str] | None:
    if value is None:
        return set()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return set(value)
    return None


def _types(value: Any) -> set[str] | None:
    """The type names of a ``type`` (None if it is not one); every type if absent."""
    every = {"array", "boolean", "null", "number", "object", "string"}
    if value is None:
        return every
    if isinstance(value, str):
        return {value}
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return set(value)
    return None


def _covered(kind: str, kinds: set[str]) -> bool:
    return kind in kinds or (kind == "integer" and "number" in kinds)


def _core(schema: Any) -> Any:
    """A schema without its annotations."""
    if isinstance(schema, Mapping):
        return {k: v for k, v in schema.items() if k not in _ANNOTATIONS}
    return schema


def _only(old: dict[str, Any], new: dict[str, Any], key: str) -> bool:
    """Whether the side holding ``key`` holds nothing else but annotations."""
    holder = old if key in old else new
    return all(k == key or k in _ANNOTATIONS for k in holder)


def _branches(node: dict[str, Any], pointer: str) -> list[tuple[Any, str]]:
    """The anyOf branches of ``node`` with their pointers, or ``node`` as the one branch."""
    if isinstance(node.get("anyOf"), list):
        return [(b, _ptr(_ptr(pointer, "anyOf"), i)) for i, b in enumerate(node["anyOf"])]
    return [(_core(node), pointer)]


def _is_any(schema: Any) -> bool:
    return schema is True or (isinstance(schema, Mapping) and not _core(schema))


def _is_nothing(schema: Any) -> bool:
    return schema is False or (isinstance(schema, Mapping) and _same(_core(schema), _NOTHING))


def _governing(node: Mapping[str, Any], name: str) -> Any:
    """The schema a property not declared by ``node`` falls under: its additionalProperties,
    or None when a patternProperties may match the name (not analysed)."""
    patterns = node.get("patternProperties")
    if isinstance(patterns, Mapping):
        for pattern in patterns:
            try:
                if re.search(str(pattern), name):
                    return None
            except (re.error, RecursionError):
                return None
    elif patterns is not None:
        return None
    return node.get("additionalProperties", True)
