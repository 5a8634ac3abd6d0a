"""The plugin: target ``pydantic-ai``; PydanticAI is imported only when needed."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="pydantic-ai",
    distribution="pydantic-ai-slim",
    export="standard_tool_pydantic_ai._export:to_pydantic_ai",
    adopt="standard_tool_pydantic_ai._adopt:from_pydantic_ai",
    native=("pydantic_ai.tools:Tool",),
    adopt_tools="standard_tool_pydantic_ai._adopt:from_pydantic_ai_toolset",
    collections=("pydantic_ai.toolsets.abstract:AbstractToolset",),
    runtime="standard_tool_pydantic_ai._runtime:runtime",
)
