"""The adapter contract, through an ``agent.run`` of an Agno agent (the adapter's runtime)."""

from __future__ import annotations

from typing import Any

from standard_tool.testing import AdapterContract
from standard_tool_agno import NAMES, StandardFunction, run_agent


class TestAgnoContract(AdapterContract):
    target = "agno"
    distribution = "agno"
    name_rule = NAMES

    def native_schema(self, native: StandardFunction) -> dict[str, Any]:
        """What a run sends the model: the function's ``parameters``, unchanged by the run's
        processing."""
        parameters = super().native_schema(native)
        run = run_agent([native], ["done"])
        [[sent]] = run.model.seen_tools
        assert sent["function"]["parameters"] == parameters == native.parameters
        return parameters
