"""What a standard tool reports reaches the event stream of the LlamaIndex run calling it."""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult
from llama_index.core.workflow import Context

import standard_tool as st
from standard_tool.testing import RecordingReporter
from standard_tool_llama_index import ToolLogEvent, ToolProgressEvent, to_llama_index


@st.tool
def count(n: int) -> int:
    """Count to n, reporting each step (a sync tool: reports come from a worker thread)."""
    for i in range(1, n + 1):
        st.report_progress(i, n, f"step {i}")
    st.report_log("counted", level="notice", data={"n": n})
    return n


@st.tool
async def acount(n: int) -> int:
    """The same, async."""
    await asyncio.sleep(0)
    return count.function(n)  # type: ignore[attr-defined,no-any-return]


async def _run(tool: st.Tool, scripted_llm: Any) -> list[Any]:
    llm = scripted_llm(replies=[[(tool.name, {"n": 2})], "done"])
    agent = FunctionAgent(tools=[to_llama_index(tool)], llm=llm)
    handler = agent.run(user_msg="go", ctx=Context(agent))
    seen: list[Any] = []
    async for event in handler.stream_events():
        if isinstance(event, (ToolProgressEvent, ToolLogEvent)):
            seen.append(event.model_dump())
        elif isinstance(event, ToolCallResult):
            seen.append(("result", event.tool_output.raw_output))
    await handler
    return seen


async def test_reports_are_events_of_the_agent_run_before_the_tool_result(
    scripted_llm: Any,
) -> None:
    for tool in (count, acount):
        assert await _run(tool, scripted_llm) == [
            {"tool_name": tool.name, "progress": 1.0, "total": 2.0, "message": "step 1"},
            {"tool_name": tool.name, "progress": 2.0, "total": 2.0, "message": "step 2"},
            {"tool_name": tool.name, "level": "notice", "message": "counted", "data": {"n": 2}},
            ("result", 2),
        ], tool.name


async def test_outside_a_workflow_the_reporter_around_the_call_hears_them() -> None:
    outer = RecordingReporter()
    with st.reporting(outer):
        output = await to_llama_index(count).acall(n=1)
    assert output.raw_output == 1
    assert outer.events == [
        ("progress", 1.0, 1.0, "step 1"),
        ("log", "notice", "counted", {"n": 1}),
    ]
