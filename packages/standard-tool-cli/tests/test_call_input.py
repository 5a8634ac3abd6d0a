"""``call``: input that is not a JSON object is refused the same way on every path; without
``--input``, a tool that requires nothing is called with ``{}``, and one that requires
arguments is a usage error."""

from __future__ import annotations

import json

import pytest
from script import SOURCES, WEATHER, Run, runner

PREFIX = "standard-tool call: "


@pytest.mark.parametrize(
    ("via", "given"),
    [
        ("langchain", "[1]"),
        ("pydantic-ai", "3"),
        ("llama-index", '"x"'),
        ("mcp", "[1]"),
        ("openai", "3"),
        ("openai-agents", "[1]"),
        ("langchain", "null"),
    ],
)
def test_input_that_is_not_an_object_is_refused_as_directly(via: str, given: str) -> None:
    run = runner(via)
    direct = run("call", WEATHER, "multiply", "--input", given)
    assert direct.returncode == 1, direct.stderr
    (expected,) = direct.stderr.splitlines()
    assert "multiply" in expected and "object" in expected
    out = run("call", WEATHER, "multiply", "--input", given, "--via", via)
    assert out.returncode == 1 and out.stdout == ""
    (line,) = out.stderr.splitlines()
    assert line == f"{PREFIX}through {via}: {expected.removeprefix(PREFIX)}"


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ('{"a": ' + "1" * 5000 + ', "b": 2}', "holds a number too large to read"),
        ("[" * 100_000, "nests too deep"),
    ],
)
def test_input_that_python_cannot_read_is_a_usage_error(run: Run, given: str, why: str) -> None:
    out = run("call", WEATHER, "multiply", "--input", given)
    assert out.returncode == 2 and out.stdout == ""
    (line,) = out.stderr.splitlines()
    assert line.startswith(f"{PREFIX}--input {why}") and "unexpected" not in line


def test_no_input_for_a_tool_that_requires_arguments_is_a_usage_error(run: Run) -> None:
    out = run("call", WEATHER, "multiply")
    assert out.returncode == 2 and out.stdout == "", out.stderr
    (line,) = out.stderr.splitlines()
    assert line.startswith(f"{PREFIX}no --input given") and "'multiply'" in line, line
    assert "requires a, b" in line, line
    document = run("call", WEATHER, "multiply", "--json")
    assert document.returncode == 2
    assert json.loads(document.stdout)["error"] == line


def test_no_input_for_a_tool_that_requires_nothing_calls_it_with_an_empty_object(
    run: Run,
) -> None:
    out = run("call", f"{SOURCES}:TEXT_DEFAULT", "echo_default")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == "nothing said"
    (line,) = out.stderr.splitlines()
    assert line == f"{PREFIX}no --input given: calling 'echo_default' with {{}}"
    given = run("call", f"{SOURCES}:TEXT_DEFAULT", "echo_default", "--input", "{}")
    assert given.returncode == 0 and given.stderr == "", given.stderr
    assert given.stdout == out.stdout
