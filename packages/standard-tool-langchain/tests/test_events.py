"""What a standard tool reports reaches LangChain callbacks as custom events of its run."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler
from langchain_core.messages import ToolMessage

import standard_tool as st
from standard_tool.testing import RecordingReporter
from standard_tool_langchain import LOG_EVENT, PROGRESS_EVENT, to_langchain


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
    for i in range(1, n + 1):
        st.report_progress(i, n, f"step {i}")
    st.report_log("counted", level="notice", data={"n": n})
    return n


EXPECTED = [
    (PROGRESS_EVENT, {"progress": 1.0, "total": 2.0, "message": "step 1"}),
    (PROGRESS_EVENT, {"progress": 2.0, "total": 2.0, "message": "step 2"}),
    (LOG_EVENT, {"level": "notice", "message": "counted", "data": {"n": 2}}),
]


class Recorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []
        self.tool_runs: list[UUID] = []
        self.parents: list[UUID | None] = []

    def on_tool_start(self, serialized: Any, input_str: str, *, run_id: UUID, **kw: Any) -> None:
        self.tool_runs.append(run_id)

    def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kw: Any) -> None:
        self.events.append((name, data))
        self.parents.append(run_id)


class AsyncRecorder(AsyncCallbackHandler):
    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    async def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kw: Any) -> None:
        self.events.append((name, data))


def _call(n: int) -> dict[str, Any]:
    return {"name": "count", "args": {"n": n}, "id": "call-1", "type": "tool_call"}


def test_invoke_sends_custom_events_of_the_tool_run() -> None:
    recorder = Recorder()
    message = to_langchain(count).invoke(_call(2), {"callbacks": [recorder]})
    assert isinstance(message, ToolMessage) and message.content == "2"
    assert recorder.events == EXPECTED
    assert set(recorder.parents) == set(recorder.tool_runs) and len(recorder.tool_runs) == 1


async def test_ainvoke_sends_them_in_order_before_the_run_ends() -> None:
    for tool in (count, acount):
        recorder = AsyncRecorder()
        converted = to_langchain(tool)
        message = await converted.ainvoke(
            {**_call(2), "name": tool.name}, {"callbacks": [recorder]}
        )
        assert message.content == "2"
        assert recorder.events == EXPECTED, tool.name


async def test_astream_events_shows_them() -> None:
    seen = [
        (event["name"], event["data"])
        async for event in to_langchain(acount).astream_events({"n": 2}, version="v2")
        if event["event"] == "on_custom_event"
    ]
    assert seen == EXPECTED


def test_a_reporter_around_the_run_receives_them_too() -> None:
    outer, recorder = RecordingReporter(), Recorder()
    with st.reporting(outer):
        to_langchain(count).invoke(_call(2), {"callbacks": [recorder]})
        to_langchain(count).invoke({"n": 1})  # no callbacks: the outer reporter still hears
    assert recorder.events == EXPECTED
    assert outer.events == [
        ("progress", 1.0, 2.0, "step 1"),
        ("progress", 2.0, 2.0, "step 2"),
        ("log", "notice", "counted", {"n": 2}),
        ("progress", 1.0, 1.0, "step 1"),
        ("log", "notice", "counted", {"n": 1}),
    ]
