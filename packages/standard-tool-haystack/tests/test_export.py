"""Standard tools as Haystack tools, run by real Agent runs (``run`` and ``run_async``)."""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
from typing import Any

import pytest
from haystack.tools import Tool
from haystack.tools.errors import ToolInvocationError

import standard_tool as st
from standard_tool.boundary import Gate
from standard_tool.exceptions import ToolNameError, UsageError
from standard_tool_haystack import (
    StandardHaystackTool,
    arun_agent,
    run_agent,
    to_haystack,
    to_haystack_tools,
)
from standard_tool_haystack._export import STATE

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "default": 10},
        "filters": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}]},
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


async def _aadd(a: int, b: int = 1) -> int:
    """Add two integers, asynchronously."""
    await asyncio.sleep(0)
    return a + b


ADD = st.tool(_add, name="add")
AADD = st.tool(_aadd, name="aadd")
SEARCH = st.Tool(
    name="search",
    description="Search.",
    input_schema=SCHEMA,
    execute=lambda i: {"query": i["query"], "limit": i.get("limit", 10)},
)


def test_the_model_is_sent_the_schema_unchanged() -> None:
    native = to_haystack(SEARCH)
    assert isinstance(native, Tool)
    run = run_agent([native], ["done"])
    [[sent]] = run.script.seen_tools
    assert sent.tool_spec == {"name": "search", "description": "Search.", "parameters": SCHEMA}
    assert list(sent.parameters) == list(SCHEMA)  # not re-sorted either


@pytest.mark.parametrize("runner", ["run", "run_async"])
def test_sync_and_async_tools_run_in_both_runs(runner: str) -> None:
    tools = [to_haystack(ADD), to_haystack(AADD), to_haystack(SEARCH)]
    replies = [[("add", {"a": 2, "b": 3}), ("aadd", {"a": 4}), ("search", {"query": "x"})]]
    if runner == "run":
        run = run_agent(tools, replies)
    else:
        run = asyncio.run(arun_agent(tools, replies))
    assert run.texts[:2] == ["5", "5"]
    assert json.loads(run.texts[2]) == {"query": "x", "limit": 10}
    assert [r.error for r in run.results] == [False, False, False]


def test_both_functions_are_set_and_raise_typed_errors() -> None:
    native = to_haystack(ADD)
    assert native.function is not None and native.async_function is not None
    assert native.function(a=1) == 2 and asyncio.run(native.async_function(a=2)) == 3
    with pytest.raises(st.ToolValidationError):
        native.function(a="x")
    with pytest.raises(ToolInvocationError) as raised:
        native.invoke(a="x")
    assert isinstance(raised.value.__cause__, st.ToolValidationError)


@pytest.mark.parametrize("runner", ["run", "run_async"])
def test_invalid_arguments_are_an_error_result_naming_the_field(runner: str) -> None:
    replies = [[("add", {"a": "two"})]]
    tools = [to_haystack(ADD)]
    run = run_agent(tools, replies) if runner == "run" else asyncio.run(arun_agent(tools, replies))
    [result] = run.results
    assert result.error is True
    assert str(result.result).startswith("Invalid input for tool 'add'") and "a" in result.result
    assert "two" not in str(result.result) and "Failed to invoke" not in str(result.result)


def test_a_failure_is_an_error_result() -> None:
    @st.tool
    def boom(secret: str) -> str:
        """Fail."""
        raise RuntimeError("it broke")

    run = run_agent([to_haystack(boom)], [[("boom", {"secret": "s3cr3t"})]])
    [result] = run.results
    assert result.error is True and result.result == "Tool 'boom' failed: RuntimeError: it broke"


def test_the_standard_context_is_set_around_the_run() -> None:
    seen: list[Any] = []

    @st.tool
    def who(context: Any = None) -> str:
        """Who calls."""
        seen.append(context)
        return "ok"

    run_agent([to_haystack(who)], [[("who", {})]], {"actor": "alice"})
    asyncio.run(arun_agent([to_haystack(who)], [[("who", {})]], {"actor": "bob"}))
    run_agent([to_haystack(who)], [[("who", {})]])
    assert seen == [{"actor": "alice"}, {"actor": "bob"}, None]


def test_only_a_guarded_tool_takes_the_state() -> None:
    plain = to_haystack(ADD)
    guarded = to_haystack(Gate().guard(ADD))
    assert list(inspect.signature(plain.function).parameters) == ["arguments"]  # type: ignore[arg-type]
    assert STATE in inspect.signature(guarded.function).parameters  # type: ignore[arg-type]
    assert STATE not in json.dumps(guarded.tool_spec)


@pytest.mark.parametrize("runner", ["run", "run_async"])
def test_a_guarded_tool_runs_under_the_model_call_id(runner: str) -> None:
    seen: list[Any] = []

    @st.tool
    def note(text: str, context: Any = None) -> str:
        """Note a text."""
        seen.append(context)
        return text

    tools = [to_haystack(Gate().guard(note))]
    replies = [[("note", {"text": "hi"}, "call_a"), ("note", {"text": "ho"}, "call_b")]]
    context = {"actor": "alice"}
    if runner == "run":
        run_agent(tools, replies, context)
    else:
        asyncio.run(arun_agent(tools, replies, context))
    assert seen == [
        {"actor": "alice", "request_id": "call_a"},
        {"actor": "alice", "request_id": "call_b"},
    ]


def test_identical_parallel_calls_each_take_an_id_of_their_own() -> None:
    seen: list[Any] = []

    @st.tool
    def note(text: str, context: Any = None) -> str:
        """Note a text."""
        seen.append(context["request_id"])
        return text

    tools = [to_haystack(Gate().guard(note))]
    replies = [[("note", {"text": "hi"}, "c1"), ("note", {"text": "hi"}, "c2")]]
    run = run_agent(tools, replies, {"actor": "alice"})
    assert sorted(seen) == ["c1", "c2"]
    assert run.texts == ["hi", "hi"]  # both ran: neither is a replay of the other


def test_metadata_and_names() -> None:
    tool = st.tool(_add, name="add numbers.v2", title="Adder", meta={"read_only": True})
    native = to_haystack(tool)
    assert native.name == "add_numbers_v2"
    assert isinstance(native, StandardHaystackTool) and native.standard_tool is tool
    entry = native.metadata["standard_tool"]
    assert entry["name"] == "add numbers.v2" and entry["title"] == "Adder"
    assert "standard_tool" not in json.dumps(native.tool_spec)


def test_colliding_names_are_refused() -> None:
    with pytest.raises(ToolNameError):
        to_haystack_tools([st.tool(_add, name="a.b"), st.tool(_add, name="a_b")])
    assert [t.name for t in to_haystack_tools([ADD, SEARCH])] == ["add", "search"]


def test_a_bad_approver_is_refused() -> None:
    with pytest.raises(UsageError):
        to_haystack(ADD, approver="")


def test_deep_copy_runs_the_same_tool() -> None:
    guarded = Gate().guard(ADD)
    copied = copy.deepcopy(to_haystack(guarded))
    assert isinstance(copied, StandardHaystackTool) and copied.standard_tool is guarded


def test_it_serializes_for_traces_only() -> None:
    native = to_haystack(ADD)
    data = native.to_dict()
    assert data["data"]["name"] == "add" and data["data"]["parameters"] == native.parameters
    with pytest.raises(TypeError, match="export the tool again"):
        StandardHaystackTool.from_dict(data)
