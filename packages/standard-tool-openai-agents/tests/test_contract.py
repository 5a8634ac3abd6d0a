"""The adapter contract, through a ``Runner.run`` of an agent (the adapter's runtime)."""

from __future__ import annotations

from typing import Any

from agents import FunctionTool

from standard_tool.testing import AdapterContract
from standard_tool_openai_agents import NAMES
from standard_tool_openai_agents._scripted import declaration


class TestOpenAIAgentsContract(AdapterContract):
    target = "openai-agents"
    distribution = "openai-agents"
    name_rule = NAMES

    def native_schema(self, native: FunctionTool) -> dict[str, Any]:
        """What the model is sent, which is ``params_json_schema``."""
        parameters = super().native_schema(native)
        assert declaration(native)["parameters"] == parameters
        return parameters
