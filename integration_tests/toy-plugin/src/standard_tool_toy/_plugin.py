"""The toy adapter's plugin: target ``toy``; discovering it imports no framework."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="toy",
    distribution="standard-tool-toy",
    export="standard_tool_toy._convert:to_toy",
    adopt="standard_tool_toy._convert:from_toy",
    native=("standard_tool_toy._toy:ToyTool",),
    runtime="standard_tool_toy._runtime:runtime",
)
