"""The adapter contract, through a real in-memory MCP client session."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from standard_tool import StandardTool, convert
from standard_tool._call import run_sync
from standard_tool.names import MCP_NAMES
from standard_tool.testing import AdapterContract, NativeOutcome, outcome_from_json_text
from standard_tool_mcp import Connection, _compat, connect, to_mcp_server, to_mcp_tool


@dataclass
class Served:
    """What exporting a tool gives MCP: its descriptor and a server that runs it (an
    in-process server, or the ``http://`` URL of one served over streamable HTTP)."""

    descriptor: Any
    server: Any


def _session(server: Any) -> Any:
    """A client session to ``server``: in memory, or over streamable HTTP for a URL."""
    if isinstance(server, str):
        return _compat.open_session(_compat.http_client_transport(server, None), 10)
    return _compat.memory_session(server)


async def _listed(server: Any) -> Any:
    async with _session(server) as session:
        return (await _compat.list_tools_page(session, None))[0][0]


async def _call(
    server: Any, name: str, arguments: Mapping[str, Any], meta: Mapping[str, Any]
) -> Any:
    async with _session(server) as session:
        return await _compat.call_tool(session, name, dict(arguments), 10, meta)


class TestMCPContract(AdapterContract):
    target = "mcp"
    distribution = "mcp"
    name_rule = MCP_NAMES

    @pytest.fixture(autouse=True)
    def _connections(self) -> Iterator[None]:
        self.opened: list[Connection] = []
        yield
        for connection in self.opened:
            connection.__exit__(None, None, None)

    def to_native(self, tool: StandardTool) -> Served:
        return Served(convert(tool, to="mcp"), to_mcp_server([tool]))

    def from_native(self, native: Served) -> StandardTool:
        connection = connect(native.server, timeout=10)
        (tool,) = connection.__enter__()
        self.opened.append(connection)
        assert to_mcp_tool(tool) == native.descriptor
        return tool

    def native_name(self, native: Served) -> str:
        name: str = native.descriptor.name
        return name

    def deep_copy(self, native: Served) -> Served:
        """The descriptor is what ``to_mcp_tool`` exports; the server is not copied."""
        return Served(copy.deepcopy(native.descriptor), native.server)

    def native_schema(self, native: Served) -> dict[str, Any]:
        listed = run_sync(_listed(native.server))
        assert listed == native.descriptor
        return _compat.dump(listed)["inputSchema"]

    def call_native(
        self, native: Served, arguments: Mapping[str, Any], context: Mapping[str, Any]
    ) -> NativeOutcome:
        result = run_sync(_call(native.server, native.descriptor.name, arguments, context))
        wire = _compat.dump(result)
        text = "\n".join(block["text"] for block in wire["content"] if block["type"] == "text")
        if wire.get("isError"):
            return NativeOutcome(error=text)
        structured = wire.get("structuredContent")
        if structured is None:  # no output schema: the text is what the model gets
            return outcome_from_json_text(text, is_error=False)
        output = wire and _compat.dump(native.descriptor).get("outputSchema") or {}
        if output.get("x-standard-tool-wrapped"):
            structured = structured["result"]
        return NativeOutcome(value=structured)
