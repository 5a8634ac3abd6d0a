"""Usage errors (one line, exit 2), ``serve`` answered by a real MCP client, and ``check``."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import time
from pathlib import Path

import pytest
from script import ROOT, SCRIPT, SOURCES, WEATHER, Run, invoke, serving_http, weather_report

import standard_tool as st
from standard_tool_mcp import connect


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["list", "examples/weather.py"], "names no attribute; write package.module:attribute"),
        (["list", "examples/nope.py:TOOLS"], "no file 'examples/nope.py'"),
        (["list", "no_such_module_here:TOOLS"], "no module 'no_such_module_here'"),
        (["list", "examples/weather.py:NOPE"], "its tools: TOOLS, get_forecast, multiply"),
        (["list", f"{SOURCES}:NOT_A_TOOL"], "is a builtins.int, which no installed adapter adopts"),
        (["list", "json:dumps"], "parameter 'kw' is variadic"),
        (["list", "mcp+stdio:"], "names no command"),
        (["call", WEATHER, "nope"], "no tool 'nope' in SOURCE"),
        (["call", WEATHER, "multiply", "--input", "{'a': 1}"], "--input is not valid JSON"),
        (["call", WEATHER, "multiply", "--input", "@missing.json"], "cannot read the file"),
        (["call", WEATHER, "multiply", "--context", "not json"], "--context is not valid JSON"),
        (["show", WEATHER, "multiply", "--as", "nope"], "is neither an installed target"),
        (["check", WEATHER, "--target", "nope"], "--target 'nope' is not installed"),
        (["list"], "Missing argument 'SOURCE'"),
        (["serve", WEATHER, "--transport", "carrier-pigeon"], "Invalid value for '--transport'"),
        (["nope"], "No such command 'nope'"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(run: Run, args: list[str], says: str) -> None:
    out = run(*args)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stdout == ""
    (line,) = out.stderr.splitlines()
    assert line.startswith("standard-tool") and says in line, line
    assert "Traceback" not in out.stderr


def test_debug_shows_the_traceback(run: Run) -> None:
    out = run("list", "examples/weather.py:NOPE", "--debug")
    assert out.returncode == 2
    assert "Traceback (most recent call last)" in out.stderr
    assert out.stderr.rstrip().splitlines()[-1].startswith("standard-tool list: ")


def test_serve_over_stdio_answers_a_real_mcp_client() -> None:
    with connect([str(SCRIPT), "serve", WEATHER], cwd=str(ROOT), timeout=60) as tools:
        by_name = {tool.name: tool for tool in tools}
        assert list(by_name) == ["get_forecast", "wait_and_echo", "multiply"]
        assert st.call(by_name["multiply"], {"a": 6, "b": 7}) == {"product": 42}
        assert by_name["multiply"].title == "Multiply"
        with pytest.raises(st.ToolValidationError):
            st.call(by_name["multiply"], {"a": 6})


def test_serve_an_mcp_server_again_over_stdio() -> None:
    """A proxy: the tools of mcp-server-time (started by the command) served by the command."""
    from script import MCP_TIME

    with connect([str(SCRIPT), "serve", MCP_TIME], cwd=str(ROOT), timeout=60) as tools:
        assert [tool.name for tool in tools] == ["get_current_time", "convert_time"]
        now = st.call(tools[0], {"timezone": "Europe/Paris"})
        assert now["timezone"] == "Europe/Paris"


def test_serve_over_streamable_http_on_a_free_port() -> None:
    with serving_http() as base, connect(f"{base}/mcp", timeout=30) as tools:
        whoami = next(tool for tool in tools if tool.name == "whoami")
        assert st.call(whoami, {"label": "x"})["label"] == "x"


def test_check_passes_every_tool_through_every_runtime() -> None:
    out = weather_report()
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["passed"] is True
    installed = [info.name for info in st.targets()]
    assert report["targets"] == ["standard", *(n for n in installed if n != "standard")]
    for target in ("langchain", "llama-index", "mcp", "openai-agents", "pydantic-ai"):
        for tool in ("get_forecast", "wait_and_echo", "multiply"):
            mine = [r for r in report["results"] if (r["tool"], r["target"]) == (tool, target)]
            assert [(r["check"], r["status"]) for r in mine] == [
                ("convert", "pass"),
                ("schema", "pass"),
                ("round trip", "pass"),
                ("call", "pass"),
                ("refuse", "pass"),
            ], mine
    direct = [r for r in report["results"] if r["target"] == "standard"]
    assert {r["status"] for r in direct} == {"pass"}
    assert '"day": "2000-01-01"' in direct[0]["reason"]  # the simplest generated input
    assert '"country": "FR"' in direct[0]["reason"]  # with the values the schema gives
    lines = out.stderr.splitlines()  # a line per tool and target, stdout the JSON alone
    assert lines[0] == f"checking 3 tools through {len(report['targets'])} targets"
    assert len(lines) == 1 + 3 * len(report["targets"])


def test_check_is_the_same_on_every_run_and_leaves_no_files(run: Run, tmp_path: Path) -> None:
    source = f"{ROOT / SOURCES}:TOOLS"
    first = run("check", source, "--json", "--target", "langchain", cwd=tmp_path)
    second = run("check", source, "--json", "--target", "langchain", cwd=tmp_path)
    assert first.stdout == second.stdout
    assert first.returncode == second.returncode == 1  # explode never runs: its call fails
    assert list(tmp_path.iterdir()) == []  # Hypothesis keeps no files in the current folder


def test_check_reports_each_failure_with_its_reason() -> None:
    targets = ["--target", "standard", "--target", "mcp", "--target", "llama-index"]
    out = invoke("check", f"{SOURCES}:BROKEN", *targets)
    assert out.returncode == 1
    assert "FAIL" in out.stdout
    assert re.search(
        r"FAIL shout, convert -> mcp: .*input schema must accept an object", out.stdout
    )
    assert re.search(
        r"skipped schema, round trip, call, refuse for .*\bmcp\b.*: not converted", out.stdout
    )
    report = json.loads(invoke("check", f"{SOURCES}:BROKEN", "--json", *targets).stdout)
    failed = {(r["target"], r["check"]) for r in report["results"] if r["status"] == "fail"}
    assert ("mcp", "convert") in failed and ("llama-index", "schema") in failed
    assert report["passed"] is False


def test_check_a_real_mcp_server() -> None:
    """mcp-server-time's schemas say "a string" where only a timezone's name runs: no input
    made from them runs, and each tool needs one given."""
    from script import MCP_TIME

    targets = ["--target", "standard", "--target", "langchain", "--target", "mcp"]
    out = invoke("check", MCP_TIME, "--json", *targets)
    assert out.returncode == 1, out.stdout
    report = json.loads(out.stdout)
    calls = [r for r in report["results"] if r["check"] == "call"]
    assert len(calls) == 6 and {r["status"] for r in calls} == {"fail"}
    assert all(r["reason"].startswith("no input ran: ") for r in calls), calls
    given = [
        "--input",
        'get_current_time={"timezone": "Europe/Paris"}',
        "--input",
        'convert_time={"source_timezone": "Europe/Paris", "time": "16:30", '
        '"target_timezone": "Asia/Tokyo"}',
    ]
    out = invoke("check", MCP_TIME, "--json", *targets, *given)
    assert out.returncode == 0, out.stdout
    report = json.loads(out.stdout)
    assert {r["status"] for r in report["results"]} == {"pass"}
    direct = {
        r["tool"]: r["reason"]
        for r in report["results"]
        if (r["target"], r["check"]) == ("standard", "call")
    }
    assert direct["get_current_time"] == 'input {"timezone": "Europe/Paris"}, given'
    assert direct["convert_time"].endswith(", given")


def test_check_shows_progress_on_a_terminal() -> None:
    """On a terminal, a progress display runs on stderr while the checks run."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [str(SCRIPT), "check", WEATHER, "--target", "langchain"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env={**os.environ, "TERM": "xterm", "COLUMNS": "100"},
    )
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    process.wait(timeout=60)
    os.close(leader)
    assert process.returncode == 0
    assert b"langchain checked" in seen or b"calling it directly" in seen, seen[-500:]
    assert b"checked get_forecast through" not in seen  # the bar, not the lines for a log


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_debug_shows_the_traceback_of_a_tools_failure(run: Run, extra: list[str]) -> None:
    args = ["call", f"{SOURCES}:TOOLS", "explode", "--input", '{"reason": "on purpose"}']
    out = run(*args, "--debug", *extra)
    assert out.returncode == 1
    assert "Traceback (most recent call last)" in out.stderr
    assert "RuntimeError: exploded: on purpose" in out.stderr
    if extra:
        assert json.loads(out.stdout)["ok"] is False
    else:
        assert out.stderr.rstrip().splitlines()[-1].startswith("standard-tool call: ")
