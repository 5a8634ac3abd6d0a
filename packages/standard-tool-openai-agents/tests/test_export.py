"""Standard tools exported as Agents SDK function tools, run by real ``Runner`` runs whose
scripted model makes the calls (no network)."""

from __future__ import annotations

import asyncio
import copy
import json
import threading
import time
from typing import Any

import pytest
from agents import Agent, FunctionTool, RunConfig, Runner

import standard_tool as st
from standard_tool.exceptions import SchemaNotExpressibleError, ToolNameError
from standard_tool.providers import openai_strict_problem, to_openai
from standard_tool.testing import SECRET
from standard_tool_openai_agents import (
    StandardFunctionTool,
    to_openai_agents,
    to_openai_agents_tools,
    tool_context,
)
from standard_tool_openai_agents._scripted import ScriptedModel

SEEN: list[Any] = []


def _add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


add = st.tool(_add, name="add")


@st.tool
async def aadd(a: int, b: int = 1) -> int:
    """Add two integers, asynchronously."""
    await asyncio.sleep(0)
    return a + b


@st.tool
def whoami(context: Any = None) -> Any:
    """The caller's context."""
    SEEN.append(context)
    return {"context": context}


@st.tool
def explode(reason: str, context: Any = None) -> str:
    """Fail on purpose."""
    raise RuntimeError(f"exploded: {reason} {(context or {}).get('token')}")


OPEN = st.Tool(
    name="tag",
    description="Tag anything.",
    input_schema={
        "type": "object",
        "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}},
        "required": ["labels"],
    },
    execute=lambda input: sorted(input["labels"]),
)


# -- the schema the model sees -----------------------------------------------------------------


def test_a_strict_schema_is_the_providers_strict_rendering() -> None:
    native = to_openai_agents(add)
    assert isinstance(native, FunctionTool) and native.strict_json_schema is True
    assert native.params_json_schema == to_openai(add, strict=True)["parameters"]
    assert native.params_json_schema["required"] == ["a", "b"]  # b nullable, not forced
    assert native.params_json_schema["properties"]["b"]["type"] == ["integer", "null"]


def test_a_schema_with_no_strict_form_is_sent_as_it_is_not_strict() -> None:
    assert openai_strict_problem(OPEN) is not None
    native = to_openai_agents(OPEN)
    assert native.strict_json_schema is False
    assert native.params_json_schema == st.input_json_schema(OPEN)
    with pytest.raises(SchemaNotExpressibleError):
        to_openai_agents(OPEN, strict=True)
    forced = to_openai_agents(add, strict=False)
    assert not forced.strict_json_schema and forced.params_json_schema == st.input_json_schema(add)


def test_the_schema_is_derived_on_first_use_only() -> None:
    natives = [to_openai_agents(add) for _ in range(20)]
    assert all(n._schema is None and n._strict is None for n in natives)  # type: ignore[attr-defined]
    assert natives[0].strict_json_schema and natives[0]._schema is not None  # type: ignore[attr-defined]


def test_copies_keep_working_as_the_sdk_makes_them() -> None:
    native = to_openai_agents(add)
    for other in (copy.copy(native), copy.deepcopy(native)):
        assert other.params_json_schema == native.params_json_schema
        assert other.strict_json_schema is True
        run = _run([other], [[("add", {"a": 2, "b": None})]])
        assert _outputs(run) == ["3"]


def test_names_are_made_valid_and_collisions_refused() -> None:
    dotted = st.tool(_add, name="math.add")
    native = to_openai_agents(dotted)
    assert native.name == "math_add"
    assert st.adopt(native).name == "math.add"
    with pytest.raises(ToolNameError):
        to_openai_agents_tools([dotted, st.tool(_add, name="math_add")])
    with pytest.raises(ToolNameError):
        to_openai_agents(add, name="no spaces")


# -- a run ---------------------------------------------------------------------------------------


def _run(tools: list[Any], replies: list[Any], context: Any = None, **kwargs: Any) -> Any:
    """``Runner.run_sync`` on a default loop of its own, closed after (the SDK leaves it open)."""
    model = ScriptedModel(replies)
    loop = asyncio.new_event_loop()  # the thread's default loop, which run_sync runs on
    asyncio.set_event_loop(loop)
    try:
        result = Runner.run_sync(
            Agent(name="t", model=model, tools=tools),
            "go",
            context=context,
            run_config=RunConfig(tracing_disabled=True),
            **kwargs,
        )
    finally:
        loop.close()
        asyncio.set_event_loop(None)
    result.model = model  # type: ignore[attr-defined]
    return result


def _outputs(result: Any) -> list[str]:
    return [
        str(item.raw_item["output"])
        for item in result.new_items
        if type(item).__name__ == "ToolCallOutputItem"
    ]


def test_sync_and_async_tools_run_in_a_sync_run() -> None:
    result = _run(
        [to_openai_agents(add), to_openai_agents(aadd)],
        [[("add", {"a": 2, "b": 3}), ("aadd", {"a": 4, "b": None})], "the end"],
    )
    assert _outputs(result) == ["5", "5"]
    assert result.final_output == "the end"
    # the model's next turn reads the outputs
    told = [i for i in result.model.seen_inputs[1] if i.get("type") == "function_call_output"]
    assert [i["output"] for i in told] == ["5", "5"]


async def test_a_sync_tool_does_not_block_the_run_loop(agent: Any) -> None:
    started = threading.Event()

    @st.tool
    def wait_for_async() -> bool:
        """Wait until the async tool has run."""
        started.set()
        return bool(released.wait(5))

    released = threading.Event()

    @st.tool
    async def release() -> str:
        """Release the sync tool."""
        while not started.is_set():
            await asyncio.sleep(0.01)
        released.set()
        return "released"

    run = await agent(
        to_openai_agents_tools([wait_for_async, release]),
        [[("wait_for_async", {}), ("release", {})]],
    )
    assert run.texts == ["true", "released"]


async def test_strict_modes_null_for_an_absent_property_is_undone(agent: Any) -> None:
    @st.tool
    def greet(name: str, greeting: str = "hello") -> str:
        """Greet someone."""
        return f"{greeting} {name}"

    run = await agent([to_openai_agents(greet)], [[("greet", {"name": "ada", "greeting": None})]])
    assert run.texts == ["hello ada"]
    shown = run.model.seen_tools[0][0]
    assert shown["strict"] is True and shown["parameters"]["required"] == ["name", "greeting"]


async def test_invalid_arguments_reach_the_model_naming_the_tool_and_fields(agent: Any) -> None:
    run = await agent(
        [to_openai_agents(add)],
        [[("add", {"a": "x" + SECRET, "b": None}), ("add", '{"a": 1,')], "ok"],
    )
    wrong, broken = run.texts
    assert "Invalid input for tool 'add'" in wrong and "a" in wrong and SECRET not in wrong
    assert "'add'" in broken and "not valid JSON" in broken
    assert run.result.final_output == "ok"


async def test_a_failing_tool_reaches_the_model_as_its_message(agent: Any) -> None:
    run = await agent(
        [to_openai_agents(explode)], [[("explode", {"reason": "now"})], "ok"], {"token": SECRET}
    )
    [text] = run.texts
    assert text.startswith("Tool 'explode' failed:") and "exploded: now" in text
    assert "Traceback" not in text and SECRET not in text
    assert "An error occurred while running the tool" not in text  # not the SDK's default


async def test_hanging_tools_time_out_and_the_run_goes_on(agent: Any) -> None:
    @st.tool(timeout=0.2)
    async def hang_async() -> str:
        """Hang."""
        await asyncio.sleep(60)
        return "never"

    @st.tool(timeout=0.2)
    def hang_sync() -> str:
        """Hang, blocking."""
        time.sleep(2)
        return "never"

    started = time.monotonic()
    run = await agent(
        to_openai_agents_tools([hang_async, hang_sync, add]),
        [[("hang_async", {}), ("hang_sync", {})], [("add", {"a": 1, "b": None})], "ok"],
    )
    assert time.monotonic() - started < 1.5
    first, second, after = run.texts
    assert "hang_async" in first and "timed out" in first
    assert "hang_sync" in second and "timed out" in second
    assert after == "2"


async def test_the_run_context_is_the_tools_context(agent: Any) -> None:
    SEEN.clear()
    run = await agent([to_openai_agents(whoami)], [[("whoami", {})]], {"user": "ada"})
    assert json.loads(run.texts[0]) == {"context": {"user": "ada"}}
    assert SEEN == [{"user": "ada"}]
    SEEN.clear()
    getter = to_openai_agents(whoami, context=lambda ctx: {"call": ctx.tool_call_id})
    run = await agent([getter], [[("whoami", {})]])
    assert SEEN == [{"call": run.outputs[0].raw_item["call_id"]}]


async def test_a_custom_failure_function_words_the_failure(agent: Any) -> None:
    async def terse(ctx: Any, error: Exception) -> str:
        return f"no ({type(error).__name__})"

    run = await agent(
        [to_openai_agents(explode, failure_error_function=terse)],
        [[("explode", {"reason": "x"})]],
    )
    assert run.texts == ["no (ToolExecutionError)"]


async def test_without_a_failure_function_the_typed_error_ends_the_run(agent: Any) -> None:
    with pytest.raises(Exception) as raised:
        await agent(
            [to_openai_agents(explode, failure_error_function=None)],
            [[("explode", {"reason": "x"})]],
        )
    chain: list[BaseException] = []
    error: BaseException | None = raised.value
    while error is not None:
        chain.append(error)
        error = error.__cause__ or error.__context__
    assert any(isinstance(e, st.ToolExecutionError) and e.tool == "explode" for e in chain)


async def test_results_are_json_text_and_strings_stay_strings(agent: Any) -> None:
    @st.tool
    def shapes() -> dict[str, Any]:
        """Shapes."""
        return {"type": "text", "text": "not an SDK output", "n": [1, 2]}

    @st.tool
    def word() -> str:
        """A word."""
        return "hi"

    run = await agent(to_openai_agents_tools([shapes, word]), [[("shapes", {}), ("word", {})]])
    assert json.loads(run.texts[0]) == {"type": "text", "text": "not an SDK output", "n": [1, 2]}
    assert run.texts[1] == "hi"


def test_an_exported_tool_is_a_function_tool_subclass_with_its_metadata() -> None:
    titled = st.Tool(
        name="t",
        title="A title",
        description="d",
        input_schema={"type": "object", "properties": {}},
        output_schema={"type": "integer"},
        meta={"read_only": True},
        execute=lambda input: 1,
    )
    native = to_openai_agents(titled)
    assert isinstance(native, StandardFunctionTool) and native.standard_tool is titled
    assert native.standard_tool_metadata == {
        "title": "A title",
        "output_schema": {"type": "integer"},
        "meta": {"read_only": True},
    }


async def test_strict_nulls_are_undone_before_the_schema_was_ever_read() -> None:
    native = to_openai_agents(add)
    context = tool_context(None, name="add", arguments="{}")
    assert await native.on_invoke_tool(context, '{"a": 2, "b": null}') == "3"
    loose = to_openai_agents(add, strict=False)  # not strict: null is refused as input
    assert "'add'" in await loose.on_invoke_tool(context, '{"a": 2, "b": null}')


async def test_a_context_getter_that_raises_is_a_failure_quoting_nothing(agent: Any) -> None:
    def broken(ctx: Any) -> Any:
        raise KeyError(SECRET)

    run = await agent([to_openai_agents(add, context=broken)], [[("add", {"a": 1, "b": 1})]])
    [text] = run.texts
    assert "'add'" in text and "could not be built (KeyError)" in text and SECRET not in text
