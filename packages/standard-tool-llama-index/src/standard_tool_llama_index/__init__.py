"""LlamaIndex adapter for standard-tool: standard tools as LlamaIndex tools, and back.

Names are imported on first use, so that plugin discovery (which imports this package)
does not import LlamaIndex.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import (
        LlamaIndexTool as LlamaIndexTool,
        from_llama_index as from_llama_index,
        from_llama_index_tools as from_llama_index_tools,
    )
    from ._context import CONTEXT_KEY as CONTEXT_KEY
    from ._events import ToolLogEvent as ToolLogEvent, ToolProgressEvent as ToolProgressEvent
    from ._export import (
        METADATA_KEY as METADATA_KEY,
        NAMES as NAMES,
        StandardFunctionTool as StandardFunctionTool,
        to_llama_index as to_llama_index,
        to_llama_index_tools as to_llama_index_tools,
    )
    from ._metadata import StandardToolMetadata as StandardToolMetadata
    from ._runtime import LlamaIndexRuntime as LlamaIndexRuntime

__all__, __getattr__, __dir__ = lazy_exports(__name__)
