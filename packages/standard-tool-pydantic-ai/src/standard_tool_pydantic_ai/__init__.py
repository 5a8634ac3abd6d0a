"""PydanticAI adapter for standard-tool: standard tools as PydanticAI tools and toolsets, and
PydanticAI tools and toolsets as standard tools.

Names are imported on first use, so that plugin discovery (which imports this package)
does not import PydanticAI.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import (
        DEFAULT_TIMEOUT as DEFAULT_TIMEOUT,
        PydanticAIArguments as PydanticAIArguments,
        PydanticAITool as PydanticAITool,
        from_pydantic_ai as from_pydantic_ai,
        from_pydantic_ai_toolset as from_pydantic_ai_toolset,
        load_pydantic_ai_toolset as load_pydantic_ai_toolset,
    )
    from ._export import (
        METADATA_KEY as METADATA_KEY,
        NAMES as NAMES,
        StandardPydanticAITool as StandardPydanticAITool,
        to_pydantic_ai as to_pydantic_ai,
        to_pydantic_ai_toolset as to_pydantic_ai_toolset,
    )
    from ._runtime import PydanticAIRuntime as PydanticAIRuntime

__all__, __getattr__, __dir__ = lazy_exports(__name__)
