"""Standard tools as MCP servers, and MCP servers' tools as standard tools.

Names load on first use, so plugin discovery (which imports this package) does not import
the MCP SDK.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._client import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
    from ._client import MalformedToolWarning as MalformedToolWarning
    from ._client import MCPTool as MCPTool
    from ._client import ProgressCallback as ProgressCallback
    from ._client import from_mcp_tool as from_mcp_tool
    from ._client import load_mcp_tools as load_mcp_tools
    from ._connect import Connection as Connection
    from ._connect import ElicitationCallback as ElicitationCallback
    from ._connect import LoggingCallback as LoggingCallback
    from ._connect import SamplingCallback as SamplingCallback
    from ._connect import connect as connect
    from ._content import Audio as Audio
    from ._content import Image as Image
    from ._content import Resource as Resource
    from ._content import ResourceLink as ResourceLink
    from ._descriptors import HINTS as HINTS
    from ._descriptors import to_mcp_tool as to_mcp_tool
    from ._http import to_asgi_app as to_asgi_app
    from ._runtime import MCPRuntime as MCPRuntime
    from ._runtime import ServedTool as ServedTool
    from ._serve import serve as serve
    from ._server import DEFAULT_CALL_TIMEOUT as DEFAULT_CALL_TIMEOUT
    from ._server import DEFAULT_LOG_LEVEL as DEFAULT_LOG_LEVEL
    from ._server import DEFAULT_MAX_CONCURRENCY as DEFAULT_MAX_CONCURRENCY
    from ._server import to_mcp_server as to_mcp_server

__all__, __getattr__, __dir__ = lazy_exports(__name__)
