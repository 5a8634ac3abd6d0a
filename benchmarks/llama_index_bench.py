"""Per-call cost of a converted tool against LlamaIndex's native tool, and conversion time.

Run ``python benchmarks/llama_index_bench.py`` with standard-tool-llama-index installed.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from importlib.metadata import version
from typing import Any, cast

from llama_index.core.tools import FunctionTool
from llama_index.core.tools.calling import call_tool

import standard_tool as st
from standard_tool_llama_index import to_llama_index

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
ROUNDS = 100


def compare(
    native: Callable[[], Any], ours: Callable[[], Any], number: int
) -> tuple[MinMedian, MinMedian]:
    """Min and median µs per call of each side, over ROUNDS alternating rounds of ``number``
    calls (alternating, so that both sides see the same load on a shared machine)."""
    return pair_us(native, ours, number=number, rounds=ROUNDS)


def row(label: str, native: MinMedian, ours: MinMedian) -> None:
    print(ratio_row(label, native, ours, width=36))


def calls(number: int = 200) -> None:
    native = FunctionTool.from_defaults(add)
    function_tool = cast(FunctionTool, to_llama_index(st.tool(add)))
    raw_tool = cast(FunctionTool, to_llama_index(schema_tool()))
    args = {"a": 2, "b": 3}
    for tool in (native, function_tool, raw_tool):
        output = tool.call(**args)
        assert (output.raw_output, output.content) == (5, "5")
        assert call_tool(tool, args).content == "5"
    row(
        "call(**kwargs), function tool",
        *compare(lambda: native.call(**args), lambda: function_tool.call(**args), number),
    )
    row(
        "call(**kwargs), raw JSON Schema tool",
        *compare(lambda: native.call(**args), lambda: raw_tool.call(**args), number),
    )
    row(
        "call_tool, function tool",
        *compare(lambda: call_tool(native, args), lambda: call_tool(function_tool, args), number),
    )
    row(
        "call_tool, raw JSON Schema tool",
        *compare(lambda: call_tool(native, args), lambda: call_tool(raw_tool, args), number),
    )

    # The same calls without LlamaIndex's instrumentation span around ``call`` (about 20 µs
    # of each figure above, the same on both sides): the adapter's own work against the native.
    native_call, ours_call = inspect.unwrap(type(native).call), inspect.unwrap(type(raw_tool).call)
    row(
        "call() inside the span, function tool",
        *compare(
            lambda: native_call(native, **args), lambda: ours_call(function_tool, **args), number
        ),
    )
    row(
        "call() inside the span, raw schema tool",
        *compare(lambda: native_call(native, **args), lambda: ours_call(raw_tool, **args), number),
    )

    async def acalls(tool: Any, n: int) -> None:
        for _ in range(n):
            await tool.acall(**args)

    loop = asyncio.new_event_loop()
    try:
        n = 100
        native_side, ours_side = compare(
            lambda: loop.run_until_complete(acalls(native, n)),
            lambda: loop.run_until_complete(acalls(function_tool, n)),
            number // n,
        )
        row(
            "acall(**kwargs), function tool",
            (native_side[0] / n, native_side[1] / n),
            (ours_side[0] / n, ours_side[1] / n),
        )
    finally:
        loop.close()


def convert(tools: list[Any], bind: bool) -> None:
    """``to_llama_index`` each tool, then (``bind``) its OpenAI form, as agents do."""
    for tool in tools:
        native = to_llama_index(tool)
        if bind:
            native.metadata.to_openai_tool()


if __name__ == "__main__":
    print(
        f"llama-index-core {version('llama-index-core')}; "
        f"per call: min / median of {ROUNDS} alternating rounds; conversions: of {REPEAT} runs"
    )
    calls()
    conversions(convert, shown="to_openai_tool", width=44)
    native_reference(
        "FunctionTool.from_defaults + to_openai_tool",
        lambda n: [
            FunctionTool.from_defaults(add, name=f"t{i}").metadata.to_openai_tool()
            for i in range(n)
        ],
        width=44,
    )
