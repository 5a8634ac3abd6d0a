"""Provider envelopes: rendering declarations, and the return half against ``st.call``.

Run: ``python benchmarks/providers_bench.py`` (figures go to stdout; see README.md here).

- Rendering: 10, 100 and 1,000 tools per provider, each tool with its own raw JSON Schema
  (nested objects, a union, an enum, optional fields: what an MCP server lists), made fresh
  for each run so nothing derived is cached; then the same for typed-function tools whose
  pydantic schemas are already derived (the core caches them per tool).
- The return half: one call of the same tool through ``run_tool_calls`` (Responses items),
  against ``st.call`` with the arguments already parsed, and against the smallest loop by
  hand: ``json.loads`` of the arguments, ``st.call``, ``json.dumps`` of the result, the
  output item.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import standard_tool as st
from standard_tool.providers import run_tool_calls, to_anthropic, to_gemini, to_hf, to_openai

from _timing import MinMedian, fresh_runs_ms, min_median, rounds_us, spread


def raw_schema(i: int) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": f"What to look for ({i})."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
            "mode": {"enum": ["fast", "exact"], "default": "fast"},
            "where": {
                "anyOf": [{"$ref": "#/$defs/Place"}, {"type": "null"}],
                "description": "Where to look.",
            },
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["query"],
        "additionalProperties": False,
        "$defs": {
            "Place": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "country": {"type": "string"}},
                "required": ["city"],
            }
        },
    }


def raw_tools(n: int) -> list[st.Tool]:
    return [
        st.Tool(name=f"search.{i}", description="Search.", input_schema=raw_schema(i), execute=len)
        for i in range(n)
    ]


def function_tools(n: int) -> list[st.Tool]:
    def search(query: str, limit: int = 10, tags: list[str] | None = None) -> list[str]:
        """Search the notes.

        Args:
            query: What to look for.
            limit: How many results at most.
            tags: Only notes with these tags.
        """
        return [query]

    tools = [st.tool(search, name=f"search_{i}") for i in range(n)]
    for tool in tools:
        st.input_json_schema(tool)  # derived once, as any first use does
        st.output_json_schema(tool)
    return tools


RENDER: dict[str, Callable[[list[st.Tool]], Any]] = {
    "openai (strict=None)": to_openai,
    "openai (strict=False)": lambda tools: to_openai(tools, strict=False),
    "anthropic": to_anthropic,
    "gemini (parameters)": to_gemini,
    "gemini (parametersJsonSchema)": lambda tools: to_gemini(tools, field="parametersJsonSchema"),
    "hf": to_hf,
}


def render_ms(
    render: Callable[[list[st.Tool]], Any], make: Callable[[int], list[st.Tool]], n: int
) -> MinMedian:
    """Min and median of 7 runs, each on freshly made tools (garbage collected first), in ms."""
    return min_median(fresh_runs_ms(render, lambda: make(n), runs=7, collect=True))


NUMBER = 20_000
"""Calls per timed run of the return half, spread over its rounds."""
ROUNDS = 20
"""Rounds of the return half: each times the four contenders in turn (``rounds_us``), so that
all see the same load; a figure is the minimum over the rounds."""


def main() -> None:
    print(f"Python {sys.version.split()[0]}")
    print("\nRendering (min / median of 7 runs, ms):")
    for kind, make in (("raw JSON Schema", raw_tools), ("typed function", function_tools)):
        for label, render in RENDER.items():
            figures = [render_ms(render, make, n) for n in (10, 100, 1000)]
            cells = "  ".join(
                f"{n:>5}: {low:6.2f} / {mid:6.2f}"
                for n, (low, mid) in zip((10, 100, 1000), figures, strict=True)
            )
            print(f"  {kind:<16} {label:<30} {cells}")

    print(f"\nThe return half, one call (µs per call, min over {ROUNDS} alternating rounds):")

    @st.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    raw = st.Tool(
        name="add",
        description="Add two integers.",
        input_schema={
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
            "additionalProperties": False,
        },
        execute=lambda value: value["a"] + value["b"],
    )
    text = '{"a": 1, "b": 2}'
    for label, tool in (("function tool", add), ("raw JSON Schema tool", raw)):
        tools = [tool]
        items = [{"type": "function_call", "call_id": "c1", "name": "add", "arguments": text}]
        arguments = json.loads(text)

        def by_hand(tool: Any = tool) -> dict[str, Any]:
            result = st.call(tool, json.loads(text))
            return {"type": "function_call_output", "call_id": "c1", "output": json.dumps(result)}

        timed = rounds_us(
            [
                lambda: json.loads(text),
                lambda tool=tool, arguments=arguments: st.call(tool, arguments),  # type: ignore[misc]
                by_hand,
                lambda tools=tools, items=items: run_tool_calls(tools, items, "openai"),  # type: ignore[misc]
            ],
            number=NUMBER // 10,
            rounds=ROUNDS,
        )
        parse, bare, hand, ours = (min(figure) for figure in timed)
        ratios = [o / (b + p) for p, b, o in zip(timed[0], timed[1], timed[3], strict=True)]
        print(
            f"  {label:<21} json.loads {parse:5.2f}  st.call {bare:5.2f}  "
            f"by hand {hand:5.2f}  run_tool_calls {ours:5.2f}  "
            f"ratio to st.call + parse {ours / (bare + parse):4.2f}x "
            f"(per round: {spread(ratios)})  "
            f"to by hand {ours / hand:4.2f}x  added {ours - hand:5.2f} µs"
        )


if __name__ == "__main__":
    main()
