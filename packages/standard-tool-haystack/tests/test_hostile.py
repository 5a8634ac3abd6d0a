"""Hostile input in real runs: Haystack's error results naming the tool and the field, never
the value."""

from __future__ import annotations

from typing import Any

import pytest

import standard_tool as st
from standard_tool_haystack import run_agent, to_haystack

SECRET = "hunter2-secret"


def _add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


ADD = st.tool(_add, name="add")


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"a": SECRET}, "a"),
        ({"a": 1, "zzz": SECRET}, "zzz"),
        ({"a": 2.5}, "a"),
        ({"a": [[[[[[[[[[[[SECRET]]]]]]]]]]]]}, "a"),
        ({"a": 1, "b": {"x": SECRET}}, "b"),
    ],
)
def test_bad_arguments_are_named_not_echoed(arguments: Any, words: str) -> None:
    run = run_agent([to_haystack(ADD)], [[("add", arguments)]], {"token": SECRET})
    [result] = run.results
    assert result.error is True
    assert str(result.result).startswith("Invalid input for tool 'add'"), result.result
    assert words in result.result and SECRET not in result.result


def test_a_tool_that_exits_does_not_end_the_run() -> None:
    @st.tool
    def leave(context: Any = None) -> str:
        """Leave."""
        raise SystemExit(3)

    run = run_agent(
        [to_haystack(leave), to_haystack(ADD)],
        [[("leave", {})], [("add", {"a": 1})], "done"],
        {"token": SECRET},
    )
    first, second = run.results
    assert first.error is True and str(first.result).startswith("Tool 'leave' failed")
    assert SECRET not in str(first.result) and "Traceback" not in str(first.result)
    assert (second.error, second.result) == (False, "2")


def test_a_result_that_is_no_json_is_an_invalid_output() -> None:
    @st.tool
    def odd() -> Any:
        """Return something odd."""
        return object()

    run = run_agent([to_haystack(odd)], [[("odd", {})]])
    [result] = run.results
    assert result.error is True
    assert "odd" in result.result and "output" in result.result and "object at" not in result.result


def test_a_context_value_never_reaches_the_model() -> None:
    @st.tool
    def leak(context: Any = None) -> str:
        """Fail with the context."""
        raise RuntimeError(f"token {context['token']}")

    run = run_agent([to_haystack(leak)], [[("leak", {})]], {"token": SECRET})
    [result] = run.results
    assert result.error is True and SECRET not in result.result
