"""A stdio server answers every line: JSON-RPC errors for what it cannot read, and serves on."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import SERVERS

WAIT = 20  # seconds a reply may take (a bound, not an expectation)


class Wire:
    """A served process's stdin and stdout, one JSON-RPC message a line."""

    def __init__(self, child: subprocess.Popen[bytes]) -> None:
        self.child = child
        self.replies: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.child.stdout is not None
        for line in self.child.stdout:
            self.replies.put(line)

    def send(self, line: str) -> None:
        assert self.child.stdin is not None
        self.child.stdin.write(line.encode() + b"\n")
        self.child.stdin.flush()

    def reply(self) -> Any:
        return json.loads(self.replies.get(timeout=WAIT))


@pytest.fixture
def wire() -> Iterator[Wire]:
    child = subprocess.Popen(
        [sys.executable, str(SERVERS / "sample_server.py"), "stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield Wire(child)
    finally:
        assert child.stdin is not None
        child.stdin.close()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        assert child.stdout is not None
        child.stdout.close()


def _request(message_id: int, method: str, params: Any = None) -> str:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": message_id, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body)


UNREADABLE = {
    "malformed": '{"jsonrpc": "2.0", "id": 1, "method": "ping"',
    "long number": _request(1, "ping", {"n": 0})[:-2] + "9" * 5000 + "}}",
    "deep nesting": '{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"a": '
    + "[" * 10_000
    + "]" * 10_000
    + "}}",
}
NOT_REQUESTS = {
    "no method": '{"jsonrpc": "2.0", "id": 2}',
    "not an object": "[1, 2]",
    "a number": "7",
    "method not a string": '{"jsonrpc": "2.0", "id": 3, "method": 1}',
}


@pytest.mark.parametrize(
    ("line", "code"),
    [*((line, -32700) for line in UNREADABLE.values())]
    + [*((line, -32600) for line in NOT_REQUESTS.values())],
    ids=[*UNREADABLE, *NOT_REQUESTS],
)
def test_a_line_that_is_no_request_gets_an_error_and_the_server_serves_on(
    wire: Wire, line: str, code: int
) -> None:
    wire.send(line)
    reply = wire.reply()
    assert reply["jsonrpc"] == "2.0" and reply["id"] is None
    assert reply["error"]["code"] == code and "9999" not in reply["error"]["message"]
    wire.send(
        _request(
            10,
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"},
            },
        )
    )
    assert wire.reply()["id"] == 10
    wire.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    wire.send(_request(11, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}))
    answer = wire.reply()
    assert answer["id"] == 11 and answer["result"]["structuredContent"] == {"result": 3}
