"""What a model chooses (keys, strings, numbers) is refused or named in few words: a key is
named clipped, a string that is not valid Unicode by where it is, an integer too large to
read as too large; every message can be sent back as UTF-8."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import standard_tool as st
from standard_tool.exceptions import Issue, NotJsonError
from standard_tool.providers import run_tool_calls
from standard_tool.schema._json import json_issues, plain

CLOSED: dict[str, Any] = {
    "type": "object",
    "properties": {"n": {"type": "integer"}},
    "additionalProperties": False,
}


def echo(n: int = 0) -> int:
    """Echo a number.

    Args:
        n: the number.
    """
    return n


def raw_tool() -> st.Tool:
    return st.Tool(name="raw", description="d", input_schema=CLOSED, execute=lambda i: i)


TOOLS = [raw_tool, lambda: st.tool(echo)]
IDS = ["raw-schema", "typed-function"]


@pytest.mark.parametrize("make", TOOLS, ids=IDS)
def test_an_unexpected_key_is_named_clipped(make: Any) -> None:
    key = "k" * 1_000_000
    with pytest.raises(st.ToolValidationError) as raised:
        make().execute({key: 1})
    text = str(raised.value)
    assert len(text) < 300, len(text)
    assert "kkkk" in text and "..." in text
    assert raised.value.issues[0].path == (key,)  # the issue keeps the key itself
    assert Issue("m", ("a" * 100, 3)).location == "a" * 61 + "....3"


def test_a_long_tool_name_is_named_clipped() -> None:
    with pytest.raises(st.UsageError) as raised:
        st.Tool(name="n" * 10_000, description="d", execute=lambda i: i)
    assert len(str(raised.value)) < 200


@pytest.mark.parametrize("make", TOOLS, ids=IDS)
@pytest.mark.parametrize(
    ("value", "location", "message"),
    [
        ({"n": "\ud800"}, "n", "is a string that is not valid Unicode"),
        ({"n": ["ok", "x\udfff"]}, "n.1", "is a string that is not valid Unicode"),
        ({"\ud800": 1}, "<root>", "has a key that is not valid Unicode"),
        ({"n": {"a\udc80b": 1}}, "n", "has a key that is not valid Unicode"),
    ],
    ids=["value", "item", "key", "nested-key"],
)
def test_a_string_that_is_not_valid_unicode_is_refused_where_it_is(
    make: Any, value: Any, location: str, message: str
) -> None:
    with pytest.raises(st.ToolValidationError) as raised:
        make().execute(value)
    assert any(
        issue.location == location and issue.message.startswith(message)
        for issue in raised.value.issues
    ), raised.value.issues
    str(raised.value).encode("utf-8")  # the message itself is valid Unicode
    assert not plain(value) and json_issues(value) is not None
    with pytest.raises(NotJsonError):
        st.jsonable(value)


def test_valid_unicode_passes() -> None:
    value = {"é": "ünïcödé ✓ 𝄞 中文", "n": ["\u00ff", "\U0001f600"]}
    assert plain(value) and json_issues(value) is None
    open_tool = st.Tool(name="open", description="d", execute=lambda i: i)
    assert st.call(open_tool, value) == value


def test_an_output_that_is_not_valid_unicode_is_refused() -> None:
    lone = st.Tool(name="lone", description="d", execute=lambda i: "bad \udcff name")
    nested = st.Tool(name="nested", description="d", execute=lambda i: {"files": ["\udcff"]})
    for tool in (lone, nested):
        with pytest.raises(st.ToolValidationError) as raised:
            st.call(tool, {})
        assert raised.value.target == "output"
        assert "not valid Unicode" in str(raised.value)


def test_the_answer_to_a_call_with_a_lone_surrogate_is_valid_utf8() -> None:
    calls = [
        {"type": "function_call", "call_id": "c1", "name": "echo", "arguments": '{"n": "\\ud800"}'},
        {"type": "function_call", "call_id": "c2", "name": "echo", "arguments": '{"\\ud800": 1}'},
    ]
    for answer in run_tool_calls([st.tool(echo)], calls, provider="openai"):
        text = answer["output"]
        text.encode("utf-8")
        assert "not valid Unicode" in json.loads(text)["error"]


def test_an_integer_too_large_to_read_is_said_to_be_too_large() -> None:
    big = "1" * 5000
    calls = [
        {"type": "function_call", "call_id": "c1", "name": "echo", "arguments": f'{{"n": {big}}}'},
        {"type": "function_call", "call_id": "c2", "name": "echo", "arguments": "{not json"},
    ]
    first, second = run_tool_calls([st.tool(echo)], calls, provider="openai")
    error = json.loads(first["output"])["error"]
    assert "too large" in error and "not valid JSON" not in error, error
    assert big not in error
    assert "not valid JSON" in json.loads(second["output"])["error"]


HUGE = 10**4300  # 4301 digits: Python writes no text for it


def _huge(input: Any, context: Any = None) -> Any:
    return {"n": -HUGE} if input.get("nested") else HUGE


@st.tool
def huge(nested: bool = False) -> Any:
    """Return an int of more than 4300 digits."""
    return {"n": -HUGE} if nested else HUGE


@st.tool
async def ahuge(nested: bool = False) -> int:
    """The same, async, its output declared an int."""
    return HUGE


RAW_HUGE = st.Tool(name="raw_huge", description="d", input_schema={"type": "object"}, execute=_huge)


@pytest.mark.parametrize("tool", [huge, ahuge, RAW_HUGE], ids=lambda t: t.name)
@pytest.mark.parametrize("nested", [False, True])
def test_an_output_number_too_large_to_write_is_refused(tool: Any, nested: bool) -> None:
    for run in (st.call, lambda t, i: asyncio.run(st.acall(t, i))):
        with pytest.raises(st.ToolValidationError) as raised:
            run(tool, {"nested": nested})
        assert raised.value.target == "output"
        assert "too large to write (more than 4300 digits)" in str(raised.value)
    args = {"nested": nested}
    calls = {
        "openai": [
            {
                "type": "function_call",
                "call_id": "c",
                "name": tool.name,
                "arguments": json.dumps(args),
            }
        ],
        "anthropic": [{"type": "tool_use", "id": "c", "name": tool.name, "input": args}],
        "gemini": [{"functionCall": {"name": tool.name, "args": args}}],
        "hf": [{"type": "function", "function": {"name": tool.name, "arguments": args}}],
    }
    for provider, made in calls.items():
        (answer,) = run_tool_calls([tool], made, provider=provider)
        assert "4300 digits" in json.dumps(answer) and tool.name in json.dumps(answer), provider
