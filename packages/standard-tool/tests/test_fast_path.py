"""A raw-schema tool checks input with a fast path (the exact-type walk, then jsonschema-rs)
and falls back to the full check, which names every issue. The fast path may only ever
accept what the full check accepts: whatever the schema, no value that is not JSON data
gets through."""

from __future__ import annotations

import copy
import decimal
import enum
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from standard_tool import JsonSchema, Tool, ToolValidationError, call
from standard_tool.schema._json import MAX_DEPTH, json_issues, plain


class Colour(enum.Enum):
    RED = 1


class Mood(enum.Enum):
    GLAD = "glad"


class Letter(enum.Enum):
    X = "x"


class Level(enum.IntEnum):
    HIGH = 3


class Size(str, enum.Enum):
    BIG = "big"


class Text(str):
    pass


NUMBER = {"type": "number"}
SCHEMAS: dict[str, dict[str, Any]] = {
    "closed": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": NUMBER}},
        "additionalProperties": False,
    },
    "open": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": NUMBER}},
    },
    "nullable": {
        "type": "object",
        "properties": {
            "a": {"type": ["number", "null"]},
            "b": {"type": ["array", "null"], "items": {"type": ["number", "null"]}},
        },
    },
    "untyped": {"type": "object", "properties": {"a": {}, "b": {"enum": [1, None]}}},
    "any-items": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "array"}},
    },
    "extra-schema": {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": {"type": "array", "items": {"type": ["object", "null"]}},
    },
    "extra-proven": {
        "type": "object",
        "properties": {"a": {"type": "object", "additionalProperties": {"type": "integer"}}},
        "additionalProperties": {"type": "string"},
    },
    "combinators": {
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "b": {"oneOf": [{"type": "array"}, {"type": "string"}]},
        },
    },
    "closed-nested": {
        "type": "object",
        "properties": {
            "a": {
                "type": "object",
                "properties": {"x": {"type": "integer"}},
                "additionalProperties": False,
            },
            "b": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"y": {"type": "string"}},
                    "additionalProperties": False,
                },
            },
        },
        "additionalProperties": False,
    },
    "nullable-object": {
        "type": "object",
        "properties": {
            "a": {"type": ["object", "null"], "properties": {"x": NUMBER}},
            "b": {"type": "array", "items": {"type": ["object", "null"]}},
        },
    },
    "root-array": {"type": "array", "items": {"type": "object", "properties": {"x": NUMBER}}},
    "patterns": {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "patternProperties": {"^p": {"type": "array"}},
    },
    "references": {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/n"}, "b": {"$ref": "#/$defs/list"}},
        "$defs": {
            "n": {"type": ["integer", "null"]},
            "list": {"type": "array", "items": {"$ref": "#/$defs/list"}},
        },
    },
    "strings": {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "array", "items": {"enum": ["x"]}}},
    },
}
GOOD: dict[str, Any] = {
    "closed": {"a": 1, "b": [1.5, 2]},
    "open": {"a": 1, "b": [1.5], "c": {"d": [None, "x"]}},
    "nullable": {"a": None, "b": [1.5, None]},
    "untyped": {"a": {"x": [1, 2.5]}, "b": None},
    "any-items": {"a": 1, "b": [[1], {"c": "d"}]},
    "extra-schema": {"a": 1, "c": [{"d": [1]}, None]},
    "combinators": {"a": None, "b": [1, [2]]},
    "references": {"a": 3, "b": [[], [[]]]},
    "closed-nested": {"a": {"x": 1}, "b": [{"y": "s"}, {}]},
    "extra-proven": {"a": {"n": 1}, "s": "t"},
    "nullable-object": {"a": {"x": 1.5, "w": [1]}, "b": [None, {"k": [2]}]},
    "root-array": [{"x": 1}, {"y": [1, {"z": None}]}],
    "patterns": {"a": 1, "p1": [{"z": 1}], "q": {"r": [2.5]}},
    "strings": {"a": "s", "b": ["x"]},
}


def _deep() -> list[Any]:
    value: list[Any] = []
    for _ in range(MAX_DEPTH + 5):
        value = [value]
    return value


BAD: dict[str, Callable[[], Any]] = {
    "object": object,
    "set": lambda: {1, 2},
    "bytes": lambda: b"x",
    "nan": lambda: float("nan"),
    "inf": lambda: float("-inf"),
    "int-key": lambda: {1: "x"},
    "lone-surrogate": lambda: "a\ud800",
    "lone-surrogate-key": lambda: {"\udfff": 1},
    "too-deep": _deep,
    "huge-int": lambda: 10**4300,  # more than 4300 digits: Python writes no text for it
    "huge-negative-int": lambda: -(10**5000),
    # jsonschema-rs reads these as their values wherever it looks: only the walk refuses them
    "decimal": lambda: decimal.Decimal("1"),
    "enum-int": lambda: Colour.RED,
    "enum-str": lambda: Mood.GLAD,
}


def _positions(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value`` a bad value can replace, or be added (a new key, a new item)."""
    found = [path] if path else []
    if isinstance(value, dict):
        found.append((*path, "zz-new"))
        for key, item in value.items():
            found += _positions(item, (*path, key))
    elif isinstance(value, list):
        found.append((*path, len(value)))
        for index, item in enumerate(value):
            found += _positions(item, (*path, index))
    return found


def _placed(value: Any, path: tuple[Any, ...], bad: Any) -> Any:
    value = copy.deepcopy(value)
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if isinstance(parent, list) and last == len(parent):
        parent.append(bad)
    else:
        parent[last] = bad
    return value


def _tool(name: str) -> Tool:
    return Tool(name="t", description="d", input_schema=SCHEMAS[name], execute=lambda i: i)


def _returning(name: str, value: Any) -> Tool:
    """A tool that returns ``value``, its output schema ``SCHEMAS[name]``."""
    return Tool(name="t", description="d", output_schema=SCHEMAS[name], execute=lambda i: value)


def _outcome(tool: Tool, value: Any) -> Any:
    """What ``tool.execute`` makes of ``value``: the value it ran with, or the issues."""
    try:
        return ("ran", tool.execute(value))
    except ToolValidationError as error:
        return ("refused", error.issues)


def _full_check(name: str, value: Any) -> Any:
    """The outcome the full check gives, without any fast path."""
    issues = JsonSchema(SCHEMAS[name]).issues(value)
    return ("ran", value) if issues is None else ("refused", issues)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_good_values_pass(name: str) -> None:
    tool = _tool(name)
    assert tool.execute(GOOD[name]) is GOOD[name]
    assert tool.execute(GOOD[name]) is GOOD[name]  # the second call has the compiled validator
    assert call(tool, GOOD[name]) is GOOD[name]


@pytest.mark.parametrize("bad", sorted(BAD))
@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_no_value_that_is_not_json_gets_through(name: str, bad: str) -> None:
    tool = _tool(name)
    tool.execute(GOOD[name])  # compile
    for path in _positions(GOOD[name]):
        value = _placed(GOOD[name], path, BAD[bad]())
        with pytest.raises(ToolValidationError) as raised:
            tool.execute(value)
        assert raised.value.issues == JsonSchema(SCHEMAS[name]).issues(value)


@pytest.mark.parametrize("bad", sorted(BAD))
@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_no_output_that_is_not_json_gets_through(name: str, bad: str) -> None:
    for path in _positions(GOOD[name]):
        value = _placed(GOOD[name], path, BAD[bad]())
        with pytest.raises(ToolValidationError) as raised:
            call(_returning(name, value), {})
        assert raised.value.target == "output"
        assert raised.value.issues == JsonSchema(SCHEMAS[name]).issues(value)


def test_enum_members_and_decimals_are_named_where_they_are() -> None:
    tool = _tool("strings")
    for bad, kind in [(Mood.GLAD, "Mood"), (decimal.Decimal("1"), "Decimal")]:
        with pytest.raises(ToolValidationError) as raised:
            tool.execute({"a": "s", "b": ["x", bad]})
        assert [str(issue) for issue in raised.value.issues] == [f"b.1: is not JSON data ({kind})"]
    with pytest.raises(ToolValidationError) as raised:
        _tool("closed").execute({"a": Colour.RED})
    assert raised.value.fields == ("a",)


def test_json_data_the_walk_leaves_to_the_full_check_still_passes() -> None:
    # tuples and subclasses (an int or str enum, an OrderedDict) are JSON data, not the
    # exact types of the fast walk: the full check decides, and accepts them
    tool = _tool("untyped")
    for value in [
        {"a": (1, 2)},
        {"a": Level.HIGH},
        {"a": Size.BIG, Size.BIG: 1},
        {"a": OrderedDict(x=1)},
        OrderedDict(a=1),
    ]:
        assert not plain(value)
        assert tool.execute(value) is value


def test_shared_values_are_not_cycles() -> None:
    part = [1, {"x": 2}]
    value = {"a": [part, part, {"c": part}]}
    assert plain(value) and json_issues(value) is None
    assert _tool("untyped").execute(value) is value
    doubling: list[Any] = []
    for _ in range(40):  # 2**40 leaves as a tree: the fast walk gives up, the full check does not
        doubling = [doubling, doubling]
    assert not plain(doubling) and json_issues(doubling) is None
    assert _tool("untyped").execute({"a": doubling})["a"] is doubling


# -- property tests: the fast path agrees with the full check --------------------------------

_JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
)
# ints of more than 4300 digits (not JSON data) and of 4300 (JSON data), made when drawn: such an
# int has no repr for a strategy to show
_HUGE_INTS = st.builds(
    lambda digits, sign: sign * 10 ** (digits - 1),
    st.sampled_from([4300, 4301, 5000]),
    st.sampled_from([1, -1]),
)
_OTHER_LEAVES = st.one_of(
    _HUGE_INTS,
    st.sampled_from(
        [
            # not JSON data
            float("nan"),
            float("inf"),
            -float("inf"),
            1j,
            b"x",
            bytearray(b"x"),
            frozenset(),
            object(),
            decimal.Decimal("1.5"),
            decimal.Decimal("2"),
            Colour.RED,
            Mood.GLAD,
            Letter.X,
            range(2),
            "\ud83d",
            # JSON data, though not of the exact types the fast walk takes
            (),
            (1, "x"),
            Level.HIGH,
            Size.BIG,
            Text("x"),
            True,
        ]
    ),
)
_KEYS = st.one_of(
    st.sampled_from(["a", "b", "c", "x", "p1"]),
    st.text(max_size=3),
    st.sampled_from([1, None, (1,), Size.BIG, Mood.GLAD, "\udc80"]),
)


def _values(leaves: st.SearchStrategy[Any], keys: st.SearchStrategy[Any]) -> Any:
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(keys, inner, max_size=4),
            st.builds(OrderedDict, st.dictionaries(keys, inner, max_size=3)),
            st.builds(tuple, st.lists(inner, max_size=3)),
        ),
        max_leaves=12,
    )


ANY_VALUES = _values(st.one_of(_JSON_LEAVES, _OTHER_LEAVES), _KEYS)
EXACT_VALUES = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)
PROPERTY_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(ANY_VALUES)
def test_the_fast_walk_passes_only_json_data(value: Any) -> None:
    if plain(value):
        assert json_issues(value) is None


@PROPERTY_SETTINGS
@given(EXACT_VALUES)
def test_the_fast_walk_passes_json_data_of_the_exact_types(value: Any) -> None:
    assert plain(value) and json_issues(value) is None


PARTS = [_OTHER_LEAVES, _JSON_LEAVES, ANY_VALUES, EXACT_VALUES]


@PROPERTY_SETTINGS
@given(st.sampled_from(sorted(SCHEMAS)), st.sampled_from(PARTS), st.data())
def test_a_tool_accepts_and_refuses_what_the_full_check_does(
    name: str, parts: st.SearchStrategy[Any], data: st.DataObject
) -> None:
    good = GOOD[name]
    path = data.draw(st.sampled_from(_positions(good)))
    value = _placed(good, path, data.draw(parts))
    assert _outcome(_tool(name), value) == _full_check(name, value)
