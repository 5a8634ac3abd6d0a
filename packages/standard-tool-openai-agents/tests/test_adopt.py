"""Agents SDK function tools (``@function_tool``, built directly, an agent's tools) adopted
as standard tools."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any, cast

import pytest
from agents import Agent, FunctionTool, RunContextWrapper, WebSearchTool, function_tool

import standard_tool as st
from standard_tool.exceptions import ToolRefusedError, UnsupportedObjectError
from standard_tool.registry import adopt_tools
from standard_tool.testing import SECRET
from standard_tool_openai_agents import (
    OpenAIAgentsTool,
    from_openai_agents,
    from_openai_agents_tools,
    to_openai_agents,
)

FIELDS = {f.name for f in dataclasses.fields(FunctionTool)}
SETS_ASIDE = "_failure_error_function" in FIELDS
"""Whether the SDK reads a tool's failure handler at call time (0.24+), so that adopting
can set it aside and get the exception itself."""
CALLS: list[Any] = []


@function_tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers.

    Args:
        a: The first factor.
        b: The second factor.
    """
    return a * b


@function_tool
async def amultiply(a: int, b: int) -> int:
    """Multiply two integers, asynchronously."""
    await asyncio.sleep(0)
    return a * b


@function_tool
def fail(reason: str) -> str:
    """Fail on purpose."""
    raise ValueError(f"failed: {reason}")


@function_tool
def whoami(ctx: RunContextWrapper[Any]) -> str:
    """Who the run is for."""
    CALLS.append(ctx)
    return json.dumps(ctx.context)


def test_a_function_tools_schema_is_kept_exactly() -> None:
    adopted = from_openai_agents(multiply)
    assert isinstance(adopted, OpenAIAgentsTool) and adopted.native is multiply
    assert adopted.name == "multiply" and adopted.description.startswith("Multiply")
    assert st.input_json_schema(adopted) == multiply.params_json_schema
    assert adopted.input_schema is not multiply.params_json_schema  # a copy


@pytest.mark.parametrize("native", [multiply, amultiply], ids=["sync", "async"])
def test_sync_and_async_function_tools_are_called_from_both_sides(native: FunctionTool) -> None:
    adopted = st.adopt(native)
    assert st.call(adopted, {"a": 6, "b": 7}) == 42

    async def inside_a_loop() -> tuple[Any, Any]:
        return st.call(adopted, {"a": 2, "b": 3}), await st.acall(adopted, {"a": 3, "b": 3})

    assert asyncio.run(inside_a_loop()) == (6, 9)


def test_invalid_input_is_refused_before_the_tool_runs() -> None:
    adopted = from_openai_agents(multiply)
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(adopted, {"a": "six", "b": 7, "c": SECRET})
    assert raised.value.tool == "multiply" and raised.value.fields == ("a", "c")
    assert SECRET not in str(raised.value)


async def test_a_failure_is_the_exception_the_tool_raised(agent: Any) -> None:
    with pytest.raises(st.ToolExecutionError) as raised:
        await st.acall(from_openai_agents(fail), {"reason": "on purpose"})
    assert raised.value.tool == "fail" and "failed: on purpose" in raised.value.message
    if SETS_ASIDE:  # else (0.2.x) read from the SDK's failure text
        assert isinstance(raised.value.__cause__, ValueError)
    # the original tool still answers a run with the SDK's own failure text
    run = await agent([fail], [[("fail", {"reason": "x"})]])
    assert run.texts[0].startswith("An error occurred while running the tool.")


def test_the_sdks_failure_texts_are_failures() -> None:
    async def old_style(ctx: Any, input: str) -> str:
        return "An error occurred while running the tool. Please try again. Error: disk full"

    async def new_style(ctx: Any, input: str) -> str:
        return "An error occurred while running the tool. Please try again."

    schema = {"type": "object", "properties": {}, "additionalProperties": False, "required": []}
    for invoke, message in [(old_style, "disk full"), (new_style, "Please try again")]:
        native = FunctionTool("t", "d", schema, invoke)
        with pytest.raises(st.ToolExecutionError) as raised:
            st.call(from_openai_agents(native), {})
        assert message in raised.value.message


def test_a_hand_made_function_tool_gets_a_tool_context_and_json_text() -> None:
    seen: list[Any] = []

    async def invoke(ctx: Any, input: str) -> Any:
        seen.append((type(ctx).__name__, ctx.context, ctx.tool_name, ctx.tool_call_id, input))
        return {"echo": json.loads(input)}

    schema = {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}
    native = FunctionTool("echo", "Echo.", schema, invoke, strict_json_schema=False)
    adopted = from_openai_agents(native)
    assert st.call(adopted, {"x": 1}, {"request_id": "r-1", "user": "ada"}) == {"echo": {"x": 1}}
    assert seen == [
        ("ToolContext", {"request_id": "r-1", "user": "ada"}, "echo", "r-1", '{"x": 1}')
    ]
    with pytest.raises(st.ToolValidationError):
        st.call(adopted, {"x": "1"})


def test_the_standard_context_is_the_runs_context() -> None:
    CALLS.clear()
    adopted = from_openai_agents(whoami)
    assert "ctx" not in json.dumps(st.input_json_schema(adopted))
    assert json.loads(st.call(adopted, {}, {"user": "ada"})) == {"user": "ada"}
    wrapper = RunContextWrapper({"user": "bob"})
    assert json.loads(st.call(adopted, {}, wrapper)) == {"user": "bob"}
    assert [c.context for c in CALLS] == [{"user": "ada"}, {"user": "bob"}]


@pytest.mark.skipif("timeout_seconds" not in FIELDS, reason="timeouts came after 0.2")
def test_a_tools_timeout_is_the_standard_timeout() -> None:
    async def hang(ctx: Any, input: str) -> str:
        await asyncio.sleep(30)
        return "never"

    schema = {"type": "object", "properties": {}, "additionalProperties": False, "required": []}
    native = FunctionTool("hang", "Hang.", schema, hang, timeout_seconds=0.1)
    adopted = from_openai_agents(native)
    assert adopted.timeout == 0.1
    with pytest.raises(st.ToolTimeoutError):
        st.call(adopted, {})


@pytest.mark.skipif("needs_approval" not in FIELDS, reason="approvals came after 0.2")
def test_a_tool_that_needs_approval_is_refused_outside_a_run() -> None:
    async def only_big(ctx: Any, params: dict[str, Any], call_id: str) -> bool:
        return bool(params["a"] > 100)

    careful = function_tool(cast(Any, multiply).__wrapped__, needs_approval=only_big)
    adopted = from_openai_agents(careful)
    assert st.call(adopted, {"a": 2, "b": 3}) == 6
    with pytest.raises(ToolRefusedError) as raised:
        st.call(adopted, {"a": 200, "b": 3}, {"request_id": "r-9"})
    assert raised.value.code == "held_for_review" and raised.value.request_id == "r-9"


def test_an_agents_function_tools_are_adopted_and_hosted_tools_refused() -> None:
    agent = Agent(name="a", tools=[multiply, amultiply])
    tools = adopt_tools(agent)
    assert [t.name for t in tools] == ["multiply", "amultiply"]
    assert [t.name for t in from_openai_agents_tools([multiply, agent])] == [
        "multiply",
        "multiply",
        "amultiply",
    ]
    with pytest.raises(UnsupportedObjectError, match="from_openai_agents_tools"):
        from_openai_agents(agent)
    with pytest.raises(UnsupportedObjectError, match="hosted"):
        from_openai_agents_tools(Agent(name="b", tools=[WebSearchTool()]))


def test_foreign_objects_are_refused() -> None:
    with pytest.raises(UnsupportedObjectError):
        from_openai_agents(object())
    with pytest.raises(UnsupportedObjectError):
        from_openai_agents(WebSearchTool())  # a hosted tool runs on OpenAI's side


def test_an_exported_tool_comes_back_whole() -> None:
    original = st.Tool(
        name="stamp.v2",
        title="Stamp",
        description="Stamp a document.",
        input_schema={"type": "object", "properties": {"doc": {"type": "string"}}},
        output_schema={"type": "string"},
        meta={"read_only": True},
        execute=lambda input: f"stamped {input.get('doc', '')}",
    )
    native = to_openai_agents(original)
    back = from_openai_agents(native)
    assert (back.name, back.title, back.meta) == ("stamp.v2", "Stamp", {"read_only": True})
    assert st.output_json_schema(back) == {"type": "string"}
    assert st.call(back, {"doc": "x"}) == "stamped x"
    # re-exported, a model sees the same strict declaration
    assert to_openai_agents(back).params_json_schema == native.params_json_schema
