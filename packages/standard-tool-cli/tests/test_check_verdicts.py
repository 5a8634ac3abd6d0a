"""``standard-tool check`` on tools whose inputs made from the schema never run, inputs given
with ``--input``, a result that breaks the output schema, text results through every real
runtime, a tool a framework cannot run, and the lines it writes on stderr as it goes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from script import ROOT, SOURCES, Run, invoke

from standard_tool.checks import installed_targets

OFFSETS = f"{SOURCES}:OFFSETS"
THREE = ["--target", "standard", "--target", "langchain", "--target", "mcp"]
PARIS = 'utc_offset={"timezone": "Europe/Paris"}'


@pytest.fixture
def run() -> Run:
    """Each check in this process: the frameworks imported once for the module."""
    return invoke


def fail_lines(stdout: str) -> list[str]:
    """The failure listing: ``FAIL tool, check -> targets: reason`` lines."""
    return [line for line in stdout.splitlines() if re.match(r"FAIL \S+, [a-z ]+ -> ", line)]


def report(out: Any) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(out.stdout)
    return document


def test_no_input_that_runs_fails_call_with_one_line_naming_every_target(run: Run) -> None:
    out = run("check", OFFSETS, *THREE)
    assert out.returncode == 1, out.stderr
    (line,) = fail_lines(out.stdout)
    assert line.startswith(
        "FAIL utc_offset, call -> standard, langchain, mcp: no input ran: the direct call "
        'failed for each of the 5 inputs made from its schema, the first {"timezone": ""} '
        "with: Tool 'utc_offset' failed: ValueError: "
    ), line
    assert line.endswith(
        "give one that runs: standard-tool check --input utc_offset=JSON, or "
        '@pytest.mark.standard_tools(..., inputs={"utc_offset": ...})'
    ), line
    assert out.stdout.rstrip().splitlines()[-1] == "9 checks passed, 3 failed, 0 skipped"


def test_an_input_given_makes_it_pass(run: Run) -> None:
    out = run("check", OFFSETS, *THREE, "--input", PARIS, "--json")
    assert out.returncode == 0, out.stdout
    results = report(out)["results"]
    assert {r["status"] for r in results} == {"pass"}
    (direct,) = [r for r in results if (r["target"], r["check"]) == ("standard", "call")]
    assert direct["reason"] == 'input {"timezone": "Europe/Paris"}, given'


def test_inputs_given_are_tried_in_order_from_a_file_too(run: Run, tmp_path: Path) -> None:
    given = tmp_path / "paris.json"
    given.write_text('{"timezone": "Europe/Paris"}')
    args = ["--input", 'utc_offset={"timezone": "Nowhere/Else"}', "--input", f"utc_offset=@{given}"]
    out = run("check", OFFSETS, *THREE, *args, "--json")
    assert out.returncode == 0, out.stdout
    (direct,) = [
        r for r in report(out)["results"] if (r["target"], r["check"]) == ("standard", "call")
    ]
    assert direct["reason"] == 'input {"timezone": "Europe/Paris"}, given'


def test_inputs_given_that_never_run_say_so(run: Run) -> None:
    out = run("check", OFFSETS, *THREE, "--input", 'utc_offset={"timezone": "Nowhere/Else"}')
    assert out.returncode == 1
    assert (
        "FAIL utc_offset, call -> standard, langchain, mcp: no input ran: the direct call failed "
        'for the one input given, the first {"timezone": "Nowhere/Else"} with: ' in out.stdout
    )


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ('nope={"a": 1}', "--input nope=...: no tool 'nope' in SOURCE; its tools: utc_offset"),
        ('{"timezone": "UTC"}', "names no tool; write --input TOOL=JSON"),
        ("utc_offset={'timezone': 'UTC'}", "--input utc_offset= is not valid JSON"),
        ("utc_offset=@missing.json", "cannot read the file"),
    ],
)
def test_a_wrong_input_is_a_usage_error(run: Run, given: str, says: str) -> None:
    out = run("check", OFFSETS, "--input", given)
    assert out.returncode == 2, out.stderr
    assert out.stdout == ""
    (line,) = out.stderr.splitlines()
    assert line.startswith("standard-tool check: ") and says in line, line


def test_a_result_that_breaks_the_output_schema_fails(run: Run) -> None:
    out = run("check", f"{SOURCES}:WRONG_OUTPUT", *THREE)
    assert out.returncode == 1
    (line,) = fail_lines(out.stdout)
    assert line == (
        "FAIL offset_seconds, call -> standard, langchain, mcp: its result fails its output "
        'schema, for input {"timezone": "Europe/Paris"}: Invalid output for tool '
        "'offset_seconds' (1 issue): seconds: must be of type string"
    )


@pytest.mark.parametrize("text", ["42\n", ' {"method": "GET"}\n', "plain text"])
def test_a_text_result_reads_the_same_through_every_runtime(run: Run, text: str) -> None:
    """Compared with the text each framework hands the model, not with the JSON it holds."""
    out = run("check", f"{SOURCES}:TEXT", "--input", f"echo={json.dumps({'text': text})}", "--json")
    assert out.returncode == 0, out.stdout
    calls = [r for r in report(out)["results"] if r["check"] == "call"]
    assert {r["target"] for r in calls} == set(installed_targets())
    assert {r["status"] for r in calls} == {"pass"}, calls


@pytest.mark.skipif("smolagents" not in installed_targets(), reason="needs smolagents")
def test_a_tool_a_framework_cannot_run_is_skipped_there(run: Run) -> None:
    out = run("check", f"{SOURCES}:FINAL", "--target", "standard", "--target", "smolagents")
    assert out.returncode == 0, out.stdout
    assert re.search(
        r"^skipped call, refuse for smolagents: tool 'final_answer' cannot run through "
        r"smolagents as it is: ",
        out.stdout,
        re.M,
    ), out.stdout
    assert "smolagents: compared as the model reads it: " in out.stdout  # its normalisation


def test_progress_goes_to_stderr_a_line_per_tool_and_target(run: Run) -> None:
    out = run("check", f"{ROOT / SOURCES}:TOOLS", *THREE, "--input", 'explode={"reason": "x"}')
    assert out.stderr.splitlines() == [
        "checking 2 tools through 3 targets",
        "checked whoami directly (1/6)",
        "checked whoami through langchain (2/6)",
        "checked whoami through mcp (3/6)",
        "checked explode directly (4/6)",
        "checked explode through langchain (5/6)",
        "checked explode through mcp (6/6)",
    ]
    with_json = run("check", f"{SOURCES}:TOOLS", *THREE, "--json")
    assert report(with_json)["targets"] == ["standard", "langchain", "mcp"]  # stdout: JSON alone
    assert with_json.stderr.splitlines()[0] == "checking 2 tools through 3 targets"
