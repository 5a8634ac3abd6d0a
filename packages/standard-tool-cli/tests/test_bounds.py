"""A call or a check ends within ``--timeout`` through every runtime, and the process exits
even when a framework's thread still runs a tool that never answers."""

from __future__ import annotations

import json

import pytest
from script import SOURCES, Run

STALLING = f"{SOURCES}:STALLING"
THROUGH = ["langchain", "llama-index", "mcp", "openai", "openai-agents", "pydantic-ai"]


@pytest.mark.parametrize("via", [None, *THROUGH])
def test_timeout_bounds_a_call_through_every_runtime(run: Run, via: str | None) -> None:
    args = ["call", STALLING, "stall", "--input", "{}", "--timeout", "1"]
    args += ["--via", via] if via else []
    out = run(*args, timeout=60)
    assert out.returncode == 1 and out.stdout == "", out.stderr
    (line,) = out.stderr.splitlines()
    assert "within 1 s" in line and "stall" in line, line


@pytest.mark.parametrize("via", ["llama-index", "pydantic-ai"])
def test_timeout_bounds_a_call_under_json(run: Run, via: str) -> None:
    out = run("call", STALLING, "stall", "--timeout", "1", "--via", via, "--json", timeout=60)
    assert out.returncode == 1
    report = json.loads(out.stdout)
    assert report["ok"] is False and "within 1 s" in report["error"]


def test_check_of_a_tool_that_never_answers_exits(run: Run) -> None:
    args = ["check", STALLING, "--json", "--samples", "1", "--timeout", "1"]
    out = run(*args, "--target", "pydantic-ai", "--target", "llama-index", timeout=90)
    assert out.returncode == 1, out.stderr
    report = json.loads(out.stdout)
    calls = [r for r in report["results"] if r["check"] == "call"]
    assert calls and all("within 1 s" in r["reason"] for r in calls), calls
