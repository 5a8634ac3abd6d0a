"""A LangChain tool served over MCP and adopted back runs as a LangChain tool again."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("standard_tool_langchain")

from langchain_core.messages import ToolMessage  # noqa: E402
from langchain_core.tools import tool as langchain_tool  # noqa: E402

from standard_tool import adopt, convert, input_json_schema  # noqa: E402
from standard_tool_mcp import connect, to_mcp_server  # noqa: E402


@langchain_tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@langchain_tool
async def describe(name: str, tags: list[str] | None = None) -> dict[str, Any]:
    """Describe a thing with optional tags."""
    return {"name": name, "tags": tags or []}


def _message(tool: Any, arguments: dict[str, Any]) -> ToolMessage:
    call = {"type": "tool_call", "id": "call-1", "name": tool.name, "args": arguments}
    return tool.invoke(call)


async def _amessage(tool: Any, arguments: dict[str, Any]) -> ToolMessage:
    call = {"type": "tool_call", "id": "call-1", "name": tool.name, "args": arguments}
    return await tool.ainvoke(call)


CASES = [
    (multiply, {"a": 6, "b": 7}),
    (describe, {"name": "lamp", "tags": ["a", "b"]}),
]


@pytest.mark.parametrize(("original", "arguments"), CASES, ids=["sync", "async"])
def test_langchain_to_mcp_to_langchain_gives_the_same_messages(
    original: Any, arguments: dict[str, Any]
) -> None:
    server = to_mcp_server([adopt(original)])
    with connect(server, timeout=20) as (adopted,):
        again = convert(adopted, to="langchain")
        assert again.name == original.name and again.description == original.description
        assert input_json_schema(adopt(again)) == input_json_schema(adopt(original))
        got = _message(again, arguments)
    if original.func is not None:  # LangChain runs an async-only tool only through ainvoke
        want = _message(original, arguments)
        assert got.content == want.content and got.status == want.status
    else:
        assert got.status == "success" and "lamp" in str(got.content)


async def test_round_trip_inside_a_running_loop() -> None:
    server = to_mcp_server([adopt(describe)])
    async with connect(server, timeout=20) as (adopted,):
        again = convert(adopted, to="langchain")
        want = await _amessage(describe, {"name": "x"})
        got = await _amessage(again, {"name": "x"})
    assert got.content == want.content


def test_invalid_input_is_an_error_message_naming_the_field() -> None:
    server = to_mcp_server([adopt(multiply)])
    with connect(server, timeout=20) as (adopted,):
        message = _message(convert(adopted, to="langchain"), {"a": 6, "b": "seven"})
    assert (
        message.status == "error" and "b" in message.content and "Traceback" not in message.content
    )
