"""Real subprocess servers over stdio and streamable HTTP; timeouts; servers that hang or die."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from standard_tool import acall, call
from standard_tool.exceptions import ServerError, ToolExecutionError, ToolValidationError
from standard_tool.testing import VALID_CALLS
from standard_tool_mcp import _stdio, connect


def _by_name(tools: list[Any]) -> dict[str, Any]:
    return {t.name: t for t in tools}


def test_stdio_subprocess_from_sync_code(stdio_command: list[str]) -> None:
    with connect(stdio_command, timeout=20) as tools:
        by_name = _by_name(tools)
        for name, (arguments, expected) in VALID_CALLS.items():
            assert call(by_name[name], arguments, {"meta": {"m": 1}}) == expected
        with pytest.raises(ToolExecutionError, match="exploded: now"):
            call(by_name["explode"], {"reason": "now"})


async def test_stdio_subprocess_from_async_code(stdio_command: list[str]) -> None:
    async with connect(stdio_command, timeout=20) as tools:
        by_name = _by_name(tools)
        assert await acall(by_name["add"], {"a": 1}) == 2
        assert by_name["greet"].title == "Greeter" and by_name["greet"].meta["read_only"] is True


async def test_streamable_http(http_url: str) -> None:
    async with connect(http_url, timeout=20) as tools:
        by_name = _by_name(tools)
        for name, (arguments, expected) in VALID_CALLS.items():
            assert await acall(by_name[name], arguments) == expected
        with pytest.raises(ToolValidationError):
            await acall(by_name["search"], {"query": ""})


async def test_http_request_and_meta_reach_the_context(http_url: str) -> None:
    async with connect(http_url, timeout=20, headers={"user-agent": "probe/1"}) as tools:
        info = await acall(_by_name(tools)["request_info"], {}, {"meta": {"trace": "t1"}})
    assert info == {"http": True, "client": None, "user_agent": "probe/1", "meta": {"trace": "t1"}}


async def test_auth_information_reaches_the_context(auth_url: str) -> None:
    async with connect(auth_url, timeout=20, headers={"authorization": "Bearer good"}) as tools:
        info = await acall(_by_name(tools)["request_info"], {})
    assert info["client"] == "c1"


async def test_concurrent_calls_share_the_session_and_overlap(stdio_command: list[str]) -> None:
    async with connect(stdio_command, timeout=20) as tools:
        slow = _by_name(tools)["slow"]
        start = time.monotonic()
        results = await asyncio.gather(*(acall(slow, {"seconds": 0.5}) for _ in range(4)))
        assert results == [0.5] * 4 and time.monotonic() - start < 1.5
        info = await acall(_by_name(tools)["request_info"], {})
    assert info["http"] is False


async def test_plain_with_inside_a_running_loop(stdio_command: list[str]) -> None:
    with connect(stdio_command, timeout=20) as tools:
        by_name = _by_name(tools)
        assert call(by_name["add"], {"a": 1}) == 2
        assert await acall(by_name["add"], {"a": 2}) == 3


def test_streamable_http_from_sync_code(http_url: str) -> None:
    with connect(http_url, timeout=20) as tools:
        assert call(_by_name(tools)["add"], {"a": 40, "b": 2}) == 42


def test_a_slow_call_times_out_and_the_session_survives(stdio_command: list[str]) -> None:
    with connect(stdio_command, timeout=20) as tools:
        by_name = _by_name(tools)
        by_name["slow"].timeout = 1
        start = time.monotonic()
        with pytest.raises(ToolExecutionError, match="within 1"):
            call(by_name["slow"], {"seconds": 5})
        assert time.monotonic() - start < 4
        assert call(by_name["add"], {"a": 1}) == 2


def test_a_hanging_server_gives_a_clear_error(raw_command: list[str]) -> None:
    with pytest.warns(UserWarning), connect(raw_command, timeout=1) as tools:
        start = time.monotonic()
        with pytest.raises(ToolExecutionError, match="no answer"):
            call(_by_name(tools)["hang"], {})
        assert time.monotonic() - start < 4


def test_a_dying_server_gives_a_clear_error(stdio_command: list[str]) -> None:
    start = time.monotonic()
    with connect(stdio_command, timeout=10) as tools:
        with pytest.raises(ToolExecutionError) as raised:
            call(_by_name(tools)["die"], {})
    assert raised.value.tool == "die"
    assert time.monotonic() - start < 8


def test_a_command_that_does_not_exist_fails_to_connect() -> None:
    with pytest.raises(ServerError, match="No such file"):
        with connect(["/nonexistent/mcp-server"], timeout=5):
            pass  # pragma: no cover


async def test_a_reply_over_the_line_limit_fails_the_call_at_once(
    raw_command: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_stdio, "MAX_LINE", 100_000)  # the server answers `huge` with 1 MB
    with pytest.warns(UserWarning):  # raw_server lists malformed tools
        async with connect(raw_command, timeout=None) as tools:
            by_name = _by_name(tools)
            for tool in ("huge", "good"):  # the session is closed: later calls fail too
                with pytest.raises(ToolExecutionError, match="100,000 characters") as raised:
                    await asyncio.wait_for(acall(by_name[tool], {}), 30)
                assert raised.value.tool == tool


def test_the_line_reader_is_linear() -> None:
    lines = _stdio.LineReader(limit=2**26)
    chunk = "x" * 8192
    read: list[str] = []

    def feed() -> None:  # 64 MiB in one line: copying it anew per chunk takes minutes
        for _ in range(8192):
            read.extend(lines.feed(chunk))
        read.extend(lines.feed("\n{}\npart"))

    reader = threading.Thread(target=feed, daemon=True)
    reader.start()
    reader.join(120)
    assert read == [chunk * 8192, "{}"]
    with pytest.raises(_stdio.LineTooLong, match="67,108,864 characters"):
        lines.feed("y" * 2**26)
