"""The plugin: target ``google-adk``; Google ADK is imported only when needed."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="google-adk",
    distribution="google-adk",
    export="standard_tool_google_adk._export:to_google_adk",
    adopt="standard_tool_google_adk._adopt:from_google_adk",
    native=("google.adk.tools.base_tool:BaseTool",),
    adopt_tools="standard_tool_google_adk._adopt:from_google_adk_tools",
    collections=(
        "google.adk.agents.llm_agent:LlmAgent",
        "google.adk.tools.base_toolset:BaseToolset",
    ),
    runtime="standard_tool_google_adk._runtime:runtime",
)
