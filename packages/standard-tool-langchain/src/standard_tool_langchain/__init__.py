"""LangChain adapter for standard-tool: standard tools as LangChain tools, and back.

Names are imported on first use, so that plugin discovery (which imports this package)
does not import LangChain.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import LangChainTool as LangChainTool
    from ._adopt import from_langchain as from_langchain
    from ._adopt import from_langchain_tools as from_langchain_tools
    from ._events import LOG_EVENT as LOG_EVENT
    from ._events import PROGRESS_EVENT as PROGRESS_EVENT
    from ._export import METADATA_KEY as METADATA_KEY
    from ._export import NAMES as NAMES
    from ._export import StandardStructuredTool as StandardStructuredTool
    from ._export import to_langchain as to_langchain
    from ._export import to_langchain_tools as to_langchain_tools
    from ._runtime import LangChainRuntime as LangChainRuntime

__all__, __getattr__, __dir__ = lazy_exports(__name__)
