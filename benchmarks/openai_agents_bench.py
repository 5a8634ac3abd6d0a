"""Per-call cost of a converted tool against the Agents SDK's native ``FunctionTool``, and
conversion time.

Run ``python benchmarks/openai_agents_bench.py`` with standard-tool-openai-agents installed.
Each call is what a run does for a model's tool call: ``await on_invoke_tool(ctx, json_text)``.
"""

from __future__ import annotations

import asyncio
import os
from importlib.metadata import version
from typing import Any

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")

from agents import FunctionTool, function_tool  # noqa: E402

import standard_tool as st  # noqa: E402
from standard_tool_openai_agents import to_openai_agents, tool_context  # noqa: E402

from _timing import (  # noqa: E402
    aadd,
    acompare,
    add,
    conversions,
    native_reference,
    schema_tool,
)

REPEAT = 7
ROUNDS = 50
ARGUMENTS = '{"a": 2, "b": 3}'


async def calls(number: int = 100) -> None:
    ctx = tool_context(None, name="add", arguments=ARGUMENTS)
    pairs: list[tuple[str, FunctionTool, FunctionTool]] = [
        ("on_invoke_tool, sync function", function_tool(add), to_openai_agents(st.tool(add))),
        ("on_invoke_tool, async function", function_tool(aadd), to_openai_agents(st.tool(aadd))),
        (
            "on_invoke_tool, raw JSON Schema tool",
            function_tool(add),
            to_openai_agents(schema_tool()),
        ),
    ]
    await acompare(
        pairs,
        lambda tool: tool.on_invoke_tool(ctx, ARGUMENTS),
        lambda result: str(result) == "5",
        number=number,
        rounds=ROUNDS,
        width=40,
    )


def convert(tools: list[Any], declare: bool) -> None:
    """``to_openai_agents`` each tool, then (``declare``) its schema and strictness, as a run
    reads them to send the model its tools."""
    for tool in tools:
        native = to_openai_agents(tool)
        if declare:
            _ = native.params_json_schema, native.strict_json_schema


if __name__ == "__main__":
    print(
        f"openai-agents {version('openai-agents')}; "
        f"per call: min / median of {ROUNDS} alternating rounds; conversions: of {REPEAT} runs"
    )
    asyncio.run(calls())
    conversions(convert, shown="declare", width=44)
    native_reference(
        "function_tool",
        lambda n: [function_tool(add, name_override=f"t{i}") for i in range(n)],
        width=44,
    )
