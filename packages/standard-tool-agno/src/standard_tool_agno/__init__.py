"""Agno adapter for standard-tool: standard tools as Agno functions, and back.

Names are imported on first use, so that plugin discovery (which imports this package) does
not import the framework.
"""

from typing import TYPE_CHECKING

from standard_tool.adapters import lazy_exports

if TYPE_CHECKING:
    from ._adopt import (
        AgnoTool as AgnoTool,
        from_agno as from_agno,
        from_agno_tools as from_agno_tools,
    )
    from ._approvals import (
        acontinue_run as acontinue_run,
        continue_run as continue_run,
        record_answers as record_answers,
    )
    from ._context import context_from_run as context_from_run, sent_arguments as sent_arguments
    from ._export import (
        NAMES as NAMES,
        StandardFunction as StandardFunction,
        to_agno as to_agno,
        to_agno_tools as to_agno_tools,
    )
    from ._runtime import AgnoRuntime as AgnoRuntime
    from ._scripted import (
        ScriptedModel as ScriptedModel,
        arun_agent as arun_agent,
        run_agent as run_agent,
    )

__all__, __getattr__, __dir__ = lazy_exports(__name__)
