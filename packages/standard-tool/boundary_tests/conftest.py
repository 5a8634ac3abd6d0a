"""A real Redis server for the session: ``redis-server`` on 127.0.0.1, a free port, nothing
saved to disk; a missing ``redis-server`` fails the tests (it is not a reason to skip)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest

START = 30.0
"""The bound, in seconds, on the server's start (answering PING) and on its stop."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a Redis server started for this test session, stopped at its end."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail("redis-server is not installed (Debian: apt-get install redis-server)")
    port = _free_port()
    log = tmp_path_factory.mktemp("redis") / "redis.log"
    command = [server, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly"]
    with log.open("wb") as out:
        process = subprocess.Popen([*command, "no"], stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not answer PING on port {port}: {log.read_text()}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(START)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(START)
