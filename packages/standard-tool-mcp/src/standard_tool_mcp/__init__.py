"""Standard tools as MCP servers, and MCP servers' tools as standard tools.

Names load on first use, so plugin discovery (which imports ``_hooks`` and therefore this
package) does not import the MCP SDK.
"""

from importlib import import_module as _import_module
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

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


def __getattr__(name: str) -> _Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
