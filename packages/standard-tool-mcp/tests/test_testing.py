"""``standard_tool_mcp.testing.serving``: an ASGI app served for real on 127.0.0.1, then stopped."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
from typing import Any
from urllib.parse import urlsplit

import pytest

from standard_tool import call, tool
from standard_tool.exceptions import ServerError
from standard_tool_mcp import connect, to_asgi_app
from standard_tool_mcp.testing import serving


def where(
    started: float = 0.0,
    entered: threading.Event | None = None,
    release: threading.Event | None = None,
) -> Any:
    """A tiny ASGI app answering every request with where the server and the client are, as
    the server sees them. Its startup takes ``started`` seconds; with ``entered`` and
    ``release``, a request sets ``entered`` and then blocks the server's event loop (so that
    the server cannot stop) until ``release`` is set."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await asyncio.sleep(started)
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if entered is not None and release is not None:
            entered.set()
            release.wait(30)
        body = json.dumps({"server": scope["server"], "client": scope["client"][0]}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})

    return app


def get(url: str) -> tuple[int, Any]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request("GET", parts.path)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_the_app_is_served_on_127_0_0_1_for_the_block_and_stopped_after() -> None:
    with serving(where(), path="/anything") as url:
        parts = urlsplit(url)
        assert (parts.scheme, parts.hostname, parts.path) == ("http", "127.0.0.1", "/anything")
        assert parts.port
        status, seen = get(url)
        assert status == 200
        assert seen == {"server": ["127.0.0.1", parts.port], "client": "127.0.0.1"}
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", parts.port), timeout=5).close()


def test_the_default_path_is_the_mcp_endpoint_of_to_asgi_app() -> None:
    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    with serving(to_asgi_app([add])) as url, connect(url, timeout=20) as tools:
        assert urlsplit(url).path == "/mcp"
        assert call(tools[0], {"a": 2, "b": 3}) == 5


def test_a_server_that_cannot_bind_is_a_server_error() -> None:
    with pytest.raises(ServerError, match="stopped before it started"):
        with serving(where(), host="256.0.0.1"):
            pytest.fail("the block ran")


def test_a_server_that_does_not_start_in_time_is_a_server_error() -> None:
    with pytest.raises(ServerError, match=r"did not start within 0\.2 s"):
        with serving(where(started=3), timeout=0.2):
            pytest.fail("the block ran")


def test_a_server_that_does_not_stop_in_time_is_a_server_error() -> None:
    entered, release = threading.Event(), threading.Event()
    answers: list[object] = []

    def client(url: str) -> None:
        try:
            answers.append(get(url))
        except OSError as error:  # the server may close the connection as it stops
            answers.append(error)

    try:
        with pytest.raises(ServerError, match=r"did not stop within 2 s"):
            with serving(where(entered=entered, release=release), timeout=2) as url:
                thread = threading.Thread(target=client, args=(url,), daemon=True)
                thread.start()
                assert entered.wait(10)
    finally:
        release.set()
    thread.join(10)
    assert answers and not thread.is_alive()
