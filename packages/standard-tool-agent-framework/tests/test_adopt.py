"""Framework tools as standard tools: ``@tool`` functions and ``FunctionTool`` objects."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agent_framework import Agent, BaseChatClient, FunctionInvocationContext, FunctionTool, tool
from pydantic import BaseModel, Field

import standard_tool as st
from standard_tool.exceptions import ToolRefusedError, UnsupportedObjectError
from standard_tool_agent_framework import (
    AgentFrameworkTool,
    from_agent_framework,
    from_agent_framework_tools,
)


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@tool
async def shout(text: str) -> dict[str, Any]:
    """Shout a text."""
    await asyncio.sleep(0)
    return {"text": text.upper()}


class Point(BaseModel):
    x: int = Field(description="Across.")
    y: int = Field(default=0, description="Down.")


POINT_TOOL = FunctionTool(
    name="norm", description="The L1 norm.", func=lambda x, y=0: abs(x) + abs(y), input_model=Point
)
DICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"word": {"type": "string", "maxLength": 5}},
    "required": ["word"],
    "additionalProperties": False,
}
DICT_TOOL = FunctionTool(
    name="echo", description="Echo a word.", func=lambda word: [word], input_model=DICT_SCHEMA
)


def test_a_tool_function_keeps_its_definition() -> None:
    back = from_agent_framework(multiply)
    assert isinstance(back, AgentFrameworkTool)
    assert (back.name, back.description) == ("multiply", "Multiply two integers.")
    assert back.input_schema == multiply.parameters()
    assert st.call(back, {"a": 6, "b": 7}) == 42
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(back, {"a": 6, "b": "7"})
    assert raised.value.fields == ("b",)


def test_an_async_tool_returns_its_own_value() -> None:
    back = from_agent_framework(shout)
    assert st.call(back, {"text": "hi"}) == {"text": "HI"}  # not the JSON text
    assert asyncio.run(st.acall(back, {"text": "ho"})) == {"text": "HO"}


def test_a_pydantic_input_model() -> None:
    back = from_agent_framework(POINT_TOOL)
    assert back.input_schema["properties"]["x"]["description"] == "Across."
    assert st.call(back, {"x": -3, "y": 4}) == 7
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(back, {"y": 4})
    assert raised.value.fields == ("x",)


def test_a_json_schema_input_model_is_checked_in_full() -> None:
    back = from_agent_framework(DICT_TOOL)
    assert back.input_schema == DICT_SCHEMA
    assert st.call(back, {"word": "hey"}) == ["hey"]
    with pytest.raises(st.ToolValidationError) as raised:  # the framework checks no maxLength
        st.call(back, {"word": "toolong"})
    assert raised.value.fields == ("word",)


def test_a_failure_is_typed() -> None:
    @tool
    def fail(reason: str) -> str:
        """Fail."""
        raise ValueError(reason)

    with pytest.raises(st.ToolExecutionError) as raised:
        st.call(from_agent_framework(fail), {"reason": "on purpose"})
    assert "on purpose" in raised.value.message


def test_the_standard_context_reaches_the_tool() -> None:
    seen: list[Any] = []

    @tool
    def who(label: str, ctx: FunctionInvocationContext) -> str:
        """Who calls."""
        seen.append(dict(ctx.kwargs))
        return label

    back = from_agent_framework(who)
    assert "ctx" not in str(back.input_schema)
    assert st.call(back, {"label": "x"}, {"actor": "alice"}) == "x"
    assert st.call(back, {"label": "y"}) == "y"
    assert seen == [{"actor": "alice"}, {}]


def test_a_tool_needing_approval_is_held_for_review() -> None:
    @tool(approval_mode="always_require")
    def wipe(disk: str) -> str:
        """Wipe a disk."""
        raise AssertionError("never runs")

    with pytest.raises(ToolRefusedError) as raised:
        st.call(from_agent_framework(wipe), {"disk": "c"}, {"request_id": "r1"})
    assert (raised.value.code, raised.value.request_id) == ("held_for_review", "r1")


class _Client(BaseChatClient[Any]):
    async def _inner_get_response(self, **kwargs: Any) -> Any:  # never called
        raise NotImplementedError


def test_an_agent_points_to_its_tools() -> None:
    agent = Agent(client=_Client(), tools=[multiply, DICT_TOOL])
    with pytest.raises(UnsupportedObjectError, match="from_agent_framework_tools"):
        from_agent_framework(agent)
    assert [t.name for t in from_agent_framework_tools(agent)] == ["multiply", "echo"]
    assert [t.name for t in st.registry.adopt_tools(agent)] == ["multiply", "echo"]
    with pytest.raises(UnsupportedObjectError):
        from_agent_framework(object())
    with pytest.raises(UnsupportedObjectError):
        from_agent_framework_tools([multiply, {"type": "web_search"}])
