"""Hook implementations: target ``langchain``; LangChain is imported only when needed."""

from __future__ import annotations

import sys
from typing import Any

from standard_tool.hookspecs import TargetInfo, hookimpl

TARGET = "langchain"
DISTRIBUTION = "langchain-core"


@hookimpl
def standard_tool_targets() -> list[TargetInfo]:
    return [TargetInfo.installed(TARGET, DISTRIBUTION)]


@hookimpl
def standard_tool_export(tool: Any, target: str, options: dict[str, Any]) -> Any:
    if target != TARGET:
        return None
    from ._export import to_langchain

    return to_langchain(tool, **options)


@hookimpl
def standard_tool_adopt(obj: Any) -> Any:
    base = sys.modules.get("langchain_core.tools.base")
    if base is None or not isinstance(obj, base.BaseTool):
        return None
    from ._adopt import from_langchain

    return from_langchain(obj)
