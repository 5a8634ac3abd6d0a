"""What each layer a tool call crosses costs, in one run: the tool, its validation,
``call``/``acall``, the execution boundary's gate, the adapter, the framework's runtime.

Run ``python benchmarks/layers_bench.py`` with standard-tool-pydantic-ai installed.

The tool does nothing: ``add(a, b)`` on two integers, async (the PydanticAI rows) and sync (the
``run_tool_calls`` rows), as a function tool (``@st.tool``, pydantic arguments) and a raw JSON
Schema tool. Each row is one way of making the same call, from the innermost (the function
alone) to the outermost (PydanticAI's tool manager handling a model's ``ToolCallPart``, or
``run_tool_calls`` answering a Responses ``function_call``), so the difference between two rows
is what the layer between them costs. "Native" is the framework's own tool for the same
function where there is one. The guarded rows put the tool behind a ``Gate`` (allow-all policy,
``MemoryStore``, a new request id per call). All rows are timed in alternating rounds (each
round times every row in turn), and a figure is the minimum, then the median, over the rounds.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import itertools
import json
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from pydantic_ai import RunContext, Tool
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.models.test import TestModel
from pydantic_ai.tool_manager import ToolManager
from pydantic_ai.toolsets import AbstractToolset, FunctionToolset
from pydantic_ai.usage import RunUsage

import standard_tool as st
from standard_tool.boundary import Gate, MemoryStore
from standard_tool.providers import run_tool_calls
from standard_tool_pydantic_ai import to_pydantic_ai_toolset

from _timing import aloop_us, loop_us, min_median

NUMBER = 1_000
ROUNDS = 25
ARGUMENTS = '{"a": 2, "b": 3}'
VALUE = {"a": 2, "b": 3}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
}


async def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def add_sync(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


async def add_input(value: dict[str, Any]) -> int:
    return int(value["a"] + value["b"])


def add_input_sync(value: dict[str, Any]) -> int:
    return int(value["a"] + value["b"])


function_tool = st.tool(add, name="add")
raw_tool = st.Tool(name="add", description="Add.", input_schema=SCHEMA, execute=add_input)
function_tool_sync = st.tool(add_sync, name="add")
raw_tool_sync = st.Tool(name="add", description="Add.", input_schema=SCHEMA, execute=add_input_sync)


def guard(tool: st.Tool) -> Any:
    return Gate(policy=lambda request: True, store=MemoryStore()).guard(tool)


def context() -> RunContext[Any]:
    return RunContext(deps=None, model=TestModel(), usage=RunUsage())


Row = tuple[str, Callable[[], Any], bool]
"""A row: its label, a call, and whether the call is awaited."""


async def adapter_call(toolset: AbstractToolset[Any]) -> Callable[[], Awaitable[Any]]:
    """PydanticAI's validation step, then the toolset's ``call_tool`` (what its tool manager
    does for one call, without the manager)."""
    ctx = context()
    tool = (await toolset.get_tools(ctx))["add"]
    validate, call_tool = tool.args_validator.validate_json, toolset.call_tool

    async def one() -> Any:
        return await call_tool("add", validate(ARGUMENTS), ctx, tool)

    return one


async def runtime_call(toolset: AbstractToolset[Any]) -> Callable[[], Awaitable[Any]]:
    """PydanticAI's tool manager handling a model's ``ToolCallPart`` (each with its own id)."""
    manager = await ToolManager(toolset).for_run_step(context())
    ids = (f"call-{n}" for n in itertools.count())

    async def one() -> Any:
        return await manager.handle_call(ToolCallPart("add", ARGUMENTS, tool_call_id=next(ids)))

    return one


def gated(tool: st.Tool) -> Callable[[], Awaitable[Any]]:
    guarded = guard(tool)
    ids = (f"request-{n}" for n in itertools.count())
    return lambda: st.acall(guarded, VALUE, {"request_id": next(ids)})


def gated_sync(tool: st.Tool) -> Callable[[], Any]:
    guarded = guard(tool)
    ids = (f"request-{n}" for n in itertools.count())
    return lambda: st.call(guarded, VALUE, {"request_id": next(ids)})


def responses_call(tools: list[Any]) -> Callable[[], Any]:
    items = [{"type": "function_call", "call_id": "c1", "name": "add", "arguments": ARGUMENTS}]
    return lambda: run_tool_calls(tools, items, "openai")


def guarded_responses_call(tool: st.Tool) -> Callable[[], Any]:
    tools = [guard(tool)]
    ids = (f"c{n}" for n in itertools.count())

    def one() -> Any:
        items = [
            {"type": "function_call", "call_id": next(ids), "name": "add", "arguments": ARGUMENTS}
        ]
        return run_tool_calls(tools, items, "openai")

    return one


async def pydantic_ai_rows() -> list[Row]:
    native = Tool(add, name="add")
    rows: list[Row] = [
        ("the function alone", lambda: add(2, 3), True),
        (
            "native: FunctionToolset validate + call_tool",
            await adapter_call(FunctionToolset([native])),
            True,
        ),
        ("native: ToolManager.handle_call", await runtime_call(FunctionToolset([native])), True),
    ]
    for kind, tool in (("function tool", function_tool), ("raw JSON Schema tool", raw_tool)):
        rows += [
            (
                f"{kind}: execute (validation + the tool)",
                partial(tool.execute, VALUE),
                True,
            ),
            (f"{kind}: st.acall", partial(st.acall, tool, VALUE), True),
            (f"{kind}: st.acall, guarded", gated(tool), True),
            (
                f"{kind}: adapter: validate + call_tool",
                await adapter_call(to_pydantic_ai_toolset([tool])),
                True,
            ),
            (
                f"{kind}: adapter, guarded",
                await adapter_call(to_pydantic_ai_toolset([guard(tool)])),
                True,
            ),
            (
                f"{kind}: ToolManager.handle_call",
                await runtime_call(to_pydantic_ai_toolset([tool])),
                True,
            ),
            (
                f"{kind}: ToolManager.handle_call, guarded",
                await runtime_call(to_pydantic_ai_toolset([guard(tool)])),
                True,
            ),
        ]
    return rows


def providers_rows() -> list[Row]:
    rows: list[Row] = [
        ("the function alone", lambda: add_sync(2, 3), False),
        ("json.loads of the arguments", lambda: json.loads(ARGUMENTS), False),
    ]
    for kind, tool in (
        ("function tool", function_tool_sync),
        ("raw JSON Schema tool", raw_tool_sync),
    ):
        rows += [
            (
                f"{kind}: execute (validation + the tool)",
                partial(tool.execute, VALUE),
                False,
            ),
            (f"{kind}: st.call", partial(st.call, tool, VALUE), False),
            (f"{kind}: st.call, guarded", gated_sync(tool), False),
            (f"{kind}: run_tool_calls", responses_call([tool]), False),
            (f"{kind}: run_tool_calls, guarded", guarded_responses_call(tool), False),
        ]
    return rows


async def measure(rows: list[Row]) -> list[tuple[float, float]]:
    for _, fn, awaited in rows:  # warm up: compiled schemas, first listings
        for _ in range(200):
            result = fn()
            if awaited:
                await result
    figures: list[list[float]] = [[] for _ in rows]
    for _ in range(ROUNDS):
        for figure, (_, fn, awaited) in zip(figures, rows, strict=True):
            figure.append(await aloop_us(fn, NUMBER) if awaited else loop_us(fn, NUMBER))
    return [min_median(figure) for figure in figures]


def table(title: str, rows: list[Row], figures: list[tuple[float, float]]) -> None:
    print(f"\n{title}")
    for (label, _, _), (low, mid) in zip(rows, figures, strict=True):
        print(f"  {label:<52} {low:7.2f} / {mid:7.2f} µs")


async def main() -> None:
    version = importlib.metadata.version("pydantic-ai-slim")
    print(f"Python {sys.version.split()[0]}, pydantic-ai-slim {version}")
    print(f"µs per call, min / median over {ROUNDS} alternating rounds of {NUMBER} calls")
    rows = await pydantic_ai_rows()
    table("PydanticAI, async add(a, b):", rows, await measure(rows))
    rows = providers_rows()
    table("run_tool_calls (OpenAI Responses), sync add(a, b):", rows, await measure(rows))


if __name__ == "__main__":
    asyncio.run(main())
