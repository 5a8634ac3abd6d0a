"""A client for the official MCP conformance suite's client mode, built on ``connect``.

The suite (``npx @modelcontextprotocol/conformance client --command "python client.py"
--scenario NAME``) starts a mock server, then runs this script with the server's URL as the
last argument and the scenario's name in ``MCP_CONFORMANCE_SCENARIO``. Handled scenarios:
``initialize``, ``tools_call``, ``elicitation-sep1034-client-defaults`` and ``sse-retry``.
The exit status is 0 when the scenario's part ran, 1 when it failed, 2 for a scenario this
client does not handle.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

import mcp.types as types

from standard_tool import acall
from standard_tool_mcp import connect

TIMEOUT = 20.0


def _by_name(tools: list[Any]) -> dict[str, Any]:
    return {tool.name: tool for tool in tools}


async def accept_defaults(context: Any, params: Any) -> types.ElicitResult:
    """Accept an elicitation with the default of every field of the requested schema."""
    schema = params.model_dump(by_alias=True).get("requestedSchema") or {}
    content = {
        name: field["default"]
        for name, field in (schema.get("properties") or {}).items()
        if isinstance(field, dict) and "default" in field
    }
    return types.ElicitResult(action="accept", content=content)


async def initialize(url: str) -> None:
    async with connect(url, timeout=TIMEOUT) as tools:
        print(f"connected; {len(tools)} tools")


async def tools_call(url: str) -> None:
    async with connect(url, timeout=TIMEOUT) as tools:
        print(await acall(_by_name(tools)["add_numbers"], {"a": 5, "b": 3}))


async def elicitation_defaults(url: str) -> None:
    async with connect(url, timeout=TIMEOUT, elicitation=accept_defaults) as tools:
        print(await acall(_by_name(tools)["test_client_elicitation_defaults"], {}))


async def sse_retry(url: str) -> None:
    async with connect(url, timeout=TIMEOUT) as tools:
        print(await acall(_by_name(tools)["test_reconnection"], {}))


SCENARIOS = {
    "initialize": initialize,
    "tools_call": tools_call,
    "elicitation-sep1034-client-defaults": elicitation_defaults,
    "sse-retry": sse_retry,
}


def main(argv: list[str]) -> int:
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    run = SCENARIOS.get(scenario)
    if run is None or len(argv) < 2:
        print(f"unsupported scenario {scenario!r} (handled: {', '.join(SCENARIOS)})")
        return 2
    asyncio.run(run(argv[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
