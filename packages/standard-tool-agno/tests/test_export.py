"""Standard tools as Agno functions, run by real agent runs."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from agno.tools.function import Function, FunctionCall

import standard_tool as st
from standard_tool.exceptions import ToolNameError, UsageError
from standard_tool_agno import StandardFunction, arun_agent, run_agent, to_agno, to_agno_tools

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "default": 10},
        "filters": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}]},
    },
    "required": ["query"],
    "$defs": {
        "Filter": {
            "type": "object",
            "properties": {"tag": {"enum": ["a", "b"]}},
            "additionalProperties": False,
        }
    },
}


def _add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


add = st.tool(_add, name="add")


def _search(input: dict[str, Any]) -> dict[str, Any]:
    return {"query": input["query"], "limit": input.get("limit", 10)}


SEARCH = st.Tool(name="search", description="Search.", input_schema=SCHEMA, execute=_search)


def test_the_model_is_sent_the_schema_unchanged() -> None:
    native = to_agno(SEARCH)
    assert isinstance(native, Function)
    run = run_agent([native], ["done"])
    [[sent]] = run.model.seen_tools
    assert sent["function"]["parameters"] == SCHEMA  # no additionalProperties, no required
    assert sent["function"]["name"] == "search" and sent["function"]["description"] == "Search."


def test_a_strict_run_leaves_the_schema_alone() -> None:
    """A run with a structured output on a model that supports it asks for strict
    functions, which Agno would rewrite (every object closed, every property required)."""
    from agno.agent import Agent
    from pydantic import BaseModel

    from standard_tool_agno import ScriptedModel

    class Answer(BaseModel):
        text: str

    model = ScriptedModel(replies=['{"text": "x"}'], supports_native_structured_outputs=True)
    agent = Agent(model=model, tools=[to_agno(SEARCH)], output_schema=Answer)
    agent.run("go")
    [[sent]] = model.seen_tools
    assert sent["function"]["parameters"] == SCHEMA


def test_a_run_calls_the_tool() -> None:
    run = run_agent([to_agno(add)], [[("add", {"a": 2, "b": 3})], "done"])
    assert run.texts == ["5"]
    run = run_agent([to_agno(SEARCH)], [[("search", {"query": "lamp"})], "done"])
    assert [json.loads(t) for t in run.texts] == [{"query": "lamp", "limit": 10}]


async def test_an_async_run_calls_the_tool() -> None:
    run = await arun_agent([to_agno(add)], [[("add", {"a": 2, "b": 3})], "done"])
    assert run.texts == ["5"]


async def _shout(text: str) -> str:
    """Shout."""
    return text.upper()


def test_an_async_tool_works_in_a_sync_run() -> None:
    native = to_agno(st.tool(_shout))
    run = run_agent([native], [[("_shout", {"text": "hi"})], "done"])
    assert run.texts == ["HI"]


async def test_an_async_tool_works_in_an_async_run() -> None:
    run = await arun_agent([to_agno(st.tool(_shout))], [[("_shout", {"text": "hi"})], "done"])
    assert run.texts == ["HI"]


def test_invalid_arguments_name_the_tool_and_field() -> None:
    run = run_agent([to_agno(add)], [[("add", {"a": "two"})], "done"])
    [message] = run.results
    assert message.tool_call_error is True
    text = run.texts[0]
    assert text.startswith("Invalid input for tool 'add'") and "a" in text
    assert "two" not in text and "Traceback" not in text


def test_a_failure_reads_as_an_error_result() -> None:
    @st.tool
    def boom(secret: str) -> str:
        """Fail."""
        raise RuntimeError("it broke")

    run = run_agent([to_agno(boom)], [[("boom", {"secret": "s3cr3t"})], "done"])
    assert run.texts == ["Tool 'boom' failed: RuntimeError: it broke"]
    assert run.results[0].tool_call_error is True


@pytest.mark.parametrize("word", ["none", "null", "true", "false", " True ", "NULL"])
def test_the_tool_receives_the_strings_the_model_sent(word: str) -> None:
    """Agno rewrites these strings before any tool sees them; the run's messages keep what
    the model sent, and the standard tool receives that."""
    seen: list[Any] = []

    @st.tool
    def note(text: str) -> str:
        """Note a text."""
        seen.append(text)
        return "ok"

    run = run_agent([to_agno(note)], [[("note", {"text": word})], "done"])
    assert run.texts == ["ok"] and seen == [word]


def test_outside_a_run_the_tool_receives_the_call_s_arguments() -> None:
    """Where no run's messages keep the model's call (a ``FunctionCall`` made directly),
    the arguments are the call's own, as given."""
    seen: list[Any] = []

    @st.tool
    def note(text: Any) -> str:
        """Note a text."""
        seen.append(text)
        return "ok"

    native = to_agno(note)
    FunctionCall(function=native, arguments={"text": "true"}, call_id="c1").execute()
    FunctionCall(function=native, arguments={"text": True}, call_id="c2").execute()
    assert seen == ["true", True]


def test_an_argument_named_fc_reaches_the_tool() -> None:
    seen: list[Any] = []

    @st.tool
    def keep(fc: str) -> str:
        """Keep a value."""
        seen.append(fc)
        return "ok"

    run = run_agent([to_agno(keep)], [[("keep", {"fc": "x"})], "done"])
    assert run.texts == ["ok"] and seen == ["x"]


def test_the_run_dependencies_are_the_standard_context() -> None:
    seen: list[Any] = []

    @st.tool
    def who(context: Any = None) -> str:
        """Who calls."""
        seen.append(context)
        return "ok"

    run_agent([to_agno(who)], [[("who", {})], "done"], {"actor": "alice"})
    getter = to_agno(who, context=lambda rc: {"user": rc.user_id, "run": bool(rc.run_id)})
    run_agent([getter], [[("who", {})], "done"])
    assert seen == [{"actor": "alice"}, {"user": None, "run": True}]


def test_execute_directly() -> None:
    native = to_agno(add)
    outcome = FunctionCall(function=native, arguments={"a": 1}).execute()
    assert (outcome.status, outcome.result) == ("success", "2")
    failed = FunctionCall(function=native, arguments={"a": "x"}).execute()
    assert failed.status == "failure" and "'add'" in (failed.error or "")


def test_metadata_and_names() -> None:
    tool = st.tool(_add, name="add numbers.v2", title="Adder", meta={"read_only": True})
    native = to_agno(tool)
    assert native.name == "add_numbers_v2" and native.title == "Adder"
    assert isinstance(native, StandardFunction) and native.standard_tool is tool
    entry = native.metadata["standard_tool"]
    assert entry["name"] == "add numbers.v2" and entry["meta"] == {"read_only": True}
    sent = json.dumps(native.to_dict())
    assert "standard_tool" not in sent and "Adder" not in sent


def test_colliding_names_are_refused() -> None:
    with pytest.raises(ToolNameError):
        to_agno_tools([st.tool(_add, name="a.b"), st.tool(_add, name="a_b")])
    assert [t.name for t in to_agno_tools([add, SEARCH])] == ["add", "search"]


def test_a_bad_approver_is_refused() -> None:
    with pytest.raises(UsageError):
        to_agno(add, approver="")


def test_copies_keep_the_tool() -> None:
    native = to_agno(add)
    for copied in (copy.deepcopy(native), native.model_copy(deep=True), native._per_run_copy()):
        assert isinstance(copied, StandardFunction) and copied.standard_tool is add
        assert FunctionCall(function=copied, arguments={"a": 1}).execute().result == "2"
