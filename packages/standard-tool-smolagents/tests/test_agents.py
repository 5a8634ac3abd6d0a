"""Exported tools in real smolagents agent runs (``ToolCallingAgent`` and ``CodeAgent``)
driven by a scripted model."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from smolagents.models import get_tool_json_schema

import standard_tool as st
from standard_tool.testing import SECRET, sample_tools
from standard_tool_smolagents import (
    JsonDict,
    current_context,
    standard_context,
    to_smolagents,
    to_smolagents_tools,
)
from standard_tool_smolagents._scripted import (
    call_source,
    code,
    run_code_agent,
    run_tool_calling_agent,
)

FORECAST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1, "description": "Where."},
        "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 1},
    },
    "required": ["city"],
    "additionalProperties": False,
}


def forecast_tool() -> st.Tool:
    return st.Tool(
        name="forecast",
        description="Weather forecast.",
        input_schema=FORECAST_SCHEMA,
        execute=lambda i: {"city": i["city"], "temps": [21.5] * i.get("days", 1)},
    )


def texts(run: Any) -> list[str]:
    """What the model read back after each step: observations or errors."""
    return [str(step.error) if step.error else str(step.observations) for step in run.steps]


# -- ToolCallingAgent --------------------------------------------------------------------


def test_the_model_is_shown_smolagents_types_with_the_rest_of_the_schema() -> None:
    tools = to_smolagents_tools([forecast_tool(), sample_tools()["add"]])
    run = run_tool_calling_agent(tools, [])
    shown = {d["function"]["name"]: d["function"] for d in run.model.seen_tools[0]}
    assert shown["forecast"] == get_tool_json_schema(tools[0])["function"]
    city, days = shown["forecast"]["parameters"]["properties"].values()
    assert city["type"] == "string" and city["description"].startswith("Where.\nJSON Schema: ")
    assert json.loads(days["description"].removeprefix("JSON Schema: ")) == {
        "type": "integer",
        "minimum": 1,
        "maximum": 7,
        "default": 1,
    }
    assert days["nullable"] is True  # smolagents' word for "may be left out"
    assert shown["forecast"]["parameters"]["required"] == ["city"]


def test_results_reach_the_model_as_json_text_and_calls_run_in_parallel() -> None:
    tools = to_smolagents_tools([forecast_tool(), sample_tools()["add"]])
    run = run_tool_calling_agent(
        tools, [[("forecast", {"city": "Lyon", "days": 2}), ("add", {"a": 2, "b": 3})]]
    )
    assert sorted(texts(run)[0].split("\n")) == sorted(
        ['{"city": "Lyon", "temps": [21.5, 21.5]}', "5"]
    )
    outputs = {o.tool_call.name: o.output for o in run.outputs}
    assert outputs["forecast"] == {"city": "Lyon", "temps": [21.5, 21.5]}
    assert isinstance(outputs["forecast"], JsonDict) and outputs["add"] == 5


def test_invalid_input_reaches_the_model_naming_the_tool_and_field_then_the_run_goes_on() -> None:
    tool = to_smolagents(forecast_tool())
    run = run_tool_calling_agent(
        [tool], [[("forecast", {"city": "Lyon", "days": 30})], [("forecast", {"city": "Nice"})]]
    )
    refused, ran = texts(run)[:2]
    assert "forecast" in refused and "days" in refused and "Traceback" not in refused
    assert "ToolValidationError" in refused
    assert json.loads(ran) == {"city": "Nice", "temps": [21.5]}
    assert run.answer == "done"


def test_smolagents_own_check_refuses_a_wrong_type_before_the_tool() -> None:
    calls: list[Any] = []

    @st.tool
    def double(n: int) -> int:
        """Double a number.

        Args:
            n: The number.
        """
        calls.append(n)
        return 2 * n

    run = run_tool_calling_agent([to_smolagents(double)], [[("double", {"n": "two"})]])
    # smolagents 1.20 ends it with a full stop
    assert texts(run)[0].rstrip(".") == "Argument n has type 'string' but should be 'integer'"
    assert calls == []


def test_a_failing_tool_and_a_hanging_one_end_as_errors_and_the_next_call_works() -> None:
    @st.tool(timeout=0.2)
    def hang(seconds: float) -> str:
        """Sleep.

        Args:
            seconds: How long.
        """
        time.sleep(seconds)
        return "woke"

    tools = to_smolagents_tools([sample_tools()["explode"], hang])
    run = run_tool_calling_agent(
        tools,
        [
            [("explode", {"reason": "on purpose"})],
            [("hang", {"seconds": 5.0})],  # smolagents 1.20 refuses an integer for a number
            [("hang", {"seconds": 0.0})],
        ],
        max_steps=5,
    )
    failed, hung, woke = texts(run)[:3]
    assert "exploded: on purpose" in failed and "explode" in failed
    assert "ToolTimeoutError" in hung and "hang" in hung
    assert woke == "woke"
    for text in (failed, hung):
        assert "Traceback" not in text


def test_the_standard_context_reaches_the_tool_and_never_the_model() -> None:
    seen: list[Any] = []

    @st.tool
    def whoami(label: str, context: Any = None) -> str:
        """Say who asks.

        Args:
            label: Echoed.
        """
        seen.append(context)
        return label

    run = run_tool_calling_agent(
        [to_smolagents(whoami)], [[("whoami", {"label": "x"})]], {"token": SECRET}
    )
    assert seen == [{"token": SECRET}] and current_context() is None
    assert SECRET not in repr(run.model.seen_messages)
    getter = to_smolagents(whoami, context=lambda: {"user": "ada"})
    with standard_context({"token": SECRET}):  # the getter wins
        assert getter(label="y") == "y"
    assert seen[-1] == {"user": "ada"}


def test_a_context_getter_that_raises_is_named_by_type_only() -> None:
    def broken() -> Any:
        raise RuntimeError(SECRET)

    tool = to_smolagents(sample_tools()["whoami"], context=broken)
    with pytest.raises(st.ToolExecutionError) as raised:
        tool(label="x")
    assert SECRET not in str(raised.value) and "RuntimeError" in str(raised.value)


# -- CodeAgent ---------------------------------------------------------------------------


def test_a_code_agent_calls_tools_by_keyword_and_positionally_and_uses_the_objects() -> None:
    tools = to_smolagents_tools([forecast_tool(), sample_tools()["add"], sample_tools()["plan"]])
    source = "\n".join(
        [
            'weather = forecast("Lyon", days=2)',
            "total = add(2, 3) + add(a=1)",
            'steps = plan([{"title": "a", "minutes": 5}])',
            'final_answer([weather["temps"], total, steps["total"], str(weather)])',
        ]
    )
    run = run_code_agent(tools, [code(source)])
    temps, total, minutes, text = run.answer
    assert (temps, total, minutes) == ([21.5, 21.5], 7, 5)
    assert json.loads(text) == {"city": "Lyon", "temps": [21.5, 21.5]}
    system = run.model.seen_messages[0][0].content[0]["text"]
    assert "def forecast(city: string, days: integer) -> any:" in system
    assert "def plan(steps: array, priority: string, label: ['string', 'integer'])" in system


def test_a_code_agent_reads_the_tools_error_naming_the_tool_and_field() -> None:
    tool = to_smolagents(forecast_tool())
    run = run_code_agent(
        [tool],
        [code(call_source("forecast", {"city": "Lyon", "days": 30})), code('final_answer("ok")')],
        {"token": SECRET},
    )
    error = texts(run)[0]
    assert "forecast" in error and "days" in error and "ToolValidationError" in error
    assert SECRET not in error and "Traceback" not in error
    assert run.answer == "ok"


def test_too_many_positional_arguments_are_refused_by_the_tool() -> None:
    tool = to_smolagents(sample_tools()["add"])
    with pytest.raises(st.ToolValidationError) as raised:
        tool(1, 2, 3)
    assert raised.value.tool == "add"
    with pytest.raises(st.ToolValidationError) as twice:
        tool(1, a=2)
    assert twice.value.fields == ("a",)
    assert tool({"a": 1, "b": 4}) == 5  # one dict of arguments, as smolagents allows


def test_an_async_tool_runs_in_both_agents() -> None:
    greet = to_smolagents(sample_tools()["greet"])
    args = {"person": {"name": "Ada"}, "shout": True}
    run = run_tool_calling_agent([greet], [[("greet", args)]])
    assert texts(run)[0] == "HELLO, ADA"
    coded = run_code_agent([greet], [code(call_source("greet", args))])
    assert coded.answer == "HELLO, ADA"
