"""Per-call cost of a converted tool against LangChain's native tool, and conversion time.

Run ``python benchmarks/langchain_bench.py`` with standard-tool-langchain installed.
"""

from __future__ import annotations

import statistics
import time
import timeit
from collections.abc import Callable
from typing import Any

import langchain_core
from langchain_core.tools import StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool

import standard_tool as st
from standard_tool_langchain import to_langchain

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


def per_call(fn: Callable[[], Any], number: int) -> tuple[float, float]:
    """Min and median µs per call over REPEAT runs of ``number`` calls."""
    fn()
    runs = [t / number * 1e6 for t in timeit.repeat(fn, number=number, repeat=REPEAT)]
    return min(runs), statistics.median(runs)


def row(label: str, native: tuple[float, float], ours: tuple[float, float]) -> None:
    print(
        f"{label:<38} native {native[0]:7.1f} / {native[1]:7.1f} µs   "
        f"converted {ours[0]:7.1f} / {ours[1]:7.1f} µs   ratio {ours[0] / native[0]:.2f}x (min) "
        f"{ours[1] / native[1]:.2f}x (median)"
    )


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


def conversions() -> None:
    """``to_langchain`` alone (schemas derived on first use), then with the OpenAI form of each."""
    for bind in (False, True):
        for kind in ("schema", "function"):
            for n in (10, 100, 1000):
                runs = []
                for _ in range(REPEAT):
                    tools = make_tools(n, kind)  # fresh tools: nothing derived is cached yet
                    start = time.perf_counter()
                    for tool in tools:
                        native = to_langchain(tool)
                        if bind:
                            convert_to_openai_tool(native)
                    runs.append((time.perf_counter() - start) * 1e3)
                what = "convert + convert_to_openai_tool" if bind else "convert"
                label = f"{what} {n:>5} {kind} tools"
                best, median = min(runs), statistics.median(runs)
                print(
                    f"{label:<52} min {best:8.2f} ms   median {median:8.2f} ms"
                    f"   ({best / n * 1e3:.1f} µs per tool)"
                )


def native_reference(n: int = 1000) -> None:
    """For scale: LangChain building its own tools from the same function."""
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        for i in range(n):
            convert_to_openai_tool(StructuredTool.from_function(add, name=f"t{i}"))
        runs.append((time.perf_counter() - start) * 1e3)
    label = f"native StructuredTool.from_function + convert_to_openai_tool {n}"
    print(f"{label:<52} min {min(runs):8.2f} ms   median {statistics.median(runs):8.2f} ms")


if __name__ == "__main__":
    print(f"langchain-core {langchain_core.__version__}; figures are min / median of {REPEAT} runs")
    calls()
    conversions()
    native_reference()
