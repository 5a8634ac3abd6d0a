"""Per-call cost of a converted tool against LangChain's native tool, and conversion time.

Run ``python benchmarks/langchain_bench.py`` with standard-tool-langchain installed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import langchain_core
from langchain_core.tools import StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool

import standard_tool as st
from standard_tool_langchain import from_langchain, to_langchain

from _timing import MinMedian, fresh_runs_ms, min_median, ms_row, ratio_row, runs_ms, runs_us

REPEAT = 7
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
}


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def per_call(fn: Callable[[], Any], number: int) -> MinMedian:
    """Min and median µs per call over REPEAT runs of ``number`` calls."""
    fn()
    return min_median(runs_us(fn, number=number, repeat=REPEAT))


def row(label: str, native: MinMedian, ours: MinMedian) -> None:
    print(ratio_row(label, native, ours, width=38))


def calls(number: int = 2000) -> None:
    native = StructuredTool.from_function(add)
    function_tool = to_langchain(st.tool(add))
    schema_tool = to_langchain(
        st.Tool(
            name="add",
            description="Add two integers.",
            input_schema=SCHEMA,
            execute=lambda i: i["a"] + i["b"],
        )
    )
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


def make_tools(n: int, kind: str) -> list[Any]:
    if kind == "schema":
        return [
            st.Tool(
                name=f"t{i}",
                description=f"Tool {i}.",
                input_schema=SCHEMA,
                execute=lambda i: i["a"] + i["b"],
            )
            for i in range(n)
        ]
    return [st.tool(add, name=f"t{i}") for i in range(n)]


def convert(tools: list[Any], bind: bool) -> None:
    """``to_langchain`` each tool, then (``bind``) its OpenAI form, as ``bind_tools`` does."""
    for tool in tools:
        native = to_langchain(tool)
        if bind:
            convert_to_openai_tool(native)


def conversions() -> None:
    """``to_langchain`` alone (schemas derived on first use), then with the OpenAI form of each."""
    for bind in (False, True):
        for kind in ("schema", "function"):
            for n in (10, 100, 1000):
                # fresh tools for each run: nothing derived is cached yet
                runs = fresh_runs_ms(
                    partial(convert, bind=bind), partial(make_tools, n, kind), runs=REPEAT
                )
                what = "convert + convert_to_openai_tool" if bind else "convert"
                print(ms_row(f"{what} {n:>5} {kind} tools", runs, width=52, tools=n))


def native_reference(n: int = 1000) -> None:
    """For scale: LangChain building its own tools from the same function."""

    def build() -> None:
        for i in range(n):
            convert_to_openai_tool(StructuredTool.from_function(add, name=f"t{i}"))

    label = f"native StructuredTool.from_function + convert_to_openai_tool {n}"
    print(ms_row(label, runs_ms(build, runs=3), width=52))


if __name__ == "__main__":
    print(f"langchain-core {langchain_core.__version__}; figures are min / median of {REPEAT} runs")
    calls()
    adopted()
    conversions()
    native_reference()
