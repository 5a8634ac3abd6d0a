"""The adapter contract, run against a toy third-party plugin installed as a real distribution."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from standard_tool.names import OPENAI_NAMES
from standard_tool.testing import (
    AdapterContract,
    NativeOutcome,
    PackageContract,
    outcome_from_json_text,
)
from standard_tool_toy import ToyTool, run_tool_call


class TestToyContract(AdapterContract):
    target = "toy"
    distribution = "standard-tool-toy"
    name_rule = OPENAI_NAMES

    def native_schema(self, native: ToyTool) -> dict[str, Any]:
        return native.parameters

    def call_native(
        self, native: ToyTool, arguments: Mapping[str, Any], context: Mapping[str, Any]
    ) -> NativeOutcome:
        ok, text = run_tool_call(native, json.dumps(arguments), context)
        return outcome_from_json_text(text, is_error=not ok)


class TestToyPackage(PackageContract):
    package = "standard_tool_toy"
    target = "toy"
    frameworks = ("standard_tool_toy._toy",)
