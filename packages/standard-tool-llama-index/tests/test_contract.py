"""The adapter contract, through a LlamaIndex ``FunctionAgent`` run (the adapter's runtime)."""

from __future__ import annotations

from typing import Any

from llama_index.core.tools import FunctionTool

from standard_tool.testing import AdapterContract
from standard_tool_llama_index import NAMES


class TestLlamaIndexContract(AdapterContract):
    target = "llama-index"
    distribution = "llama-index-core"
    name_rule = NAMES

    def native_name(self, native: FunctionTool) -> str:
        return native.metadata.get_name()

    def native_schema(self, native: FunctionTool) -> dict[str, Any]:
        """What an OpenAI-style model is sent, which ``fn_schema`` and ``fn_schema_str`` match."""
        parameters = super().native_schema(native)
        assert native.metadata.to_openai_tool()["function"]["parameters"] == parameters
        assert native.metadata.fn_schema is not None
        assert native.metadata.fn_schema.model_json_schema() == parameters
        return parameters
