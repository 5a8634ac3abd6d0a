"""smolagents adapter for standard-tool: standard tools as smolagents tools, and back.

Names are imported on first use, so that plugin discovery (which imports this package)
does not import smolagents.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import (
        SmolagentsTool as SmolagentsTool,
        from_smolagents as from_smolagents,
        from_smolagents_tools as from_smolagents_tools,
    )
    from ._context import (
        ContextGetter as ContextGetter,
        current_context as current_context,
        standard_context as standard_context,
    )
    from ._export import (
        NAMES as NAMES,
        JsonDict as JsonDict,
        JsonList as JsonList,
        StandardSmolTool as StandardSmolTool,
        to_smolagents as to_smolagents,
        to_smolagents_tools as to_smolagents_tools,
    )
    from ._runtime import SmolagentsRuntime as SmolagentsRuntime

__all__, __getattr__, __dir__ = lazy_exports(__name__)
