"""A server killed mid-call: calls in flight and later fail as gone, leaving the block does not
raise, and the log says how the server ended. Real subprocesses, over stdio and HTTP."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import time
from typing import Any

import pytest

from standard_tool import acall, call
from standard_tool.exceptions import ToolExecutionError
from standard_tool_mcp import connect

GONE = "the MCP server is gone"


def _by_name(tools: list[Any]) -> dict[str, Any]:
    return {t.name: t for t in tools}


async def _kill_mid_call(tools: list[Any], kill: Any) -> None:
    by_name = _by_name(tools)
    in_flight = asyncio.ensure_future(acall(by_name["slow"], {"seconds": 30}))
    await asyncio.sleep(0.5)
    start = time.monotonic()
    kill()
    with pytest.raises(ToolExecutionError, match=GONE) as raised:
        await in_flight
    assert raised.value.tool == "slow"
    assert time.monotonic() - start < 5  # not the 20 s timeout
    with pytest.raises(ToolExecutionError, match=GONE):
        await acall(by_name["add"], {"a": 1})


async def test_stdio_server_killed_mid_call(
    stdio_command: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    connection = connect(stdio_command, timeout=20)
    async with connection as tools:
        assert connection.process is not None
        process = connection.process.process
        await _kill_mid_call(tools, process.kill)
    assert "is gone: the server process was killed by signal 9" in caplog.text


async def test_http_server_killed_mid_call(
    http_server: tuple[str, subprocess.Popen[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    url, process = http_server
    async with connect(url, timeout=20) as tools:
        await _kill_mid_call(tools, process.kill)
    assert f"MCP server {url} is gone" in caplog.text


def test_plain_with_http_server_killed_mid_call(
    http_server: tuple[str, subprocess.Popen[bytes]],
) -> None:
    url, process = http_server
    with connect(url, timeout=20) as tools:
        asyncio.run(_kill_mid_call(tools, process.kill))
        with pytest.raises(ToolExecutionError, match=GONE):
            call(_by_name(tools)["add"], {"a": 1})


def test_a_server_that_exits_during_a_call(
    stdio_command: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, "standard_tool_mcp"):
        with connect(stdio_command, timeout=20) as tools:
            with pytest.raises(ToolExecutionError, match=GONE):
                call(_by_name(tools)["die"], {"code": 7})
    assert "the server process exited with status 7" in caplog.text


async def test_leaving_closes_and_later_calls_say_so(http_url: str) -> None:
    async with connect(http_url, timeout=20) as tools:
        assert await acall(_by_name(tools)["add"], {"a": 1}) == 2
    with pytest.raises(ToolExecutionError, match="the MCP session is closed"):
        await acall(_by_name(tools)["add"], {"a": 1})


def test_a_loop_that_ends_with_the_session_open_stops_the_server(
    stdio_command: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    connection = connect(stdio_command, timeout=20)

    async def leave_open() -> int:
        await connection.__aenter__()
        assert connection.process is not None
        return connection.process.process.pid

    pid = asyncio.run(leave_open())  # asyncio.run cancels the session's task
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert "is gone" not in caplog.text
    with pytest.raises(ToolExecutionError, match="the MCP session is closed"):
        call({t.name: t for t in connection.tools}["add"], {"a": 1})
