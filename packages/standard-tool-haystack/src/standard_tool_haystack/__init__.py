"""Haystack adapter for standard-tool: standard tools as Haystack tools, and back.

Names are imported on first use, so that plugin discovery (which imports this package) does
not import the framework.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import (
        HaystackTool as HaystackTool,
        from_haystack as from_haystack,
        from_haystack_tools as from_haystack_tools,
    )
    from ._approvals import GateConfirmation as GateConfirmation
    from ._context import current_context as current_context, standard_context as standard_context
    from ._export import (
        NAMES as NAMES,
        StandardHaystackTool as StandardHaystackTool,
        to_haystack as to_haystack,
        to_haystack_tools as to_haystack_tools,
    )
    from ._runtime import HaystackRuntime as HaystackRuntime
    from ._scripted import (
        AgentRun as AgentRun,
        arun_agent as arun_agent,
        run_agent as run_agent,
        scripted_agent as scripted_agent,
    )

__all__, __getattr__, __dir__ = lazy_exports(__name__)
