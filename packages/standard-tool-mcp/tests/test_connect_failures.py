"""Failing to connect is one ServerError naming the server and the cause, within the timeout."""

from __future__ import annotations

import asyncio
import io
import os
import pickle
import re
import socket
import ssl
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
import trustme

from standard_tool.exceptions import ServerError
from standard_tool_mcp import _compat, connect

TIMEOUT = 2
MARGIN = 2  # spawning, and stopping what did not answer

SILENT = [sys.executable, "-c", "import time; time.sleep(60)"]
EXITS = [
    sys.executable,
    "-c",
    "import sys; sys.stderr.write('bad config: no token\\n'); sys.exit(4)",
]
MISSING = ["/nonexistent/mcp-server"]


@pytest.fixture
def deaf_url() -> Iterator[str]:
    """A URL whose listener accepts connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"http://user:secret@127.0.0.1:{listener.getsockname()[1]}/mcp?key=secret"


def _fail(server: Any, way: str, **options: Any) -> tuple[ServerError, float]:
    """Connect with ``async with`` or plain ``with``; the error and how long it took."""
    start = time.monotonic()
    with pytest.raises(ServerError) as raised:
        if way == "with":
            with connect(server, timeout=TIMEOUT, **options):
                pass  # pragma: no cover
        else:

            async def enter() -> None:
                async with connect(server, timeout=TIMEOUT, **options):
                    pass  # pragma: no cover

            asyncio.run(enter())
    return raised.value, time.monotonic() - start


WAYS = ["with", "async with"]


@pytest.mark.parametrize("way", WAYS)
def test_a_silent_stdio_server(way: str) -> None:
    error, seconds = _fail(SILENT, way)
    assert seconds < TIMEOUT + MARGIN
    assert error.server == f"{sys.executable} -c 'import time; time.sleep(60)'"
    assert f"no answer within {TIMEOUT} s" in error.message
    assert "the server process was running" in error.message


@pytest.mark.parametrize("way", WAYS)
def test_a_command_that_exits_at_once(way: str) -> None:
    errlog = io.StringIO()
    error, seconds = _fail(EXITS, way, errlog=errlog)
    assert seconds < TIMEOUT + MARGIN
    assert "exited with status 4" in error.message
    assert "bad config: no token" in error.message  # the last lines of its stderr
    assert errlog.getvalue() == "bad config: no token\n"  # forwarded as well


def test_the_servers_stderr_goes_to_ours_by_default(capfd: pytest.CaptureFixture[str]) -> None:
    _fail(EXITS, "with")
    assert "bad config: no token" in capfd.readouterr().err


@pytest.mark.parametrize("way", WAYS)
def test_a_command_that_does_not_exist(way: str) -> None:
    error, seconds = _fail(MISSING, way)
    assert seconds < MARGIN
    assert error.server == "/nonexistent/mcp-server"
    assert "could not start the server: No such file or directory" in error.message


@pytest.mark.parametrize("way", WAYS)
def test_no_http_listener(way: str) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{free.getsockname()[1]}/mcp"
    error, seconds = _fail(url, way)
    assert seconds < TIMEOUT + MARGIN
    assert error.server == url
    assert "ConnectError" in error.message


@pytest.mark.parametrize("way", WAYS)
def test_an_http_listener_that_never_answers(way: str, deaf_url: str) -> None:
    error, seconds = _fail(deaf_url, way)
    assert seconds < TIMEOUT + MARGIN
    assert f"no answer within {TIMEOUT} s" in error.message
    assert "secret" not in str(error)  # credentials and query are left out
    assert error.server.startswith("http://127.0.0.1:") and error.server.endswith("/mcp")


def test_the_error_pickles_and_chains_its_cause() -> None:
    error, _ = _fail(MISSING, "with")
    assert isinstance(error.__cause__, OSError)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.server, copy.message) == (error.server, error.message)


async def test_a_cancelled_connect_leaves_nothing_running() -> None:
    connection = connect(SILENT, timeout=30)
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(connection.__aenter__(), 0.5)
    assert connection.process is not None
    pid = connection.process.process.pid
    for _ in range(100):  # the session's task stops the process by itself
        if connection.process is None:
            break
        await asyncio.sleep(0.05)
    assert connection.process is None and connection.session is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


class TlsServer(NamedTuple):
    """An ``https`` URL on 127.0.0.1 whose certificate a fresh CA issued, that CA, and the
    request lines the server has read (it answers each request with 404)."""

    url: str
    ca: trustme.CA
    requests: list[bytes]


@pytest.fixture
def tls_server() -> Iterator[TlsServer]:
    ca = trustme.CA()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    listener = socket.create_server(("127.0.0.1", 0))
    not_found = b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    requests: list[bytes] = []

    def answer() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # closed: the test is over
                return
            try:
                with context.wrap_socket(connection, server_side=True) as tls:
                    request = b""
                    while b"\r\n\r\n" not in request:  # the headers, then the body
                        request += tls.recv(65536) or b"\r\n\r\n"
                    head, _, body = request.partition(b"\r\n\r\n")
                    requests.append(head.split(b"\r\n")[0])
                    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
                    while length and len(body) < int(length[1]):
                        body += tls.recv(65536) or b" " * int(length[1])
                    tls.sendall(not_found)
            except OSError:  # the client refused the certificate
                pass

    threading.Thread(target=answer, daemon=True).start()
    with listener:
        url = f"https://127.0.0.1:{listener.getsockname()[1]}/mcp"
        yield TlsServer(url, ca, requests)


def test_an_https_server_is_verified_on_every_connection(
    tls_server: TlsServer, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Connections share one TLS context (made once per process), and it verifies: a server
    whose CA nobody trusts is refused, each time, before any request reaches it; with that CA
    in ``SSL_CERT_FILE`` (read when the context is made), the requests reach it."""
    for _ in range(2):
        error, _ = _fail(tls_server.url, "with")
        assert "CERTIFICATE_VERIFY_FAILED" in str(error), error
    assert tls_server.requests == []
    bundle = tmp_path / "ca.pem"
    tls_server.ca.cert_pem.write_to_path(str(bundle))
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    _compat._tls_context.cache_clear()
    try:
        error, _ = _fail(tls_server.url, "async with")
    finally:
        _compat._tls_context.cache_clear()
    assert "CERTIFICATE" not in str(error), error
    assert tls_server.requests[0] == b"POST /mcp HTTP/1.1", tls_server.requests
