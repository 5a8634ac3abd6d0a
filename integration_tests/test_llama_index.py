"""LlamaIndex with the other frameworks, through the standard object.

LangChain and MCP tools run in a LlamaIndex ``FunctionAgent`` driven by LlamaIndex's own
``MockFunctionCallingLLM``; LlamaIndex tools (a function and a third-party tool spec) run as
LangChain tools and are served over MCP.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("standard_tool_llama_index")
pytest.importorskip("standard_tool_langchain")

from langchain_core.messages import ToolMessage  # noqa: E402
from langchain_core.tools import tool as langchain_tool  # noqa: E402
from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult  # noqa: E402
from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock  # noqa: E402
from llama_index.core.llms.mock import MockFunctionCallingLLM  # noqa: E402
from llama_index.core.tools import FunctionTool  # noqa: E402
from llama_index.core.tools.types import ToolOutput  # noqa: E402

from standard_tool import adopt, call, convert, input_json_schema, tool  # noqa: E402
from standard_tool_llama_index import (  # noqa: E402
    from_llama_index,
    from_llama_index_tools,
    to_llama_index,
    to_llama_index_tools,
)
from standard_tool_mcp import connect, to_mcp_server  # noqa: E402

pytestmark = [
    # LlamaIndex's workflows read pydantic attributes that pydantic has deprecated
    pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:llama_index"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:workflows"),
]

Turn = str | list[tuple[str, dict[str, Any]]]


def scripted(turns: Sequence[Turn]) -> tuple[Callable[..., ChatMessage], list[Any]]:
    """A response generator for ``MockFunctionCallingLLM``: each turn is a final text or tool
    calls; it records the tool definitions the model was sent."""
    pending, seen = list(turns), []

    def generate(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        seen.append([t.metadata.to_openai_tool() for t in kwargs.get("tools") or []])
        turn = pending.pop(0) if pending else "done"
        if isinstance(turn, str):
            return ChatMessage(role="assistant", content=turn)
        blocks = [
            ToolCallBlock(tool_call_id=f"call_{len(seen)}_{i}", tool_name=name, tool_kwargs=args)
            for i, (name, args) in enumerate(turn)
        ]
        return ChatMessage(role="assistant", blocks=blocks)

    return generate, seen


async def run_agent(tools: Sequence[Any], turns: Sequence[Turn]) -> tuple[list[ToolOutput], Any]:
    generate, seen = scripted(turns)
    agent = FunctionAgent(
        tools=list(tools), llm=MockFunctionCallingLLM(response_generator=generate)
    )
    handler = agent.run(user_msg="go")
    outputs = [
        event.tool_output
        async for event in handler.stream_events()
        if isinstance(event, ToolCallResult)
    ]
    await handler
    return outputs, seen


@langchain_tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@langchain_tool
async def describe(name: str, tags: list[str] | None = None) -> dict[str, Any]:
    """Describe a thing with optional tags."""
    return {"name": name, "tags": tags or []}


@tool
def word_count(text: str) -> dict[str, int]:
    """Count the words of a text.

    Args:
        text: The text.
    """
    return {"words": len(text.split())}


def test_langchain_and_mcp_tools_run_in_a_llama_index_agent() -> None:
    with connect(to_mcp_server([word_count]), timeout=20) as (counted,):
        tools = to_llama_index_tools([adopt(multiply), adopt(describe), counted])
        outputs, seen = asyncio.run(
            run_agent(
                tools,
                [
                    [
                        ("multiply", {"a": 6, "b": 7}),
                        ("describe", {"name": "lamp", "tags": ["red"]}),
                        ("word_count", {"text": "one two three"}),
                    ],
                    [("multiply", {"a": 6, "b": "seven"}), ("word_count", {})],
                    "done",
                ],
            )
        )
    sent = {spec["function"]["name"]: spec["function"]["parameters"] for spec in seen[0]}
    assert sent["multiply"] == input_json_schema(adopt(multiply))
    assert sent["describe"] == input_json_schema(adopt(describe))
    assert sent["word_count"] == input_json_schema(word_count)
    by_name = {output.tool_name: output for output in outputs[:3]}
    assert by_name["multiply"].raw_output == 42 and by_name["multiply"].content == "42"
    assert json.loads(by_name["describe"].content) == {"name": "lamp", "tags": ["red"]}
    assert by_name["word_count"].raw_output == {"words": 3}
    failures = {output.tool_name: output for output in outputs[3:]}
    assert failures["multiply"].is_error and "b" in failures["multiply"].content
    assert failures["word_count"].is_error and "text" in failures["word_count"].content
    for output in failures.values():
        assert "Traceback" not in output.content


@pytest.fixture
def people(tmp_path: Path) -> Iterator[Any]:
    database = pytest.importorskip("llama_index.tools.database")
    path = tmp_path / "people.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)")
        connection.executemany("INSERT INTO people (name) VALUES (?)", [("Ada",), ("Bob",)])
    spec = database.DatabaseToolSpec(uri=f"sqlite:///{path}")
    yield spec
    spec.sql_database.engine.dispose()


def shout(text: str) -> str:
    """Shout a text."""
    return text.upper()


def test_llama_index_tools_run_as_langchain_tools(people: Any) -> None:
    tools = {t.name: t for t in from_llama_index_tools([FunctionTool.from_defaults(shout), people])}
    for name, arguments, expected in [
        ("shout", {"text": "hi"}, "HI"),
        ("load_data", {"query": "SELECT name FROM people ORDER BY id"}, '["Ada", "Bob"]'),
        ("list_tables", {}, '["people"]'),
    ]:
        native = convert(tools[name], to="langchain")
        assert native.tool_call_schema == input_json_schema(tools[name])
        message = native.invoke({"type": "tool_call", "id": "c1", "name": name, "args": arguments})
        assert isinstance(message, ToolMessage) and message.status == "success"
        assert message.content == expected
    native = convert(tools["describe_tables"], to="langchain")
    args = {"tables": ["nope"]}
    message = native.invoke({"type": "tool_call", "id": "c2", "name": native.name, "args": args})
    assert message.status == "error" and "nope" in message.content


def test_llama_index_tools_served_over_mcp_and_adopted_back(people: Any) -> None:
    natives = [FunctionTool.from_defaults(shout), *people.to_tool_list()]
    server = to_mcp_server(from_llama_index(native) for native in natives)
    with connect(server, timeout=20) as served:
        by_name = {t.name: t for t in served}
        assert call(by_name["shout"], {"text": "hi"}) == "HI"
        rows = call(by_name["load_data"], {"query": "SELECT name FROM people WHERE id = 1"})
        assert json.loads(rows) == ["Ada"]  # MCP sends a list without output schema as text
        again = {
            native.metadata.name: to_llama_index(by_name[native.metadata.name])
            for native in natives
        }
        for (
            native
        ) in natives:  # what a model is sent is the same after LlamaIndex -> MCP -> LlamaIndex
            assert (
                again[native.metadata.name].metadata.to_openai_tool()
                == native.metadata.to_openai_tool()
            )
        outputs, _ = asyncio.run(
            run_agent(
                list(again.values()),
                [[("shout", {"text": "ok"}), ("describe_tables", {"tables": ["nope"]})]],
            )
        )
    results = {output.tool_name: output for output in outputs}
    assert results["shout"].content == "OK" and not results["shout"].is_error
    assert results["describe_tables"].is_error and "nope" in results["describe_tables"].content
