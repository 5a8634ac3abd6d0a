"""Per-call cost of a converted tool against Google ADK's native ``FunctionTool``, and
conversion time.

Run ``python benchmarks/google_adk_bench.py`` with standard-tool-google-adk installed. Each
call is what a run does for a model's tool call: ``await tool.run_async(args=...,
tool_context=...)`` with a real ``ToolContext``.
"""

from __future__ import annotations

import asyncio
from importlib.metadata import version
from typing import Any

from google.adk.tools.base_tool import BaseTool
from google.adk.tools.function_tool import FunctionTool

import standard_tool as st
from standard_tool_google_adk import to_google_adk, tool_context

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


async def calls(number: int = 200) -> None:
    ctx = tool_context()
    pairs: list[tuple[str, BaseTool, BaseTool]] = [
        ("run_async, sync function", FunctionTool(add), to_google_adk(st.tool(add))),
        ("run_async, async function", FunctionTool(aadd), to_google_adk(st.tool(aadd))),
        ("run_async, raw JSON Schema tool", FunctionTool(add), to_google_adk(schema_tool())),
    ]
    await acompare(
        pairs,
        lambda tool: tool.run_async(args=dict(ARGUMENTS), tool_context=ctx),
        lambda result: result == 5,
        number=number,
        rounds=ROUNDS,
        width=40,
    )


def convert(tools: list[Any], declare: bool) -> None:
    """``to_google_adk`` each tool, then (``declare``) its ``FunctionDeclaration``, as a run
    makes it to send the model its tools."""
    for tool in tools:
        native = to_google_adk(tool)
        if declare:
            native._get_declaration()


if __name__ == "__main__":
    print(
        f"google-adk {version('google-adk')}; "
        f"per call: min / median of {ROUNDS} alternating rounds; conversions: of {REPEAT} runs"
    )
    asyncio.run(calls())
    conversions(convert, shown="declaration", width=48)
    native_reference(
        "FunctionTool + declaration",
        lambda n: [FunctionTool(add)._get_declaration() for _ in range(n)],
        width=48,
    )
