"""Schemas: pydantic types, raw JSON Schema and custom StandardSchema objects behave alike."""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

import standard_tool
from standard_tool import (
    Result,
    StandardSchema,
    Tool,
    ToolValidationError,
    input_json_schema,
    tool as tool_decorator,
)
from standard_tool.exceptions import Issue, UsageError
from standard_tool.schema._json import json_issues
from standard_tool.schema._schema import MAX_DEPTH, MAX_ISSUES, JsonSchema, PydanticSchema


def as_schema(declared: Any) -> StandardSchema:
    """``standard_tool.as_schema(declared)``, where ``declared`` is not ``None``."""
    schema = standard_tool.as_schema(declared)
    assert schema is not None
    return schema


class Item(BaseModel):
    name: str
    qty: int = Field(ge=1)


@dataclasses.dataclass
class Pair:
    left: int
    right: int


class Flags(TypedDict):
    on: bool


class EvenNumbers:
    """A schema written by hand against the protocol."""

    def validate(self, value: Any, /) -> Result:
        if isinstance(value, int) and value % 2 == 0:
            return Result(value)
        return Result(issues=(Issue("must be an even integer"),))

    def json_schema(self, *, side: str = "input", target: str = "draft-2020-12") -> dict[str, Any]:
        return {"type": "integer", "multipleOf": 2}


@pytest.mark.parametrize(
    ("declared", "good", "bad"),
    [
        (Item, {"name": "a", "qty": 2}, {"name": "a", "qty": 0}),
        (Pair, {"left": 1, "right": 2}, {"left": "x", "right": 2}),
        (Flags, {"on": True}, {"on": "maybe"}),
        (int, 3, "three"),
        (Annotated[str, Field(max_length=3)], "abc", "abcd"),
        (list[Literal["a", "b"]], ["a"], ["c"]),
        ({"type": "integer", "minimum": 1}, 1, 0),
        (True, {"anything": 1}, None),
        (EvenNumbers(), 4, 5),
    ],
    ids=[
        "model",
        "dataclass",
        "typeddict",
        "int",
        "annotated",
        "literal-list",
        "raw",
        "raw-true",
        "custom",
    ],
)
def test_every_kind_validates(declared: Any, good: Any, bad: Any) -> None:
    schema = as_schema(declared)
    assert isinstance(schema, StandardSchema)
    assert schema.validate(good).ok
    if bad is not None:
        result = schema.validate(bad)
        assert not result.ok and result.issues and all(isinstance(i, Issue) for i in result.issues)
    assert isinstance(schema.json_schema(), dict)


def test_json_schema_emitted_as_declared() -> None:
    raw = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert as_schema(raw).json_schema() == raw
    assert as_schema(raw).json_schema() is not raw  # a copy: callers cannot corrupt the tool
    assert as_schema(Item).json_schema() == Item.model_json_schema()
    assert as_schema(EvenNumbers()).json_schema() == {"type": "integer", "multipleOf": 2}


def test_targets_convert_dialect() -> None:
    raw = {
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/P"}, "n": {"type": ["integer", "null"]}},
        "$defs": {"P": {"type": "object", "properties": {"x": {"const": 1}}}},
    }
    draft7 = as_schema(raw).json_schema(target="draft-07")
    assert draft7["properties"]["p"] == {"$ref": "#/definitions/P"} and "definitions" in draft7
    openapi = as_schema(raw).json_schema(target="openapi-3.0")
    assert openapi["properties"]["n"] == {"type": "integer", "nullable": True}
    assert openapi["properties"]["p"]["properties"]["x"] == {"enum": [1]}


def test_raw_schema_issue_paths_name_fields() -> None:
    schema = as_schema(
        {
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"q": {"type": "integer"}},
                        "required": ["q"],
                    },
                }
            },
            "required": ["items", "owner"],
            "additionalProperties": False,
        }
    )
    result = schema.validate({"items": [{"q": 1}, {"q": "x"}, {}], "zzz": 1})
    locations = sorted(issue.location for issue in result.issues or ())
    assert locations == ["items.1.q", "items.2.q", "owner", "zzz"]


def test_deeply_nested_input_is_refused_not_crashed() -> None:
    nested: Any = []
    for _ in range(100_000):
        nested = [nested]
    recursive = Tool(
        name="deep",
        description="d",
        input_schema={
            "type": "object",
            "properties": {"v": {"$ref": "#/$defs/n"}},
            "$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}},
        },
        execute=lambda input: "ran",
    )
    with pytest.raises(ToolValidationError, match=f"deeper than {MAX_DEPTH}"):
        recursive.execute({"v": nested})
    shallow: Any = []
    for _ in range(MAX_DEPTH - 2):
        shallow = [shallow]
    assert recursive.execute({"v": shallow}) == "ran"


def test_deep_input_against_pydantic_is_an_issue() -> None:
    class Node(BaseModel):
        children: list[Node] = []

    nested: dict[str, Any] = {"children": []}
    for _ in range(5_000):
        nested = {"children": [nested]}
    result = as_schema(Node).validate(nested)
    assert not result.ok


def test_huge_values_give_short_messages() -> None:
    schema = as_schema({"type": "object", "properties": {"a": {"type": "integer"}}})
    result = schema.validate({"a": "x" * 1_000_000})
    assert result.issues and len(str(result.issues[0])) < 400


def test_non_json_values_are_issues_not_crashes() -> None:
    schema = as_schema({"type": "object", "properties": {"a": {"type": "array"}}})
    for value in ({"a": {1, 2}}, {"a": object()}, {1: "int key"}):
        result = schema.validate(value)
        assert result.issues
        assert result.issues[0].message in (
            "is not JSON data (set)",
            "is not JSON data (object)",
            "has a key that is not a string",
        )


def test_too_many_issues_are_capped() -> None:
    schema = as_schema({"type": "array", "items": {"type": "integer"}})
    result = schema.validate(["x"] * 10_000)
    assert result.issues is not None and 0 < len(result.issues) <= 50


def test_invalid_raw_schema_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="invalid JSON Schema"):
        JsonSchema({"type": "no-such-type"}).check()


def test_unschemable_type_is_a_usage_error() -> None:
    class Opaque:
        pass

    with pytest.raises(UsageError, match="not a schema"):
        PydanticSchema(Opaque)


def test_pydantic_input_and_output_sides() -> None:
    from pydantic import computed_field

    class Total(BaseModel):
        a: int

        @computed_field  # type: ignore[prop-decorator]
        @property
        def doubled(self) -> int:
            return self.a * 2

    schema = as_schema(Total)
    assert "doubled" not in schema.json_schema(side="input")["properties"]
    assert "doubled" in schema.json_schema(side="output")["properties"]


def test_input_json_schema_of_a_plain_object_tool() -> None:
    from types import SimpleNamespace

    ns = SimpleNamespace(name="x", description="d", input_schema=Item, execute=lambda i, c=None: i)
    assert input_json_schema(ns) == Item.model_json_schema()
    bare = SimpleNamespace(name="y", description="d", execute=lambda i, c=None: i)
    assert input_json_schema(bare) == {"type": "object", "properties": {}}


# -- messages name the field and the rule, never the value --------------------------------------

SECRET_VALUE = "token=sk-live-0123456789"


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"type": "integer"}, "must be of type integer"),
        ({"type": ["integer", "null"]}, "must be of type integer or null"),
        ({"const": 3}, "must be 3"),
        ({"enum": [1, 2]}, "must be one of 1, 2"),
        ({"minLength": 100}, "must have at least 100 characters"),
        ({"maxLength": 3}, "must have at most 3 characters"),
        ({"pattern": "^[0-9]+$"}, "must match the pattern '^[0-9]+$'"),
        ({"format": "email"}, "must be a valid email"),
        ({"not": {"type": "string"}}, "must not match the schema under 'not'"),
        (
            {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "must match at least one schema under 'anyOf'",
        ),
        (
            {"oneOf": [{"type": "integer"}, {"type": "null"}]},
            "must match exactly one schema under 'oneOf' (it matches none)",
        ),
        (
            {"oneOf": [{"type": "string"}, {"minLength": 1}]},
            "must match exactly one schema under 'oneOf' (it matches more than one)",
        ),
        (False, "is not allowed"),
        ({"contentEncoding": "base64"}, "must be base64-encoded"),
    ],
)
def test_string_rules_are_described_without_the_value(schema: Any, message: str) -> None:
    wrapped = {"type": "object", "properties": {"field": schema}}
    if isinstance(schema, dict) and {"format", "contentEncoding"} & set(
        schema
    ):  # draft 7 asserts them
        wrapped["$schema"] = "http://json-schema.org/draft-07/schema#"
    tool = Tool(name="t", description="d", input_schema=wrapped, execute=lambda input: None)
    with pytest.raises(ToolValidationError) as raised:
        tool.execute({"field": SECRET_VALUE})
    assert SECRET_VALUE not in str(raised.value) and "sk-live" not in str(raised.value)
    assert [str(issue) for issue in raised.value.issues] == [f"field: {message}"]


@pytest.mark.parametrize(
    ("schema", "value", "message"),
    [
        ({"minimum": 1}, 0, "must be at least 1"),
        ({"maximum": 7}, 30, "must be at most 7"),
        ({"exclusiveMinimum": 0}, 0, "must be greater than 0"),
        ({"exclusiveMaximum": 1.5}, 2, "must be less than 1.5"),
        ({"multipleOf": 5}, 12, "must be a multiple of 5"),
        ({"minItems": 2}, [1], "must have at least 2 items"),
        ({"maxItems": 1}, [1, 2], "must have at most 1 item"),
        ({"uniqueItems": True}, [1, 1], "must not contain duplicate items"),
        (
            {"contains": {"type": "string"}},
            [1],
            "must contain an item that matches the schema under 'contains'",
        ),
        ({"minProperties": 2}, {"a": 1}, "must have at least 2 properties"),
        ({"maxProperties": 1}, {"a": 1, "b": 2}, "must have at most 1 property"),
        (
            {"propertyNames": {"maxLength": 1}},
            {"long": 1},
            "has a property name that breaks the rule under 'propertyNames'",
        ),
        ({"prefixItems": [{}], "items": False}, [1, 2], "is not allowed"),
    ],
)
def test_number_array_and_object_rules_are_described(schema: Any, value: Any, message: str) -> None:
    result = as_schema({"type": "object", "properties": {"field": schema}}).validate(
        {"field": value}
    )
    assert [str(issue) for issue in result.issues or ()] in (
        [f"field: {message}"],
        [f"field.1: {message}"],
    )


def test_unevaluated_properties_name_each_key() -> None:
    schema = as_schema({"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False})
    result = schema.validate({"a": 1, "b": SECRET_VALUE, "c": 2})
    assert sorted(str(issue) for issue in result.issues or ()) == [
        "b: Extra inputs are not permitted",
        "c: Extra inputs are not permitted",
    ]


def test_output_schema_messages_leave_the_value_out() -> None:
    leaky = Tool(
        name="leaky",
        description="d",
        output_schema={"type": "object", "properties": {"count": {"type": "integer"}}},
        execute=lambda input: {"count": SECRET_VALUE},
    )
    with pytest.raises(ToolValidationError) as raised:
        leaky.execute({})
    assert str(raised.value) == (
        "Invalid output for tool 'leaky' (1 issue):\n  - count: must be of type integer"
    )


# -- values must be JSON, at every depth -----------------------------------------------------

NOT_JSON = [
    (object(), "is not JSON data (object)"),
    ({1, 2}, "is not JSON data (set)"),
    (b"bytes", "is not JSON data (bytes)"),
    (float("nan"), "must be a finite number (NaN and infinity are not JSON)"),
    (float("inf"), "must be a finite number (NaN and infinity are not JSON)"),
]


@pytest.mark.parametrize(("bad", "message"), NOT_JSON, ids=["object", "set", "bytes", "nan", "inf"])
@pytest.mark.parametrize(
    "declared",
    [{"type": "object"}, {}, True, {"type": "object", "properties": {"x": {}}}],
    ids=["object", "empty", "true", "properties"],
)
def test_non_json_values_are_refused_at_every_depth(declared: Any, bad: Any, message: str) -> None:
    schema = as_schema(declared)
    for value, location in [
        ({"x": bad}, "x"),
        ({"x": [1, {"y": bad}]}, "x.1.y"),
        ({"x": {"y": {"z": [bad]}}}, "x.y.z.0"),
    ]:
        result = schema.validate(value)
        assert [str(issue) for issue in result.issues or ()] == [f"{location}: {message}"]


@pytest.mark.parametrize("declared", [{"type": "object"}, True], ids=["object", "true"])
def test_keys_that_are_not_strings_are_refused_at_every_depth(declared: Any) -> None:
    schema = as_schema(declared)
    for value, location in [
        ({1: "x"}, "<root>"),
        ({"x": {1: "y"}}, "x"),
        ({"x": [{(1, 2): 1}]}, "x.0"),
    ]:
        result = schema.validate(value)
        assert [str(issue) for issue in result.issues or ()] == [
            f"{location}: has a key that is not a string"
        ]


def test_nan_cannot_pass_a_number_rule() -> None:
    for declared in ({"minimum": 0}, {"type": "null"}, {"type": "number"}):
        result = as_schema(declared).validate(float("nan"))
        assert [str(issue) for issue in result.issues or ()] == [
            "<root>: must be a finite number (NaN and infinity are not JSON)"
        ]


def test_json_values_pass() -> None:
    from enum import Enum

    class Colour(str, Enum):
        RED = "red"

    value = {
        "s": "x",
        "i": 1,
        "f": 1.5,
        "b": True,
        "n": None,
        "l": [1, (2, 3)],
        Colour.RED: Colour.RED,
    }
    assert as_schema({"type": "object"}).validate(value).ok


def test_a_million_unexpected_keys_give_at_most_fifty_issues() -> None:
    schema = as_schema({"type": "object", "properties": {"a": {}}, "additionalProperties": False})
    result = schema.validate({f"k{i}": i for i in range(1_000_000)})
    assert result.issues is not None and len(result.issues) == MAX_ISSUES
    assert all(issue.message == "Extra inputs are not permitted" for issue in result.issues)


def test_no_properties_allowed_at_all() -> None:
    schema = as_schema({"type": "object", "additionalProperties": False})
    result = schema.validate({"secret": "sk-live-0123456789", "b": 2})
    assert [str(issue) for issue in result.issues or ()] == [
        "<root>: has a property that is not permitted"
    ]


def test_many_non_json_values_give_at_most_fifty_issues() -> None:
    result = as_schema({"type": "array"}).validate([object()] * 10_000)
    assert result.issues is not None and len(result.issues) == MAX_ISSUES


def test_a_value_that_contains_itself_is_refused() -> None:
    loop: list[Any] = []
    loop.extend([loop, loop])
    result = as_schema({"type": "array"}).validate(loop)
    assert [str(issue) for issue in result.issues or ()] == [
        f"<root>: value nests deeper than {MAX_DEPTH} levels"
    ]


# -- every schema kind sees the same JSON rules on input -----------------------------------


class Anything(BaseModel):
    value: Any = None


@pytest.mark.parametrize(
    "input_schema",
    [{"type": "object"}, Anything, None],
    ids=["raw", "pydantic", "custom"],
)
def test_tool_input_must_be_json_for_every_schema_kind(input_schema: Any) -> None:
    if input_schema is None:
        input_schema = AnyObject()
    t = Tool(name="t", description="d", input_schema=input_schema, execute=lambda input: "ran")
    for bad, location in [
        ({"value": object()}, "value"),
        ({"value": {1, 2}}, "value"),
        ({"value": [b"x"]}, "value.0"),
        ({"value": {"n": float("nan")}}, "value.n"),
        ({"value": {1: "x"}}, "value"),
    ]:
        with pytest.raises(ToolValidationError) as raised:
            t.execute(bad)
        assert raised.value.target == "input" and raised.value.fields == (location,)
    deep: Any = []
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(ToolValidationError, match=f"deeper than {MAX_DEPTH}"):
        t.execute({"value": deep})
    assert t.execute({"value": [1, {"a": None}]}) == "ran"


class AnyObject:
    """A custom schema that accepts any dict."""

    def validate(self, value: Any, /) -> Result:
        return (
            Result(value) if isinstance(value, dict) else Result(issues=(Issue("not an object"),))
        )

    def json_schema(self, *, side: str = "input", target: str = "draft-2020-12") -> dict[str, Any]:
        return {"type": "object"}


def test_pydantic_input_deeper_than_the_limit_is_refused() -> None:
    @tool_decorator
    def take(value: Any = None) -> str:
        """Take."""
        return "ran"

    deep: Any = []
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(ToolValidationError, match=f"deeper than {MAX_DEPTH}"):
        take.execute({"value": deep})


# -- jsonable -------------------------------------------------------------------------------


def test_jsonable_serializes_what_pydantic_can() -> None:
    import datetime

    from standard_tool import jsonable

    assert jsonable({"when": datetime.date(2024, 1, 2), "tags": {"a"}, 3: (1, 2)}) == {
        "when": "2024-01-02",
        "tags": ["a"],
        "3": [1, 2],
    }
    nested: Any = []
    for _ in range(MAX_DEPTH - 1):
        nested = [nested]
    assert jsonable(nested) == nested  # deeper than pydantic serializes, within the limit


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (float("nan"), "<root>: must be a finite number (NaN and infinity are not JSON)"),
        ({"a": [float("inf")]}, "a.0: must be a finite number (NaN and infinity are not JSON)"),
        ({"a": b"\xff"}, "a: cannot be serialized as JSON (bytes)"),
    ],
    ids=["nan", "inf", "bytes"],
)
def test_jsonable_raises_a_typed_error_naming_the_path(value: Any, expected: str) -> None:
    from standard_tool import jsonable
    from standard_tool.exceptions import NotJsonError

    with pytest.raises(NotJsonError) as raised:
        jsonable(value)
    assert [str(issue) for issue in raised.value.issues] == [expected]
    assert isinstance(raised.value, ValueError) and "\xff" not in str(raised.value)


def test_jsonable_refuses_values_that_contain_themselves() -> None:
    from standard_tool import jsonable
    from standard_tool.exceptions import NotJsonError

    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(NotJsonError, match=f"deeper than {MAX_DEPTH}"):
        jsonable({"loop": loop})


def _doubling(levels: int, leaf: Any) -> list[Any]:
    """A list whose two items are one list, and so on: ``2**levels`` leaves as a tree."""
    value: list[Any] = [leaf]
    for _ in range(levels):
        value = [value, value]
    return value


def test_jsonable_keeps_shared_parts_shared() -> None:
    from standard_tool import jsonable

    part = [1, {"x": 2}]
    value = {"a": part, "b": [part, part]}
    assert jsonable(value) is value  # JSON data already: nothing to convert
    converted = jsonable({"a": part, "b": (part, part), "when": dataclasses.replace(WHEN)})
    assert converted["a"] == [1, {"x": 2}] and converted["b"] == [part, part]
    assert converted["a"] is converted["b"][0] is converted["b"][1]  # one copy, not three


def test_values_that_share_parts_do_not_grow_into_trees() -> None:
    from standard_tool import jsonable
    from standard_tool.testing import within

    assert within(10, json_issues, _doubling(40, 1)) is None  # not a cycle
    for leaf in (1, {2}, WHEN):  # as it is, a set to convert, a dataclass to convert
        value = _doubling(40, leaf)
        assert within(10, partial(json_issues, value, convert=True)) is None
        converted = within(10, jsonable, value)
        assert converted[0] is converted[1] and converted[0][0] is converted[1][1]
        while len(converted) == 2:
            converted = converted[0]
        assert converted == [jsonable(leaf)]


@dataclasses.dataclass
class When:
    day: int


WHEN = When(day=2)


def test_new_errors_pickle() -> None:
    import pickle

    from standard_tool.exceptions import NotJsonError, ToolTimeoutError

    timeout = pickle.loads(pickle.dumps(ToolTimeoutError("slow", 1.5)))
    assert (timeout.tool, timeout.seconds, str(timeout)) == (
        "slow",
        1.5,
        "Tool 'slow' failed: no result within 1.5 s (timed out)",
    )
    not_json = pickle.loads(pickle.dumps(NotJsonError([Issue("must be a finite number", ("a",))])))
    assert not_json.issues == (Issue("must be a finite number", ("a",)),)
