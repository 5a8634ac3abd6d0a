"""Haystack tools as standard tools: ``@tool`` functions, ``Tool`` objects, a ``ComponentTool``
and a ``Toolset``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from haystack import component
from haystack.components.agents import Agent
from haystack.components.generators.chat import MockChatGenerator
from haystack.tools import ComponentTool, Tool, Toolset, tool

import standard_tool as st
from standard_tool.exceptions import UnsupportedObjectError
from standard_tool_haystack import HaystackTool, from_haystack, from_haystack_tools


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


async def _shout(text: str) -> dict[str, Any]:
    await asyncio.sleep(0)
    return {"text": text.upper()}


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"text": {"type": "string", "maxLength": 5}},
    "required": ["text"],
    "additionalProperties": False,
}
SHOUT = Tool(name="shout", description="Shout a text.", parameters=SCHEMA, async_function=_shout)


@component
class Doubler:
    """Double a number."""

    @component.output_types(value=int)
    def run(self, number: int) -> dict[str, int]:
        return {"value": number * 2}


def test_a_tool_function_keeps_its_definition() -> None:
    back = from_haystack(multiply)
    assert isinstance(back, HaystackTool)
    assert (back.name, back.description) == ("multiply", "Multiply two integers.")
    assert back.input_schema == multiply.parameters
    assert st.call(back, {"a": 6, "b": 7}) == 42
    with pytest.raises(st.ToolValidationError) as raised:  # Haystack checks no argument
        st.call(back, {"a": 6, "b": "7"})
    assert raised.value.fields == ("b",)


def test_an_async_only_tool_runs_from_sync_and_async_code() -> None:
    back = from_haystack(SHOUT)
    assert back.input_schema == SCHEMA
    assert st.call(back, {"text": "hi"}) == {"text": "HI"}
    assert asyncio.run(st.acall(back, {"text": "ho"})) == {"text": "HO"}
    with pytest.raises(st.ToolValidationError) as raised:  # the whole schema: maxLength too
        st.call(back, {"text": "toolong"})
    assert raised.value.fields == ("text",)


def test_a_component_tool() -> None:
    native = ComponentTool(component=Doubler(), name="double", description="Double a number.")
    back = from_haystack(native)
    assert back.input_schema["properties"]["number"]["type"] == "integer"
    assert st.call(back, {"number": 21}) == {"value": 42}


def test_a_failure_is_typed_without_the_arguments() -> None:
    @tool
    def fail(reason: str, secret: str) -> str:
        """Fail."""
        raise ValueError(reason)

    with pytest.raises(st.ToolExecutionError) as raised:
        st.call(from_haystack(fail), {"reason": "on purpose", "secret": "hunter2"})
    assert "on purpose" in raised.value.message and "hunter2" not in str(raised.value)


def test_a_toolset_points_to_its_tools() -> None:
    toolset = Toolset([multiply, SHOUT])
    with pytest.raises(UnsupportedObjectError, match="from_haystack_tools"):
        from_haystack(toolset)
    assert [t.name for t in from_haystack_tools(toolset)] == ["multiply", "shout"]
    assert [t.name for t in st.registry.adopt_tools(toolset)] == ["multiply", "shout"]
    assert [t.name for t in from_haystack_tools([toolset, multiply])] == [
        "multiply",
        "shout",
        "multiply",
    ]


def test_an_agent_points_to_its_tools() -> None:
    agent = Agent(chat_generator=MockChatGenerator(), tools=Toolset([multiply]))
    with pytest.raises(UnsupportedObjectError, match="from_haystack_tools"):
        from_haystack(agent)
    assert [t.name for t in from_haystack_tools(agent)] == ["multiply"]


def test_a_foreign_object_is_refused() -> None:
    with pytest.raises(UnsupportedObjectError):
        from_haystack(object())
    with pytest.raises(UnsupportedObjectError):
        from_haystack_tools([multiply, "multiply"])
    assert st.adopt(multiply).name == "multiply"
