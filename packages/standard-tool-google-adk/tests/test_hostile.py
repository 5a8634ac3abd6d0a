"""Hostile model output and hostile tools in Google ADK runs: each ends as an ``{"error":
...}`` result the model reads, naming the tool and the field, with no traceback, no context
value and no offending value, and the run goes on."""

from __future__ import annotations

from typing import Any

import pytest

import standard_tool as st
from standard_tool.testing import SECRET
from standard_tool_google_adk import (
    Conversation,
    standard_context,
    to_google_adk_tools,
    tool_context,
)
from standard_tool_google_adk._scripted import function_responses

CONTEXT = {"token": SECRET}


@st.tool
def echo(text: str) -> str:
    """Echo the text."""
    return text


@st.tool
def leak(context: Any = None) -> str:
    """Raise with the context's secret in the message."""
    raise RuntimeError(f"the token was {context['token']}")


@st.tool
def quit_() -> str:
    """Exit the process."""
    raise SystemExit(3)


@st.tool
def not_json() -> Any:
    """Return something that is not JSON data."""
    return object()


def _clean(text: str) -> None:
    assert "Traceback" not in text and SECRET not in text, text


async def _run(replies: list[Any]) -> list[dict[str, Any]]:
    conversation = Conversation(to_google_adk_tools([echo, leak, quit_, not_json]), replies)
    with standard_context(CONTEXT):
        events = await conversation.send("go")
    return [dict(r.response or {}) for r in function_responses(events)]


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"text": SECRET * 2 + "1" * 5000}, None),
        ({"text": 12345678901234567890}, "text"),
        ({"text": ["a", SECRET]}, "text"),
        ({"text": "ok", "extra": SECRET}, "extra"),
        ({}, "text"),
        ({"text": {"deep": [[[[[[SECRET]]]]]]}}, "text"),
    ],
    ids=["long", "number", "array", "extra", "missing", "nested"],
)
async def test_invalid_arguments_name_the_tool_and_field_and_never_the_value(
    arguments: dict[str, Any], field: str | None
) -> None:
    refused, after = await _run([[("echo", arguments)], [("echo", {"text": "still here"})]])
    if field is None:  # a valid, long string arrives whole
        assert refused == {"result": arguments["text"]}
    else:
        text = refused["error"]
        assert "'echo'" in text and field in text, text
        _clean(text)
        assert "12345678901234567890" not in text
    assert after == {"result": "still here"}


async def test_a_deeply_nested_value_is_an_error_not_a_crash() -> None:
    """Called as a run calls the tool (a run with such a call ends in ADK's own
    ``RecursionError``, copying the arguments, before any tool runs)."""
    value: Any = "x"
    for _ in range(5_000):
        value = [value]
    [native] = to_google_adk_tools([echo])
    refused = await native.run_async(args={"text": value}, tool_context=tool_context(CONTEXT))
    assert "'echo'" in refused["error"]
    _clean(refused["error"])


async def test_hostile_tools_end_as_error_results_and_the_run_goes_on() -> None:
    leaked, quitted, bad, after = await _run(
        [[("leak", {}), ("quit_", {}), ("not_json", {})], [("echo", {"text": "still here"})]]
    )
    for answer in (leaked, quitted, bad):
        assert set(answer) == {"error"}
        _clean(answer["error"])
    assert "'leak'" in leaked["error"] and "[context value]" in leaked["error"]
    assert "'quit_'" in quitted["error"] and "SystemExit" in quitted["error"]
    assert "Invalid output for tool 'not_json'" in bad["error"]
    assert after == {"result": "still here"}
