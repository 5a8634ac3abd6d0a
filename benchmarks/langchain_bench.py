"""Per-call cost of a converted tool against LangChain's native tool, and conversion time.

Run ``python benchmarks/langchain_bench.py`` with standard-tool-langchain installed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import langchain_core
from langchain_core.tools import StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool

import standard_tool as st
from standard_tool_langchain import from_langchain, to_langchain

from _timing import (
    MinMedian,
    add,
    conversions,
    min_median,
    native_reference,
    ratio_row,
    runs_us,
    schema_tool as make_schema_tool,
)

REPEAT = 7


def per_call(fn: Callable[[], Any], number: int) -> MinMedian:
    """Min and median µs per call over REPEAT runs of ``number`` calls."""
    fn()
    return min_median(runs_us(fn, number=number, repeat=REPEAT))


def row(label: str, native: MinMedian, ours: MinMedian) -> None:
    print(ratio_row(label, native, ours, width=38))


def calls(number: int = 2000) -> None:
    native = StructuredTool.from_function(add)
    function_tool = to_langchain(st.tool(add))
    schema_tool = to_langchain(make_schema_tool())
    args = {"a": 2, "b": 3}
    call = {"type": "tool_call", "name": "add", "args": args, "id": "call_1"}
    for tool in (native, function_tool, schema_tool):
        assert tool.invoke(args) == 5 and tool.invoke(call).content == "5"
    base_dict = per_call(lambda: native.invoke(args), number)
    base_call = per_call(lambda: native.invoke(call), number)
    row(
        "invoke(dict), function tool",
        base_dict,
        per_call(lambda: function_tool.invoke(args), number),
    )
    row(
        "invoke(dict), raw JSON Schema tool",
        base_dict,
        per_call(lambda: schema_tool.invoke(args), number),
    )
    row(
        "invoke(ToolCall), function tool",
        base_call,
        per_call(lambda: function_tool.invoke(call), number),
    )
    row(
        "invoke(ToolCall), raw JSON Schema tool",
        base_call,
        per_call(lambda: schema_tool.invoke(call), number),
    )


def adopted(number: int = 2000) -> None:
    """A LangChain tool adopted (``from_langchain``) and called as a standard tool, which checks
    its input against the JSON Schema a model is shown, then runs LangChain's ``invoke``."""
    native = StructuredTool.from_function(add)
    tool = from_langchain(native)
    args = {"a": 2, "b": 3}
    assert st.call(tool, args) == native.invoke(args) == 5
    row(
        "adopted: call(from_langchain(tool))",
        per_call(lambda: native.invoke(args), number),
        per_call(lambda: st.call(tool, args), number),
    )


def convert(tools: list[Any], bind: bool) -> None:
    """``to_langchain`` each tool, then (``bind``) its OpenAI form, as ``bind_tools`` does."""
    for tool in tools:
        native = to_langchain(tool)
        if bind:
            convert_to_openai_tool(native)


if __name__ == "__main__":
    print(f"langchain-core {langchain_core.__version__}; figures are min / median of {REPEAT} runs")
    calls()
    adopted()
    conversions(convert, shown="convert_to_openai_tool", width=52)
    native_reference(
        "StructuredTool.from_function + convert_to_openai_tool",
        lambda n: [
            convert_to_openai_tool(StructuredTool.from_function(add, name=f"t{i}"))
            for i in range(n)
        ],
        width=52,
    )
