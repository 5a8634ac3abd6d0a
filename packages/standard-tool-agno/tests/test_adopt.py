"""Agno functions as standard tools: ``@tool`` functions, ``Function`` objects, toolkits."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agno.agent import Agent
from agno.run import RunContext
from agno.tools import tool
from agno.tools.function import Function
from agno.tools.toolkit import Toolkit

import standard_tool as st
from standard_tool.exceptions import ToolRefusedError, UnsupportedObjectError
from standard_tool_agno import AgnoTool, from_agno, from_agno_tools, to_agno


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@tool
async def shout(text: str) -> dict[str, Any]:
    """Shout a text."""
    await asyncio.sleep(0)
    return {"text": text.upper()}


DICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"word": {"type": "string", "maxLength": 5}},
    "required": ["word"],
}
DICT_TOOL = Function(
    name="echo",
    description="Echo a word.",
    parameters=DICT_SCHEMA,
    entrypoint=lambda word: [word],
    skip_entrypoint_processing=True,
)


class Shop(Toolkit):
    def __init__(self) -> None:
        super().__init__(name="shop", tools=[self.price, self.stock])

    def price(self, item: str) -> float:
        """The price of an item."""
        return 2.5

    def stock(self, item: str, run_context: RunContext) -> str:
        """The stock of an item, for the caller."""
        deps = run_context.dependencies or {}
        return f"{item} for {deps.get('actor')}"


def test_a_tool_function_keeps_the_schema_a_run_sends() -> None:
    back = from_agno(multiply)
    assert isinstance(back, AgnoTool) and back.name == "multiply"
    assert back.description == "Multiply two integers."
    schema = st.input_json_schema(back)
    assert schema["properties"] == {"a": {"type": "integer"}, "b": {"type": "integer"}}
    assert schema["required"] == ["a", "b"]
    assert st.call(back, {"a": 3, "b": 4}) == 12


def test_an_async_function_runs_from_sync_and_async_code() -> None:
    back = from_agno(shout)
    assert st.call(back, {"text": "hi"}) == {"text": "HI"}
    assert st.run_sync(st.acall(back, {"text": "yo"})) == {"text": "YO"}


async def test_a_sync_function_runs_from_async_code() -> None:
    assert await st.acall(from_agno(multiply), {"a": 2, "b": 5}) == 10


def test_a_raw_schema_is_checked_in_full() -> None:
    back = from_agno(DICT_TOOL)
    assert st.input_json_schema(back) == DICT_SCHEMA
    assert st.call(back, {"word": "hi"}) == ["hi"]
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(back, {"word": "toolong"})
    assert "word" in str(raised.value) and "toolong" not in str(raised.value)


def test_a_toolkits_functions_are_adopted_with_their_processed_schema() -> None:
    price, stock = from_agno_tools(Shop())
    assert (price.name, stock.name) == ("price", "stock")
    assert st.input_json_schema(stock)["properties"] == {"item": {"type": "string"}}
    assert st.call(stock, {"item": "lamp"}, {"actor": "alice"}) == "lamp for alice"
    assert st.call(price, {"item": "lamp"}) == 2.5


def test_an_agents_tools_are_adopted() -> None:
    def plain(x: int) -> int:
        """Double it."""
        return 2 * x

    agent = Agent(tools=[multiply, plain, Shop()])
    assert [t.name for t in from_agno_tools(agent)] == ["multiply", "plain", "price", "stock"]


def test_a_toolkit_given_to_from_agno_points_to_from_agno_tools() -> None:
    with pytest.raises(UnsupportedObjectError, match="from_agno_tools"):
        from_agno(Shop())


@pytest.mark.parametrize("foreign", [object(), "text", lambda x: x, {"name": "x"}])
def test_a_foreign_object_is_refused(foreign: Any) -> None:
    with pytest.raises(UnsupportedObjectError):
        from_agno(foreign)


def test_hooks_run_and_failures_become_typed_errors() -> None:
    seen: list[Any] = []

    def before(fc: Any) -> None:
        seen.append(("pre", fc.call_id, fc.arguments))

    def broken(x: int) -> int:
        raise ValueError("no")

    hooked = Function(name="hooked", entrypoint=lambda x: x, pre_hook=before)
    assert st.call(from_agno(hooked), {"x": 1}, {"request_id": "r1"}) == 1
    assert seen == [("pre", "r1", {"x": 1})]
    with pytest.raises(st.ToolExecutionError) as failed:
        st.call(from_agno(Function(name="broken", entrypoint=broken)), {"x": 1})
    assert "broken" in str(failed.value)


@pytest.mark.parametrize(
    "flag", ["requires_confirmation", "external_execution", "requires_user_input"]
)
def test_a_function_that_waits_for_a_person_is_held_for_review(flag: str) -> None:
    ran: list[int] = []
    native = Function(name="pay", entrypoint=lambda x: ran.append(x), **{flag: True})
    with pytest.raises(ToolRefusedError) as refused:
        st.call(from_agno(native), {"x": 1}, {"request_id": "r1"})
    assert refused.value.code == "held_for_review" and refused.value.request_id == "r1"
    assert ran == []


def test_an_exported_function_comes_back_as_its_tool() -> None:
    def same(a: int) -> int:
        """Give it back."""
        return a

    tool = st.tool(same, name="same.name", title="Same", meta={"k": 1})
    back = from_agno(to_agno(tool))
    assert (back.name, back.title, back.meta) == ("same.name", "Same", {"k": 1})
    assert back.standard_tool is tool and st.call(back, {"a": 2}) == 2
