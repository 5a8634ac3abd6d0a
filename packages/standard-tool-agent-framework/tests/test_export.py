"""Standard tools as function tools, run by real agent runs."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from agent_framework import FunctionTool

import standard_tool as st
from standard_tool.exceptions import ToolNameError, UsageError
from standard_tool_agent_framework import (
    StandardFunctionTool,
    to_agent_framework,
    to_agent_framework_tools,
)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "default": 10},
        "filters": {
            "anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}],
        },
    },
    "required": ["query"],
    "additionalProperties": False,
    "$defs": {
        "Filter": {
            "type": "object",
            "properties": {"tag": {"enum": ["a", "b"]}},
            "additionalProperties": False,
        }
    },
}


def _add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


add = st.tool(_add, name="add")


def _search(input: dict[str, Any]) -> dict[str, Any]:
    return {"query": input["query"], "limit": input.get("limit", 10)}


SEARCH = st.Tool(name="search", description="Search.", input_schema=SCHEMA, execute=_search)


async def test_the_model_is_sent_the_schema_unchanged(agent: Callable[..., Any]) -> None:
    native = to_agent_framework(SEARCH)
    assert isinstance(native, FunctionTool)
    run = await agent([native], ["done"])
    [[sent]] = run.client.seen_tools
    assert sent["function"]["parameters"] == SCHEMA
    assert list(sent["function"]["parameters"]) == list(SCHEMA)  # not re-sorted either
    assert sent["function"]["name"] == "search" and sent["function"]["description"] == "Search."


async def test_a_run_calls_the_tool(agent: Callable[..., Any]) -> None:
    run = await agent([to_agent_framework(add)], [[("add", {"a": 2, "b": 3})], "done"])
    assert run.texts == ["5"]
    run = await agent([to_agent_framework(SEARCH)], [[("search", {"query": "lamp"})], "done"])
    assert [json.loads(t) for t in run.texts] == [{"query": "lamp", "limit": 10}]


async def test_invalid_arguments_name_the_tool_and_field(agent: Callable[..., Any]) -> None:
    run = await agent([to_agent_framework(add)], [[("add", {"a": "two"})], "done"])
    [text] = run.texts
    assert text.startswith("Invalid input for tool 'add'") and "a" in text
    assert "two" not in text and "Function failed" not in text


async def test_a_failure_reads_as_text(agent: Callable[..., Any]) -> None:
    @st.tool
    def boom(secret: str) -> str:
        """Fail."""
        raise RuntimeError("it broke")

    run = await agent([to_agent_framework(boom)], [[("boom", {"secret": "s3cr3t"})], "done"])
    [text] = run.texts
    assert text == "Tool 'boom' failed: RuntimeError: it broke"
    assert "Traceback" not in text


async def test_the_run_context_is_the_standard_context(agent: Callable[..., Any]) -> None:
    seen: list[Any] = []

    @st.tool
    def who(context: Any = None) -> str:
        """Who calls."""
        seen.append(context)
        return "ok"

    await agent([to_agent_framework(who)], [[("who", {})], "done"], {"actor": "alice"})
    getter = to_agent_framework(who, context=lambda ctx: {"n": len(ctx.kwargs)})
    await agent([getter], [[("who", {})], "done"], {"actor": "alice"})
    assert seen == [{"actor": "alice"}, {"n": 1}]


async def test_invoke_directly() -> None:
    native = to_agent_framework(add)
    [content] = await native.invoke(arguments={"a": 1})
    assert content.text == "2"
    assert await native.invoke(arguments={"a": 1}, skip_parsing=True) == 2
    assert await native.invoke(a=4, b=4, skip_parsing=True) == 8
    with pytest.raises(st.ToolValidationError):
        await native.invoke(arguments={"a": "x"}, skip_parsing=True)


def test_metadata_and_names() -> None:
    tool = st.tool(_add, name="add numbers.v2", title="Adder", meta={"read_only": True})
    native = to_agent_framework(tool)
    assert native.name == "add_numbers_v2"
    assert isinstance(native, StandardFunctionTool) and native.standard_tool is tool
    entry = (native.additional_properties or {})["standard_tool"]
    assert entry["name"] == "add numbers.v2" and entry["title"] == "Adder"
    assert "standard_tool" not in str(native.to_json_schema_spec())


def test_colliding_names_are_refused() -> None:
    first = st.tool(_add, name="a.b")
    second = st.tool(_add, name="a_b")
    with pytest.raises(ToolNameError):
        to_agent_framework_tools([first, second])
    assert [t.name for t in to_agent_framework_tools([add, SEARCH])] == ["add", "search"]


def test_a_bad_approver_is_refused() -> None:
    with pytest.raises(UsageError):
        to_agent_framework(add, approver="")


def test_deep_copy_keeps_the_tool_and_gate() -> None:
    native = to_agent_framework(add)
    copied = copy.deepcopy(native)
    assert isinstance(copied, StandardFunctionTool) and copied.standard_tool is add
