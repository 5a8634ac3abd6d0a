"""The toy framework's runtime: what a model is shown of a toy tool, and how its call runs."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import standard_tool as st
from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool_toy._toy import ToyTool, run_tool_call


class ToyRuntime(BaseRuntime):
    target = "toy"
    normalisation = "a text result is sent as a JSON string, as the toy sends every result"

    def declaration(self, native: ToyTool) -> dict[str, Any]:
        return {
            "name": native.name,
            "description": native.description,
            "parameters": native.parameters,
        }

    def input_schema(self, native: ToyTool) -> dict[str, Any]:
        return native.parameters

    def run(self, native: ToyTool, arguments: dict[str, Any], context: Any = None) -> NativeOutcome:
        ok, text = run_tool_call(native, json.dumps(arguments), context)
        return NativeOutcome.from_json_text(text, is_error=not ok)

    def standard_tool(self, native: ToyTool) -> Any:
        """The tool a toy tool made by ``to_toy`` runs (its runner is ``st.call`` of it)."""
        runner = native.run
        if isinstance(runner, partial) and runner.func is st.call and runner.args:
            return runner.args[0]
        return super().standard_tool(native)

    def normalise(self, value: Any) -> Any:
        """A text result as the JSON text the toy sends for it; any other as it is."""
        return json.dumps(value) if isinstance(value, str) else value


runtime = ToyRuntime()
