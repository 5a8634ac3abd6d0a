"""Hook implementations of the toy adapter."""

from __future__ import annotations

from typing import Any

from standard_tool.hookspecs import TargetInfo, hookimpl


@hookimpl
def standard_tool_targets() -> list[TargetInfo]:
    return [TargetInfo.installed("toy", "standard-tool-toy")]


@hookimpl
def standard_tool_export(tool: Any, target: str) -> Any:
    if target != "toy":
        return None
    from ._toy import to_toy

    return to_toy(tool)


@hookimpl
def standard_tool_adopt(obj: Any) -> Any:
    from ._toy import ToyTool, from_toy

    return from_toy(obj) if isinstance(obj, ToyTool) else None
