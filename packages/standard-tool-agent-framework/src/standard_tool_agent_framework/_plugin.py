"""The plugin: target ``agent-framework``; Microsoft Agent Framework is imported only when
needed."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="agent-framework",
    distribution="agent-framework-core",
    export="standard_tool_agent_framework._export:to_agent_framework",
    adopt="standard_tool_agent_framework._adopt:from_agent_framework",
    native=("agent_framework._tools:FunctionTool",),
    adopt_tools="standard_tool_agent_framework._adopt:from_agent_framework_tools",
    collections=("agent_framework._agents:BaseAgent",),
    runtime="standard_tool_agent_framework._runtime:runtime",
)
