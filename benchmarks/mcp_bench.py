"""MCP adapter benchmark: served tools, adopted tools, and listing + adopting many tools.

Run with ``python benchmarks/mcp_bench.py`` in an environment with standard-tool-mcp installed;
``--stdio`` times instead an adopted tool of ``mcp-server-time`` over stdio against a raw
``ClientSession.call_tool`` (``--profile``: and profiles our client's work per call).
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import importlib
import pstats
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from typing import Any

from standard_tool import Tool, acall, call, tool
from standard_tool_mcp import connect, from_mcp_tool, load_mcp_tools, to_mcp_server, to_mcp_tool
from standard_tool_mcp._compat import MAJOR, call_tool, list_tools_page, memory_session

from _timing import apair_us, loop_us, min_median

CALLS = 2000
ROUNDS = 5


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


async def add_async(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def native_server(function: Callable[..., Any]) -> Any:
    """The SDK's own high-level server with the same function."""
    if MAJOR >= 2:
        from mcp.server.mcpserver import MCPServer

        server = MCPServer("native")
    else:  # 1.x only: looked up untyped, as the adapter's compat layer does
        server = importlib.import_module("mcp.server.fastmcp").FastMCP("native")
    server.tool()(function)
    return server


async def compare(
    first: Callable[[], Awaitable[Any]], second: Callable[[], Awaitable[Any]], calls: int = CALLS
) -> tuple[float, float]:
    """Median microseconds per call of each, measured in alternating rounds."""
    (_, a), (_, b) = await apair_us(first, second, number=calls, rounds=ROUNDS, warmup=300)
    return a, b


async def served(function: Callable[..., Any], label: str) -> None:
    arguments = {"a": 2, "b": 3}
    name = function.__name__
    async with (
        memory_session(native_server(function)) as native,
        memory_session(to_mcp_server([tool(function)])) as ours,
    ):
        await list_tools_page(native, None)
        await list_tools_page(ours, None)
        sdk, mine = await compare(
            lambda: call_tool(native, name, arguments, None, None),
            lambda: call_tool(ours, name, arguments, None, None),
        )
    print(
        f"served {label:<6} SDK server {sdk:8.1f} us   to_mcp_server {mine:8.1f} us   ratio {mine / sdk:5.2f}x"
    )


async def adopted(function: Callable[..., Any], label: str) -> None:
    arguments = {"a": 2, "b": 3}
    name = function.__name__
    async with memory_session(native_server(function)) as session:
        (adopted_tool,) = await load_mcp_tools(session)
        raw, mine = await compare(
            lambda: call_tool(session, name, arguments, None, None),
            lambda: acall(adopted_tool, arguments),
        )
    print(
        f"adopted {label:<5} raw call_tool {raw:8.1f} us   acall(adopted) {mine:8.1f} us   "
        f"added {mine - raw:6.1f} us   ratio {mine / raw:5.2f}x"
    )


def adopted_sync() -> None:
    arguments = {"a": 2, "b": 3}
    with connect(native_server(add)) as (adopted_tool,):
        for _ in range(200):
            call(adopted_tool, arguments)
        elapsed = loop_us(lambda: call(adopted_tool, arguments), CALLS)
    print(f"adopted sync  call() through the shared loop (plain with connect) {elapsed:8.1f} us")


def many(count: int) -> list[Tool]:
    schema = {
        "type": "object",
        "properties": {"x": {"type": "integer"}, "y": {"type": "string"}},
        "required": ["x"],
    }
    return [
        Tool(
            name=f"tool_{i}",
            description=f"Tool {i}.",
            input_schema=schema,
            output_schema=schema,
            execute=lambda input: input,
            meta={"read_only": True, "team": "bench"},
        )
        for i in range(count)
    ]


async def listing(count: int) -> None:
    tools = many(count)
    gc.collect()
    start = time.perf_counter()
    descriptors = [to_mcp_tool(t) for t in tools]
    export = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    server = to_mcp_server(tools)
    build = (time.perf_counter() - start) * 1e3
    async with memory_session(server) as session:
        await list_tools_page(session, None)
        gc.collect()
        start = time.perf_counter()
        await list_tools_page(session, None)
        raw = (time.perf_counter() - start) * 1e3
        gc.collect()
        start = time.perf_counter()
        loaded = await load_mcp_tools(session)
        ours = (time.perf_counter() - start) * 1e3
        listed, _ = await list_tools_page(session, None)
        start = time.perf_counter()
        for descriptor in listed:
            from_mcp_tool(descriptor, session)
        adopt_only = (time.perf_counter() - start) * 1e3
    assert len(loaded) == len(descriptors) == count
    print(
        f"{count:5d} tools: to_mcp_tool {export:6.1f} ms   to_mcp_server {build:6.1f} ms   "
        f"raw list_tools {raw:6.1f} ms   load_mcp_tools {ours:6.1f} ms   from_mcp_tool only {adopt_only:6.1f} ms"
    )


class _InstantSession:
    """A session that answers at once, to time the adapter's own work per call."""

    def __init__(self, result: Any) -> None:
        self.result = result

    async def call_tool(self, *args: Any, **kwargs: Any) -> Any:
        return self.result


async def instant_work(descriptor: Any, result: Any, arguments: dict[str, Any]) -> float:
    """µs of an adopted tool's own work per call (validation both ways, result mapping, the
    call's bookkeeping), timed against a session that answers ``result`` at once."""
    session = _InstantSession(result)
    adopted_tool = from_mcp_tool(descriptor, session)
    bare, wrapped = await compare(
        lambda: session.call_tool(descriptor.name, arguments),
        lambda: acall(adopted_tool, arguments),
        20000,
    )
    return wrapped - bare


async def adapter_work() -> None:
    """Per-call work of an adopted tool alone: validation both ways, result mapping, no transport."""
    import mcp.types as types

    result = types.CallToolResult.model_validate(
        {"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}}
    )
    work = await instant_work(to_mcp_tool(tool(add)), result, {"a": 2, "b": 3})
    print(f"adapter work per adopted call (instant session): {work:6.1f} us")


TIME_SERVER = [sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC"]
STDIO_CALLS = 100
STDIO_ROUNDS = 11


async def shuffled_rounds(
    contenders: dict[str, Callable[[], Awaitable[Any]]], *, number: int, rounds: int
) -> dict[str, tuple[list[float], list[float]]]:
    """Elapsed and process-time µs per call of each contender, one figure of each per round:
    each round runs ``number`` awaited calls of every contender, in an order shuffled anew."""
    figures: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in contenders}
    order = list(contenders)
    for _ in range(rounds):
        random.shuffle(order)
        for label in order:
            fn = contenders[label]
            gc.collect()
            cpu, start = time.process_time(), time.perf_counter()
            for _ in range(number):
                await fn()
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
            figures[label][0].append(elapsed / number * 1e6)
            figures[label][1].append(cpu / number * 1e6)
    return figures


PAIRS = 2000
"""Calls of each side in the per-call pairing."""


async def per_call_pairs(
    ours: Callable[[], Awaitable[Any]], raw: Callable[[], Awaitable[Any]], *, pairs: int = PAIRS
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """What ``ours`` adds to ``raw``, call by call: ``pairs`` pairs of one call of each, back
    to back on the same session (which goes first alternates), the collector off. The
    median over the pairs of the difference within a pair, with a 95% interval (the 2.5th
    and 97.5th percentiles of the medians of 400 resamples of the pairs), in µs, elapsed
    and this process's CPU time. Two calls back to back see the same load, so the machine's
    drift between rounds, larger than the difference sought, cancels out."""
    clocks = (time.perf_counter, time.process_time)
    differences: tuple[list[float], list[float]] = ([], [])
    for _ in range(pairs // 10):  # untimed: the first pairs of a run come out higher
        await ours()
        await raw()
    gc.collect()
    gc.disable()
    try:
        for i in range(pairs):
            first, second = (ours, raw) if i % 2 else (raw, ours)
            start = [clock() for clock in clocks]
            await first()
            middle = [clock() for clock in clocks]
            await second()
            end = [clock() for clock in clocks]
            for kind, found in enumerate(differences):
                a, b = middle[kind] - start[kind], end[kind] - middle[kind]
                found.append((b - a if i % 2 == 0 else a - b) * 1e6)
    finally:
        gc.enable()
    rng = random.Random(0)
    summaries = []
    for found in differences:
        medians = sorted(statistics.median(rng.choices(found, k=len(found))) for _ in range(400))
        summaries.append((statistics.median(found), medians[10], medians[-11]))
    return summaries[0], summaries[1]


def paired(ours: list[float], raw: list[float]) -> float:
    """The median over rounds of the difference between two contenders in the same round."""
    return statistics.median(a - b for a, b in zip(ours, raw, strict=True))


async def stdio(profile: bool) -> None:
    """An adopted tool of ``mcp-server-time`` over stdio against a raw ``ClientSession`` call.

    Four contenders, in one event loop: ``ClientSession.call_tool`` on the SDK's own
    ``stdio_client`` (raw); ``acall`` of a tool adopted on that same session (the same server
    process: what the adopted tool adds, alone); ``acall`` of the tool ``connect()`` adopted
    (our transport and session, a server process of its own); and raw calls on a second
    ``stdio_client`` session (how far two identical contenders drift apart in one run).
    Both raw sessions leave the tool's output unchecked, as an adopted tool has its session
    do (it checks the output itself): the raw side does the SDK's own work, no less.

    Each figure is µs per call, elapsed and this process's CPU time (the server's is not
    counted); "added" is a contender's best less the raw call's best, "paired" the median of
    the same difference taken within each round. The counts after them (tasks, loop turns,
    Python calls per call) do not move with the machine's load.

    Then what the adopted tool adds call by call (:func:`per_call_pairs`, on the first
    session): against the raw call; against a raw call bounded by the same time limit the
    adopted tool has the session put on every request (the SDK's own timer); and, where the
    server lists an output schema, against a raw call as the SDK makes it by default, which
    checks the result against that schema. Best-of-rounds figures drift between identical
    contenders by more than the difference sought here; a pair of calls back to back does not.
    The tool ``connect()`` adopted is paired with the raw call (its own server process and,
    on 2.x, the SDK's ``Client``, which speaks a newer protocol version) and with a raw call
    on its own session, which is what the adopted tool adds on that path.
    """
    from contextlib import AsyncExitStack

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from standard_tool_mcp._compat import skip_output_check

    arguments = {"timezone": "UTC"}
    name = "get_current_time"
    params = StdioServerParameters(command=TIME_SERVER[0], args=TIME_SERVER[1:])
    async with AsyncExitStack() as stack:
        raws = []
        for _ in range(2):
            read, write = await stack.enter_async_context(stdio_client(params))
            raw = await stack.enter_async_context(ClientSession(read, write))
            await raw.initialize()
            raws.append(raw)
        listed, _ = await list_tools_page(raws[0], None)
        for raw in raws:
            skip_output_check(raw, name)
        on_raw = from_mcp_tool({t.name: t for t in listed}[name], raws[0])
        connected = {t.name: t for t in await stack.enter_async_context(connect(TIME_SERVER))}
        first, second = raws

        def raw_call() -> Awaitable[Any]:
            return first.call_tool(name, arguments)

        contenders: dict[str, Callable[[], Awaitable[Any]]] = {
            "raw ClientSession.call_tool": raw_call,
            "acall(adopted on that session)": lambda: acall(on_raw, arguments),
            "acall(adopted by connect())": lambda: acall(connected[name], arguments),
            "raw, a second session": lambda: second.call_tool(name, arguments),
        }
        for fn in contenders.values():
            for _ in range(50):
                await fn()
        figures = await shuffled_rounds(contenders, number=STDIO_CALLS, rounds=STDIO_ROUNDS)
        print(
            f"mcp {version('mcp')}, mcp-server-time over stdio, best / median us per call of "
            f"{STDIO_ROUNDS} rounds of {STDIO_CALLS} calls, order shuffled each round"
        )
        raw_elapsed, raw_cpu = figures["raw ClientSession.call_tool"]
        print(
            f"{'':<31} {'elapsed best / median':>21} {'added':>7} {'paired':>7}   "
            f"{'client CPU best / median':>24} {'added':>7} {'paired':>7}"
        )
        for label, (elapsed, cpu) in figures.items():
            best, median = min_median(elapsed)
            cpu_best, cpu_median = min_median(cpu)
            print(
                f"{label:<31} {best:10.1f} / {median:8.1f} {best - min(raw_elapsed):+7.1f} "
                f"{paired(elapsed, raw_elapsed):+7.1f}   {cpu_best:13.1f} / {cpu_median:8.1f} "
                f"{cpu_best - min(raw_cpu):+7.1f} {paired(cpu, raw_cpu):+7.1f}"
            )
        for label, fn in contenders.items():
            tasks, turns, calls = await counted(fn, 500)
            print(
                f"{label:<31} per call: {tasks:4.2f} tasks started, {turns:5.2f} event-loop "
                f"turns, {calls:6.1f} Python calls (cProfile)"
            )
        limit = on_raw.timeout  # what the adopted tool has the session bound every request by
        schemas = first._tool_output_schemas
        declared = on_raw.remote.output_schema

        def bounded_call() -> Awaitable[Any]:
            return call_tool(first, name, arguments, limit, None)

        def raw_checked() -> Awaitable[Any]:
            """A raw call as the SDK makes it by default: the result checked against the
            listed output schema (its compiled validator cached by the session)."""
            schemas[name] = declared  # the adopted tool's call sets it back to None
            return first.call_tool(name, arguments)

        print(
            f"\nadded per call, the median difference within {PAIRS} back-to-back pairs "
            "(95% interval), us; two pairs are of two sessions, two server processes:"
        )
        print(f"{'':<48} {'elapsed':>24}   {'client CPU':>24}")
        pairs: dict[str, tuple[Callable[[], Awaitable[Any]], Callable[[], Awaitable[Any]]]] = {
            "acall(adopted) - raw call_tool": (
                contenders["acall(adopted on that session)"],
                raw_call,
            ),
            f"acall(adopted) - raw call_tool bounded at {limit:g} s": (
                contenders["acall(adopted on that session)"],
                bounded_call,
            ),
            f"raw bounded at {limit:g} s - raw call_tool": (
                bounded_call,
                raw_call,
            ),
            "raw call_tool - raw call_tool (no difference)": (raw_call, raw_call),
            "acall(adopted by connect()) - raw call_tool": (
                contenders["acall(adopted by connect())"],
                raw_call,
            ),
            "raw, a second session - raw call_tool": (
                contenders["raw, a second session"],
                raw_call,
            ),
            f"acall(adopted by connect()) - its session bounded at {limit:g} s": (
                contenders["acall(adopted by connect())"],
                lambda: call_tool(connected[name].session, name, arguments, limit, None),
            ),
        }
        if declared is not None:  # else the SDK checks nothing: the same call as the raw one
            pairs["acall(adopted) - raw call_tool checking output"] = (
                contenders["acall(adopted on that session)"],
                raw_checked,
            )
        for label, (ours, theirs) in pairs.items():
            elapsed_added, cpu_added = await per_call_pairs(ours, theirs)
            print(
                f"{label:<48} {'{:+6.1f} ({:+6.1f} .. {:+6.1f})'.format(*elapsed_added):>24}   "
                f"{'{:+6.1f} ({:+6.1f} .. {:+6.1f})'.format(*cpu_added):>24}"
            )
        if profile:
            await profiled(on_raw, arguments)
        result = await first.call_tool(name, arguments)
    work = await instant_work(on_raw.wrapped, result, arguments)
    print(f"the adopted tool's own work per call (a session answering at once): {work:5.1f} us")


async def counted(fn: Callable[[], Awaitable[Any]], number: int) -> tuple[float, float, float]:
    """Per call of ``fn``: the tasks started, the event loop's turns (asyncio's ``_run_once``)
    and the Python function calls and coroutine steps cProfile counts. Unlike times, these
    do not move with the machine's load."""
    loop = asyncio.get_running_loop()
    tasks = turns = 0
    factory = loop.get_task_factory()
    run_once = loop._run_once  # type: ignore[attr-defined]

    def task(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> Any:
        nonlocal tasks
        tasks += 1
        return asyncio.Task(coro, loop=loop, **options)

    def turn() -> None:
        nonlocal turns
        turns += 1
        run_once()

    loop.set_task_factory(task)
    loop._run_once = turn  # type: ignore[attr-defined]
    try:
        for _ in range(number):
            await fn()
    finally:
        loop.set_task_factory(factory)
        del loop._run_once  # type: ignore[attr-defined]
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(number):
        await fn()
    profiler.disable()
    calls = sum(row[1] for row in pstats.Stats(profiler).stats.values())  # type: ignore[attr-defined]
    return tasks / number, turns / number, calls / number


async def profiled(adopted_tool: Any, arguments: dict[str, Any]) -> None:
    """cProfile of 1,000 calls of the adopted tool: the functions of standard-tool it spends in."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(1000):
        await acall(adopted_tool, arguments)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats("standard_tool", 25)


async def main() -> None:
    print(f"mcp {version('mcp')}, {CALLS} calls x {ROUNDS} rounds, median of round means")
    await served(add, "sync")
    await served(add_async, "async")
    await adopted(add, "sync")
    await adopted(add_async, "async")
    await adapter_work()
    for count in (10, 100, 1000):
        await listing(count)


if __name__ == "__main__":
    import logging

    logging.disable(logging.INFO)  # the 1.x high-level server logs every request
    if "--stdio" in sys.argv:
        asyncio.run(stdio("--profile" in sys.argv))
    else:
        asyncio.run(main())
        adopted_sync()
