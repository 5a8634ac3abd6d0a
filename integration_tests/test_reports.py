"""Progress reported inside a tool reaches whichever framework called it, across hops:
an MCP server's tool called from LangChain, and a LangChain tool served over MCP."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler

import standard_tool as st
from standard_tool_langchain import PROGRESS_EVENT, from_langchain, to_langchain
from standard_tool_mcp import connect, to_mcp_server

sys.path.insert(0, str(Path(__file__).parent / "servers"))
from reporting_server import crunch  # noqa: E402

SERVER = [sys.executable, str(Path(__file__).parent / "servers" / "reporting_server.py")]
EXPECTED = [
    {"progress": 1.0, "total": 3.0, "message": "row 1"},
    {"progress": 2.0, "total": 3.0, "message": "row 2"},
    {"progress": 3.0, "total": 3.0, "message": "row 3"},
]


class Events(BaseCallbackHandler):
    def __init__(self) -> None:
        self.progress: list[Any] = []

    def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kw: Any) -> None:
        if name == PROGRESS_EVENT:
            self.progress.append(data)


class AsyncEvents(AsyncCallbackHandler):
    def __init__(self) -> None:
        self.progress: list[Any] = []

    async def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kw: Any) -> None:
        if name == PROGRESS_EVENT:
            self.progress.append(data)


def _call(tool: Any) -> dict[str, Any]:
    return {"type": "tool_call", "id": "call-1", "name": tool.name, "args": {"rows": 3}}


async def test_an_mcp_tools_progress_becomes_langchain_events_in_memory() -> None:
    async with connect(to_mcp_server(crunch)) as tools:
        native = to_langchain(tools[0])
        events = AsyncEvents()
        message = await native.ainvoke(_call(native), {"callbacks": [events]})
    assert message.content == "3" and events.progress == EXPECTED


def test_an_mcp_tools_progress_becomes_langchain_events_over_stdio() -> None:
    with connect(SERVER) as tools:
        native = to_langchain(tools[0])
        events = Events()
        message = native.invoke(_call(native), {"callbacks": [events]})
    assert message.content == "3" and events.progress == EXPECTED


async def test_a_langchain_tools_progress_reaches_an_mcp_client() -> None:
    native = to_langchain(crunch)  # a LangChain tool running a reporting standard tool
    received: list[tuple[float, float | None, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        received.append((value, total, message))

    server = to_mcp_server(from_langchain(native))
    async with connect(server, progress=progress) as tools:
        assert await st.acall(tools[0], {"rows": 3}) == 3
    assert received == [(e["progress"], e["total"], e["message"]) for e in EXPECTED]
