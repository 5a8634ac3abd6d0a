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
from functools import partial
from typing import Any

from pydantic_ai import RunContext, Tool
from pydantic_ai.models.test import TestModel
from pydantic_ai.toolsets import AbstractToolset, FunctionToolset
from pydantic_ai.usage import RunUsage

import standard_tool as st
from standard_tool_pydantic_ai import to_pydantic_ai, to_pydantic_ai_toolset

from _timing import apair_us, fresh_runs_ms, ms_row, ratio_row, runs_ms

REPEAT = 7
ARGUMENTS = '{"a": 2, "b": 3}'
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
}


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


async def add_async(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def schema_tool(name: str = "add") -> st.Tool:
    return st.Tool(
        name=name,
        description="Add two integers.",
        input_schema=SCHEMA,
        execute=lambda i: i["a"] + i["b"],
    )


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
        FunctionToolset([Tool(add_async, name="add")]),
        to_pydantic_ai_toolset([st.tool(add_async, name="add")]),
        number,
    )


def make_tools(n: int, kind: str) -> list[Any]:
    if kind == "schema":
        return [schema_tool(f"t{i}") for i in range(n)]
    return [st.tool(add, name=f"t{i}") for i in range(n)]


def convert(tools: list[Any], listed: bool) -> None:
    """``to_pydantic_ai`` each tool, or (``listed``) a toolset of them and its first listing."""
    if listed:
        asyncio.run(to_pydantic_ai_toolset(tools).get_tools(context()))
    else:
        for tool in tools:
            to_pydantic_ai(tool)


def conversions() -> None:
    """``to_pydantic_ai`` alone (schemas derived on first use), then with a first listing of
    the toolset as an agent run starts with (every tool definition built)."""
    for listed in (False, True):
        for kind in ("schema", "function"):
            for n in (10, 100, 1000):
                # fresh tools for each run: nothing derived is cached yet
                runs = fresh_runs_ms(
                    partial(convert, listed=listed), partial(make_tools, n, kind), runs=REPEAT
                )
                what = "to_pydantic_ai_toolset + get_tools" if listed else "to_pydantic_ai"
                print(ms_row(f"{what} {n:>5} {kind} tools", runs, width=52, tools=n))


def native_reference(n: int = 1000) -> None:
    """For scale: PydanticAI building its own toolset from the same function, then listing."""

    def build() -> None:
        toolset = FunctionToolset([Tool(add, name=f"t{i}") for i in range(n)])
        asyncio.run(toolset.get_tools(context()))

    label = f"native FunctionToolset + get_tools {n}"
    print(ms_row(label, runs_ms(build, runs=3), width=52))


if __name__ == "__main__":
    version = importlib.metadata.version("pydantic-ai-slim")
    print(f"pydantic-ai-slim {version}; figures are min / median of {REPEAT} runs")
    asyncio.run(calls())
    conversions()
    native_reference()
