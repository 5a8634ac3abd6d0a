"""LangChain adapter for standard-tool: standard tools as LangChain tools, and back.

Names are imported on first use, so that plugin discovery (which imports ``_hooks``
and therefore this package) does not import LangChain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING as _TYPE_CHECKING

from standard_tool.hookspecs import lazy_exports as _lazy_exports

if _TYPE_CHECKING:
    from ._adopt import LangChainTool, from_langchain, from_langchain_tools
    from ._export import METADATA_KEY, StandardStructuredTool, to_langchain, to_langchain_tools

__all__ = [
    "LangChainTool",
    "METADATA_KEY",
    "StandardStructuredTool",
    "from_langchain",
    "from_langchain_tools",
    "to_langchain",
    "to_langchain_tools",
]

_HOMES = {
    "LangChainTool": "._adopt",
    "from_langchain": "._adopt",
    "from_langchain_tools": "._adopt",
    "METADATA_KEY": "._export",
    "StandardStructuredTool": "._export",
    "to_langchain": "._export",
    "to_langchain_tools": "._export",
}


__getattr__, __dir__ = _lazy_exports(__name__, _HOMES)
