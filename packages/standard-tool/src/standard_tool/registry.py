"""The plugin registry: adapters found through entry points, and ``convert``/``adopt``/``targets``.

Adapters are pluggy plugins named by entry points in the ``standard_tool`` group. Each hook
implementation is called on its own: a plugin that fails to load, or whose hook raises
anything but the project's own errors, is skipped with a :class:`PluginWarning` naming it,
and every other plugin keeps working. ``convert(tool, to=name)`` asks only the plugin that
lists ``name`` among its targets.
"""

from .plugins._registry import (
    ALLOW_ENV,
    BUILTIN,
    DISABLE_ENV,
    ENTRY_POINT_GROUP,
    KNOWN_PROVIDERS,
    PluginConflictWarning,
    PluginHookWarning,
    PluginLoadWarning,
    PluginManager,
    PluginSettingsWarning,
    PluginWarning,
    adopt,
    adopt_tools,
    convert,
    get_plugin_manager,
    is_standard_tool as is_standard_tool,
    isolated_registry,
    make_plugin_manager,
    runtime,
    set_plugin_manager,
    targets,
)

__all__ = [
    "ALLOW_ENV",
    "BUILTIN",
    "DISABLE_ENV",
    "ENTRY_POINT_GROUP",
    "KNOWN_PROVIDERS",
    "PluginConflictWarning",
    "PluginHookWarning",
    "PluginLoadWarning",
    "PluginManager",
    "PluginSettingsWarning",
    "PluginWarning",
    "adopt",
    "adopt_tools",
    "convert",
    "get_plugin_manager",
    "isolated_registry",
    "make_plugin_manager",
    "runtime",
    "set_plugin_manager",
    "targets",
]
