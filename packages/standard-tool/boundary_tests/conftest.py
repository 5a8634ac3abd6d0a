"""Real Redis servers for the session: ``redis-server`` on 127.0.0.1, a free port, nothing
saved to disk (one alone, and one as a cluster of one node); a missing ``redis-server`` fails
the tests (it is not a reason to skip)."""

from __future__ import annotations

import functools
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest

START = 30.0
"""The bound, in seconds, on the server's start (answering PING) and on its stop."""


_CLUSTER_BUS = 10_000
"""A cluster node also listens on its port plus this (its cluster bus), so its port is at most
65535 less this."""
_TRIES = 200


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _free_port(cluster: bool = False) -> int:
    """A port free on 127.0.0.1; for a cluster node, one whose bus port is free too."""
    if not cluster:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port: int = probe.getsockname()[1]
            return port
    chooser = random.Random()
    for _ in range(_TRIES):
        port = chooser.randrange(20_000, 65_536 - _CLUSTER_BUS)
        if _bindable(port) and _bindable(port + _CLUSTER_BUS):
            return port
    pytest.fail(f"no free port with a free cluster bus port in {_TRIES} tries")


def _ask(port: int, command: bytes) -> bytes:
    """The start of the server's answer to one inline command, or ``b""`` when none came."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0) as connection:
            connection.sendall(command + b"\r\n")
            return connection.recv(4096)
    except OSError:
        return b""


def _answers(port: int) -> bool:
    return _ask(port, b"PING").startswith(b"+PONG")


@contextmanager
def _serve(tmp_path_factory: pytest.TempPathFactory, *options: str) -> Iterator[int]:
    """A ``redis-server`` with ``options`` in a folder of its own, stopped on leaving: the port
    it answers PING on."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail("redis-server is not installed (Debian: apt-get install redis-server)")
    port = _free_port(cluster="--cluster-enabled" in options)
    folder = tmp_path_factory.mktemp("redis")
    log = folder / "redis.log"
    command = [server, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(folder)]
    command += ["--save", "", "--appendonly", "no", *options]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not answer PING on port {port}: {log.read_text()}")
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(START)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(START)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a Redis server started for this test session, stopped at its end."""
    with _serve(tmp_path_factory) as port:
        yield f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def redis_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[], AbstractContextManager[int]]:
    """Starts a Redis server of the test's own, for a test that stops it: a context manager
    giving the port it answers on, the server stopped on leaving."""
    return functools.partial(_serve, tmp_path_factory)


@pytest.fixture(scope="session")
def redis_cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a Redis cluster of one node holding every hash slot, started for this test
    session: a script there may only touch keys of one slot, as in any cluster."""
    with _serve(tmp_path_factory, "--cluster-enabled", "yes") as port:
        if not _ask(port, b"CLUSTER ADDSLOTSRANGE 0 16383").startswith(b"+OK"):
            pytest.fail("the one-node Redis cluster did not take every hash slot")
        deadline = time.monotonic() + START
        while b"cluster_state:ok" not in _ask(port, b"CLUSTER INFO"):
            if time.monotonic() > deadline:
                pytest.fail("the one-node Redis cluster did not reach cluster_state:ok")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
