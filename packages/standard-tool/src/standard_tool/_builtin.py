"""The core's own plugin: target ``standard``, and adoption of plain typed functions."""

from __future__ import annotations

import inspect
from typing import Any

from .hookspecs import TargetInfo, hookimpl

TARGET = "standard"


@hookimpl
def standard_tool_targets() -> list[TargetInfo]:
    return [TargetInfo.installed(TARGET, "standard-tool")]


@hookimpl
def standard_tool_export(tool: Any, target: str) -> Any:
    return tool if target == TARGET else None


@hookimpl(trylast=True)
def standard_tool_adopt(obj: Any) -> Any:
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        from ._tool import Tool

        return Tool.from_function(obj)
    return None
