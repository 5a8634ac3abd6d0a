"""The rules of the breaking-change diff: one id per kind of finding, its level, and what it
finds (the table ``## Diff rules`` of ``CONTRACTS.md`` lists the same)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Literal

__all__ = ["DIFF_RULES", "Direction", "level_of", "schema_rule"]

Direction = Literal["narrowed", "widened", "both"]
"""What a change does to the values a schema accepts: fewer, more, or some of each."""

# The schema rules: (kind, direction, what it finds). Each gives an ``input/`` and an
# ``output/`` rule; their levels mirror each other (see level_of).
# fmt: off
_SCHEMA: tuple[tuple[str, Direction, str], ...] = (
    ("property-removed", "narrowed",
     "a property is no longer declared, and the object refuses names it does not declare"),
    ("property-undeclared", "widened",
     "a property is no longer declared, and the object takes any value under names it does "
     "not declare"),
    ("property-added", "widened",
     "a property is declared where the object refused names it did not declare, or with a "
     "schema that takes any value"),
    ("property-constrained", "narrowed",
     "a property is declared, with a schema, where the object took any value under names it "
     "did not declare"),
    ("property-renamed", "both",
     "a property is declared under a new name: the old name is gone, and the new one has "
     "its schema (descriptions and titles aside) and is required as it was"),
    ("required-added", "narrowed", "a property is required that was not"),
    ("required-removed", "widened", "a property is no longer required"),
    ("type-narrowed", "narrowed", "a type is no longer allowed (or a type is declared)"),
    ("type-widened", "widened", "a type is allowed that was not (or the type is no longer declared)"),
    ("enum-added", "narrowed", "the values are restricted to an enum"),
    ("enum-removed", "widened", "the enum is no longer declared"),
    ("enum-value-removed", "narrowed", "a value of the enum is removed"),
    ("enum-value-added", "widened", "a value is added to the enum"),
    ("const-added", "narrowed", "the value is fixed by a const"),
    ("const-changed", "both", "the const is another value"),
    ("const-removed", "widened", "the const is no longer declared"),
    ("max-length-lowered", "narrowed", "maxLength is lower, or declared"),
    ("max-length-raised", "widened", "maxLength is higher, or no longer declared"),
    ("min-length-raised", "narrowed", "minLength is higher, or declared"),
    ("min-length-lowered", "widened", "minLength is lower, or no longer declared"),
    ("max-items-lowered", "narrowed", "maxItems is lower, or declared"),
    ("max-items-raised", "widened", "maxItems is higher, or no longer declared"),
    ("min-items-raised", "narrowed", "minItems is higher, or declared"),
    ("min-items-lowered", "widened", "minItems is lower, or no longer declared"),
    ("max-properties-lowered", "narrowed", "maxProperties is lower, or declared"),
    ("max-properties-raised", "widened", "maxProperties is higher, or no longer declared"),
    ("min-properties-raised", "narrowed", "minProperties is higher, or declared"),
    ("min-properties-lowered", "widened", "minProperties is lower, or no longer declared"),
    ("maximum-lowered", "narrowed",
     "maximum or exclusiveMaximum is lower, or declared"),
    ("maximum-raised", "widened",
     "maximum or exclusiveMaximum is higher, or no longer declared"),
    ("minimum-raised", "narrowed",
     "minimum or exclusiveMinimum is higher, or declared"),
    ("minimum-lowered", "widened",
     "minimum or exclusiveMinimum is lower, or no longer declared"),
    ("multiple-of-added", "narrowed", "numbers must be a multiple of a multipleOf"),
    ("multiple-of-changed", "both", "multipleOf is another number"),
    ("multiple-of-removed", "widened", "multipleOf is no longer declared"),
    ("unique-items-added", "narrowed", "the items of an array must be unique"),
    ("unique-items-removed", "widened", "the items of an array may repeat"),
    ("pattern-added", "narrowed", "strings must match a pattern"),
    ("pattern-changed", "both", "strings must match another pattern"),
    ("pattern-removed", "widened", "the pattern is no longer declared"),
    ("format-added", "narrowed",
     "strings must have a format (for a validator that asserts formats)"),
    ("format-changed", "both", "strings must have another format"),
    ("format-removed", "widened", "the format is no longer declared"),
    ("additional-properties-closed", "narrowed",
     "additionalProperties is false: names the object does not declare are refused"),
    ("additional-properties-opened", "widened",
     "additionalProperties is no longer false: names the object does not declare are taken"),
    ("variant-removed", "narrowed", "a branch of an anyOf is removed"),
    ("variant-added", "widened", "a branch is added to an anyOf (or a schema becomes one)"),
    ("ref-changed", "both",
     "a $ref names another target, and one of them cannot be resolved to compare"),
    ("schema-changed", "both",
     "a change the diff cannot analyse (a oneOf, not, if/then/else or other keyword "
     "rewritten, a schema nested too deep): counted as breaking"),
)
# fmt: on

_OTHER: tuple[tuple[str, str, str], ...] = (
    ("tool/removed", "breaking", "a tool is gone, under its name and under any other"),
    (
        "tool/renamed",
        "breaking",
        "a tool is gone under its name, and its schemas are found unchanged under a new name",
    ),
    ("tool/added", "compatible", "a tool is new"),
    (
        "output/schema-added",
        "compatible",
        "an output schema is declared where the tool declared none",
    ),
    ("output/schema-removed", "breaking", "the output schema is no longer declared"),
    ("description/changed", "info", "a description (of the tool or in a schema) is changed"),
    ("title/changed", "info", "a title (of the tool or in a schema) is changed"),
    (
        "annotation/changed",
        "info",
        "an annotation in a schema (default, examples, deprecated, readOnly, writeOnly, "
        "$comment) is changed",
    ),
    ("meta/changed", "info", "an entry of the tool's meta is added, removed or changed"),
)

_DIRECTIONS: dict[str, Direction] = {kind: direction for kind, direction, _ in _SCHEMA}


def level_of(side: str, direction: Direction) -> str:
    """The level of a schema change: on the input side, a change that refuses some value
    accepted before breaks callers; on the output side, one that allows some value impossible
    before breaks those reading it."""
    if direction == "both":
        return "breaking"
    breaks = "narrowed" if side == "input" else "widened"
    return "breaking" if direction == breaks else "compatible"


def schema_rule(side: str, kind: str) -> tuple[str, str]:
    """The rule id and level of ``kind`` on ``side`` (``input`` or ``output``)."""
    return f"{side}/{kind}", level_of(side, _DIRECTIONS[kind])


def _rules() -> dict[str, tuple[str, str]]:
    rules: dict[str, tuple[str, str]] = {}
    for side in ("input", "output"):
        for kind, direction, text in _SCHEMA:
            rules[f"{side}/{kind}"] = (level_of(side, direction), text)
    for rule, level, text in _OTHER:
        rules[rule] = (level, text)
    return dict(sorted(rules.items()))


DIFF_RULES: MappingProxyType[str, tuple[str, str]] = MappingProxyType(_rules())
"""Every rule of :func:`~standard_tool.contracts.diff_tools`: its id, mapped to its level
(``breaking``, ``compatible`` or ``info``) and what it finds."""
