"""The adapter contract, through a real PydanticAI agent run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agent_runs import answers, outcome, run_agent
from pydantic_ai import Tool

from standard_tool.testing import AdapterContract, NativeOutcome
from standard_tool_pydantic_ai import NAMES


class TestPydanticAIContract(AdapterContract):
    target = "pydantic-ai"
    distribution = "pydantic-ai-slim"
    name_rule = NAMES

    def native_schema(self, native: Tool[Any]) -> dict[str, Any]:
        return native.tool_def.parameters_json_schema

    def call_native(
        self, native: Tool[Any], arguments: Mapping[str, Any], context: Mapping[str, Any]
    ) -> NativeOutcome:
        script, result = run_agent([[(native.name, dict(arguments))]], tools=[native], deps=context)
        (answer,) = answers(result)
        assert answer.tool_name == native.name
        return outcome(answer)
