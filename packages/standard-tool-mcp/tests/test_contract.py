"""The adapter contract, through a real in-memory MCP client session (the adapter's runtime)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from standard_tool import StandardTool
from standard_tool.names import MCP_NAMES
from standard_tool.registry import runtime
from standard_tool.testing import AdapterContract, sample_tools
from standard_tool_mcp import Connection, _compat, connect, to_mcp_tool
from standard_tool_mcp._runtime import ServedTool


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

    def from_native(self, native: ServedTool) -> StandardTool:
        connection = connect(native.server, timeout=10)
        (tool,) = connection.__enter__()
        self.opened.append(connection)
        assert _undigested(to_mcp_tool(tool)) == _undigested(native.descriptor)
        return tool

    def deep_copy(self, native: ServedTool) -> ServedTool:
        """The descriptor is what ``to_mcp_tool`` exports; the server is not copied."""
        return ServedTool(copy.deepcopy(native.descriptor), native.server)

    def test_the_listed_tool_is_the_exported_descriptor(self) -> None:
        native = self.to_native(sample_tools()["search"])
        assert isinstance(native, ServedTool) and native.name == "search"
        assert runtime("mcp").declaration(native) == _compat.dump(native.descriptor)  # type: ignore[union-attr]


def _undigested(descriptor: Any) -> Any:
    """A descriptor without its digest, which each side computes from what it holds."""
    meta = dict(descriptor.meta or {})
    meta.pop("standard-tool/digest", None)
    return descriptor.model_copy(update={"meta": meta or None})
