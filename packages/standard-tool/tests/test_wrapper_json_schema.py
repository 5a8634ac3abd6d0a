"""A wrapper that checks its input against the JSON Schema a model is shown
(``WrapperTool.input_by_json_schema``): the rule of adopted tools, whatever schema object
describes them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Literal

import pytest
from pydantic import BaseModel

import standard_tool as st
from standard_tool import Result
from standard_tool.adapters import WrapperTool
from standard_tool.boundary import Gate
from standard_tool.exceptions import ToolRefusedError


class Arguments(BaseModel):
    seconds: int


def _native(input_schema: Any) -> SimpleNamespace:
    """A framework's tool object, as far as the wrapper reads it."""
    return SimpleNamespace(
        name="sleep", description="Sleep.", input_schema=input_schema, execute=lambda i, c: i
    )


class Adopted(WrapperTool):
    """An adopted tool: its framework parses the input itself, and records what it got."""

    validate_input = True

    def __init__(self, input_schema: Any, by_json_schema: bool) -> None:
        super().__init__(_native(input_schema))
        self.input_by_json_schema = by_json_schema
        self.received: list[Any] = []

    def run(self, input: Any, context: Any) -> Any:
        self.received.append(input)
        return "slept"


class CountingSchema:
    """A lax schema object (any value passes its own validation) that counts how often its
    JSON Schema is asked for."""

    def __init__(self) -> None:
        self.asked = 0

    def validate(self, value: Any, /) -> Result:
        return Result(value)

    def json_schema(
        self, *, side: Literal["input", "output"] = "input", target: str = "draft-2020-12"
    ) -> dict[str, Any]:
        self.asked += 1
        return {
            "type": "object",
            "properties": {"seconds": {"type": "integer"}},
            "required": ["seconds"],
        }


@pytest.mark.parametrize("value", ["0", True, 1.5, None])
def test_the_json_schema_refuses_what_the_schema_object_coerces(value: Any) -> None:
    lax = Adopted(st.PydanticSchema(Arguments), by_json_schema=False)
    strict = Adopted(st.PydanticSchema(Arguments), by_json_schema=True)
    if value in ("0", True):  # pydantic's lax mode takes them as integers
        assert st.call(lax, {"seconds": value}) == "slept"
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(strict, {"seconds": value})
    assert raised.value.tool == "sleep" and raised.value.target == "input"
    assert raised.value.fields == ("seconds",)
    assert raised.value.issues[0].message == "must be of type integer"
    assert strict.received == []


def test_an_accepted_input_is_handed_on_unchanged() -> None:
    tool = Adopted(st.PydanticSchema(Arguments), by_json_schema=True)
    input = {"seconds": 0, "unknown": "kept"}  # the model's schema allows more properties
    assert st.call(tool, input) == "slept"
    assert tool.received == [input] and tool.received[0] is input


def test_the_input_must_be_what_the_schema_says_even_with_no_schema() -> None:
    tool = Adopted(None, by_json_schema=True)  # a model is shown an object
    assert st.call(tool, {}) == "slept"
    with pytest.raises(st.ToolValidationError):
        st.call(tool, [1])


def test_the_json_schema_is_made_once_per_declared_schema() -> None:
    declared = CountingSchema()
    tool = Adopted(declared, by_json_schema=True)
    for _ in range(3):
        with pytest.raises(st.ToolValidationError):
            st.call(tool, {"seconds": "0"})
        assert st.call(tool, {"seconds": 0}) == "slept"
    assert declared.asked == 1
    replaced = CountingSchema()
    tool.input_schema = replaced
    with pytest.raises(st.ToolValidationError):
        st.call(tool, {"seconds": "0"})
    assert (declared.asked, replaced.asked) == (1, 1)


def test_switching_the_rule_takes_effect() -> None:
    tool = Adopted(st.PydanticSchema(Arguments), by_json_schema=True)
    with pytest.raises(st.ToolValidationError):
        st.call(tool, {"seconds": "0"})
    tool.input_by_json_schema = False
    assert st.call(tool, {"seconds": "0"}) == "slept"


def test_a_raw_json_schema_is_checked_as_declared() -> None:
    """A ``JsonSchema`` is its own JSON Schema: its dialect and its ``$ref`` resources stay."""
    uri = "https://example.com/seconds.json"
    declared = st.JsonSchema(
        {"type": "object", "properties": {"seconds": {"$ref": uri}}, "required": ["seconds"]},
        resources={uri: {"type": "integer", "minimum": 0}},
    )
    tool = Adopted(declared, by_json_schema=True)
    assert st.call(tool, {"seconds": 3}) == "slept"
    for bad in ("3", -1):
        with pytest.raises(st.ToolValidationError) as raised:
            st.call(tool, {"seconds": bad})
        assert raised.value.fields == ("seconds",)


def seconds_of(seconds: int) -> int:
    """Give the seconds back."""
    return seconds


def test_a_wrapper_follows_the_rule_of_the_tool_it_wraps() -> None:
    adopted = Adopted(st.PydanticSchema(Arguments), by_json_schema=True)
    assert WrapperTool(adopted).input_by_json_schema is True
    assert WrapperTool(Adopted(st.PydanticSchema(Arguments), False)).input_by_json_schema is False
    assert WrapperTool(st.tool(seconds_of)).input_by_json_schema is False
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(WrapperTool(adopted), {"seconds": "0"})
    assert raised.value.fields == ("seconds",)


def test_a_gate_refuses_by_the_rule_of_the_tool_it_guards() -> None:
    asked: list[Any] = []

    def policy(request: Any) -> bool:
        asked.append(request)
        return True

    adopted = Adopted(st.PydanticSchema(Arguments), by_json_schema=True)
    guarded = Gate(policy=policy).guard(adopted)
    with pytest.raises(ToolRefusedError) as raised:
        st.call(guarded, {"seconds": "0"}, {"request_id": "r1"})
    assert raised.value.code == "invalid_arguments" and "seconds" in str(raised.value)
    assert asked == [] and adopted.received == []
    assert st.call(guarded, {"seconds": 0}, {"request_id": "r2"}) == "slept"
    assert len(asked) == 1
