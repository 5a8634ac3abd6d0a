"""MCP's own runtime for exported tools: served in memory, called by a client through ``connect``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import standard_tool as st
from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import UsageError

from . import _compat
from ._client import DEFAULT_TIMEOUT, MCPTool
from ._connect import connect
from ._content import from_content
from ._descriptors import fields_of
from ._server import to_mcp_server

__all__ = ["MCPRuntime", "ServedTool", "runtime"]


@dataclass(frozen=True)
class ServedTool:
    """A tool exported to MCP: its descriptor (``to_mcp_tool``), a server that runs it, and
    the standard tool it serves, when known."""

    descriptor: Any
    server: Any
    tool: st.StandardTool | None = None

    @property
    def name(self) -> str:
        """The name the server lists the tool under."""
        name: str = self.descriptor.name
        return name


class MCPRuntime(BaseRuntime):
    """An exported tool as an MCP client sees it (the ``tools/list`` entry) and as a client
    calls it: served by :func:`to_mcp_server` in memory, reached through :func:`connect`.

    The standard context of a call travels as the request's ``_meta`` (a JSON object), which
    the server hands the tool as its context.
    """

    target = "mcp"

    def __init__(self, timeout: float | None = DEFAULT_TIMEOUT) -> None:
        self.timeout = timeout

    def native(self, tool: st.StandardTool) -> ServedTool:
        tool = st.adopt(tool)
        return ServedTool(st.convert(tool, to="mcp"), to_mcp_server([tool]), tool)

    def declaration(self, native: ServedTool) -> dict[str, Any]:
        """The tool's entry in the server's ``tools/list`` result, in its wire form."""
        return _compat.dump(st.run_sync(self._listed(native)))

    def run(
        self, native: ServedTool, arguments: dict[str, Any], context: Any = None
    ) -> NativeOutcome:
        """A client's ``tools/call``; the model reads the result's text blocks, or its other
        content, and a client that reads structured content reads that value."""
        if context is not None and not isinstance(context, Mapping):
            raise UsageError(
                "an MCP call carries its context as the request's _meta: give a JSON object"
            )
        result = st.run_sync(self._call(native, arguments, context))
        is_error, content, structured = _compat.result_parts(result)
        if is_error:
            texts = [block.text for block in content if getattr(block, "type", None) == "text"]
            return NativeOutcome(error="\n".join(texts))
        texts = [getattr(block, "text", None) for block in content]
        text = "\n".join(texts) if content and all(isinstance(t, str) for t in texts) else None
        if structured is None:
            if text is not None:  # as the model reads it
                return NativeOutcome.from_json_text(text, is_error=False)
            return NativeOutcome(value=st.jsonable(from_content(content)))
        if fields_of(native.descriptor).wrapped and isinstance(structured, dict):
            structured = structured.get("result")
        return NativeOutcome(value=structured, text=text)

    def standard_tool(self, native: ServedTool) -> st.StandardTool:
        """The tool the server serves, else the tool as a client adopts it (its name and
        definition; the session it was read over is closed)."""
        if native.tool is not None:
            return native.tool
        with self.adopted(native) as tool:
            return tool

    @contextmanager
    def adopted(self, native: ServedTool) -> Iterator[MCPTool]:
        """The tool as a client adopts it, over a session open for the ``with`` block."""
        with connect(native.server, timeout=self.timeout) as tools:
            (tool,) = [tool for tool in tools if tool.remote.name == native.name]
            yield tool

    async def _listed(self, native: ServedTool) -> Any:
        async with connect(native.server, timeout=self.timeout) as connection_tools:
            (tool,) = [t for t in connection_tools if t.remote.name == native.name]
            return tool.wrapped

    async def _call(
        self, native: ServedTool, arguments: dict[str, Any], meta: Mapping[str, Any] | None
    ) -> Any:
        connection = connect(native.server, timeout=self.timeout)
        async with connection:
            return await _compat.call_tool(
                connection.session, native.name, arguments, self.timeout, meta
            )


runtime = MCPRuntime()
