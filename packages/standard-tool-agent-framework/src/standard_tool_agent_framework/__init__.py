"""Microsoft Agent Framework adapter for standard-tool: standard tools as Agent Framework
function tools, and back.

Names are imported on first use, so that plugin discovery (which imports this package) does
not import the framework.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import (
        AgentFrameworkTool as AgentFrameworkTool,
        from_agent_framework as from_agent_framework,
        from_agent_framework_tools as from_agent_framework_tools,
    )
    from ._approvals import (
        GateApprovals as GateApprovals,
        gate_approvals as gate_approvals,
    )
    from ._context import context_from_run as context_from_run
    from ._export import (
        NAMES as NAMES,
        StandardFunctionTool as StandardFunctionTool,
        to_agent_framework as to_agent_framework,
        to_agent_framework_tools as to_agent_framework_tools,
    )
    from ._runtime import AgentFrameworkRuntime as AgentFrameworkRuntime
    from ._scripted import ScriptedChatClient as ScriptedChatClient, run_agent as run_agent

__all__, __getattr__, __dir__ = lazy_exports(__name__)
