"""Standard tools as Google ADK tools, run by real ``InMemoryRunner`` runs of an ``LlmAgent``."""

from __future__ import annotations

import asyncio
import copy
import json
import threading
from typing import Any

import pytest

import standard_tool as st
from standard_tool.boundary import Gate
from standard_tool.exceptions import ToolNameError, UsageError
from standard_tool_google_adk import (
    NAMES,
    Conversation,
    StandardAdkTool,
    ToolError,
    from_google_adk,
    standard_context,
    to_google_adk,
    to_google_adk_tools,
)
from standard_tool_google_adk._scripted import declarations, function_responses

GEMINI_REFUSES = {
    "type": "object",
    "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
    "properties": {
        "tree": {"$ref": "#/$defs/node"},
        "mode": {"const": "fast"},
        "level": {"type": ["integer", "null"], "enum": [1, 2, 3, None]},
        "pick": {"oneOf": [{"type": "string"}, {"type": "integer", "exclusiveMinimum": 0}]},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["mode"],
    "additionalProperties": False,
}


def _echo(a: int) -> int:
    """Echo."""
    return a


def _echo_schema(input: dict[str, Any], context: Any = None) -> dict[str, Any]:
    return input


async def test_the_model_is_sent_the_input_schema_unchanged() -> None:
    tool = st.Tool(
        name="shape", description="Take a shape.", input_schema=GEMINI_REFUSES, execute=_echo_schema
    )
    native = to_google_adk(tool)
    conversation = Conversation([native], [[("shape", {"mode": "fast", "level": None})]])
    events = await conversation.send("go")
    [declared] = declarations(conversation.model.requests[0])
    assert declared.parameters is None
    assert declared.parameters_json_schema == GEMINI_REFUSES
    assert [r.response for r in function_responses(events)] == [{"mode": "fast", "level": None}]
    # the schema the next request carries is a copy: what a request does to it stays there
    declared.parameters_json_schema["properties"].clear()
    assert native._get_declaration().parameters_json_schema == GEMINI_REFUSES


async def test_a_sync_tool_runs_inline_on_the_event_loop() -> None:
    threads: list[int] = []

    @st.tool
    def where() -> str:
        """Say where it ran."""
        threads.append(threading.get_ident())
        return "here"

    @st.tool
    async def awhere() -> str:
        """Say where it ran, awaited."""
        threads.append(threading.get_ident())
        return "there"

    conversation = Conversation(
        to_google_adk_tools([where, awhere]), [[("where", {}), ("awhere", {})]]
    )
    events = await conversation.send("go")
    assert [r.response for r in function_responses(events)] == [
        {"result": "here"},
        {"result": "there"},
    ]
    assert threads == [threading.get_ident()] * 2


async def test_failures_are_error_results_and_the_run_goes_on() -> None:
    @st.tool
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    conversation = Conversation(
        [to_google_adk(add)], [[("add", {"a": "one", "b": 2})], [("add", {"a": 1, "b": 2})]]
    )
    events = await conversation.send("go")
    refused, added = [r.response for r in function_responses(events)]
    assert refused is not None and set(refused) == {"error"}
    assert (
        "'add'" in refused["error"] and "a:" in refused["error"] and "one" not in refused["error"]
    )
    assert added == {"result": 3}


def test_a_failure_is_a_tool_error_holding_the_typed_error() -> None:
    @st.tool
    def add(a: int) -> int:
        """Add."""
        return a

    native = to_google_adk(add)
    from standard_tool_google_adk import tool_context

    answer = st.run_sync(native.run_async(args={"a": "x"}, tool_context=tool_context()))
    assert isinstance(answer, ToolError) and isinstance(answer.error, st.ToolValidationError)
    assert answer == {"error": str(answer.error)}


async def test_the_standard_context_reaches_the_tool() -> None:
    seen: list[Any] = []

    @st.tool
    def who(context: Any = None) -> str:
        """Say who calls."""
        seen.append(context)
        return "ok"

    default = Conversation([to_google_adk(who)], [[("who", {})]])
    with standard_context({"actor": "alice"}):
        await default.send("go")
    by_user = Conversation(
        [to_google_adk(who, context=lambda tc: {"actor": tc.user_id, **tc.state.to_dict()})],
        [[("who", {})]],
        user_id="bob",
    )
    await by_user.send("go")
    assert seen == [{"actor": "alice"}, {"actor": "bob"}]


async def test_a_context_that_cannot_be_built_names_only_its_type() -> None:
    @st.tool
    def who() -> str:
        """Say who calls."""
        return "ok"

    def broken(tc: Any) -> Any:
        raise KeyError("sk-secret-value")

    conversation = Conversation([to_google_adk(who, context=broken)], [[("who", {})]])
    [response] = function_responses(await conversation.send("go"))
    text = (response.response or {})["error"]
    assert "'who'" in text and "KeyError" in text and "sk-secret-value" not in text


async def test_a_guarded_tools_request_id_is_the_function_call_id() -> None:
    seen: list[Any] = []

    @st.tool
    def pay(context: Any = None) -> str:
        """Pay."""
        seen.append(context["request_id"])
        return "paid"

    conversation = Conversation([to_google_adk(Gate().guard(pay))], [[("pay", {})]])
    with standard_context({"actor": "alice"}):
        events = await conversation.send("go")
    [call] = [c for e in events for c in e.get_function_calls()]
    assert seen == [call.id] and call.id


def test_names_are_made_valid_for_gemini_and_restored() -> None:
    tool = st.tool(_echo, name="my tool/1")
    native = to_google_adk(tool)
    assert native.name != "my tool/1" and NAMES.accepts(native.name)
    assert from_google_adk(native).name == "my tool/1"
    assert to_google_adk(tool, name="echo").name == "echo"
    with pytest.raises(ToolNameError):
        to_google_adk(tool, name="1 bad")


def test_colliding_names_are_refused() -> None:
    first = st.tool(_echo, name="a b")
    second = st.tool(_echo, name="a_b")
    with pytest.raises(ToolNameError):
        to_google_adk_tools([first, second])
    assert [t.name for t in to_google_adk_tools([first])] == ["a_b"]


def test_what_adk_has_no_slot_for_travels_in_custom_metadata() -> None:
    tool = st.Tool(
        name="priced",
        title="Priced",
        description="Price it.",
        input_schema={"type": "object"},
        output_schema={"type": "object", "properties": {"price": {"type": "number"}}},
        meta={"team": "shop"},
        execute=lambda input, context=None: {"price": 1.5},
    )
    native = to_google_adk(tool)
    entry = (native.custom_metadata or {})["standard_tool"]
    assert entry["title"] == "Priced" and entry["meta"] == {"team": "shop"}
    json.dumps(native.custom_metadata)
    back = from_google_adk(copy.deepcopy(native))
    assert (back.title, back.meta) == ("Priced", {"team": "shop"})
    assert st.output_json_schema(back) == st.output_json_schema(tool)
    assert st.call(back, {}) == {"price": 1.5}


def test_an_approver_is_a_name_or_a_function() -> None:
    with pytest.raises(UsageError):
        to_google_adk(st.tool(_echo, name="one"), approver=3)  # type: ignore[arg-type]


def test_exported_tools_are_adk_base_tools() -> None:
    from google.adk.tools.base_tool import BaseTool

    native = to_google_adk(st.tool(_echo, name="one"))
    assert isinstance(native, BaseTool) and isinstance(native, StandardAdkTool)
    assert asyncio.iscoroutinefunction(native.run_async)
