"""The plugin: target ``openai-agents``; the Agents SDK is imported only when needed."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="openai-agents",
    distribution="openai-agents",
    export="standard_tool_openai_agents._export:to_openai_agents",
    adopt="standard_tool_openai_agents._adopt:from_openai_agents",
    native=("agents.tool:FunctionTool",),
    adopt_tools="standard_tool_openai_agents._adopt:from_openai_agents_tools",
    collections=("agents.agent:Agent",),
    runtime="standard_tool_openai_agents._runtime:runtime",
)
