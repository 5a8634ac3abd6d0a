"""Standard tools as MCP servers, and MCP servers' tools as standard tools.

Names load on first use, so plugin discovery (which imports this package) does not import
the MCP SDK.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._client import (
        DEFAULT_TIMEOUT as DEFAULT_TIMEOUT,
        MalformedToolWarning as MalformedToolWarning,
        MCPTool as MCPTool,
        ProgressCallback as ProgressCallback,
        from_mcp_tool as from_mcp_tool,
        load_mcp_tools as load_mcp_tools,
    )
    from ._connect import (
        Connection as Connection,
        ElicitationCallback as ElicitationCallback,
        LoggingCallback as LoggingCallback,
        SamplingCallback as SamplingCallback,
        connect as connect,
    )
    from ._content import (
        Audio as Audio,
        Image as Image,
        Resource as Resource,
        ResourceLink as ResourceLink,
    )
    from ._descriptors import HINTS as HINTS, to_mcp_tool as to_mcp_tool
    from ._http import to_asgi_app as to_asgi_app
    from ._runtime import MCPRuntime as MCPRuntime, ServedTool as ServedTool
    from ._serve import serve as serve
    from ._server import (
        DEFAULT_CALL_TIMEOUT as DEFAULT_CALL_TIMEOUT,
        DEFAULT_LOG_LEVEL as DEFAULT_LOG_LEVEL,
        DEFAULT_MAX_CONCURRENCY as DEFAULT_MAX_CONCURRENCY,
        to_mcp_server as to_mcp_server,
    )

__all__, __getattr__, __dir__ = lazy_exports(__name__)
