"""smolagents tools as standard tools: ``@tool`` functions, ``Tool`` subclasses, a
``ToolCollection``; their schema from ``inputs``, smolagents' own refusals mapped."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from smolagents import Tool, ToolCollection, tool

import standard_tool as st
from standard_tool.exceptions import UnsupportedObjectError
from standard_tool.testing import sample_tools
from standard_tool_smolagents import (
    SmolagentsTool,
    from_smolagents,
    from_smolagents_tools,
    to_smolagents,
)
from standard_tool_smolagents._scripted import run_tool_calling_agent


@tool
def multiply(a: int, b: float, note: str | None = None) -> float:
    """Multiply two numbers.

    Args:
        a: The first factor.
        b: The second factor.
        note: Ignored.
    """
    return a * b


class Lookup(Tool):
    name = "lookup"
    description = "Look a word up."
    inputs = {
        "word": {"type": "string", "description": "The word."},
        "limit": {"type": ["integer", "null"], "description": "At most.", "nullable": True},
        "options": {"type": "object", "description": "Anything.", "nullable": True},
    }
    output_type = "array"

    def forward(self, word: str, limit: int | None = None, options: Any = None) -> list[str]:
        if word == "boom":
            raise KeyError("no such word")
        return [word] * (limit or 1)


def test_the_input_schema_is_what_inputs_say() -> None:
    adopted = from_smolagents(multiply)
    assert isinstance(adopted, SmolagentsTool) and adopted.name == "multiply"
    assert st.input_json_schema(adopted) == {
        "type": "object",
        "properties": {
            "a": {"description": "The first factor.", "type": "integer"},
            "b": {"description": "The second factor.", "type": "number"},
            "note": {"description": "Ignored.", "type": ["string", "null"]},
        },
        "required": ["a", "b"],
        "additionalProperties": False,
    }
    assert st.output_json_schema(adopted) == {"type": "number"}
    assert st.input_json_schema(from_smolagents(Lookup()))["properties"]["options"] == {
        "description": "Anything.",
        "type": ["object", "null"],
    }


def test_calls_sync_and_async_with_the_result() -> None:
    adopted = from_smolagents(multiply)
    assert st.call(adopted, {"a": 2, "b": 1.5}) == 3.0
    assert asyncio.run(st.acall(adopted, {"a": 2, "b": 2})) == 4
    assert st.call(from_smolagents(Lookup()), {"word": "hi", "limit": 2}) == ["hi", "hi"]


@pytest.mark.parametrize(
    ("arguments", "field"),
    [({"a": "two", "b": 1}, "a"), ({"b": 1}, "a"), ({"a": 1, "b": 1, "c": 0}, "c")],
)
def test_invalid_input_is_a_typed_error_naming_the_field(
    arguments: dict[str, Any], field: str
) -> None:
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(from_smolagents(multiply), arguments)
    assert raised.value.tool == "multiply" and field in raised.value.fields


def test_smolagents_own_check_is_mapped_where_json_schema_allows_more() -> None:
    # JSON Schema reads 2.0 as an integer; smolagents' own check (as its agents make it) does not
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(from_smolagents(multiply), {"a": 2.0, "b": 1})
    assert raised.value.fields == ("a",)
    assert "Argument a has type 'number' but should be 'integer'" in str(raised.value)


def test_a_failure_is_a_typed_error_and_the_output_is_checked() -> None:
    with pytest.raises(st.ToolExecutionError) as raised:
        st.call(from_smolagents(Lookup()), {"word": "boom"})
    assert raised.value.tool == "lookup" and "no such word" in raised.value.message

    class Liar(Lookup):
        name = "liar"

        def forward(self, word: str, limit: int | None = None, options: Any = None) -> Any:
            return {"not": "a list"}

    with pytest.raises(st.ToolValidationError) as wrong:
        st.call(from_smolagents(Liar()), {"word": "x"})
    assert wrong.value.target == "output"


def test_an_async_forward_is_awaited() -> None:
    class Later(Tool):
        name = "later"
        description = "Answer later."
        inputs = {"x": {"type": "integer", "description": "A number."}}
        output_type = "integer"

        async def forward(self, x: int) -> int:
            await asyncio.sleep(0)
            return x + 1

    adopted = from_smolagents(Later())
    assert st.call(adopted, {"x": 1}) == 2 and asyncio.run(st.acall(adopted, {"x": 2})) == 3


def test_a_tool_collection_and_lists() -> None:
    collection = ToolCollection([multiply, Lookup()])
    adopted = from_smolagents_tools(collection)
    assert [t.name for t in adopted] == ["multiply", "lookup"]
    assert [t.name for t in st.registry.adopt_tools(collection)] == ["multiply", "lookup"]
    assert [t.name for t in from_smolagents_tools([multiply, collection])] == [
        "multiply",
        "multiply",
        "lookup",
    ]
    with pytest.raises(UnsupportedObjectError, match="from_smolagents_tools"):
        from_smolagents(collection)
    with pytest.raises(UnsupportedObjectError):
        from_smolagents(object())


def test_st_adopt_reaches_it_and_copies_work() -> None:
    adopted = st.adopt(multiply)
    assert isinstance(adopted, SmolagentsTool)
    assert st.call(copy.deepcopy(adopted), {"a": 3, "b": 1}) == 3


def test_a_native_tool_exported_back_runs_in_an_agent_the_same() -> None:
    back = to_smolagents(from_smolagents(Lookup()))
    run = run_tool_calling_agent([back], [[("lookup", {"word": "hi", "limit": 2})]])
    assert run.steps[0].observations == '["hi", "hi"]'
    assert back.inputs["word"] == {"type": "string", "description": "The word."}
    assert back.inputs["limit"]["nullable"] is True


def test_an_exported_tool_comes_back_as_the_standard_tool() -> None:
    original = sample_tools()["catalog.lookup"]
    back = from_smolagents(to_smolagents(original))
    assert back.name == "catalog.lookup" and back.description == original.description
    assert st.input_json_schema(back) == st.input_json_schema(original)
    assert st.call(back, {"sku": "B-1"}) is None
