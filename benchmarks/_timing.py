"""The timing loops, row formats and measured subject the benchmark scripts share.

The subject is one two-integer ``add``: :func:`add` / :func:`aadd` for a framework's own tool
and for ``st.tool``, :func:`schema_tool` for a tool of a raw JSON Schema (:data:`SCHEMA`).
:func:`conversions` times an adapter's export of 10, 100 and 1,000 of them, and
:func:`native_reference` the framework building as many of its own.

Each script imports this module as ``_timing``: run as ``python benchmarks/x_bench.py``, the
script's own folder is first on ``sys.path``. Per-call figures are µs per call, one-off
operations (converting, rendering, listing) ms per run; a figure set is read as its minimum
(the least disturbed run) and its median.
"""

from __future__ import annotations

import gc
import statistics
import time
import timeit
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, TypeVar

import standard_tool as st

__all__ = [
    "SCHEMA",
    "MinMedian",
    "aadd",
    "acompare",
    "add",
    "aloop_us",
    "apair_us",
    "best_us",
    "conversions",
    "fresh_runs_ms",
    "loop_us",
    "make_tools",
    "min_median",
    "ms_row",
    "native_reference",
    "pair_us",
    "ratio_row",
    "rounds_us",
    "runs_ms",
    "runs_us",
    "schema_tool",
    "spread",
]

T = TypeVar("T")

MinMedian = tuple[float, float]
"""The minimum and the median of a figure set."""
REPEAT = 7
"""Runs of each one-off operation."""
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
}
"""The input schema of :func:`schema_tool`: what ``add`` takes."""


def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: The first addend.
        b: The second addend.
    """
    return a + b


async def aadd(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def schema_tool(name: str = "add") -> st.Tool:
    """``add`` as a standard tool of a raw JSON Schema."""
    return st.Tool(
        name=name,
        description="Add two integers.",
        input_schema=SCHEMA,
        execute=lambda i: i["a"] + i["b"],
    )


def make_tools(n: int, kind: str) -> list[Any]:
    """``n`` distinct tools: of a raw JSON Schema (``kind`` ``"schema"``), else functions."""
    if kind == "schema":
        return [schema_tool(f"t{i}") for i in range(n)]
    return [st.tool(add, name=f"t{i}") for i in range(n)]


def conversions(
    convert: Callable[[list[Any], bool], object],
    *,
    shown: str,
    width: int,
    repeat: int = REPEAT,
) -> None:
    """Print the time to export 10, 100 and 1,000 tools of each kind (fresh tools each run:
    nothing derived is cached yet): ``convert(tools, False)`` alone, then
    ``convert(tools, True)``, which also makes what a model is sent (``shown``)."""
    for bind in (False, True):

        def each(tools: list[Any], bind: bool = bind) -> object:
            return convert(tools, bind)

        for kind in ("schema", "function"):
            for n in (10, 100, 1000):
                runs = fresh_runs_ms(each, partial(make_tools, n, kind), runs=repeat)
                what = f"convert + {shown}" if bind else "convert"
                print(ms_row(f"{what} {n:>5} {kind} tools", runs, width=width, tools=n))


def native_reference(
    label: str, build: Callable[[int], object], *, width: int, n: int = 1000
) -> None:
    """For scale: the framework building ``n`` tools of its own from ``add`` (``build(n)``)."""
    print(ms_row(f"native {label} {n}", runs_ms(partial(build, n), runs=3), width=width))


def runs_us(fn: Callable[[], object], *, number: int, repeat: int) -> list[float]:
    """µs per call of each of ``repeat`` runs of ``number`` calls (``timeit``: the garbage
    collector is off while a run is timed)."""
    return [total / number * 1e6 for total in timeit.repeat(fn, number=number, repeat=repeat)]


def best_us(fn: Callable[[], object], *, number: int, repeat: int = 7) -> float:
    """Best-of-``repeat`` µs per call (the least disturbed run of ``number`` calls)."""
    return min(runs_us(fn, number=number, repeat=repeat))


def rounds_us(
    fns: Sequence[Callable[[], object]], *, number: int, rounds: int, repeat: int = 1
) -> list[list[float]]:
    """µs per call of each function, one figure per round: each round times every function in
    turn (best of ``repeat`` runs of ``number`` calls), so that all see the same load."""
    figures: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for figure, fn in zip(figures, fns, strict=True):
            figure.append(best_us(fn, number=number, repeat=repeat))
    return figures


def pair_us(
    native: Callable[[], object], ours: Callable[[], object], *, number: int, rounds: int
) -> tuple[MinMedian, MinMedian]:
    """Min and median µs per call of each side, after one untimed call of each, over
    ``rounds`` alternating rounds of ``number`` calls (see ``rounds_us``)."""
    native(), ours()
    native_figures, our_figures = rounds_us([native, ours], number=number, rounds=rounds)
    return min_median(native_figures), min_median(our_figures)


def loop_us(fn: Callable[[], object], number: int) -> float:
    """µs per call over one plain loop of ``number`` calls (the garbage collector stays on)."""
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number * 1e6


async def aloop_us(fn: Callable[[], Awaitable[object]], number: int) -> float:
    """µs per call over one loop awaiting ``number`` calls, in the running event loop."""
    start = time.perf_counter()
    for _ in range(number):
        await fn()
    return (time.perf_counter() - start) / number * 1e6


async def apair_us(
    native: Callable[[], Awaitable[object]],
    ours: Callable[[], Awaitable[object]],
    *,
    number: int,
    rounds: int,
    warmup: int = 0,
) -> tuple[MinMedian, MinMedian]:
    """Min and median µs per call of each side, after ``warmup`` untimed calls of each, over
    ``rounds`` alternating rounds of ``number`` awaited calls (``aloop_us``)."""
    for _ in range(warmup):
        await native()
        await ours()
    figures: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        figures[0].append(await aloop_us(native, number))
        figures[1].append(await aloop_us(ours, number))
    return min_median(figures[0]), min_median(figures[1])


async def acompare(
    pairs: Sequence[tuple[str, Any, Any]],
    invoke: Callable[[Any], Awaitable[object]],
    expect: Callable[[object], bool],
    *,
    number: int,
    rounds: int,
    width: int,
) -> None:
    """Print a per-call row for each ``(label, native, converted)`` pair: ``invoke(tool)``
    as the framework calls a tool, once for each side (its result held to ``expect``), then
    timed over ``rounds`` alternating rounds of ``number`` calls after as many untimed."""
    for label, native, ours in pairs:
        for tool in (native, ours):
            result = await invoke(tool)
            assert expect(result), (label, result)
        sides = await apair_us(
            partial(invoke, native),
            partial(invoke, ours),
            number=number,
            rounds=rounds,
            warmup=number,
        )
        print(ratio_row(label, *sides, width=width))


def fresh_runs_ms(
    operation: Callable[[T], object],
    inputs: Callable[[], T],
    *,
    runs: int,
    collect: bool = False,
) -> list[float]:
    """ms of each of ``runs`` runs of ``operation``, each on fresh ``inputs()`` (made before
    the clock starts, so nothing derived from an earlier run is cached), the garbage collected
    first if ``collect``."""
    figures = []
    for _ in range(runs):
        value = inputs()
        if collect:
            gc.collect()
        start = time.perf_counter()
        operation(value)
        figures.append((time.perf_counter() - start) * 1e3)
    return figures


def runs_ms(operation: Callable[[], object], *, runs: int) -> list[float]:
    """ms of each of ``runs`` runs of ``operation``."""
    return fresh_runs_ms(lambda _: operation(), lambda: None, runs=runs)


def min_median(figures: Sequence[float]) -> MinMedian:
    """The minimum and the median of ``figures``."""
    return min(figures), statistics.median(figures)


def spread(figures: Sequence[float]) -> str:
    """``median (min-max)`` of ``figures``, two decimals each."""
    return f"{statistics.median(figures):4.2f} ({min(figures):4.2f}-{max(figures):4.2f})"


def ratio_row(label: str, native: MinMedian, ours: MinMedian, *, width: int) -> str:
    """A per-call row: each side's min / median µs, and the ratios of the mins and medians."""
    return (
        f"{label:<{width}} native {native[0]:7.1f} / {native[1]:7.1f} µs   "
        f"converted {ours[0]:7.1f} / {ours[1]:7.1f} µs   ratio {ours[0] / native[0]:.2f}x (min) "
        f"{ours[1] / native[1]:.2f}x (median)"
    )


def ms_row(label: str, figures: Sequence[float], *, width: int, tools: int | None = None) -> str:
    """A one-off operation's row: min and median ms, and the min per tool if ``tools``."""
    best, median = min_median(figures)
    row = f"{label:<{width}} min {best:8.2f} ms   median {median:8.2f} ms"
    return row if tools is None else f"{row}   ({best / tools * 1e3:.1f} µs per tool)"
