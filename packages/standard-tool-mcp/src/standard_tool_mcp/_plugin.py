"""The plugin: target ``mcp``; importing this module does not import the MCP SDK."""

from __future__ import annotations

import sys
from typing import Any

from standard_tool.adapters import Adapter


class MCPAdapter(Adapter):
    """Adopts a ``(descriptor, session)`` pair: a descriptor alone cannot run."""

    def owns(self, obj: Any) -> bool:
        types = sys.modules.get("mcp.types")
        return (
            types is not None
            and isinstance(obj, tuple)
            and len(obj) == 2
            and isinstance(obj[0], types.Tool)
            and hasattr(obj[1], "call_tool")
        )


adapter = MCPAdapter(
    target="mcp",
    distribution="mcp",
    export="standard_tool_mcp._descriptors:to_mcp_tool",
    adopt="standard_tool_mcp._client:adopt_pair",
    runtime="standard_tool_mcp._runtime:runtime",
)
