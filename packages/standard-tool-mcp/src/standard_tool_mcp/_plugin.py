"""Hook implementations of the MCP adapter; importing this module does not import mcp."""

from __future__ import annotations

import sys
from typing import Any

from standard_tool.hookspecs import TargetInfo, hookimpl


@hookimpl
def standard_tool_targets() -> list[TargetInfo]:
    return [TargetInfo.installed("mcp", "mcp")]


@hookimpl
def standard_tool_export(tool: Any, target: str, options: dict[str, Any]) -> Any:
    if target != "mcp":
        return None
    from ._descriptors import to_mcp_tool

    return to_mcp_tool(tool, **options)


@hookimpl
def standard_tool_adopt(obj: Any) -> Any:
    """Adopt a ``(descriptor, session)`` pair; a descriptor alone cannot run."""
    if "mcp" not in sys.modules or not isinstance(obj, tuple) or len(obj) != 2:
        return None
    import mcp.types as types

    descriptor, session = obj
    if not isinstance(descriptor, types.Tool) or not hasattr(session, "call_tool"):
        return None
    from ._client import from_mcp_tool

    return from_mcp_tool(descriptor, session)
