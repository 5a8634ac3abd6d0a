"""Per-call cost of a converted tool against Microsoft Agent Framework's native
``FunctionTool``, and conversion time.

Run ``python benchmarks/agent_framework_bench.py`` with standard-tool-agent-framework
installed. Each call is what a run's function loop does for a model's tool call:
``await tool.invoke(arguments=..., tool_call_id=...)``, whose result is the ``Content`` list
the model reads.
"""

from __future__ import annotations

import asyncio
from importlib.metadata import version
from typing import Any

from agent_framework import FunctionTool, tool

import standard_tool as st
from standard_tool_agent_framework import to_agent_framework

from _timing import (
    aadd,
    acompare,
    add,
    conversions,
    native_reference,
    schema_tool,
)

REPEAT = 7
ROUNDS = 50
ARGUMENTS = {"a": 2, "b": 3}


async def calls(number: int = 100) -> None:
    pairs: list[tuple[str, FunctionTool, FunctionTool]] = [
        ("invoke, sync function", tool(add), to_agent_framework(st.tool(add))),
        ("invoke, async function", tool(aadd), to_agent_framework(st.tool(aadd))),
        ("invoke, raw JSON Schema tool", tool(add), to_agent_framework(schema_tool())),
    ]
    await acompare(
        pairs,
        lambda tool: tool.invoke(arguments=ARGUMENTS, tool_call_id="call_1"),
        lambda result: isinstance(result, list) and result[0].text == "5",
        number=number,
        rounds=ROUNDS,
        width=40,
    )


def convert(tools: list[Any], declare: bool) -> None:
    """``to_agent_framework`` each tool, then (``declare``) its declaration, as a chat client
    reads it to send the model its tools."""
    for each in tools:
        native = to_agent_framework(each)
        if declare:
            _ = native.to_json_schema_spec()


if __name__ == "__main__":
    print(
        f"agent-framework-core {version('agent-framework-core')}; "
        f"per call: min / median of {ROUNDS} alternating rounds; conversions: of {REPEAT} runs"
    )
    asyncio.run(calls())
    conversions(convert, shown="declare", width=44)
    native_reference(
        "FunctionTool",
        lambda n: [FunctionTool(name=f"t{i}", func=add) for i in range(n)],
        width=44,
    )
