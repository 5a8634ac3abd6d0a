"""Exported tools in real agent runs: PydanticAI's ``TestModel`` calls every tool; sync tools
leave the agent's event loop free, async tools run on it."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from agent_runs import Script, answers, is_error, outcome, run_sync
from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, ToolCallPart
from pydantic_ai.models.test import TestModel

import standard_tool as st
from standard_tool.names import sanitize_name
from standard_tool.testing import SECRET, sample_tools
from standard_tool_pydantic_ai import NAMES, to_pydantic_ai, to_pydantic_ai_toolset


def test_test_model_calls_every_tool_and_gets_what_the_tool_returns() -> None:
    tools = {sanitize_name(tool.name, NAMES): tool for tool in sample_tools().values()}
    deps = {"token": SECRET}
    agent: Agent[dict[str, Any], str] = Agent(
        TestModel(), toolsets=[to_pydantic_ai_toolset(list(tools.values()))], deps_type=dict
    )
    result = run_sync(agent.run("go", deps=deps))
    calls = {
        part.tool_call_id: part
        for message in result.all_messages()
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, ToolCallPart)
    }
    replies = answers(result)
    assert sorted(reply.tool_name for reply in replies) == sorted(tools)
    for reply in replies:
        call = calls[reply.tool_call_id]
        tool = tools[reply.tool_name]
        if reply.tool_name == "explode":
            assert is_error(reply) and "exploded" in (outcome(reply).error or "")
            continue
        expected = st.jsonable(st.call(tool, call.args_as_dict(), deps))
        assert outcome(reply).value == expected, reply.tool_name
    assert outcome(next(r for r in replies if r.tool_name == "whoami")).value["has_context"]


def test_a_sync_tool_leaves_the_event_loop_free() -> None:
    started, released = threading.Event(), threading.Event()

    def wait_for_release() -> bool:
        """Block this thread until the async tool has run."""
        started.set()
        return released.wait(timeout=10)

    async def release() -> bool:
        """Release the sync tool once it is waiting."""
        for _ in range(1000):
            if started.is_set():
                released.set()
                return True
            await asyncio.sleep(0.01)
        return False

    toolset = to_pydantic_ai_toolset([st.tool(wait_for_release), st.tool(release)])
    script = Script([[("wait_for_release", {}), ("release", {})]])  # one step: run in parallel
    result = run_sync(Agent(script.model(), toolsets=[toolset]).run("go"))
    values = {reply.tool_name: outcome(reply).value for reply in answers(result)}
    assert values == {"wait_for_release": True, "release": True}


async def test_an_async_tool_runs_on_the_agents_loop_and_a_sync_one_elsewhere() -> None:
    seen: dict[str, Any] = {}

    async def where_async() -> str:
        """Say where this runs."""
        seen["async"] = (asyncio.get_running_loop(), threading.get_ident())
        return "ok"

    def where_sync() -> str:
        """Say where this runs."""
        seen["sync"] = threading.get_ident()
        return "ok"

    tools = [to_pydantic_ai(st.tool(where_async)), to_pydantic_ai(st.tool(where_sync))]
    script = Script([[("where_async", {}), ("where_sync", {})]])
    result = await Agent(script.model(), tools=tools).run("go")
    assert [outcome(reply).value for reply in answers(result)] == ["ok", "ok"]
    assert seen["async"] == (asyncio.get_running_loop(), threading.get_ident())
    assert seen["sync"] != threading.get_ident()
