"""``call``: input that is not a JSON object is refused the same way on every path."""

from __future__ import annotations

import pytest
from script import WEATHER, Run

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
def test_input_that_is_not_an_object_is_refused_as_directly(run: Run, via: str, given: str) -> None:
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
