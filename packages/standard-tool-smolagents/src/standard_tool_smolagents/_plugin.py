"""The plugin: target ``smolagents``; smolagents is imported only when needed."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="smolagents",
    distribution="smolagents",
    export="standard_tool_smolagents._export:to_smolagents",
    adopt="standard_tool_smolagents._adopt:from_smolagents",
    native=("smolagents.tools:Tool",),
    adopt_tools="standard_tool_smolagents._adopt:from_smolagents_tools",
    collections=("smolagents.tools:ToolCollection",),
    runtime="standard_tool_smolagents._runtime:runtime",
)
