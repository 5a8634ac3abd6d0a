"""Real server processes: ``serve``'s line on stderr, and ``uvicorn --workers 2`` under load."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from standard_tool import acall, call
from standard_tool_mcp import connect

SERVERS = Path(__file__).parent / "servers"
CALLS = 200
CLIENTS = 10


@contextmanager
def process(
    command: list[str], *, stdin: int | None = subprocess.DEVNULL
) -> Iterator[tuple[subprocess.Popen[str], queue.Queue[str]]]:
    """Run ``command`` in its own process group; its stderr lines arrive on the queue."""
    child = subprocess.Popen(
        command,
        stdin=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue[str] = queue.Queue()

    def drain() -> None:
        assert child.stderr is not None
        for line in child.stderr:
            lines.put(line)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        yield child, lines
    finally:
        if child.poll() is None:
            child.terminate()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait(timeout=15)
        reader.join(timeout=5)
        for stream in (child.stdin, child.stderr):
            if stream is not None:
                stream.close()


def wait_for(
    lines: queue.Queue[str], pattern: str, count: int = 1, seconds: float = 30
) -> list[str]:
    """The first ``count`` stderr lines matching ``pattern``, within ``seconds``."""
    found: list[str] = []
    seen: list[str] = []
    deadline = time.monotonic() + seconds
    while len(found) < count:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no {pattern!r} on stderr; saw: {''.join(seen)}") from None
        seen.append(line)
        if re.search(pattern, line):
            found.append(line)
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_says_what_it_serves_over_http_and_serves_it() -> None:
    command = [sys.executable, str(SERVERS / "sample_server.py"), "streamable-http", "0"]
    with process(command) as (_, lines):
        [line] = wait_for(lines, r"serving")
        match = re.fullmatch(
            r"standard-tool: serving (\d+) tools \((.*)\) over streamable HTTP at (\S+)\n", line
        )
        assert match, line
        names = match.group(2).split(", ")
        assert int(match.group(1)) == len(names) and {"add", "slow", "request_info"} <= set(names)
        url = match.group(3)
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp", url) and not url.endswith(":0/mcp")
        with connect(url, timeout=20) as tools:
            assert call({t.name: t for t in tools}["add"], {"a": 2, "b": 3}) == 5


def test_serve_says_what_it_serves_over_stdio_and_stops_with_its_client() -> None:
    command = [sys.executable, str(SERVERS / "sample_server.py"), "stdio"]
    with process(command, stdin=subprocess.PIPE) as (child, lines):
        [line] = wait_for(lines, r"serving")
        assert re.fullmatch(r"standard-tool: serving \d+ tools \(add, .*\) over stdio\n", line)
        assert child.stdin is not None
        child.stdin.close()
        assert child.wait(timeout=15) == 0


def test_serve_on_loopback_refuses_a_foreign_host(http_url: str) -> None:
    parts = urlsplit(http_url)
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "probe", "version": "0"},
        },
    }

    def status(host: str) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", parts.port, timeout=10)
        try:
            headers = {
                "host": host,
                "content-type": "application/json",
                "accept": "application/json, text/event-stream",
            }
            connection.request("POST", parts.path, json.dumps(initialize), headers)
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    assert status("evil.example.com") == 421
    assert status(f"evil.example.com:{parts.port}") == 421
    assert status(parts.netloc) == 200


def test_serve_with_a_bearer_token_says_so() -> None:
    port = free_port()
    command = [sys.executable, str(SERVERS / "sample_server.py"), "auth", str(port)]
    with process(command) as (_, lines):
        [line] = wait_for(lines, r"serving")
    assert line == (
        f"standard-tool: serving 1 tool (request_info) over streamable HTTP at "
        f"http://127.0.0.1:{port}/mcp; bearer token required\n"
    )


def test_two_uvicorn_workers_answer_concurrent_calls_each_with_its_own_result() -> None:
    port = free_port()
    command = [
        sys.executable, "-m", "uvicorn", "workers_app:app", "--app-dir", str(SERVERS),
        "--host", "127.0.0.1", "--port", str(port), "--workers", "2",
        "--no-access-log", "--timeout-graceful-shutdown", "5",
    ]  # fmt: skip
    with process(command) as (_, lines):
        wait_for(lines, r"Application startup complete", count=2)
        results = asyncio.run(asyncio.wait_for(_calls(f"http://127.0.0.1:{port}/mcp"), 120))
    assert [r["n"] for r in results] == list(range(CALLS))
    assert all(r["square"] == r["n"] ** 2 for r in results)
    assert len({r["pid"] for r in results}) == 2


async def _calls(url: str) -> list[dict[str, int]]:
    """``CALLS`` concurrent ``tools/call`` requests spread over ``CLIENTS`` MCP sessions."""
    async with AsyncExitStack() as stack:
        squares = [
            (await stack.enter_async_context(connect(url, timeout=60)))[0] for _ in range(CLIENTS)
        ]
        return list(
            await asyncio.gather(*(acall(squares[n % CLIENTS], {"n": n}) for n in range(CALLS)))
        )
