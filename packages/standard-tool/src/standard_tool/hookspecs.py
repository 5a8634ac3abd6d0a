"""The hooks an adapter implements. Hooks are called with keyword arguments only.

An adapter is an object (or module) of ``@hookimpl`` functions named by an entry point in
the ``standard_tool`` group; :class:`standard_tool.adapters.Adapter` writes them all for
an adapter. It imports its framework inside the hook bodies, so discovering it imports
nothing heavy. An implementation may accept a subset of a hook's arguments.
"""

# The hook specifications are importable here too: pluggy reads them from this module.
from .plugins._hookspecs import (
    NativeOutcome,
    Runtime,
    TargetInfo,
    hookimpl,
    hookspec,
    standard_tool_adopt as standard_tool_adopt,
    standard_tool_adopt_tools as standard_tool_adopt_tools,
    standard_tool_export as standard_tool_export,
    standard_tool_runtime as standard_tool_runtime,
    standard_tool_targets as standard_tool_targets,
)

__all__ = [
    "NativeOutcome",
    "Runtime",
    "TargetInfo",
    "hookimpl",
    "hookspec",
]
