"""The hooks an adapter implements. Hooks are called with keyword arguments only.

An adapter is a module of ``@hookimpl`` functions named by an entry point in the
``standard_tool`` group. It imports its framework inside the hook bodies, so discovering
it imports nothing heavy. An implementation may accept a subset of a hook's arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

import pluggy

from ._protocols import StandardTool, TargetInfo

__all__ = ["TargetInfo", "hookimpl", "hookspec", "lazy_exports"]

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


def lazy_exports(
    package: str, homes: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for an adapter package whose names load on first use.

    Discovery imports the adapter's ``_hooks`` module, and with it the package's
    ``__init__``; exporting names this way keeps the framework out of that import::

        __getattr__, __dir__ = lazy_exports(__name__, {"to_x": "._export"})
    """
    namespace = import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace.get("__all__", ()), *homes})

    return __getattr__, __dir__
