"""The adapter contract, through an ``agent.run`` of a Haystack Agent (the adapter's runtime)."""

from __future__ import annotations

from typing import Any

from haystack.tools import Tool

from standard_tool.testing import AdapterContract
from standard_tool_haystack import NAMES, run_agent


class TestHaystackContract(AdapterContract):
    target = "haystack"
    distribution = "haystack-ai"
    name_rule = NAMES

    def native_schema(self, native: Tool) -> dict[str, Any]:
        """What an Agent hands its chat generator for the model, which is ``parameters``."""
        parameters = super().native_schema(native)
        run = run_agent([native], ["done"])
        [[sent]] = run.script.seen_tools
        assert sent.tool_spec["parameters"] == parameters == native.parameters
        return parameters
