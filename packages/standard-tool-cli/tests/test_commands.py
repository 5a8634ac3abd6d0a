"""Each subcommand, through the real console script: output, JSON, exit status."""

from __future__ import annotations

import json
import sys

import pytest
from script import MCP_TIME, ROOT, SOURCES, WEATHER, Run, runner

import standard_tool as st
from standard_tool.registry import runtime

sys.path.insert(0, str(ROOT / "examples"))
import weather  # noqa: E402

COMMANDS = [
    "targets",
    "list",
    "snapshot",
    "show",
    "call",
    "serve",
    "check",
    "lint",
    "diff",
    "pending",
    "approve",
    "reject",
]
GATED = ["call", "serve", "pending", "approve", "reject"]
"""The commands that take --gate."""
RUNTIMES = [
    "agent-framework",
    "agno",
    "anthropic",
    "gemini",
    "google-adk",
    "haystack",
    "hf",
    "langchain",
    "llama-index",
    "mcp",
    "openai",
    "openai-agents",
    "pydantic-ai",
    "smolagents",
    "toy",
]
"""Every installed target but the direct call has a runtime (the providers' is the core's)."""


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_every_command_has_help_with_examples(run: Run, command: str | None) -> None:
    out = run(*([command] if command else []), "--help")
    assert out.returncode == 0, out.stderr
    assert "Examples:" in out.stdout and "standard-tool" in out.stdout
    words = " ".join(out.stdout.split())
    if command not in (None, "targets", "pending", "approve", "reject"):
        assert "SOURCE is package.module:attribute" in words
    if command in GATED:
        assert "--gate is package.module:attribute or path/to/file.py:attribute" in words


def test_targets_lists_what_the_registry_has(run: Run) -> None:
    out = run("targets", "--json")
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout)
    installed = {info.name: info for info in st.targets()}
    assert [row["target"] for row in listed["targets"]] == sorted(installed)
    for row in listed["targets"]:
        assert row["version"] == installed[row["target"]].version
        assert row["runtime"] is (row["target"] in RUNTIMES)
    assert {"draft-2020-12", "draft-07", "openapi-3.0"} <= set(listed["dialects"])
    table = run("targets").stdout
    assert all(name in table for name in installed) and "pydantic-ai-slim" in table


def test_list_shows_each_tool_and_its_arguments(run: Run) -> None:
    out = run("list", WEATHER)
    assert out.returncode == 0, out.stderr
    for tool in weather.TOOLS:
        assert tool.name in out.stdout
    assert "location*: Location" in out.stdout and 'units: "c"|"f" = "c"' in out.stdout
    listed = json.loads(run("list", WEATHER, "--json").stdout)
    assert [entry["name"] for entry in listed] == [tool.name for tool in weather.TOOLS]
    assert listed[2]["title"] == "Multiply" and listed[2]["meta"] == {"destructive": False}
    assert listed[0]["input_schema"] == st.input_json_schema(weather.get_forecast)


def test_list_adopts_a_framework_toolkit(run: Run) -> None:
    (entry,) = json.loads(run("list", f"{SOURCES}:TOOLKIT", "--json").stdout)
    assert entry["name"] == "add" and entry["input_schema"]["required"] == ["a"]


def test_list_a_real_mcp_server_over_stdio(run: Run) -> None:
    out = run("list", MCP_TIME, "--json")
    assert out.returncode == 0, out.stderr
    names = [entry["name"] for entry in json.loads(out.stdout)]
    assert names == ["get_current_time", "convert_time"]
    table = run("list", MCP_TIME).stdout
    assert "timezone*: string" in table


def test_a_module_source_from_the_current_folder(run: Run) -> None:
    out = run("list", "examples.weather:TOOLS", "--json")  # as `python -m` finds modules
    assert out.returncode == 0, out.stderr
    assert [entry["name"] for entry in json.loads(out.stdout)][-1] == "multiply"
    out = run("list", "textwrap:dedent", "--json")  # a plain function is adopted by the core
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)[0]["name"] == "dedent"


@pytest.mark.parametrize("target", ["draft-07", "openapi-3.0"])
def test_show_in_a_dialect(run: Run, target: str) -> None:
    out = run("show", WEATHER, "get_forecast", "--as", target)
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["input_schema"] == st.input_json_schema(weather.get_forecast, target=target)
    assert shown["output_schema"] == st.output_json_schema(weather.get_forecast, target=target)


def test_show_as_standard_by_default(run: Run) -> None:
    shown = json.loads(run("show", WEATHER, "multiply").stdout)
    assert shown == {
        "name": "multiply",
        "title": "Multiply",
        "description": "Multiply two integers.",
        "input_schema": st.input_json_schema(weather.multiply),
        "output_schema": st.output_json_schema(weather.multiply),
        "meta": {"destructive": False},
    }


@pytest.mark.parametrize("target", RUNTIMES)
def test_show_as_the_framework_sees_it(target: str) -> None:
    out = runner(target)("show", WEATHER, "get_forecast", "--as", target)
    assert out.returncode == 0, out.stderr
    registered = runtime(target)
    assert registered is not None
    expected = registered.declaration(registered.native(weather.get_forecast))
    assert json.loads(out.stdout) == expected
    assert "get_forecast" in out.stdout


def test_show_an_unknown_target_lists_targets_and_dialects(run: Run) -> None:
    out = run("show", WEATHER, "multiply", "--as", "nope")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1
    assert "--as 'nope'" in out.stderr and "langchain" in out.stderr and "draft-07" in out.stderr


@pytest.mark.parametrize("via", [None, *RUNTIMES])
def test_call_directly_or_through_a_runtime(via: str | None) -> None:
    run = runner(via)
    args = ["call", WEATHER, "multiply", "--input", '{"a": 6, "b": 7}']
    out = run(*args, *(["--via", via] if via else []))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"product": 42}
    forecast = run(
        "call",
        WEATHER,
        "get_forecast",
        "--input",
        '{"location": {"city": "Lyon"}, "day": "2026-12-02"}',
        *(["--via", via] if via else []),
    )
    assert json.loads(forecast.stdout) == st.jsonable(
        weather.get_forecast.execute({"location": {"city": "Lyon"}, "day": "2026-12-02"})
    )


@pytest.mark.parametrize("via", [None, "langchain", "pydantic-ai", "llama-index", "openai-agents"])
def test_call_passes_the_context(via: str | None) -> None:
    run = runner(via)
    args = ["call", f"{SOURCES}:TOOLS", "whoami", "--input", '{"label": "x"}']
    out = run(*args, "--context", '{"user": "ada"}', *(["--via", via] if via else []))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"label": "x", "context": {"user": "ada"}}


def test_call_through_mcp_passes_the_context_as_meta(run: Run) -> None:
    args = ["call", f"{SOURCES}:TOOLS", "whoami", "--input", '{"label": "x"}', "--via", "mcp"]
    out = run(*args, "--context", '{"user": "ada"}')
    assert json.loads(out.stdout)["context"]["meta"]["user"] == "ada"


@pytest.mark.parametrize("via", [None, *RUNTIMES])
def test_a_failing_tool_exits_1_with_one_line(via: str | None) -> None:
    run = runner(via)
    args = ["call", f"{SOURCES}:TOOLS", "explode", "--input", '{"reason": "on purpose"}']
    out = run(*args, *(["--via", via] if via else []))
    assert out.returncode == 1 and out.stdout == ""
    (line,) = out.stderr.splitlines()
    assert line.startswith("standard-tool call: ") and "exploded: on purpose" in line
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("via", [None, *RUNTIMES])
def test_input_the_schema_refuses_exits_1_naming_the_field(via: str | None) -> None:
    run = runner(via)
    args = ["call", WEATHER, "multiply", "--input", '{"a": 6, "b": "seven"}']
    out = run(*args, *(["--via", via] if via else []))
    assert out.returncode == 1, out.stdout
    (line,) = out.stderr.splitlines()
    named = "multiply" in line or via == "smolagents"  # its agent's own check names no tool
    assert named and "b" in line and "seven" not in line


def test_call_json_output_and_input_from_a_file_or_stdin(run: Run, tmp_path: object) -> None:
    out = run("call", WEATHER, "multiply", "--input", "-", "--json", stdin='{"a": 2, "b": 3}')
    assert json.loads(out.stdout) == {
        "tool": "multiply",
        "via": None,
        "ok": True,
        "value": {"product": 6},
        "error": None,
    }
    failed = run("call", f"{SOURCES}:TOOLS", "explode", "--input", '{"reason": "x"}', "--json")
    assert failed.returncode == 1 and failed.stderr == ""
    assert json.loads(failed.stdout)["ok"] is False
    assert "exploded: x" in json.loads(failed.stdout)["error"]


def test_call_a_real_mcp_server_and_through_langchain(run: Run) -> None:
    args = ["call", MCP_TIME, "get_current_time", "--input", '{"timezone": "Europe/Paris"}']
    for extra in ([], ["--via", "langchain"]):
        out = run(*args, *extra)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["timezone"] == "Europe/Paris"


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "hf"])
def test_via_a_provider_runs_the_call_the_model_sends(run: Run, provider: str) -> None:
    direct = run("call", WEATHER, "multiply", "--input", '{"a": 6, "b": 7}')
    out = run("call", WEATHER, "multiply", "--input", '{"a": 6, "b": 7}', "--via", provider)
    assert out.returncode == direct.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(direct.stdout)
    refused = run("call", WEATHER, "multiply", "--input", '{"a": 6}', "--via", provider)
    assert refused.returncode == 1 and f"through {provider}: " in refused.stderr
    assert "multiply" in refused.stderr


def test_via_an_unknown_target_is_a_usage_error(run: Run) -> None:
    out = run("call", WEATHER, "multiply", "--input", '{"a": 1, "b": 2}', "--via", "nope")
    assert out.returncode == 2 and "nope" in out.stderr
    assert out.stderr.count("\n") == 1
