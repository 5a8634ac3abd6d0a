"""Hostile input in real runs: typed errors naming the tool and the field, never the value."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import standard_tool as st
from standard_tool_agent_framework import to_agent_framework

SECRET = "hunter2-secret"


def _add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


ADD = st.tool(_add, name="add")


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ("{not json", "not a JSON object"),
        ("[1, 2]", "not a JSON object"),
        ('"text"', "not a JSON object"),
        ({"a": SECRET}, "a"),
        ({"a": 1, "zzz": SECRET}, "zzz"),
        ({"a": 2.5}, "a"),
        ({"a": [[[[[[[[[[[[SECRET]]]]]]]]]]]]}, "a"),
    ],
)
async def test_bad_arguments_are_named_not_echoed(
    agent: Callable[..., Any], arguments: Any, words: str
) -> None:
    run = await agent([to_agent_framework(ADD)], [[("add", arguments)], "done"])
    [text] = run.texts
    assert text.startswith("Invalid input for tool 'add'"), text
    assert words in text and SECRET not in text


async def test_a_tool_that_exits_does_not_end_the_run(agent: Callable[..., Any]) -> None:
    @st.tool
    def leave(context: Any = None) -> str:
        """Leave."""
        raise SystemExit(3)

    run = await agent(
        [to_agent_framework(leave), to_agent_framework(ADD)],
        [[("leave", {})], [("add", {"a": 1})], "done"],
        {"token": SECRET},
    )
    first, second = run.texts
    assert first.startswith("Tool 'leave' failed") and SECRET not in first
    assert second == "2"


async def test_a_result_that_is_no_json_is_an_invalid_output(agent: Callable[..., Any]) -> None:
    @st.tool
    def odd() -> Any:
        """Return something odd."""
        return object()

    run = await agent([to_agent_framework(odd)], [[("odd", {})], "done"])
    [text] = run.texts
    assert "odd" in text and "output" in text and "object at" not in text
