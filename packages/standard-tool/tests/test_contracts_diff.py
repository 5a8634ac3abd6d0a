"""The breaking-change diff: each rule on a pair of schemas, checked against the validator
(a breaking input change has a generated input the old schema takes and the new one refuses;
a compatible one takes every input generated from the old schema), on generated pairs of
schemas, on the bundled examples edited by hand, and on hostile schemas."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import sys
import time
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings, strategies as hs
from hypothesis.errors import NoSuchExample
from hypothesis_jsonschema import from_schema

import standard_tool as st
from standard_tool.contracts import DIFF_RULES, Diff, Pin, diff_tools, dump_snapshot, snapshot
from standard_tool.exceptions import UsageError

ROOT = Path(__file__).resolve().parents[3]
CONTRACTS = ROOT / "packages" / "standard-tool" / "CONTRACTS.md"


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        f"examples_{name}", ROOT / "examples" / f"{name}.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


weather = _example("weather")

SETTINGS = settings(
    database=None,
    derandomize=True,
    max_examples=40,
    suppress_health_check=list(HealthCheck),
    deadline=None,
)
"""Every run draws the same values: no example database, derandomized, no deadline."""


def tool(schema: Any, output: Any = None, name: str = "t", description: str = "d") -> st.Tool:
    return st.Tool(
        name=name,
        description=description,
        input_schema=schema,
        output_schema=output,
        execute=lambda input, context=None: None,
    )


def rules(old: Any, new: Any, side: str = "input") -> dict[str, str]:
    """The rules found from ``old`` to ``new`` (input or output schemas), with their levels."""
    if side == "input":
        found = diff_tools([tool(old)], [tool(new)])
    else:
        found = diff_tools([tool({}, old)], [tool({}, new)])
    return {finding.rule: finding.level for finding in found.findings}


def accepts(schema: Any, value: Any) -> bool:
    return st.JsonSchema(schema).validate(value).issues is None


def obj(props: dict[str, Any], required: tuple[str, ...] = (), **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(required), **more}


S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741

# (rule, old, new): the input rule the change gives
BREAKING: list[tuple[str, Any, Any]] = [
    (
        "input/property-removed",
        obj({"a": S, "b": I}, additionalProperties=False),
        obj({"a": S}, additionalProperties=False),
    ),
    (
        "input/property-constrained",
        obj({"a": S}, propertyNames={"enum": ["a", "b"]}),
        obj({"a": S, "b": I}, propertyNames={"enum": ["a", "b"]}),
    ),
    (
        "input/property-renamed",
        obj({"a": S, "c": I}, ("a",), additionalProperties=False),
        obj({"b": S, "c": I}, ("b",), additionalProperties=False),
    ),
    ("input/required-added", obj({"a": S, "b": I}), obj({"a": S, "b": I}, ("b",))),
    ("input/type-narrowed", obj({"a": {"type": ["string", "null"]}}), obj({"a": S})),
    ("input/type-narrowed", obj({"a": {"type": "number"}}), obj({"a": I})),
    ("input/enum-added", obj({"a": S}), obj({"a": {**S, "enum": ["x", "y"]}})),
    (
        "input/enum-value-removed",
        obj({"a": {"enum": ["c", "f", "k"]}}, ("a",)),
        obj({"a": {"enum": ["c", "f"]}}, ("a",)),
    ),
    ("input/const-added", obj({"a": S}, ("a",)), obj({"a": {**S, "const": "x"}}, ("a",))),
    (
        "input/const-changed",
        obj({"a": {"const": 1}}, ("a",)),
        obj({"a": {"const": 2}}, ("a",)),
    ),
    (
        "input/max-length-lowered",
        obj({"a": {**S, "maxLength": 10}}, ("a",)),
        obj({"a": {**S, "maxLength": 3}}, ("a",)),
    ),
    ("input/max-length-lowered", obj({"a": S}, ("a",)), obj({"a": {**S, "maxLength": 2}}, ("a",))),
    (
        "input/min-length-raised",
        obj({"a": {**S, "minLength": 1}}, ("a",)),
        obj({"a": {**S, "minLength": 4}}, ("a",)),
    ),
    (
        "input/max-items-lowered",
        obj({"a": {"type": "array", "items": I, "maxItems": 5}}, ("a",)),
        obj({"a": {"type": "array", "items": I, "maxItems": 1}}, ("a",)),
    ),
    (
        "input/min-items-raised",
        obj({"a": {"type": "array", "items": I}}, ("a",)),
        obj({"a": {"type": "array", "items": I, "minItems": 2}}, ("a",)),
    ),
    (
        "input/max-properties-lowered",
        obj({"a": {"type": "object", "maxProperties": 4}}, ("a",)),
        obj({"a": {"type": "object", "maxProperties": 0}}, ("a",)),
    ),
    (
        "input/min-properties-raised",
        obj({"a": {"type": "object"}}, ("a",)),
        obj({"a": {"type": "object", "minProperties": 2}}, ("a",)),
    ),
    (
        "input/maximum-lowered",
        obj({"a": {**I, "maximum": 100}}, ("a",)),
        obj({"a": {**I, "maximum": 10}}, ("a",)),
    ),
    (
        "input/maximum-lowered",
        obj({"a": {**I, "minimum": 8, "maximum": 10}}, ("a",)),
        obj({"a": {**I, "minimum": 8, "maximum": 10, "exclusiveMaximum": 10}}, ("a",)),
    ),
    (
        "input/minimum-raised",
        obj({"a": {**I, "minimum": 0}}, ("a",)),
        obj({"a": {**I, "minimum": 5}}, ("a",)),
    ),
    ("input/multiple-of-added", obj({"a": I}, ("a",)), obj({"a": {**I, "multipleOf": 3}}, ("a",))),
    (
        "input/multiple-of-changed",
        obj({"a": {**I, "multipleOf": 2}}, ("a",)),
        obj({"a": {**I, "multipleOf": 3}}, ("a",)),
    ),
    (
        "input/unique-items-added",
        obj({"a": {"type": "array", "items": I, "minItems": 2}}, ("a",)),
        obj({"a": {"type": "array", "items": I, "minItems": 2, "uniqueItems": True}}, ("a",)),
    ),
    ("input/pattern-added", obj({"a": S}, ("a",)), obj({"a": {**S, "pattern": "^z+$"}}, ("a",))),
    (
        "input/pattern-changed",
        obj({"a": {**S, "pattern": "^a"}}, ("a",)),
        obj({"a": {**S, "pattern": "^b"}}, ("a",)),
    ),
    ("input/format-added", obj({"a": S}, ("a",)), obj({"a": {**S, "format": "date"}}, ("a",))),
    (
        "input/format-changed",
        obj({"a": {**S, "format": "date"}}, ("a",)),
        obj({"a": {**S, "format": "email"}}, ("a",)),
    ),
    (
        "input/additional-properties-closed",
        obj({"a": S}),
        obj({"a": S}, additionalProperties=False),
    ),
    (
        "input/variant-removed",
        obj({"a": {"anyOf": [S, I]}}, ("a",)),
        obj({"a": {"anyOf": [S]}}, ("a",)),
    ),
    (
        "input/ref-changed",
        obj({"a": {"$ref": "#/$defs/A"}}, ("a",), **{"$defs": {"A": S}}),
        obj({"a": {"$ref": "#/$defs/B"}}, ("a",), **{"$defs": {"A": S}}),
    ),
    (
        "input/schema-changed",
        obj({"a": {"oneOf": [S, I]}}, ("a",)),
        obj({"a": {"oneOf": [S, I, {"type": "number"}]}}, ("a",)),
    ),
    (
        "input/schema-changed",
        obj({"a": {"anyOf": [S, I]}}, ("a",)),
        obj({"a": {"anyOf": [{"type": "boolean"}, {"type": "null"}, {"type": "array"}]}}, ("a",)),
    ),
    (
        "input/schema-changed",
        obj({"a": {"not": {"type": "null"}}}, ("a",)),
        obj({"a": {"not": S}}, ("a",)),
    ),
]

COMPATIBLE: list[tuple[str, Any, Any]] = [
    (
        "input/property-undeclared",
        obj({"a": S, "b": I}, propertyNames={"enum": ["a", "b"]}),
        obj({"a": S}, propertyNames={"enum": ["a", "b"]}),
    ),
    (
        "input/property-added",
        obj({"a": S}, additionalProperties=False),
        obj({"a": S, "b": I}, additionalProperties=False),
    ),
    ("input/required-removed", obj({"a": S, "b": I}, ("a", "b")), obj({"a": S, "b": I}, ("a",))),
    ("input/type-widened", obj({"a": S}, ("a",)), obj({"a": {"type": ["string", "null"]}}, ("a",))),
    ("input/type-widened", obj({"a": I}, ("a",)), obj({"a": {"type": "number"}}, ("a",))),
    ("input/enum-removed", obj({"a": {**S, "enum": ["x"]}}, ("a",)), obj({"a": S}, ("a",))),
    (
        "input/enum-value-added",
        obj({"a": {"enum": ["c", "f"]}}, ("a",)),
        obj({"a": {"enum": ["c", "f", "k"]}}, ("a",)),
    ),
    ("input/const-removed", obj({"a": {**S, "const": "x"}}, ("a",)), obj({"a": S}, ("a",))),
    (
        "input/max-length-raised",
        obj({"a": {**S, "maxLength": 3}}, ("a",)),
        obj({"a": {**S, "maxLength": 30}}, ("a",)),
    ),
    ("input/min-length-lowered", obj({"a": {**S, "minLength": 3}}, ("a",)), obj({"a": S}, ("a",))),
    (
        "input/max-items-raised",
        obj({"a": {"type": "array", "items": I, "maxItems": 1}}, ("a",)),
        obj({"a": {"type": "array", "items": I}}, ("a",)),
    ),
    (
        "input/max-properties-raised",
        obj({"a": {"type": "object", "maxProperties": 1}}, ("a",)),
        obj({"a": {"type": "object", "maxProperties": 3}}, ("a",)),
    ),
    (
        "input/min-properties-lowered",
        obj({"a": {"type": "object", "minProperties": 2}}, ("a",)),
        obj({"a": {"type": "object"}}, ("a",)),
    ),
    (
        "input/min-items-lowered",
        obj({"a": {"type": "array", "items": I, "minItems": 2}}, ("a",)),
        obj({"a": {"type": "array", "items": I, "minItems": 1}}, ("a",)),
    ),
    (
        "input/maximum-raised",
        obj({"a": {**I, "minimum": 8, "exclusiveMaximum": 10}}, ("a",)),
        obj({"a": {**I, "minimum": 8, "exclusiveMaximum": 11}}, ("a",)),
    ),
    ("input/minimum-lowered", obj({"a": {**I, "minimum": 5}}, ("a",)), obj({"a": I}, ("a",))),
    (
        "input/multiple-of-removed",
        obj({"a": {**I, "multipleOf": 3}}, ("a",)),
        obj({"a": I}, ("a",)),
    ),
    (
        "input/unique-items-removed",
        obj({"a": {"type": "array", "uniqueItems": True}}, ("a",)),
        obj({"a": {"type": "array"}}, ("a",)),
    ),
    ("input/pattern-removed", obj({"a": {**S, "pattern": "^z"}}, ("a",)), obj({"a": S}, ("a",))),
    ("input/format-removed", obj({"a": {**S, "format": "date"}}, ("a",)), obj({"a": S}, ("a",))),
    (
        "input/additional-properties-opened",
        obj({"a": S}, additionalProperties=False),
        obj({"a": S}),
    ),
    ("input/variant-added", obj({"a": S}, ("a",)), obj({"a": {"anyOf": [S, {"type": "null"}]}})),
    (
        "input/max-length-raised",
        obj({"a": {"$ref": "#/$defs/A"}}, ("a",), **{"$defs": {"A": {**S, "maxLength": 2}}}),
        obj({"a": {"$ref": "#/$defs/A"}}, ("a",), **{"$defs": {"A": {**S, "maxLength": 9}}}),
    ),
]


def mirror(rule: str) -> str:
    return rule.replace("input/", "output/")


# -- the rules and their table -------------------------------------------------------------


def documented() -> dict[str, tuple[str, str]]:
    text = CONTRACTS.read_text(encoding="utf-8")
    match = re.search(r"^## Diff rules\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, "CONTRACTS.md has no '## Diff rules' section"
    rows = re.findall(r"^\| `([^`]+)` \| (\w+) \| (.+?) \|$", match.group(1), re.M)
    return {rule: (level, what) for rule, level, what in rows}


def test_the_table_of_diff_rules_is_diff_rules() -> None:
    assert documented() == dict(DIFF_RULES)
    assert {level for level, _ in DIFF_RULES.values()} == {"breaking", "compatible", "info"}


def test_each_schema_rule_has_a_mirror_of_the_opposite_level() -> None:
    for rule, (level, _) in DIFF_RULES.items():
        if rule.startswith("input/") and mirror(rule) in DIFF_RULES:
            other = DIFF_RULES[mirror(rule)][0]
            both = rule.endswith(("-changed", "-renamed"))
            assert other == (level if both else {"breaking": "compatible"}.get(level, "breaking"))


def test_every_schema_rule_is_exercised_here() -> None:
    named = {rule for rule, _, _ in BREAKING + COMPATIBLE}
    assert {r for r in DIFF_RULES if r.startswith("input/")} - named == set()


# -- each rule, against the validator -------------------------------------------------------


@pytest.mark.parametrize(("rule", "old", "new"), BREAKING, ids=[r for r, _, _ in BREAKING])
def test_a_breaking_input_change_has_an_input_accepted_before_and_refused_now(
    rule: str, old: Any, new: Any
) -> None:
    found = rules(old, new)
    assert found.get(rule) == "breaking", found
    if rule == "input/ref-changed":  # B names nothing: the new schema cannot be compiled
        return
    if rule.startswith("input/format-"):  # the core does not assert formats: one that does
        refuses = not_(jsonschema_rs.validator_for(new, validate_formats=True).is_valid)
    else:
        refuses = not_(lambda value: accepts(new, value))
    counterexample = draw(old, refuses)
    assert accepts(old, counterexample) and refuses(counterexample)


@pytest.mark.parametrize(("rule", "old", "new"), BREAKING, ids=[r for r, _, _ in BREAKING])
def test_the_same_change_of_an_output_schema_is_its_mirror(rule: str, old: Any, new: Any) -> None:
    found = rules(old, new, side="output")
    assert found.get(mirror(rule)) == DIFF_RULES[mirror(rule)][0], found
    if not rule.endswith(("-changed", "-renamed")):
        assert found[mirror(rule)] == "compatible"
        every_value_of(new, old)  # a narrowed output: each one now was possible


@pytest.mark.parametrize(("rule", "old", "new"), COMPATIBLE, ids=[r for r, _, _ in COMPATIBLE])
def test_a_compatible_input_change_accepts_every_input_generated_from_before(
    rule: str, old: Any, new: Any
) -> None:
    found = rules(old, new)
    assert found.get(rule) == "compatible", found
    assert "breaking" not in found.values(), found
    every_value_of(old, new)


@pytest.mark.parametrize(("rule", "old", "new"), COMPATIBLE, ids=[r for r, _, _ in COMPATIBLE])
def test_a_widened_output_is_breaking_with_an_output_impossible_before(
    rule: str, old: Any, new: Any
) -> None:
    found = rules(old, new, side="output")
    assert found.get(mirror(rule)) == "breaking", found
    if rule.startswith("input/format-"):
        was = jsonschema_rs.validator_for(old, validate_formats=True).is_valid
        refused_before = not_(was)
    else:
        refused_before = not_(lambda value: accepts(old, value))
    counterexample = draw(new, refused_before)
    assert accepts(new, counterexample) and refused_before(counterexample)


def not_(predicate: Any) -> Any:
    return lambda value: not predicate(value)


def draw(schema: Any, condition: Any) -> Any:
    """A value generated from ``schema`` meeting ``condition``, found by Hypothesis."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return find(
                from_schema(schema),
                condition,
                settings=settings(SETTINGS, max_examples=2000, phases=[Phase.generate]),
            )
        except NoSuchExample:
            pytest.fail(f"no value of {schema} meets the condition")


def every_value_of(before: Any, now: Any) -> None:
    """Every value generated from ``before`` is valid under ``now``: called as (old, new) for
    a compatible input change, as (new, old) for a compatible (narrowed) output."""
    seen: list[Any] = []
    valid = st.JsonSchema(now)  # built once, as the strategy is

    @SETTINGS
    @given(from_schema(before))
    def every(value: Any) -> None:
        seen.append(value)
        assert valid.validate(value).issues is None, value

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        every()
    assert seen


# -- generated pairs -------------------------------------------------------------------------

NAMES = ("a", "b", "c")


@hs.composite
def leaf(draw: Any) -> dict[str, Any]:
    kind = draw(hs.sampled_from(["string", "integer", "number", "boolean", "null", "nullable"]))
    schema: dict[str, Any] = {"type": ["string", "null"] if kind == "nullable" else kind}
    if kind in ("string", "nullable"):
        if draw(hs.booleans()):
            schema["maxLength"] = draw(hs.integers(0, 4))
        if draw(hs.booleans()):  # at most maxLength: a string the schema admits exists
            schema["minLength"] = draw(hs.integers(0, min(2, schema.get("maxLength", 2))))
        if draw(hs.booleans()):
            schema["enum"] = draw(
                hs.lists(hs.sampled_from(["x", "y", "z"]), min_size=1, unique=True)
            )
    if kind in ("integer", "number"):
        for key in ("minimum", "maximum", "exclusiveMaximum"):
            if draw(hs.booleans()):
                schema[key] = draw(hs.integers(-3, 3))
    return schema


@hs.composite
def objects(draw: Any) -> dict[str, Any]:
    names = draw(hs.lists(hs.sampled_from(NAMES), max_size=3, unique=True))
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {name: draw(leaf()) for name in names},
        "required": draw(hs.lists(hs.sampled_from(names), unique=True)) if names else [],
    }
    extra = draw(hs.sampled_from(["open", "closed", "strings"]))
    if extra != "open":
        schema["additionalProperties"] = False if extra == "closed" else {"type": "string"}
    return schema


@hs.composite
def edited(draw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A schema and an edit of it: properties kept, dropped, redrawn or added, required and
    additionalProperties redrawn, each at random."""
    old = draw(objects())
    new = copy.deepcopy(old)
    for name in NAMES:
        action = draw(hs.sampled_from(["keep", "keep", "drop", "redraw"]))
        if action == "drop":
            new["properties"].pop(name, None)
        elif action == "redraw":
            new["properties"][name] = draw(leaf())
    if draw(hs.booleans()):
        new["required"] = draw(hs.lists(hs.sampled_from(sorted(new["properties"]) or ["a"])))
        new["required"] = [n for n in dict.fromkeys(new["required"]) if n in new["properties"]]
    if draw(hs.booleans()):
        new.pop("additionalProperties", None)
        extra = draw(hs.sampled_from(["open", "closed", "strings"]))
        if extra != "open":
            new["additionalProperties"] = False if extra == "closed" else {"type": "string"}
    return old, new


@pytest.mark.parametrize("side", ["input", "output"])
def test_generated_edits_classed_compatible_keep_every_value_valid(side: str) -> None:
    """Random edits of random object schemas: where the diff finds nothing breaking, every
    input generated from the old schema is valid under the new one (for an output, every
    output generated from the new one was valid under the old one)."""
    compatible: list[Diff] = []

    @settings(SETTINGS, max_examples=120)
    @given(hs.data())
    def edits(data: hs.DataObject) -> None:
        old, new = data.draw(edited())
        pair = [tool(old)], [tool(new)]
        if side == "output":
            pair = [tool({}, old)], [tool({}, new)]
        found = diff_tools(*pair)
        if found.breaking:
            return
        compatible.append(found)
        was, now = (old, new) if side == "input" else (new, old)
        for _ in range(5):
            value = data.draw(from_schema(was))
            assert accepts(now, value), (old, new, value, found.findings)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        edits()
    assert len(compatible) >= 20, len(compatible)
    assert sum(1 for found in compatible if found.level == "compatible") >= 10


# -- tools -----------------------------------------------------------------------------------


def test_tools_added_removed_and_renamed() -> None:
    one, two = tool(obj({"a": S}), name="one"), tool(obj({"b": I}), name="two")
    renamed = tool(obj({"a": S}), name="uno", description="another")
    found = diff_tools([one, two], [renamed, tool(obj({"c": S}), name="three")])
    assert (found.added, found.removed, found.renamed) == (("three",), ("two",), (("one", "uno"),))
    assert [(f.rule, f.tool, f.level) for f in found.findings] == [
        ("tool/renamed", "one", "breaking"),
        ("description/changed", "uno", "info"),
        ("tool/removed", "two", "breaking"),
        ("tool/added", "three", "compatible"),
    ]
    assert found.level == "breaking" and len(found.breaking) == 2
    assert json.loads(json.dumps(found.to_dict()))["renamed"] == [{"from": "one", "to": "uno"}]


def test_a_pin_counts_its_tools_in_words_that_agree() -> None:
    one = Pin(snapshot([tool(obj({"a": S}), name="one")]))
    two = Pin(snapshot([tool(obj({"a": S}), name="one"), tool(obj({"b": S}), name="two")]))
    assert repr(one) == "Pin(1 tool, allow_unpinned=False)"
    assert repr(two) == "Pin(2 tools, allow_unpinned=False)"


def test_a_snapshot_compares_as_the_tools_it_was_taken_of() -> None:
    old = weather_snapshot()
    assert diff_tools(old, weather.TOOLS) == Diff((), (), (), ())
    assert diff_tools(old, old).level == "none"


def test_output_schemas_declared_or_dropped() -> None:
    assert rules(None, obj({"a": S}), side="output") == {"output/schema-added": "compatible"}
    assert rules(obj({"a": S}), None, side="output") == {"output/schema-removed": "breaking"}


def test_descriptions_titles_annotations_and_meta_are_info() -> None:
    old = obj({"a": {**S, "description": "A.", "default": "x"}}, title="T")
    new = obj({"a": {**S, "description": "An a.", "default": "y"}}, title="U")
    assert rules(old, new) == {
        "description/changed": "info",
        "annotation/changed": "info",
        "title/changed": "info",
    }
    before = st.Tool(name="t", description="d", input_schema={}, execute=print, meta={"k": 1})
    after = st.Tool(name="t", description="e", input_schema={}, execute=print, meta={"k": 2})
    found = diff_tools([before], [after]).findings
    assert [(f.rule, f.pointer, f.level) for f in found] == [
        ("description/changed", "/description", "info"),
        ("meta/changed", "/meta/k", "info"),
    ]


# -- properties renamed ----------------------------------------------------------------------


def said(old: Any, new: Any, side: str = "input") -> list[tuple[str, str, str, str]]:
    """Every finding from ``old`` to ``new``: rule, pointer, level and message."""
    pair = ([tool(old)], [tool(new)]) if side == "input" else ([tool({}, old)], [tool({}, new)])
    return [(f.rule, f.pointer, f.level, f.message) for f in diff_tools(*pair).findings]


RENAMED = (
    obj({"a": {**S, "description": "A."}, "c": I}, ("a", "c"), additionalProperties=False),
    obj({"b": {**S, "description": "A."}, "c": I}, ("b", "c"), additionalProperties=False),
)


def test_a_property_renamed_is_one_breaking_finding_at_the_old_property() -> None:
    # alone, the removal, the addition and the two required changes would be four findings
    assert said(*RENAMED) == [
        (
            "input/property-renamed",
            "/input_schema/properties/a",
            "breaking",
            "property 'a' renamed to 'b'",
        )
    ]


def test_an_output_property_renamed_is_breaking_too() -> None:
    assert said(*RENAMED, side="output") == [
        (
            "output/property-renamed",
            "/output_schema/properties/a",
            "breaking",
            "property 'a' renamed to 'b'",
        )
    ]


def test_a_property_renamed_in_an_open_object_and_its_description_changed() -> None:
    old = obj({"a": {**S, "maxLength": 3, "description": "A."}})
    new = obj({"b": {**S, "maxLength": 3, "description": "The b."}})
    assert said(old, new) == [
        ("input/property-renamed", "/input_schema/properties/a", "breaking",
         "property 'a' renamed to 'b'"),
        ("description/changed", "/input_schema/properties/b/description", "info",
         "description changed"),
    ]  # fmt: skip


def test_a_property_renamed_through_a_reference_keeps_its_target() -> None:
    defs = {"$defs": {"A": {**S, "minLength": 1}}}
    old = obj({"a": {"$ref": "#/$defs/A"}}, ("a",), **defs)
    new = obj({"b": {"$ref": "#/$defs/A"}}, ("b",), **defs)
    assert [rule for rule, *_ in said(old, new)] == ["input/property-renamed"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a removal and an unrelated addition, of another schema
        (obj({"a": S}, ("a",), additionalProperties=False),
         obj({"b": I}, ("b",), additionalProperties=False)),
        # the same schema, with another constraint
        (obj({"a": S}, ("a",), additionalProperties=False),
         obj({"b": {**S, "maxLength": 3}}, ("b",), additionalProperties=False)),
        # the same schema, required where it was optional
        (obj({"a": S}, (), additionalProperties=False),
         obj({"b": S}, ("b",), additionalProperties=False)),
        # two gone and two new of one schema: which is which is not known
        (obj({"a": S, "c": S}, additionalProperties=False),
         obj({"b": S, "d": S}, additionalProperties=False)),
    ],
)  # fmt: skip
def test_what_is_not_surely_a_rename_is_said_change_by_change(old: Any, new: Any) -> None:
    found = said(old, new)
    assert "input/property-renamed" not in {rule for rule, *_ in found}
    assert "input/property-removed" in {rule for rule, *_ in found}
    assert "input/property-added" in {rule for rule, *_ in found}


def test_a_removal_and_an_unrelated_addition_keep_their_own_findings() -> None:
    old = obj({"a": S}, ("a",), additionalProperties=False)
    new = obj({"b": I}, ("b",), additionalProperties=False)
    assert [(rule, pointer, level) for rule, pointer, level, _ in said(old, new)] == [
        ("input/required-added", "/input_schema/properties/b", "breaking"),
        ("input/required-removed", "/input_schema/properties/a", "compatible"),
        ("input/property-removed", "/input_schema/properties/a", "breaking"),
        ("input/property-added", "/input_schema/properties/b", "compatible"),
    ]


# -- values said from what to what -------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "before", "after", "message"),
    [
        ("default", 1, 2, "default changed: 1 -> 2"),
        ("default", "C", None, 'default no longer declared (was "C")'),
        ("default", None, [1, "x"], 'default declared: [1,"x"]'),
        ("minimum", 0, 5, "minimum changed: 0 -> 5"),
        ("maximum", 10, 5, "maximum changed: 10 -> 5"),
        ("exclusiveMinimum", 0, 0.5, "exclusiveMinimum changed: 0 -> 0.5"),
        ("exclusiveMaximum", 10, None, "exclusiveMaximum no longer declared (was 10)"),
        ("minLength", None, 2, "minLength declared: 2"),
        ("maxLength", 64, 32, "maxLength changed: 64 -> 32"),
        ("minItems", 1, 2, "minItems changed: 1 -> 2"),
        ("maxItems", 9, 3, "maxItems changed: 9 -> 3"),
        ("minProperties", 1, 0, "minProperties changed: 1 -> 0"),
        ("maxProperties", 4, 5, "maxProperties changed: 4 -> 5"),
        ("multipleOf", 2, 3, "multipleOf changed: 2 -> 3"),
        ("pattern", "^a", "^b", 'pattern changed: "^a" -> "^b"'),
        ("pattern", None, "^[a-z]+$", 'pattern declared: "^[a-z]+$"'),
        ("format", "date", "email", 'format changed: "date" -> "email"'),
        ("const", "x", True, 'const changed: "x" -> true'),
        ("const", {"k": None}, None, 'const no longer declared (was {"k":null})'),
        ("deprecated", False, True, "deprecated changed: false -> true"),
    ],
)
def test_a_value_changed_is_said_from_what_to_what(
    key: str, before: Any, after: Any, message: str
) -> None:
    old, new = {"type": "object"}, {"type": "object"}
    if before is not None:
        old[key] = before
    if after is not None:
        new[key] = after
    [(_, pointer, _, text)] = said(obj({"p": old}), obj({"p": new}))
    assert (pointer, text) == (f"/input_schema/properties/p/{key}", message)


def test_enum_values_removed_and_added_are_named_when_simple() -> None:
    old = obj({"p": {"enum": ["c", 1, None, {"k": 1}]}})
    new = obj({"p": {"enum": ["f", 1, False, {"k": 2}]}})
    assert [text for *_, text in said(old, new)] == [
        '"c" removed from the enum',
        "null removed from the enum",
        "a value removed from the enum",
        '"f" added to the enum',
        "false added to the enum",
        "a value added to the enum",
    ]


def test_a_long_or_unprintable_value_is_cut_and_made_legible() -> None:
    old = obj({"p": {**S, "pattern": "^" + "a" * 100}})
    new = obj({"p": {**S, "pattern": "x\u202ey"}})  # a right-to-left override, shown escaped
    [(_, _, _, text)] = said(old, new)
    cut = '"^' + "a" * 27 + "..."
    assert len(cut) == 32
    assert text == f'pattern changed: {cut} -> "x\\u202ey"'


def test_descriptions_and_titles_are_said_changed_without_their_text() -> None:
    old = obj({"p": {**S, "description": "Old words.", "title": "Old"}})
    new = obj({"p": {**S, "description": "New words.", "title": "New"}})
    assert sorted(text for *_, text in said(old, new)) == [
        "description changed",
        "title changed",
    ]


def test_a_ref_target_changed_is_found_where_it_is_used() -> None:
    old = obj({"a": {"$ref": "#/$defs/A"}}, (), **{"$defs": {"A": obj({"x": S})}})
    new = copy.deepcopy(old)
    new["$defs"]["A"]["required"] = ["x"]
    [finding] = diff_tools([tool(old)], [tool(new)]).findings
    assert (finding.rule, finding.pointer) == (
        "input/required-added",
        "/input_schema/properties/a/properties/x",
    )


def test_a_schema_inlined_as_its_ref_target_is_unchanged() -> None:
    inline = obj({"a": obj({"x": S})})
    referenced = obj({"a": {"$ref": "#/$defs/A"}}, (), **{"$defs": {"A": obj({"x": S})}})
    assert diff_tools([tool(inline)], [tool(referenced)]).findings == ()


# -- the examples, edited by hand ------------------------------------------------------------


def weather_snapshot() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dump_snapshot(snapshot(weather.TOOLS)))
    return data


def edit(data: dict[str, Any], name: str, side: str, path: str, value: Any = None) -> None:
    """Set (or, with None, delete) the value at ``path`` in a tool's schema."""
    [entry] = [t for t in data["tools"] if t["name"] == name]
    *parents, last = path.split("/")
    node = entry[side]
    for key in parents:
        node = node[key]
    if value is None:
        del node[last]
    else:
        node[last] = value


@pytest.mark.parametrize(
    ("name", "side", "path", "value", "rule", "pointer"),
    [
        (
            "get_forecast", "input_schema", "$defs/Location/properties/country/pattern",
            "^[A-Z]{3}$", "input/pattern-changed",
            "/input_schema/properties/location/properties/country/pattern",
        ),
        (
            "get_forecast", "input_schema", "$defs/Location/required", ["city", "country"],
            "input/required-added", "/input_schema/properties/location/properties/country",
        ),
        (
            "get_forecast", "input_schema", "properties/units/enum", ["c"],
            "input/enum-value-removed", "/input_schema/properties/units/enum/1",
        ),
        (
            "get_forecast", "output_schema", "properties/summary/enum",
            ["sunny", "cloudy", "rain", "snow"], "output/enum-value-added",
            "/output_schema/properties/summary/enum/3",
        ),
        (
            "get_forecast", "output_schema", "properties/summary/enum", ["sunny", "rain"],
            "output/enum-value-removed", "/output_schema/properties/summary/enum/1",
        ),
        (
            "multiply", "input_schema", "properties/b/type", "number",
            "input/type-widened", "/input_schema/properties/b/type",
        ),
        (
            "multiply", "output_schema", "properties/product/type", "number",
            "output/type-widened", "/output_schema/properties/product/type",
        ),
        (
            "multiply", "input_schema", "additionalProperties", None,
            "input/additional-properties-opened", "/input_schema/additionalProperties",
        ),
        (
            "wait_and_echo", "input_schema", "properties/seconds/maximum", 0.5,
            "input/maximum-lowered", "/input_schema/properties/seconds/maximum",
        ),
        (
            "wait_and_echo", "input_schema", "properties/seconds/description", "Seconds.",
            "description/changed", "/input_schema/properties/seconds/description",
        ),
        (
            "wait_and_echo", "output_schema", "type", ["string", "null"],
            "output/type-widened", "/output_schema/type",
        ),
    ],
)  # fmt: skip
def test_the_example_tools_edited_by_hand(
    name: str, side: str, path: str, value: Any, rule: str, pointer: str
) -> None:
    new = weather_snapshot()
    edit(new, name, side, path, value)
    found = diff_tools(weather.TOOLS, new)
    assert [(f.rule, f.tool, f.pointer, f.level) for f in found.findings] == [
        (rule, name, pointer, DIFF_RULES[rule][0])
    ]


# -- hostile schemas -------------------------------------------------------------------------


def nested(levels: int, leaf: Any) -> dict[str, Any]:
    schema: dict[str, Any] = leaf
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


def test_a_change_nested_too_deep_is_counted_breaking() -> None:
    found = rules(nested(120, S), nested(120, {"type": "string", "description": "x"}))
    assert found == {"input/schema-changed": "breaking"}
    assert rules(nested(120, S), nested(120, S)) == {}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"$ref": "#"}, {"$ref": "#", "type": "object"}),
        ({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}}, {"type": "object"}),
        (
            {"$defs": {"n": obj({"next": {"$ref": "#/$defs/n"}})}, "$ref": "#/$defs/n"},
            {"$defs": {"n": obj({"next": {"$ref": "#/$defs/n"}}, ("next",))}, "$ref": "#/$defs/n"},
        ),
        ({"$ref": "#/nowhere"}, {"$ref": "#/elsewhere"}),
        ({"$ref": "https://example.com/s.json"}, {"type": "object"}),
        ({"properties": {"a": {"$ref": "#/properties/a"}}}, {"properties": {"a": S}}),
    ],
)
def test_recursive_and_dangling_refs_end_with_a_finding(old: Any, new: Any) -> None:
    found = rules(old, new)
    assert "breaking" in found.values(), found


def test_references_that_fan_out_are_compared_in_bounded_time() -> None:
    def fan(leaf: Any) -> dict[str, Any]:
        defs = {f"d{i}": obj({"l": {"$ref": f"#/$defs/d{i + 1}"}, "r": {"$ref": f"#/$defs/d{i + 1}"}})
                for i in range(40)}  # fmt: skip
        return {"$defs": {**defs, "d40": leaf}, "$ref": "#/$defs/d0"}

    started = time.perf_counter()
    found = diff_tools([tool(fan(S))], [tool(fan(I))])
    assert time.perf_counter() - started < 5
    assert {f.rule for f in found.findings} == {"input/type-narrowed", "input/type-widened"}


def test_a_side_that_is_neither_tools_nor_a_snapshot_is_refused() -> None:
    with pytest.raises(UsageError, match="is not a snapshot"):
        diff_tools({"format": "other", "tools": []}, [])


def test_large_enums_and_unions_are_compared_in_bounded_time() -> None:
    old = obj(
        {"a": {"enum": list(range(20_000))}, "b": {"anyOf": [{"const": i} for i in range(3000)]}}
    )
    new = obj(
        {"a": {"enum": list(range(1, 20_001))}, "b": {"anyOf": [{"const": i} for i in range(3000)]}}
    )
    started = time.perf_counter()
    found = diff_tools([tool(old)], [tool(new)])
    assert time.perf_counter() - started < 5
    assert [(f.rule, f.pointer) for f in found.findings] == [
        ("input/enum-value-removed", "/input_schema/properties/a/enum/0"),
        ("input/enum-value-added", "/input_schema/properties/a/enum/19999"),
    ]
