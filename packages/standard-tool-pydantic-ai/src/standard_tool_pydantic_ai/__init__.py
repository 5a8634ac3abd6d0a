"""PydanticAI adapter for standard-tool: standard tools as PydanticAI tools and toolsets, and
PydanticAI tools and toolsets as standard tools.

Names are imported on first use, so that plugin discovery (which imports this package)
does not import PydanticAI.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
    from ._adopt import PydanticAIArguments as PydanticAIArguments
    from ._adopt import PydanticAITool as PydanticAITool
    from ._adopt import from_pydantic_ai as from_pydantic_ai
    from ._adopt import from_pydantic_ai_toolset as from_pydantic_ai_toolset
    from ._adopt import load_pydantic_ai_toolset as load_pydantic_ai_toolset
    from ._export import METADATA_KEY as METADATA_KEY
    from ._export import NAMES as NAMES
    from ._export import StandardPydanticAITool as StandardPydanticAITool
    from ._export import to_pydantic_ai as to_pydantic_ai
    from ._export import to_pydantic_ai_toolset as to_pydantic_ai_toolset
    from ._runtime import PydanticAIRuntime as PydanticAIRuntime

__all__, __getattr__, __dir__ = lazy_exports(__name__)
