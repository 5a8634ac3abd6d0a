"""``Tool.from_langchain`` interop through the LangChain adapter: a standard tool made a
LangChain tool, that made a smolagents tool by smolagents itself, run by an agent, and
adopted back."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("standard_tool_langchain")

from smolagents import Tool  # noqa: E402

import standard_tool as st  # noqa: E402
from standard_tool_langchain import to_langchain  # noqa: E402
from standard_tool_smolagents import from_smolagents  # noqa: E402
from standard_tool_smolagents._scripted import run_tool_calling_agent  # noqa: E402

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1, "description": "Where."},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
    },
    "required": ["city", "days"],
    "additionalProperties": False,
}


def forecast() -> st.Tool:
    return st.Tool(
        name="forecast",
        description="Weather forecast.",
        input_schema=SCHEMA,
        execute=lambda i: f"{i['city']}: sunny for {i['days']} days",
    )


def test_a_standard_tool_through_langchain_into_a_smolagents_agent() -> None:
    wrapped = Tool.from_langchain(to_langchain(forecast()))
    assert wrapped.inputs["city"]["type"] == "string"
    run = run_tool_calling_agent(
        [wrapped],
        [[("forecast", {"city": "Lyon", "days": 2})], [("forecast", {"city": "Lyon", "days": 9})]],
    )
    ran, refused = (step.observations or str(step.error) for step in run.steps[:2])
    assert ran == "Lyon: sunny for 2 days"
    # LangChain answers the standard tool's refusal as its error text: the model reads it
    assert "forecast" in refused and "days" in refused and "Traceback" not in refused


def test_adopted_back_it_keeps_the_schema_smolagents_kept_and_the_standard_checks() -> None:
    adopted = from_smolagents(Tool.from_langchain(to_langchain(forecast())))
    schema = st.input_json_schema(adopted)
    assert schema["properties"]["city"] == {"type": "string", "minLength": 1}  # description: ""
    assert schema["properties"]["days"] == {"type": "integer", "minimum": 1, "maximum": 7}
    assert schema["required"] == ["city", "days"]
    assert st.call(adopted, {"city": "Nice", "days": 1}) == "Nice: sunny for 1 days"
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(adopted, {"city": "", "days": 1})
    assert raised.value.fields == ("city",) and raised.value.tool == "forecast"
