"""Hostile model output and hostile tools in Agents SDK runs: each ends as a tool output the
model reads, naming the tool, with no traceback and no context value, and the run goes on."""

from __future__ import annotations

from typing import Any

import pytest

import standard_tool as st
from standard_tool.testing import SECRET
from standard_tool_openai_agents import to_openai_agents, to_openai_agents_tools, tool_context

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


@pytest.mark.parametrize(
    ("arguments", "why"),
    [
        ("[1, 2]", "<root>"),
        ("null", "<root>"),
        ('"text"', "<root>"),
        ("1" * 5000, "digits"),
        ("{'text': 'single quotes'}", "not valid JSON"),
    ],
    ids=["array", "null", "string", "huge number", "python literal"],
)
async def test_arguments_that_are_no_json_object_are_errors_naming_the_tool(
    agent: Any, arguments: str, why: str
) -> None:
    run = await agent(
        [to_openai_agents(echo)], [[("echo", arguments)], [("echo", '{"text": "ok"}')]]
    )
    refused, after = run.texts
    assert "'echo'" in refused and why in refused, refused
    _clean(refused)
    assert after == "ok"


@pytest.mark.parametrize(
    "arguments",
    ["[" * 50_000 + "]" * 50_000, '{"text": ' + "[" * 50_000 + "]" * 50_000 + "}"],
    ids=["deep", "deep value"],
)
async def test_deeply_nested_arguments_are_an_error_not_a_crash(arguments: str) -> None:
    """Called as a run calls the tool (0.24's runner itself reads the arguments first, and a
    run with such a call ends in the SDK's own ``RecursionError`` before any tool runs)."""
    context = tool_context(CONTEXT, name="echo", arguments=arguments)
    text = await to_openai_agents(echo).on_invoke_tool(context, arguments)
    assert "'echo'" in text and "nest too deeply" in text
    _clean(text)


async def test_hostile_tools_end_as_outputs_and_the_run_goes_on(agent: Any) -> None:
    run = await agent(
        to_openai_agents_tools([leak, quit_, not_json, echo]),
        [[("leak", {}), ("quit_", {}), ("not_json", {})], [("echo", {"text": "still here"})]],
        CONTEXT,
    )
    leaked, quitted, bad, after = run.texts
    for text in (leaked, quitted, bad):
        _clean(text)
    assert "'leak'" in leaked and "[context value]" in leaked
    assert "'quit_'" in quitted and "SystemExit" in quitted
    assert "Invalid output for tool 'not_json'" in bad
    assert after == "still here"


async def test_a_huge_valid_string_arrives_whole(agent: Any) -> None:
    text = "x" * 1_000_000
    run = await agent([to_openai_agents(echo)], [[("echo", {"text": text})]])
    assert run.texts == [text]
