"""The plugin: target ``haystack``; Haystack is imported only when needed."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="haystack",
    distribution="haystack-ai",
    export="standard_tool_haystack._export:to_haystack",
    adopt="standard_tool_haystack._adopt:from_haystack",
    native=("haystack.tools.tool:Tool",),
    adopt_tools="standard_tool_haystack._adopt:from_haystack_tools",
    collections=(
        "haystack.tools.toolset:Toolset",
        "haystack.components.agents.agent:Agent",
    ),
    runtime="standard_tool_haystack._runtime:runtime",
)
