"""Real server processes: ``serve``'s line on stderr, and ``uvicorn --workers 2`` under load,
with guarded tools whose gate keeps its state in one SQLite file shared by both workers."""

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
from collections.abc import Iterator, Mapping
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import pytest

from standard_tool import acall, call
from standard_tool.boundary import Gate, SqliteStore
from standard_tool_mcp import connect
from standard_tool_mcp._boundary import REQUEST_ID_META
from standard_tool_mcp._compat import call_tool, dump, http_client_transport, open_session

SERVERS = Path(__file__).parent / "servers"
CALLS = 200
CLIENTS = 10


@contextmanager
def process(
    command: list[str],
    *,
    stdin: int | None = subprocess.DEVNULL,
    env: Mapping[str, str] | None = None,
) -> Iterator[tuple[subprocess.Popen[str], queue.Queue[str]]]:
    """Run ``command`` in its own process group; its stderr lines arrive on the queue."""
    child = subprocess.Popen(
        command,
        stdin=stdin,
        env=env,
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


def started_workers(lines: queue.Queue[str], port: int, seconds: float = 30) -> None:
    """Both uvicorn workers have started, and the port accepts connections: a worker logs its
    application's startup before it listens."""
    wait_for(lines, r"Application startup complete", count=2, seconds=seconds)
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing listens on port {port}") from None
            time.sleep(0.05)


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
        started_workers(lines, port)
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


# Guarded tools across two workers: one SQLite store


class Gated(NamedTuple):
    """``gated_workers_app`` served by two uvicorn workers: its URL and its files."""

    url: str
    store: Path
    runs: Path
    audit: Path


LIMIT = 12
"""The budget of the ``charge`` tool (``Budget(LIMIT, key="tool")``)."""


@pytest.fixture(scope="module")
def gated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gated]:
    folder = tmp_path_factory.mktemp("gated")
    served = Gated("", folder / "gate.sqlite", folder / "runs.jsonl", folder / "audit.jsonl")
    env = {
        **os.environ,
        "GATED_STORE": str(served.store),
        "GATED_RUNS": str(served.runs),
        "GATED_AUDIT": str(served.audit),
        "GATED_LIMIT": str(LIMIT),
    }
    port = free_port()
    command = [
        sys.executable, "-m", "uvicorn", "gated_workers_app:app", "--app-dir", str(SERVERS),
        "--host", "127.0.0.1", "--port", str(port), "--workers", "2",
        "--no-access-log", "--timeout-graceful-shutdown", "5",
    ]  # fmt: skip
    with process(command, env=env) as (_, lines):
        started_workers(lines, port)
        yield served._replace(url=f"http://127.0.0.1:{port}/mcp")


BEARER = {"authorization": "Bearer ops-token"}
"""The token ``gated_workers_app`` accepts: its caller's request ids are its own on every
request, whichever worker answers it."""


def _gated_calls(url: str, calls: list[tuple[str, dict[str, Any], str]]) -> list[dict[str, Any]]:
    """Each ``(tool, arguments, request id)`` called at once, spread over ``CLIENTS`` MCP
    sessions of one authenticated caller; the results in wire form."""

    async def main() -> list[Any]:
        async with AsyncExitStack() as stack:
            sessions = [
                await stack.enter_async_context(
                    open_session(http_client_transport(url, BEARER), 60)
                )
                for _ in range(CLIENTS)
            ]
            return list(
                await asyncio.gather(
                    *(
                        call_tool(sessions[n % CLIENTS], name, arguments, 60, {REQUEST_ID_META: id})
                        for n, (name, arguments, id) in enumerate(calls)
                    )
                )
            )

    return [dump(result) for result in asyncio.run(asyncio.wait_for(main(), 120))]


def _lines(path: Path, request_ids: Any) -> list[dict[str, Any]]:
    """The JSON lines of ``path`` (tool runs, or calls answered) for these request ids."""
    if not path.exists():
        return []
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [record for record in records if record["request_id"] in set(request_ids)]


def _answered_by_both_workers(served: Gated, request_ids: list[str]) -> None:
    """Every call under these request ids was answered (one audit line each, naming the
    process that answered it), and both workers answered some."""
    answered = _lines(served.audit, request_ids)
    assert len(answered) == len(request_ids)
    assert len({record["pid"] for record in answered}) == 2


def test_two_workers_run_a_request_id_sent_many_times_at_once_only_once(gated: Gated) -> None:
    ids = ["booking-1"] * (CALLS // 5)
    results = _gated_calls(gated.url, [("book", {"seat": "12A"}, id) for id in ids])
    [ran] = _lines(gated.runs, ["booking-1"])
    assert ran["tool"] == "book"
    refused = [r["structuredContent"] for r in results if r.get("isError")]
    answered = [r["structuredContent"] for r in results if not r.get("isError")]
    assert answered and all(result == ran for result in answered)
    assert all(r["code"] == "unknown_outcome" and r["request_id"] == "booking-1" for r in refused)
    _answered_by_both_workers(gated, ids)
    # Sent again once it has run: every call, on either worker, answers with its result.
    again = _gated_calls(gated.url, [("book", {"seat": "12A"}, id) for id in ids])
    assert [r["structuredContent"] for r in again] == [ran] * len(ids)
    assert _lines(gated.runs, ["booking-1"]) == [ran]
    _answered_by_both_workers(gated, ids * 2)


def test_two_workers_share_one_budget(gated: Gated) -> None:
    ids = [f"charge-{n}" for n in range(3 * LIMIT)]
    results = _gated_calls(gated.url, [("charge", {"cents": 100}, id) for id in ids])
    ran = _lines(gated.runs, ids)
    answered = [r["structuredContent"] for r in results if not r.get("isError")]
    refused = [r["structuredContent"] for r in results if r.get("isError")]
    assert len(ran) == len(answered) == LIMIT
    assert sorted(answered, key=str) == sorted(ran, key=str)
    assert len(refused) == len(ids) - LIMIT
    assert {r["code"] for r in refused} == {"budget_exceeded"}
    _answered_by_both_workers(gated, ids)


def test_switching_a_tool_off_in_the_store_switches_it_off_in_both_workers(gated: Gated) -> None:
    off = [f"off-{n}" for n in range(CALLS // 5)]
    on = [f"on-{n}" for n in range(CALLS // 5)]
    with SqliteStore(gated.store) as store:
        gate = Gate(store=store)
        gate.disable("notify")
        refused = _gated_calls(gated.url, [("notify", {"text": "hi"}, id) for id in off])
        gate.enable("notify")
        answered = _gated_calls(gated.url, [("notify", {"text": "hi"}, id) for id in on])
    assert all(r.get("isError") for r in refused)
    assert {r["structuredContent"]["code"] for r in refused} == {"disabled"}
    assert _lines(gated.runs, off) == []
    _answered_by_both_workers(gated, off)
    assert not any(r.get("isError") for r in answered)
    assert sorted(r["structuredContent"]["request_id"] for r in answered) == sorted(on)
    assert len(_lines(gated.runs, on)) == len(on)
    _answered_by_both_workers(gated, on)
