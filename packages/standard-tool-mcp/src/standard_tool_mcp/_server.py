"""Standard tools served as an MCP server, over stdio, streamable HTTP or in memory."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from standard_tool import JsonSchema, StandardTool, Tool, acall, jsonable
from standard_tool.adapters import export_tools
from standard_tool.exceptions import StandardToolError, ToolValidationError
from standard_tool.names import MCP_NAMES

from . import _compat
from ._content import text_block, to_content
from ._descriptors import WRAPPED, to_mcp_tool

__all__ = ["to_mcp_server"]

INVALID_PARAMS = -32602


@dataclass(frozen=True)
class _Served:
    """One tool as the server runs it."""

    tool: StandardTool
    descriptor: Any
    wrapped: bool
    structured: bool
    check_input: JsonSchema | None
    check_output: JsonSchema | None

    @classmethod
    def of(cls, tool: StandardTool, name: str) -> _Served:
        descriptor = to_mcp_tool(tool, name=name)
        wire = _compat.dump(descriptor)
        output = wire.get("outputSchema")
        own = isinstance(tool, Tool)  # a Tool validates its own input and output
        return cls(
            tool=tool,
            descriptor=descriptor,
            wrapped=bool(output and output.get(WRAPPED)),
            structured=output is not None,
            check_input=None if own else JsonSchema(wire["inputSchema"]),
            check_output=None if own or output is None else JsonSchema(output),
        )

    async def run(self, arguments: dict[str, Any], context: Mapping[str, Any]) -> Any:
        import mcp.types as types

        if self.check_input is not None:
            checked = self.check_input.validate(arguments)
            if checked.issues is not None:
                raise ToolValidationError(self.tool.name, "input", checked.issues)
        value = await acall(self.tool, arguments, context)
        if isinstance(value, types.CallToolResult):
            return value
        blocks = to_content(value)
        if blocks is not None:
            return _compat.tool_result(blocks)
        data = jsonable(value)
        structured = None
        if self.structured:
            structured = {"result": data} if self.wrapped else data
            if self.check_output is not None:
                checked = self.check_output.validate(structured)
                if checked.issues is not None:
                    raise ToolValidationError(self.tool.name, "output", checked.issues)
        elif isinstance(data, dict):
            structured = data
        return _compat.tool_result([text_block(data)], structured)


def _error_result(error: StandardToolError) -> Any:
    return _compat.tool_result([text_block(str(error))], is_error=True)


def to_mcp_server(
    tools: Iterable[Any] | Any, name: str = "standard-tool", version: str = ""
) -> Any:
    """A low-level MCP server (``mcp.server.lowlevel.Server``) that serves ``tools``.

    ``tools`` is one tool or several, each a standard tool or anything
    :func:`standard_tool.adopt` accepts. Names that MCP refuses are sanitized; two tools
    whose names collide raise ``ToolNameError``.
    """
    served = {entry.descriptor.name: entry for entry in export_tools(tools, _Served.of, MCP_NAMES)}
    descriptors = [entry.descriptor for entry in served.values()]
    listing = ", ".join(repr(n) for n in served) or "none"

    async def list_tools(ctx: Any) -> list[Any]:
        return descriptors

    async def call_tool(
        ctx: Any, tool_name: str, arguments: dict[str, Any], meta: Mapping[str, Any] | None
    ) -> Any:
        entry = served.get(tool_name)
        if entry is None:
            raise _compat.error(
                INVALID_PARAMS, f"Unknown tool: {tool_name!r}; available tools: {listing}"
            )
        try:
            return await entry.run(arguments, _compat.request_context(ctx, meta))
        except StandardToolError as exc:
            return _error_result(exc)

    return _compat.make_server(name, list_tools, call_tool, version=version)
