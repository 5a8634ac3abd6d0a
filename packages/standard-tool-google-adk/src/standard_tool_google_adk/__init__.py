"""Google ADK adapter for standard-tool: standard tools as Google ADK tools, and back.

Names are imported on first use, so that plugin discovery (which imports this package) does
not import Google ADK.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import (
        GoogleAdkTool as GoogleAdkTool,
        from_google_adk as from_google_adk,
        from_google_adk_tools as from_google_adk_tools,
    )
    from ._context import (
        context_from_adk as context_from_adk,
        current_context as current_context,
        standard_context as standard_context,
        tool_context as tool_context,
    )
    from ._export import (
        NAMES as NAMES,
        StandardAdkTool as StandardAdkTool,
        ToolError as ToolError,
        to_google_adk as to_google_adk,
        to_google_adk_tools as to_google_adk_tools,
    )
    from ._runtime import GoogleAdkRuntime as GoogleAdkRuntime
    from ._schema import schema_to_json as schema_to_json
    from ._scripted import (
        Conversation as Conversation,
        ScriptedLlm as ScriptedLlm,
        confirmation as confirmation,
    )

__all__, __getattr__, __dir__ = lazy_exports(__name__)
