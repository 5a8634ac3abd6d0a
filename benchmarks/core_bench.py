"""Per-call cost of the core against pydantic and jsonschema, and the cost of importing it.

Run: ``python benchmarks/core_bench.py`` (figures go to stdout; see README.md here).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import jsonschema
from pydantic import validate_call

import standard_tool as st

from _timing import best_us, rounds_us, spread

FRAMEWORKS = ("langchain_core", "langchain", "pydantic_ai", "llama_index", "mcp")


NUMBER = 100_000
"""Calls per timed run of the per-call figures (best of 7 runs)."""


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


RAW = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
}


OPEN = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}
NESTED = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "at": {
            "type": ["object", "null"],
            "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
        },
    },
}
RAW_CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("closed, 2 integers (the schema above)", RAW, {"a": 1, "b": 2}),
    ("open, 2 integers", OPEN, {"a": 1, "b": 2}),
    (
        "open, 2 floats",
        OPEN | {"properties": {"a": {"type": "number"}, "b": {"type": "number"}}},
        {"a": 1.5, "b": 2.5},
    ),
    (
        "nested: list and object",
        NESTED,
        {"city": "Oslo", "days": 2, "tags": ["a", "b"], "at": {"lat": 59.9, "lon": 10.7}},
    ),
]


ROUNDS = 7
"""Rounds of the raw-schema comparison; each round times every contender once, in turn."""


def raw_against_floor(
    schema: dict[str, Any], value: dict[str, Any], rounds: int = ROUNDS
) -> dict[str, list[float]]:
    """Per-call µs, one figure per round, of: jsonschema-rs + the bare function (the floor),
    ``Tool.execute``, ``st.call``, and the JSON-data walk alone."""
    import jsonschema_rs

    from standard_tool.schema._json import plain

    def function(input: dict[str, Any]) -> int:
        return len(input)

    is_valid = jsonschema_rs.validator_for(schema).is_valid

    def floor() -> int:
        is_valid(value)
        return function(value)

    tool = st.Tool(name="f", description="F.", input_schema=schema, execute=function)
    execute, call = tool.execute, st.call
    contenders: dict[str, Callable[[], Any]] = {
        "floor": floor,
        "execute": lambda: execute(value),
        "call": lambda: call(tool, value),
        "walk": lambda: plain(value),
    }
    figures = rounds_us(list(contenders.values()), number=50_000, rounds=rounds, repeat=3)
    return dict(zip(contenders, figures, strict=True))


def ratios(times: dict[str, list[float]], name: str) -> list[float]:
    """``name``'s figure over the floor's, round by round."""
    return [mine / base for mine, base in zip(times[name], times["floor"], strict=True)]


def import_ms(module: str, runs: int = 9) -> tuple[float, list[str]]:
    """Median milliseconds to import ``module`` in a fresh interpreter, and frameworks it pulled in."""
    code = (
        f"import sys, time; t = time.perf_counter(); import {module}; d = time.perf_counter() - t; "
        f"print(d * 1000); print(','.join(sorted({{k.split('.')[0] for k in sys.modules}} & set({FRAMEWORKS!r}))))"
    )
    times, loaded = [], []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        first, second = (out.stdout.splitlines() + [""])[:2]
        times.append(float(first))
        loaded = [name for name in second.split(",") if name]
    return statistics.median(times), loaded


def main() -> None:
    arguments = {"a": 1, "b": 2}

    pydantic_tool = st.tool(add)
    validated = validate_call(add)
    native = best_us(lambda: validated(**arguments), number=NUMBER)
    ours = best_us(lambda: pydantic_tool.execute(arguments), number=NUMBER)
    print(f"pydantic schema   validate_call        {native:7.2f} us")
    print(
        f"                  Tool.execute         {ours:7.2f} us   ratio {ours / native:4.2f}x (goal <= 2x)"
    )

    raw_tool = st.Tool(
        name="add", description="Add.", input_schema=RAW, execute=lambda i: i["a"] + i["b"]
    )
    reference = jsonschema.Draft202012Validator(RAW)

    def with_jsonschema() -> int:
        reference.validate(arguments)
        return arguments["a"] + arguments["b"]

    baseline = best_us(with_jsonschema, number=10_000)
    raw = best_us(lambda: raw_tool.execute(arguments), number=NUMBER)
    print(f"raw JSON Schema   jsonschema + call    {baseline:7.2f} us")
    print(
        f"                  Tool.execute         {raw:7.2f} us   ratio {raw / baseline:4.2f}x (goal <= 3 us)"
    )

    print(
        f"raw JSON Schema against its floor (jsonschema-rs is_valid + the bare function), "
        f"goal <= 2x; median (min-max) of {ROUNDS} rounds, ratios taken within each round:"
    )
    for label, schema, value in RAW_CASES:
        times = raw_against_floor(schema, value)
        print(
            f"  {label:<38} floor {statistics.median(times['floor']):5.2f} us"
            f"   Tool.execute {spread(ratios(times, 'execute'))}x"
            f"   st.call {spread(ratios(times, 'call'))}x"
            f"   JSON-data walk alone {spread(ratios(times, 'walk'))}x"
        )

    pydantic_ms, _ = import_ms("pydantic")
    ours_ms, loaded = import_ms("standard_tool")
    both_ms, _ = import_ms("pydantic.main, standard_tool")
    model_ms, _ = import_ms("pydantic.main")
    print(f"import            pydantic             {pydantic_ms:7.1f} ms")
    print(
        f"                  standard_tool        {ours_ms:7.1f} ms   difference {ours_ms - pydantic_ms:+.1f} ms "
        f"(goal <= +25 ms); frameworks imported: {loaded or 'none'}"
    )
    print(
        f"                  pydantic.main        {model_ms:7.1f} ms   with standard_tool too {both_ms:7.1f} ms "
        f"(+{both_ms - model_ms:.1f} ms on top of pydantic's models)"
    )


if __name__ == "__main__":
    main()
