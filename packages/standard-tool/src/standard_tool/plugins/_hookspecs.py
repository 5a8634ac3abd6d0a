"""The hooks an adapter implements (its public names are ``standard_tool.hookspecs``)."""

from __future__ import annotations

from typing import Any

import pluggy

from .._protocols import NativeOutcome, Runtime, StandardTool, TargetInfo

__all__ = ["NativeOutcome", "Runtime", "TargetInfo", "hookimpl", "hookspec"]

hookspec = pluggy.HookspecMarker("standard_tool")
hookimpl = pluggy.HookimplMarker("standard_tool")


@hookspec
def standard_tool_targets() -> list[TargetInfo]:  # type: ignore[empty-body]
    """Describe the targets this adapter exports to (read versions from package metadata)."""


@hookspec(firstresult=True)
def standard_tool_export(tool: StandardTool, target: str, options: dict[str, Any]) -> Any:
    """Convert ``tool`` to ``target``'s native object; return ``None`` for other targets."""


@hookspec(firstresult=True)
def standard_tool_adopt(obj: Any) -> StandardTool | None:
    """Return ``obj`` as a standard tool, or ``None`` when this adapter does not own it.

    Check cheaply first: an object of a framework whose module is not in ``sys.modules``
    cannot exist, so there is no need to import the framework to refuse it.
    """


@hookspec(firstresult=True)
def standard_tool_adopt_tools(obj: Any) -> list[StandardTool] | None:
    """Return the tools of a collection (a toolkit, a toolset, a tool spec...) as standard
    tools, or ``None`` when this adapter does not own ``obj``. Check cheaply first, as for
    :func:`standard_tool_adopt`.
    """


@hookspec(firstresult=True)
def standard_tool_runtime(target: str) -> Runtime | None:
    """Return the :class:`Runtime` of ``target``'s framework, or ``None`` for other targets
    (and for a target with no runtime of its own: an export-only target)."""
