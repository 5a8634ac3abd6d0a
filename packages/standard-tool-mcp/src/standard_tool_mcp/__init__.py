"""Standard tools as MCP servers, and MCP servers' tools as standard tools.

Names load on first use, so plugin discovery (which imports ``_hooks`` and therefore this
package) does not import the MCP SDK.
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from standard_tool.hookspecs import lazy_exports as _lazy_exports

if _TYPE_CHECKING:
    from ._client import (
        DEFAULT_TIMEOUT,
        MalformedToolWarning,
        MCPTool,
        from_mcp_tool,
        load_mcp_tools,
    )
    from ._connect import Connection, connect
    from ._content import Audio, Image, Resource, ResourceLink
    from ._descriptors import HINTS, to_mcp_tool
    from ._server import serve, to_mcp_server

__all__ = [
    "DEFAULT_TIMEOUT",
    "HINTS",
    "Audio",
    "Connection",
    "Image",
    "MCPTool",
    "MalformedToolWarning",
    "Resource",
    "ResourceLink",
    "connect",
    "from_mcp_tool",
    "load_mcp_tools",
    "serve",
    "to_mcp_server",
    "to_mcp_tool",
]

_HOMES = {
    "DEFAULT_TIMEOUT": "._client",
    "MCPTool": "._client",
    "MalformedToolWarning": "._client",
    "from_mcp_tool": "._client",
    "load_mcp_tools": "._client",
    "Connection": "._connect",
    "connect": "._connect",
    "Audio": "._content",
    "Image": "._content",
    "Resource": "._content",
    "ResourceLink": "._content",
    "HINTS": "._descriptors",
    "to_mcp_tool": "._descriptors",
    "serve": "._server",
    "to_mcp_server": "._server",
}


__getattr__, __dir__ = _lazy_exports(__name__, _HOMES)
