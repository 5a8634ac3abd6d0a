"""LangChain adapter for standard-tool: standard tools as LangChain tools, and back.

Names are imported on first use, so that plugin discovery (which imports ``_hooks``
and therefore this package) does not import LangChain.
"""

from __future__ import annotations

from importlib import import_module as _import_module
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

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


def __getattr__(name: str) -> _Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
