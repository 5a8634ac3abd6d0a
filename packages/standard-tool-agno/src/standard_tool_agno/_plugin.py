"""The plugin: target ``agno``; Agno is imported only when needed."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="agno",
    distribution="agno",
    export="standard_tool_agno._export:to_agno",
    adopt="standard_tool_agno._adopt:from_agno",
    native=("agno.tools.function:Function",),
    adopt_tools="standard_tool_agno._adopt:from_agno_tools",
    collections=("agno.tools.toolkit:Toolkit", "agno.agent.agent:Agent"),
    runtime="standard_tool_agno._runtime:runtime",
)
