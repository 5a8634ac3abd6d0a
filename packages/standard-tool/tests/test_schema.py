"""Schemas: pydantic types, raw JSON Schema and custom StandardSchema objects behave alike."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from standard_tool import (
    Result,
    StandardSchema,
    Tool,
    ToolValidationError,
    as_schema,
    input_json_schema,
)
from standard_tool._schema import MAX_DEPTH, JsonSchema, PydanticSchema
from standard_tool.exceptions import Issue, UsageError


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
        assert result.issues and "not JSON data" in result.issues[0].message


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
