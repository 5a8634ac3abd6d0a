"""Exported tools in a LlamaIndex ``FunctionAgent`` run, driven by a scripted model.

No ``from __future__ import annotations`` here: LlamaIndex finds a ``Context`` parameter by
its evaluated annotation.
"""

import json
import time
from collections.abc import Sequence
from typing import Any

from llama_index.core.agent.workflow import ReActAgent
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.tools import FunctionTool
from llama_index.core.workflow import Context

import standard_tool as st
from standard_tool.testing import SECRET, sample_tools
from standard_tool_llama_index import CONTEXT_KEY, from_llama_index, to_llama_index

FORECAST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 1},
    },
    "required": ["city"],
    "additionalProperties": False,
}


def forecast_tool() -> st.Tool:
    return st.Tool(
        name="forecast",
        title="Forecast",
        description="Weather forecast.",
        input_schema=FORECAST_SCHEMA,
        execute=lambda i: {"city": i["city"], "temps": [21.5] * i.get("days", 1)},
    )


def last_tool_message(messages: Sequence[ChatMessage]) -> str:
    return next(str(m.content) for m in reversed(messages) if m.role == "tool")


async def test_the_model_sees_the_raw_schemas_and_gets_json_results(agent: Any) -> None:
    tools = [to_llama_index(forecast_tool()), to_llama_index(sample_tools()["add"])]
    run = await agent(
        tools,
        [
            [("forecast", {"city": "Lyon", "days": 2}), ("add", {"a": 2, "b": 3})],
            lambda messages: " | ".join(
                sorted(str(m.content) for m in messages if m.role == "tool")
            ),
        ],
    )
    assert run.llm.seen_tools[0] == [tool.metadata.to_openai_tool() for tool in tools]
    assert run.llm.seen_tools[0][0]["function"]["parameters"] == FORECAST_SCHEMA
    assert run.llm.seen_tools[0][1]["function"]["parameters"] == st.input_json_schema(
        sample_tools()["add"]
    )
    outputs = {output.tool_name: output for output in run.outputs}  # run in parallel
    weather, total = outputs["forecast"], outputs["add"]
    assert weather.raw_output == {"city": "Lyon", "temps": [21.5, 21.5]}
    assert json.loads(weather.content) == weather.raw_output
    assert (total.raw_output, total.content) == (5, "5")
    assert run.answer == f"5 | {weather.content}"


async def test_an_invalid_call_reaches_the_model_as_an_error_and_it_can_retry(agent: Any) -> None:
    run = await agent(
        [to_llama_index(forecast_tool())],
        [
            [("forecast", {"city": "", "days": 30, "wind": True})],
            lambda messages: [("forecast", {"city": "Lyon"})],
            lambda messages: last_tool_message(messages),
        ],
        {CONTEXT_KEY: {"token": SECRET}},
    )
    failed, fixed = run.outputs
    assert failed.is_error and not fixed.is_error
    for field in ("forecast", "city", "days", "wind"):
        assert field in failed.content
    assert "Traceback" not in failed.content and SECRET not in failed.content
    told = [str(m.content) for m in run.llm.seen_messages[1] if m.role == "tool"]
    assert told == [failed.content]
    assert json.loads(run.answer) == {"city": "Lyon", "temps": [21.5]}


async def test_failures_and_hangs_end_as_error_outputs_and_the_run_goes_on(agent: Any) -> None:
    def hang() -> str:
        """Hang."""
        time.sleep(3)
        return "late"

    tools = [to_llama_index(sample_tools()["explode"]), to_llama_index(st.tool(hang, timeout=0.2))]
    run = await agent(
        tools,
        [[("explode", {"reason": "on purpose"}), ("hang", {})], [("explode", {})], "done"],
    )
    (exploded, hung), invalid = sorted(run.outputs[:2], key=lambda o: o.tool_name), run.outputs[2]
    assert exploded.is_error and "exploded: on purpose" in exploded.content
    assert hung.is_error and "timed out" in hung.content
    assert invalid.is_error and "reason" in invalid.content
    assert run.answer == "done"


async def test_the_standard_context_comes_from_the_workflow_context(agent: Any) -> None:
    def whoami(context: Any = None) -> Any:
        """Say who calls."""
        return context

    async def user_of(ctx: Context | None) -> Any:
        store = getattr(ctx, "store", None)
        get = store.get if store is not None else ctx.get  # type: ignore[union-attr]
        return {"user": await get("user", default=None)}

    default = to_llama_index(st.tool(whoami))
    custom = to_llama_index(st.tool(whoami, name="whoami_custom"), context=user_of)
    run = await agent(
        [default, custom],
        [[("whoami", {}), ("whoami_custom", {})], "done"],
        {CONTEXT_KEY: {"tenant": "t1"}, "user": "ada"},
    )
    outputs = {output.tool_name: output.raw_output for output in run.outputs}
    assert outputs == {"whoami": {"tenant": "t1"}, "whoami_custom": {"user": "ada"}}
    bare = await agent([default], [[("whoami", {})], "done"])
    assert bare.outputs[0].raw_output is None


async def test_a_failing_context_getter_is_an_error_output_without_its_message(
    agent: Any,
) -> None:
    def leaky(ctx: Any) -> Any:
        raise LookupError(f"no user in {SECRET}")

    native = to_llama_index(sample_tools()["whoami"], context=leaky)
    run = await agent([native], [[("whoami", {"label": "x"})], "done"])
    (output,) = run.outputs
    assert output.is_error and "whoami" in output.content and "LookupError" in output.content
    assert SECRET not in output.content


async def test_return_direct_ends_the_run_with_the_result(agent: Any) -> None:
    def scale(a: int) -> int:
        return a * 10

    tool = st.tool(scale, description="Scale.", meta={"return_direct": True})
    run = await agent([to_llama_index(tool)], [[("scale", {"a": 4})], "never said"])
    assert run.outputs[0].raw_output == 40
    assert run.answer == "40"


async def whoami_in_workflow(ctx: Context, label: str) -> dict[str, Any]:
    """Report the user stored in the workflow Context."""
    store = getattr(ctx, "store", None)
    get = store.get if store is not None else ctx.get
    return {"label": label, "user": await get("user", default=None)}


async def test_a_context_tool_adopted_and_exported_again_gets_the_agents_context(
    agent: Any,
) -> None:
    native = FunctionTool.from_defaults(whoami_in_workflow, name="whoami")
    again = to_llama_index(from_llama_index(native), context=lambda ctx: ctx)
    assert again.metadata.to_openai_tool() == native.metadata.to_openai_tool()
    run = await agent([again], [[("whoami", {"label": "x"})], "done"], {"user": "ada"})
    assert run.outputs[0].raw_output == {"label": "x", "user": "ada"}
    original = await agent([native], [[("whoami", {"label": "x"})], "done"], {"user": "ada"})
    assert original.outputs[0].raw_output == run.outputs[0].raw_output


async def test_a_react_agent_shows_the_raw_schema_and_runs_the_tool(agent: Any) -> None:
    native = to_llama_index(forecast_tool())
    run = await agent(
        [native],
        [
            'Thought: I need the forecast.\nAction: forecast\nAction Input: {"city": "Lyon"}',
            'Thought: I need to fix the input.\nAction: forecast\nAction Input: {"city": ""}',
            "Thought: I can answer without using any more tools.\nAnswer: done",
        ],
        kind=ReActAgent,
    )
    prompt = "\n".join(str(m.content) for m in run.llm.seen_messages[0])
    assert native.metadata.fn_schema_str == json.dumps(FORECAST_SCHEMA) and (
        native.metadata.fn_schema_str in prompt
    )
    ok, failed = run.outputs
    assert ok.raw_output == {"city": "Lyon", "temps": [21.5]} and not ok.is_error
    assert failed.is_error and "city" in failed.content
    assert run.answer == "done"
