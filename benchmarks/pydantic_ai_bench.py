"""Per-call cost of a converted tool against PydanticAI's native tool, and conversion time.

Run ``python benchmarks/pydantic_ai_bench.py`` with standard-tool-pydantic-ai installed.

A call is what PydanticAI's tool manager does for one tool call of a model: the toolset
tool's ``args_validator.validate_json`` of the model's arguments, then the toolset's
``call_tool``. Both sides run in the same event loop, in alternating rounds.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic_ai import RunContext, Tool
from pydantic_ai.models.test import TestModel
from pydantic_ai.toolsets import AbstractToolset, FunctionToolset
from pydantic_ai.usage import RunUsage

import standard_tool as st
from standard_tool_pydantic_ai import to_pydantic_ai, to_pydantic_ai_toolset

from _timing import (
    aadd,
    add,
    apair_us,
    conversions,
    native_reference,
    ratio_row,
    schema_tool,
)

REPEAT = 7
ARGUMENTS = '{"a": 2, "b": 3}'


def context() -> RunContext[None]:
    return RunContext(deps=None, model=TestModel(), usage=RunUsage())


async def caller(toolset: AbstractToolset[Any], name: str) -> Callable[[], Awaitable[Any]]:
    """One model tool call as PydanticAI's tool manager makes it: validate, then call."""
    ctx = context()
    tool = (await toolset.get_tools(ctx))[name]
    validate, call_tool = tool.args_validator.validate_json, toolset.call_tool

    async def one() -> Any:
        return await call_tool(name, validate(ARGUMENTS), ctx, tool)

    assert await one() == 5
    return one


async def compare(label: str, native: Any, converted: Any, number: int) -> None:
    """Alternating rounds of the two sides; min and median µs per call."""
    sides = await caller(native, "add"), await caller(converted, "add")
    base, ours = await apair_us(*sides, number=number, rounds=REPEAT)
    print(ratio_row(label, base, ours, width=44))


async def calls(number: int = 2000) -> None:
    await compare(
        "sync function, function tool",
        FunctionToolset([add]),
        to_pydantic_ai_toolset([st.tool(add)]),
        number,
    )
    await compare(
        "sync function, raw JSON Schema tool",
        FunctionToolset([add]),
        to_pydantic_ai_toolset([schema_tool()]),
        number,
    )
    await compare(
        "async function, function tool",
        FunctionToolset([Tool(aadd, name="add")]),
        to_pydantic_ai_toolset([st.tool(aadd, name="add")]),
        number,
    )


def convert(tools: list[Any], listed: bool) -> None:
    """``to_pydantic_ai`` each tool, or (``listed``) a toolset of them and its first listing."""
    if listed:
        asyncio.run(to_pydantic_ai_toolset(tools).get_tools(context()))
    else:
        for tool in tools:
            to_pydantic_ai(tool)


def build_toolset(n: int) -> None:
    """PydanticAI's own toolset of ``n`` tools of ``add``, listed as a run starts."""
    toolset = FunctionToolset([Tool(add, name=f"t{i}") for i in range(n)])
    asyncio.run(toolset.get_tools(context()))


if __name__ == "__main__":
    version = importlib.metadata.version("pydantic-ai-slim")
    print(f"pydantic-ai-slim {version}; figures are min / median of {REPEAT} runs")
    asyncio.run(calls())
    conversions(convert, shown="get_tools", width=52)
    native_reference("FunctionToolset + get_tools", build_toolset, width=52)
