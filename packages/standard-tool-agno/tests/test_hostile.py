"""Hostile input in real runs: typed errors naming the tool and the field, never the value."""

from __future__ import annotations

from typing import Any

import pytest

import standard_tool as st
from standard_tool_agno import run_agent, to_agno

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
        ({"a": 1, "_agno_agent": SECRET}, "_agno_agent"),  # a key Agno drops for itself
        ({"a": 2.5}, "a"),
        ({"a": "true"}, "a"),  # a string, not the boolean Agno would make of it
        ({"a": [[[[[[[[[[[[SECRET]]]]]]]]]]]]}, "a"),
    ],
)
def test_bad_arguments_are_named_not_echoed(arguments: Any, words: str) -> None:
    run = run_agent([to_agno(ADD)], [[("add", arguments)], "done"], {"token": SECRET})
    [message] = run.results
    text = run.texts[0]
    assert message.tool_call_error is True
    assert text.startswith("Invalid input for tool 'add'"), text
    assert words in text and SECRET not in text


@pytest.mark.parametrize("arguments", ["{not json", "[1, 2]", '"text"'])
def test_arguments_that_are_no_json_object_are_answered_by_agno(arguments: str) -> None:
    """Agno answers these itself, before any tool runs (its message names neither the tool
    nor the value)."""
    ran: list[Any] = []

    @st.tool
    def keep(a: Any = None) -> str:
        """Keep it."""
        ran.append(a)
        return "ok"

    run = run_agent([to_agno(keep)], [[("keep", arguments)], "done"])
    assert ran == []
    assert all(SECRET not in text for text in run.texts)


def test_a_tool_that_exits_does_not_end_the_run() -> None:
    @st.tool
    def leave(context: Any = None) -> str:
        """Leave."""
        raise SystemExit(3)

    run = run_agent(
        [to_agno(leave), to_agno(ADD)],
        [[("leave", {})], [("add", {"a": 1})], "done"],
        {"token": SECRET},
    )
    first, second = run.texts
    assert first.startswith("Tool 'leave' failed") and SECRET not in first
    assert second == "2"


def test_a_result_that_is_no_json_is_an_invalid_output() -> None:
    @st.tool
    def odd() -> Any:
        """Return something odd."""
        return object()

    run = run_agent([to_agno(odd)], [[("odd", {})], "done"])
    [text] = run.texts
    assert "odd" in text and "output" in text and "object at" not in text
