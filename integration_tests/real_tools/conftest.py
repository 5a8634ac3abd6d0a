"""The corpus' fixtures: an HTTP server on 127.0.0.1, the MCP servers, a folder per test, a
person who answers, and no network: a connection from this process to any address but the
loopback interface is refused. At the end of the run, every failed check of every tool, and
every target that could not run one, listed in one place."""

from __future__ import annotations

import builtins
import ipaddress
import json
import os
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).parent))
os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")

from sources import ANSWER, FAILED, SKIPPED, Places, Servers  # noqa: E402

SERVER_LIFETIME = 900
"""Seconds after which the loopback HTTP server stops by itself, whatever the run does."""
PAGE = b"""<!doctype html>
<html><head><title>Corpus page</title></head>
<body><article><h1>Corpus page</h1>
<p>A page served on the loopback interface for the tools that read the web.</p>
<p>It has two paragraphs, so that readability keeps them as the article.</p>
</article></body></html>
"""
ROBOTS = b"User-agent: *\nAllow: /\n"


class Handler(BaseHTTPRequestHandler):
    """``/robots.txt`` (everything allowed), ``/page`` (HTML), and under ``/api/`` a JSON
    echo of the request: ``{"request": "<METHOD> <path>", "query": {...}, "body": ...}``."""

    timeout = 30

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _answer(self) -> None:
        parts = urlsplit(self.path)
        if parts.path == "/robots.txt":
            return self._send(200, "text/plain", ROBOTS)
        if parts.path == "/page":
            return self._send(200, "text/html; charset=utf-8", PAGE)
        if not parts.path.startswith("/api/"):
            return self._send(404, "text/plain", b"not found")
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode() if length else ""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = dict(parse_qsl(raw)) or raw
        echo = {
            "request": f"{self.command} {parts.path}",
            "query": dict(parse_qsl(parts.query)),
            "body": body,
        }
        return self._send(200, "application/json", json.dumps(echo).encode())

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _answer

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _loopback_only(connect: Any) -> Any:
    def guarded(sock: socket.socket, address: Any) -> Any:
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            host = str(address[0])
            try:
                local = host == "localhost" or ipaddress.ip_address(host).is_loopback
            except ValueError:
                local = False
            if not local:
                raise ConnectionRefusedError(f"the corpus runs offline: no connection to {host}")
        return connect(sock, address)

    return guarded


@pytest.fixture(scope="session", autouse=True)
def offline() -> Iterator[None]:
    """Connections from this process to anything but the loopback interface are refused (the
    MCP servers' processes reach only what their inputs name: 127.0.0.1)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", _loopback_only(socket.socket.connect))
        patch.setattr(socket.socket, "connect_ex", _loopback_only(socket.socket.connect_ex))
        yield


@pytest.fixture(scope="session")
def loopback() -> Iterator[str]:
    """The base URL of an HTTP server on 127.0.0.1 (a free port), stopped at the end of the
    run, or after :data:`SERVER_LIFETIME` seconds."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    timer = threading.Timer(SERVER_LIFETIME, server.shutdown)
    timer.daemon = True
    timer.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        timer.cancel()
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.fixture(scope="session")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    with ExitStack() as stack:
        yield Servers(stack, tmp_path_factory.mktemp("servers"))


@pytest.fixture
def places(loopback: str, servers: Servers, tmp_path: Path) -> Places:
    return Places(loopback, tmp_path, servers)


@pytest.fixture(autouse=True)
def person(monkeypatch: pytest.MonkeyPatch) -> None:
    """A person at the terminal: smolagents' ``user_input`` reads its answer with
    ``input()``, which under pytest has no terminal."""
    monkeypatch.setattr(builtins, "input", lambda prompt="": ANSWER)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for title, found in (("what failed", FAILED), ("targets that cannot run a tool", SKIPPED)):
        if found:
            terminalreporter.write_sep("=", f"real tools: {title}, by test")
            for test, lines in found.items():
                for line in lines:
                    terminalreporter.write_line(f"{test}: {line}")
