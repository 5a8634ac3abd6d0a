"""Per-call cost of a converted tool against smolagents' native tool, and conversion time.

Run ``python benchmarks/smolagents_bench.py`` with standard-tool-smolagents installed.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from smolagents import ToolCallingAgent, tool
from smolagents.models import get_tool_json_schema
from smolagents.monitoring import LogLevel

import standard_tool as st
from standard_tool_smolagents import to_smolagents
from standard_tool_smolagents._scripted import ScriptedModel

from _timing import (
    MinMedian,
    add,
    conversions,
    native_reference,
    pair_us,
    ratio_row,
    schema_tool,
)

REPEAT = 7
ROUNDS = 50


def row(label: str, native: MinMedian, ours: MinMedian) -> None:
    print(ratio_row(label, native, ours, width=40))


def calls(number: int = 2000) -> None:
    native = tool(add)  # smolagents' own tool for the function
    function_tool = to_smolagents(st.tool(add))
    raw_tool = to_smolagents(schema_tool())
    for each in (native, function_tool, raw_tool):
        assert each(a=2, b=3) == 5 and each(2, 3) == 5
    row(
        "tool(a=2, b=3), function tool",
        *pair_us(
            lambda: native(a=2, b=3), lambda: function_tool(a=2, b=3), number=number, rounds=ROUNDS
        ),
    )
    row(
        "tool(a=2, b=3), raw JSON Schema tool",
        *pair_us(
            lambda: native(a=2, b=3), lambda: raw_tool(a=2, b=3), number=number, rounds=ROUNDS
        ),
    )

    # What a ToolCallingAgent does for a model's call: its own argument check, then the tool
    # with sanitize_inputs_outputs=True (smolagents' handling of agent types)
    def agent(tools: list[Any]) -> Any:
        return ToolCallingAgent(tools=tools, model=ScriptedModel(), verbosity_level=LogLevel.OFF)

    native_agent, ours_agent, raw_agent = agent([native]), agent([function_tool]), agent([raw_tool])
    args = {"a": 2, "b": 3}
    row(
        "execute_tool_call, function tool",
        *pair_us(
            lambda: native_agent.execute_tool_call("add", args),
            lambda: ours_agent.execute_tool_call("add", args),
            number=number // 4,
            rounds=ROUNDS,
        ),
    )
    row(
        "execute_tool_call, raw JSON Schema tool",
        *pair_us(
            lambda: native_agent.execute_tool_call("add", args),
            lambda: raw_agent.execute_tool_call("add", args),
            number=number // 4,
            rounds=ROUNDS,
        ),
    )


def convert(tools: list[Any], bind: bool) -> None:
    """``to_smolagents`` each tool, then (``bind``) what a tool-calling model is sent."""
    for each in tools:
        native = to_smolagents(each)
        if bind:
            get_tool_json_schema(native)


if __name__ == "__main__":
    print(
        f"smolagents {version('smolagents')}; per call: min / median of {ROUNDS} alternating "
        f"rounds; conversions: of {REPEAT} runs"
    )
    calls()
    conversions(convert, shown="get_tool_json_schema", width=48)
    native_reference(
        "@tool + get_tool_json_schema",
        lambda n: [get_tool_json_schema(tool(add)) for _ in range(n)],
        width=48,
    )
