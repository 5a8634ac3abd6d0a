"""The adapter contract, through a smolagents ``ToolCallingAgent`` run (the adapter's runtime).

smolagents shows a model its own dialect of the schema (each argument's smolagents type,
``nullable`` and description, the rest of its JSON Schema in the description), so the
schema test checks that dialect against the tool's schema; and its agents refuse an argument
of the wrong JSON type, a missing one or an unknown one before the tool runs, with their own
message, which names the field but not the tool (``Argument a has type 'string' but should be
'integer'``); every other invalid input reaches the tool, whose error names both.
"""

from __future__ import annotations

from typing import Any

import pytest
from smolagents import Tool
from smolagents.models import get_tool_json_schema

import standard_tool as st
from standard_tool.testing import INVALID_CALLS, SECRET, AdapterContract, sample_tools
from standard_tool_smolagents import NAMES

PRECHECKED = {"add", "catalog.lookup"}
"""The sample invalid calls that smolagents' own argument check refuses (a wrong JSON type)."""


class TestSmolagentsContract(AdapterContract):
    target = "smolagents"
    distribution = "smolagents"
    name_rule = NAMES

    def native_schema(self, native: Tool) -> dict[str, Any]:
        """What a tool-calling model is sent (``get_tool_json_schema``), checked against the
        tool's own schema: each property with its smolagents type, required exactly when
        smolagents requires it, the rest of its JSON Schema in its description. Returns the
        tool's schema when all of that holds."""
        shown = super().native_schema(native)
        assert shown == get_tool_json_schema(native)["function"]["parameters"]
        standard = native.standard_tool  # type: ignore[attr-defined]
        schema = st.input_json_schema(standard)
        properties = schema.get("properties", {})
        assert list(shown["properties"]) == list(properties)
        assert set(shown["required"]) == set(schema.get("required", []))
        for key, sub in properties.items():
            entry = shown["properties"][key]
            if set(sub) - {"type", "description", "title"}:
                assert "JSON Schema: " in entry["description"], (key, entry)
            if isinstance(sub.get("type"), str):
                assert entry["type"] == sub["type"]
        return schema

    @pytest.mark.parametrize("name", sorted(INVALID_CALLS))
    def test_native_runtime_reports_invalid_input(self, name: str) -> None:
        if name not in PRECHECKED:
            super().test_native_runtime_reports_invalid_input(name)
            return
        arguments, field = INVALID_CALLS[name]
        outcome = self.call_native(self.to_native(sample_tools()[name]), arguments, self.context())
        assert outcome.error is not None
        assert outcome.error.startswith(f"Argument {field} has type"), outcome.error
        assert SECRET not in outcome.error and "Traceback" not in outcome.error
        # called directly (as a CodeAgent's code does), the tool's own error names both
        with pytest.raises(st.ToolValidationError) as raised:
            self.to_native(sample_tools()[name])(**arguments)
        assert raised.value.tool == name and field in raised.value.fields[0]
