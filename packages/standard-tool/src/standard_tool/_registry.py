"""The plugin registry: adapters found through entry points, and convert/adopt/targets."""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._protocols import StandardTool, TargetInfo
from .exceptions import PluginError, UnknownTargetError, UnsupportedObjectError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    import pluggy

__all__ = [
    "ALLOW_ENV",
    "DISABLE_ENV",
    "ENTRY_POINT_GROUP",
    "PluginLoadWarning",
    "adopt",
    "convert",
    "get_plugin_manager",
    "is_standard_tool",
    "make_plugin_manager",
    "set_plugin_manager",
    "targets",
]

ENTRY_POINT_GROUP = "standard_tool"
ALLOW_ENV = "STANDARD_TOOL_PLUGINS"
"""Comma-separated entry-point names: when set, only these plugins load (empty: none)."""
DISABLE_ENV = "STANDARD_TOOL_DISABLED_PLUGINS"
"""Comma-separated entry-point names that never load."""


class PluginLoadWarning(UserWarning):
    """A plugin failed to load and was skipped."""


def _names(value: str) -> set[str]:
    return {part.strip() for part in value.split(",") if part.strip()}


def make_plugin_manager(
    plugins: Iterable[EntryPoint] | None = None, env: Mapping[str, str] | None = None
) -> pluggy.PluginManager:
    """A plugin manager with the hookspecs and the plugins the entry points name.

    ``plugins`` defaults to the installed ``standard_tool`` entry points, ``env`` to
    ``os.environ`` (read for :data:`ALLOW_ENV` and :data:`DISABLE_ENV`). A plugin that fails
    to import is skipped with a :class:`PluginLoadWarning` naming it.
    """
    from importlib.metadata import entry_points

    import pluggy

    from . import hookspecs

    env = os.environ if env is None else env
    if plugins is None:
        plugins = entry_points(group=ENTRY_POINT_GROUP)
    allowed = _names(env[ALLOW_ENV]) if ALLOW_ENV in env else None
    disabled = _names(env.get(DISABLE_ENV, ""))
    manager = pluggy.PluginManager(ENTRY_POINT_GROUP)
    manager.add_hookspecs(hookspecs)
    for entry_point in plugins:
        name = entry_point.name
        if name in disabled or (allowed is not None and name not in allowed):
            continue
        if manager.has_plugin(name):
            continue
        try:
            plugin = entry_point.load()
            manager.register(plugin, name=name)
        except Exception as exc:
            warnings.warn(
                f"standard-tool plugin {name!r} ({entry_point.value}) was skipped: "
                f"{type(exc).__name__}: {exc}",
                PluginLoadWarning,
                stacklevel=2,
            )
    return manager


_lock = threading.Lock()
_manager: pluggy.PluginManager | None = None


def get_plugin_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager, made on first use."""
    global _manager
    if _manager is None:
        with _lock:
            if _manager is None:
                _manager = make_plugin_manager()
    return _manager


def set_plugin_manager(manager: pluggy.PluginManager | None) -> pluggy.PluginManager | None:
    """Replace the process-wide plugin manager (``None``: rediscover on next use); return the old one."""
    global _manager
    with _lock:
        old, _manager = _manager, manager
    return old


def is_standard_tool(obj: Any) -> bool:
    """Whether ``obj`` conforms: a string ``name``, a ``description`` and a callable ``execute``.

    ``title``, ``input_schema``, ``output_schema`` and ``meta`` may be absent and then read
    as ``None``, ``None``, ``None`` and ``{}``.
    """
    return (
        isinstance(getattr(obj, "name", None), str)
        and isinstance(getattr(obj, "description", None), str)
        and callable(getattr(obj, "execute", None))
    )


def targets() -> list[TargetInfo]:
    """The installed targets, sorted by name, with their frameworks' versions."""
    found = get_plugin_manager().hook.standard_tool_targets()
    return sorted((info for infos in found for info in infos), key=lambda info: info.name)


def _installed() -> str:
    names = [info.name for info in targets()]
    return ", ".join(repr(name) for name in names) or "none"


def adopt(obj: Any) -> StandardTool:
    """Return ``obj`` as a standard tool: itself if it conforms, else through its framework's adapter."""
    if is_standard_tool(obj):
        return obj
    tool = get_plugin_manager().hook.standard_tool_adopt(obj=obj)
    if tool is None:
        raise UnsupportedObjectError(
            f"no installed adapter can adopt {type(obj).__module__}.{type(obj).__qualname__}; "
            f"installed targets: {_installed()}"
        )
    return tool


def convert(obj: Any, to: str, **options: Any) -> Any:
    """Convert a standard tool, or any object an adapter can adopt, to the target ``to``."""
    tool = adopt(obj)
    result = get_plugin_manager().hook.standard_tool_export(tool=tool, target=to, options=options)
    if result is None:
        names = [info.name for info in targets()]
        if to in names:
            raise PluginError(f"the adapter for target {to!r} returned nothing for {tool.name!r}")
        raise UnknownTargetError(to, names)
    return result
