"""The official MCP conformance suite (npm ``@modelcontextprotocol/conformance``) and Node 22,
installed once per machine from the npm registry, into the user's cache folder
(``$XDG_CACHE_HOME``, else ``~/.cache``: ``standard-tool/mcp-conformance-<suite>-node<version>``),
where every clone and every run reuses it."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SUITE = "@modelcontextprotocol/conformance@0.1.16"
NODE = "node@22"
HERE = Path(__file__).parent


def cache_folder() -> Path:
    """Where Node and the suite are installed: one folder per machine and pair of versions."""
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    version = SUITE.rsplit("@", 1)[1]
    return Path(home, "standard-tool", f"mcp-conformance-{version}-{NODE.replace('@', '')}")


@pytest.fixture(scope="session")
def conformance() -> list[str]:
    """The command that runs the suite's CLI (Node and the suite installed on first use)."""
    folder = cache_folder()
    node = folder / "node_modules" / ".bin" / "node"
    cli = folder / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    if not (node.exists() and cli.exists()):
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("npm is needed to install the MCP conformance suite and Node 22")
        folder.parent.mkdir(parents=True, exist_ok=True)
        # Installed beside, then renamed into place: a run never sees half an install.
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
        try:
            subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--prefix", str(staging), NODE, SUITE],
                check=True,
                timeout=600,
            )
            shutil.rmtree(folder, ignore_errors=True)
            try:
                staging.rename(folder)
            except OSError:  # another run put its install there first
                if not (node.exists() and cli.exists()):
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
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
