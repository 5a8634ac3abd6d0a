"""MCP adapter benchmark: served tools, adopted tools, and listing + adopting many tools.

Run with ``python benchmarks/mcp_bench.py`` in an environment with standard-tool-mcp installed.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import time
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from typing import Any

from standard_tool import Tool, acall, call, tool
from standard_tool_mcp import connect, from_mcp_tool, load_mcp_tools, to_mcp_server, to_mcp_tool
from standard_tool_mcp._compat import MAJOR, call_tool, list_tools_page, memory_session

from _timing import apair_us, loop_us

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


async def adapter_work() -> None:
    """Per-call work of an adopted tool alone: validation both ways, result mapping, no transport."""
    import mcp.types as types

    descriptor = to_mcp_tool(tool(add))
    result = types.CallToolResult.model_validate(
        {"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}}
    )
    session = _InstantSession(result)
    adopted_tool = from_mcp_tool(descriptor, session)
    arguments = {"a": 2, "b": 3}
    bare, wrapped = await compare(
        lambda: session.call_tool("add", arguments), lambda: acall(adopted_tool, arguments), 20000
    )
    print(f"adapter work per adopted call (instant session): {wrapped - bare:6.1f} us")


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
    asyncio.run(main())
    adopted_sync()
