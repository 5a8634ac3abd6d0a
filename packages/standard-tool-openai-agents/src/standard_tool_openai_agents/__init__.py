"""OpenAI Agents SDK adapter for standard-tool: standard tools as Agents SDK function tools,
and back.

Names are imported on first use, so that plugin discovery (which imports this package) does
not import the Agents SDK.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import (
        OpenAIAgentsTool as OpenAIAgentsTool,
        from_openai_agents as from_openai_agents,
        from_openai_agents_tools as from_openai_agents_tools,
    )
    from ._approvals import rejection_formatter as rejection_formatter
    from ._context import context_from_run as context_from_run, tool_context as tool_context
    from ._export import (
        NAMES as NAMES,
        StandardFunctionTool as StandardFunctionTool,
        report_failure as report_failure,
        to_openai_agents as to_openai_agents,
        to_openai_agents_tools as to_openai_agents_tools,
    )
    from ._runtime import OpenAIAgentsRuntime as OpenAIAgentsRuntime
    from ._scripted import ScriptedModel as ScriptedModel, run_agent as run_agent

__all__, __getattr__, __dir__ = lazy_exports(__name__)
