"""Per-call cost of a converted tool against Agno's native ``Function``, and conversion time.

Run ``python benchmarks/agno_bench.py`` with standard-tool-agno installed. Each call is what
a run does for a model's tool call: ``FunctionCall(function=..., arguments=...,
call_id=...).execute()`` (``aexecute()`` in an async run of an async function), on the
function as a run processes it (``_per_run_copy`` + ``process_entrypoint``), whose result is
what the model reads.
"""

from __future__ import annotations

import asyncio
from functools import partial
from importlib.metadata import version
from typing import Any

from agno.tools.function import Function, FunctionCall

import standard_tool as st
from standard_tool_agno import to_agno

from _timing import (
    aadd,
    acompare,
    add,
    conversions,
    native_reference,
    pair_us,
    ratio_row,
    schema_tool,
)

REPEAT = 7
ROUNDS = 50
ARGUMENTS = {"a": 2, "b": 3}
WIDTH = 40


def processed(function: Function) -> Function:
    """``function`` as a run has it: a per-run copy, processed (not strict)."""
    copy = function._per_run_copy()
    copy.process_entrypoint(strict=False)
    return copy


def execute(function: Function) -> Any:
    return FunctionCall(function=function, arguments=dict(ARGUMENTS), call_id="call_1").execute()


async def aexecute(function: Function) -> Any:
    return await FunctionCall(
        function=function, arguments=dict(ARGUMENTS), call_id="call_1"
    ).aexecute()


def expected(outcome: Any) -> bool:
    return bool(outcome.status == "success" and str(outcome.result) == "5")


def calls(number: int = 100) -> None:
    pairs: list[tuple[str, Function, Function]] = [
        ("execute, sync function", Function.from_callable(add), to_agno(st.tool(add))),
        ("execute, raw JSON Schema tool", Function.from_callable(add), to_agno(schema_tool())),
    ]
    for label, native, ours in pairs:
        sides = [processed(native), processed(ours)]
        for function in sides:
            assert expected(execute(function)), label
        native_call, our_call = (partial(execute, function) for function in sides)
        timed = pair_us(native_call, our_call, number=number, rounds=ROUNDS)
        print(ratio_row(label, *timed, width=WIDTH))


async def acalls(number: int = 100) -> None:
    await acompare(
        [
            (
                "aexecute, async function",
                processed(Function.from_callable(aadd)),
                processed(to_agno(st.tool(aadd))),
            )
        ],
        aexecute,
        expected,
        number=number,
        rounds=ROUNDS,
        width=WIDTH,
    )


def convert(tools: list[Any], declare: bool) -> None:
    """``to_agno`` each tool, then (``declare``) its declaration, as a run processes it and
    sends the model its tools."""
    for each in tools:
        native = to_agno(each)
        if declare:
            _ = processed(native).to_dict()


if __name__ == "__main__":
    print(
        f"agno {version('agno')}; "
        f"per call: min / median of {ROUNDS} alternating rounds; conversions: of {REPEAT} runs"
    )
    calls()
    asyncio.run(acalls())
    conversions(convert, shown="declare", width=44)
    native_reference(
        "Function.from_callable",
        lambda n: [Function.from_callable(add, name=f"t{i}") for i in range(n)],
        width=44,
    )
