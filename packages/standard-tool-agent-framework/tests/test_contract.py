"""The adapter contract, through an ``agent.run`` of an agent (the adapter's runtime)."""

from __future__ import annotations

from typing import Any

from agent_framework import FunctionTool

from standard_tool.testing import AdapterContract
from standard_tool_agent_framework import NAMES


class TestAgentFrameworkContract(AdapterContract):
    target = "agent-framework"
    distribution = "agent-framework-core"
    name_rule = NAMES

    def native_schema(self, native: FunctionTool) -> dict[str, Any]:
        """What a chat client sends the model, which is ``parameters()``."""
        parameters = super().native_schema(native)
        assert native.parameters() == parameters
        return parameters
