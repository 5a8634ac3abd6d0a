"""The official MCP conformance suite (npm ``@modelcontextprotocol/conformance``) and Node 22,
installed once per checkout into pytest's cache from the npm registry."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SUITE = "@modelcontextprotocol/conformance@0.1.16"
NODE = "node@22"
HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def conformance(request: pytest.FixtureRequest) -> list[str]:
    """The command that runs the suite's CLI."""
    folder = request.config.cache.mkdir("mcp-conformance-0.1.16")
    node = folder / "node_modules" / ".bin" / "node"
    cli = folder / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    if not (node.exists() and cli.exists()):
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("npm is needed to install the MCP conformance suite and Node 22")
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(folder), NODE, SUITE],
            check=True,
            timeout=600,
        )
    return [str(node), str(cli)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def server_url() -> Iterator[str]:
    """The fixture server (``server.py``) over streamable HTTP on 127.0.0.1."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(HERE / "server.py"), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    _, err = process.communicate(timeout=10)
                    pytest.fail(f"the fixture server did not start:\n{err}")
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
