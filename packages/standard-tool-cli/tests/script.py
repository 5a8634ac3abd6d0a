"""The ``standard-tool`` command, run from the repository root: its console script in a
subprocess (:func:`run_script`), or its ``main`` in this process (:func:`invoke`)."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

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


def invoke(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``standard-tool ARGS...`` run in this process (its ``main``, from the repository root):
    exit status, stdout and stderr, as :func:`run_script` gives them; ``env`` is added to the
    environment for the run.

    For the tests that run one command through each framework in turn: each framework is
    imported once, not once a process. What belongs to a process (the console script, its
    exit, where ``--json`` sends what is written at the file descriptor) is tested through
    :func:`run_script`."""
    from standard_tool_cli._app import main
    from standard_tool_cli._document import DOCUMENT

    out, err = io.StringIO(), io.StringIO()
    status: Any = 0
    where = Path.cwd()
    os.chdir(ROOT)
    try:
        with (
            mock.patch.dict(os.environ, env or {}),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            main(list(args))
    except SystemExit as exit_:
        status = exit_.code
    finally:
        os.chdir(where)
        DOCUMENT.stream = None  # --json's document was this run's stdout: the next run's is its own
    assert isinstance(status, int), status
    return subprocess.CompletedProcess(list(args), status, out.getvalue(), err.getvalue())


PROCESSES = (None, "langchain", "mcp")
"""The ways to call (directly, through LangChain, through MCP) whose tests run the console
script, each command its own process; through the other runtimes, :func:`runner` gives
:func:`invoke`, which imports each framework once."""


def runner(via: str | None) -> Run:
    """How a test that runs one command through each runtime in turn runs it ``--via``
    ``via``: the console script for :data:`PROCESSES`, else in this process."""
    return run_script if via in PROCESSES else invoke


@functools.cache
def weather_report() -> subprocess.CompletedProcess[str]:
    """``standard-tool check examples/weather.py:TOOLS --json``, through every installed
    target: run once, read by each test that asks what it says."""
    return run_script("check", WEATHER, "--json", timeout=180)


__all__ = [
    "MCP_TIME",
    "PROCESSES",
    "ROOT",
    "SCRIPT",
    "SOURCES",
    "WEATHER",
    "Run",
    "invoke",
    "run",
    "run_script",
    "runner",
    "weather_report",
]


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
