"""The plugin: target ``llama-index``; LlamaIndex is imported only when needed."""

from standard_tool.adapters import Adapter

adapter = Adapter(
    target="llama-index",
    distribution="llama-index-core",
    export="standard_tool_llama_index._export:to_llama_index",
    adopt="standard_tool_llama_index._adopt:from_llama_index",
    native=("llama_index.core.tools.types:BaseTool",),
    adopt_tools="standard_tool_llama_index._adopt:from_llama_index_tools",
    collections=("llama_index.core.tools.tool_spec.base:BaseToolSpec",),
    runtime="standard_tool_llama_index._runtime:runtime",
)
