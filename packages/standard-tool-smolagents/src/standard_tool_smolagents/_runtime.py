"""smolagents' own runtime for exported tools: a ``ToolCallingAgent`` run whose model makes the call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from smolagents import Tool
from smolagents.models import get_tool_json_schema

from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError

from ._scripted import run_tool_calling_agent

__all__ = ["SmolagentsRuntime", "runtime"]


class SmolagentsRuntime(BaseRuntime):
    """A smolagents tool as a tool-calling model is shown it (``get_tool_json_schema``: its
    ``inputs`` as JSON Schema, smolagents' own dialect) and as a ``ToolCallingAgent`` runs it:
    a real run whose scripted model (no network) calls the tool once, then answers. What comes
    back is what the model reads next: the step's observation (``str()`` of the result), or
    the step's error."""

    target = "smolagents"
    dialect = True
    prechecks = True
    """A ``ToolCallingAgent`` refuses an argument of the wrong JSON type, a missing or an
    unknown one before the tool runs (``Argument a has type 'string' but should be
    'integer'``), naming the field, not the tool."""

    def declaration(self, native: Tool) -> dict[str, Any]:
        declared: dict[str, Any] = get_tool_json_schema(native)
        return declared

    def input_schema(self, native: Tool) -> dict[str, Any]:
        schema: dict[str, Any] = self.declaration(native)["function"]["parameters"]
        return schema

    def call(
        self, native: Tool, arguments: Mapping[str, Any], context: Any = None
    ) -> NativeOutcome:
        run = run_tool_calling_agent([native], [[(native.name, dict(arguments))]], context)
        step = run.steps[0] if run.steps else None
        if step is None:
            raise PluginError(f"a smolagents run of {native.name!r} made no step")
        if step.error is not None:
            return NativeOutcome(error=str(step.error))
        if len(run.outputs) != 1:
            raise PluginError(f"a smolagents run of {native.name!r} made {len(run.outputs)} calls")
        return NativeOutcome.from_json_text(run.outputs[0].observation, is_error=False)


runtime = SmolagentsRuntime()
