"""The toy framework's runtime: what a model is shown of a toy tool, and how its call runs."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool_toy._toy import ToyTool, run_tool_call


class ToyRuntime(BaseRuntime):
    target = "toy"

    def declaration(self, native: ToyTool) -> dict[str, Any]:
        return {
            "name": native.name,
            "description": native.description,
            "parameters": native.parameters,
        }

    def input_schema(self, native: ToyTool) -> dict[str, Any]:
        return native.parameters

    def call(
        self, native: ToyTool, arguments: Mapping[str, Any], context: Any = None
    ) -> NativeOutcome:
        ok, text = run_tool_call(native, json.dumps(dict(arguments)), context)
        return NativeOutcome.from_json_text(text, is_error=not ok)


runtime = ToyRuntime()
