"""The adapter contract, through a LlamaIndex ``FunctionAgent`` run."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest
from llama_index.core.tools import FunctionTool

from standard_tool.testing import AdapterContract, NativeOutcome, outcome_from_json_text
from standard_tool_llama_index import CONTEXT_KEY, NAMES


class TestLlamaIndexContract(AdapterContract):
    target = "llama-index"
    distribution = "llama-index-core"
    name_rule = NAMES

    @pytest.fixture(autouse=True)
    def _agent(self, agent: Any) -> None:
        self.run_agent = agent

    def native_name(self, native: FunctionTool) -> str:
        return native.metadata.get_name()

    def native_schema(self, native: FunctionTool) -> dict[str, Any]:
        """What an OpenAI-style model is sent, which ``fn_schema`` and ``fn_schema_str`` match."""
        parameters: dict[str, Any] = native.metadata.to_openai_tool()["function"]["parameters"]
        assert native.metadata.fn_schema is not None
        assert native.metadata.fn_schema.model_json_schema() == parameters
        assert native.metadata.get_parameters_dict() == parameters
        return parameters

    def call_native(
        self, native: FunctionTool, arguments: Mapping[str, Any], context: Mapping[str, Any]
    ) -> NativeOutcome:
        name = native.metadata.get_name()
        run = asyncio.run(
            self.run_agent([native], [[(name, dict(arguments))], "done"], {CONTEXT_KEY: context})
        )
        (output,) = run.outputs
        assert output.tool_name == name
        return outcome_from_json_text(output.content, is_error=output.is_error)
