"""LangChain adapter for standard-tool: standard tools as LangChain tools, and back.

Names are imported on first use, so that plugin discovery (which imports this package)
does not import LangChain.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import (
        LangChainTool as LangChainTool,
        from_langchain as from_langchain,
        from_langchain_tools as from_langchain_tools,
    )
    from ._events import LOG_EVENT as LOG_EVENT, PROGRESS_EVENT as PROGRESS_EVENT
    from ._export import (
        METADATA_KEY as METADATA_KEY,
        NAMES as NAMES,
        StandardStructuredTool as StandardStructuredTool,
        to_langchain as to_langchain,
        to_langchain_tools as to_langchain_tools,
    )
    from ._runtime import LangChainRuntime as LangChainRuntime

__all__, __getattr__, __dir__ = lazy_exports(__name__)
