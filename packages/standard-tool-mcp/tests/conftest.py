"""Shared fixtures: in-memory sessions, and servers run as real subprocesses."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SERVERS = Path(__file__).parent / "servers"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def http_url() -> Iterator[str]:
    """The URL of the sample tools served over streamable HTTP by a subprocess."""
    for url, _ in _http_server("streamable-http"):
        yield url


@pytest.fixture
def http_server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The same, with the server's process (to kill it)."""
    yield from _http_server("streamable-http")


@pytest.fixture
def auth_url() -> Iterator[str]:
    """The URL of a streamable-HTTP server behind bearer-token authentication."""
    for url, _ in _http_server("auth"):
        yield url


def _http_server(mode: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(SERVERS / "sample_server.py"), mode, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(
                        process.stderr.read().decode() if process.stderr else "server died"
                    ) from None
                time.sleep(0.05)
        else:
            raise RuntimeError("the HTTP server did not start")
        yield f"http://127.0.0.1:{port}/mcp", process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr:
            process.stderr.close()


@pytest.fixture
def stdio_command() -> list[str]:
    """A command that serves the sample tools over stdio."""
    return [sys.executable, str(SERVERS / "sample_server.py"), "stdio"]


@pytest.fixture
def raw_command() -> list[str]:
    """A command that runs the hand-written server with malformed, hanging and dying tools."""
    return [sys.executable, str(SERVERS / "raw_server.py")]
