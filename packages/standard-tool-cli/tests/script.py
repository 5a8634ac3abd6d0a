"""The ``standard-tool`` console script, run in a subprocess from the repository root."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = Path(sys.executable).parent / "standard-tool"
SOURCES = "packages/standard-tool-cli/tests/sources.py"
WEATHER = "examples/weather.py:TOOLS"
MCP_TIME = f"mcp+stdio:{sys.executable} -m mcp_server_time"
"""mcp-server-time from PyPI (a test dependency), started over stdio by the command."""

Run = Callable[..., subprocess.CompletedProcess[str]]


def run_script(
    *args: str,
    stdin: str | None = None,
    timeout: float = 120,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``standard-tool ARGS...`` (from the repository root): exit status, stdout and stderr;
    ``env`` is added to the environment."""
    return subprocess.run(
        [str(SCRIPT), *args],
        cwd=cwd,
        env=None if env is None else {**os.environ, **env},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def run() -> Run:
    return run_script


__all__ = ["MCP_TIME", "ROOT", "SCRIPT", "SOURCES", "WEATHER", "Run", "run", "run_script"]


@contextlib.contextmanager
def serving_http() -> Iterator[str]:
    """``standard-tool serve --transport streamable-http`` of the test tools on a free port:
    its base URL (``http://127.0.0.1:PORT``, the tools at ``/mcp``), stopped on leaving."""
    process = subprocess.Popen(
        [str(SCRIPT), "serve", f"{SOURCES}:TOOLS", "--transport", "streamable-http", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()  # the start line names the bound port
        match = re.search(r"(http://127\.0\.0\.1:\d+)/mcp", line)
        assert match, line
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()
