"""The plugin: target ``langchain``; LangChain is imported only when needed."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="langchain",
    distribution="langchain-core",
    export="standard_tool_langchain._export:to_langchain",
    adopt="standard_tool_langchain._adopt:from_langchain",
    native=("langchain_core.tools.base:BaseTool",),
    adopt_tools="standard_tool_langchain._adopt:from_langchain_tools",
    collections=("langchain_core.tools.base:BaseToolkit",),
    runtime="standard_tool_langchain._runtime:runtime",
)
