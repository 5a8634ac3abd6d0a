"""smolagents' own runtime for exported tools: a ``ToolCallingAgent`` run whose model makes the call."""

from __future__ import annotations

from typing import Any

from smolagents import Tool
from smolagents.models import get_tool_json_schema

from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError, UnsupportedToolError

from ._export import FINAL_ANSWER
from ._scripted import run_tool_calling_agent

__all__ = ["SmolagentsRuntime", "runtime"]


class SmolagentsRuntime(BaseRuntime):
    """A smolagents tool as a tool-calling model is shown it (``get_tool_json_schema``: its
    ``inputs`` as JSON Schema, smolagents' own dialect) and as a ``ToolCallingAgent`` runs it:
    a real run whose scripted model (no network) calls the tool once, then answers. What comes
    back is what the model reads next: the step's observation (``str()`` of the result,
    stripped), or the step's error. A tool named ``final_answer`` is not run here: in an
    agent it is the final answer tool, whose result no model reads
    (:class:`~standard_tool.exceptions.UnsupportedToolError`)."""

    target = "smolagents"
    dialect = True
    prechecks = True
    """A ``ToolCallingAgent`` refuses an argument of the wrong JSON type, a missing or an
    unknown one before the tool runs (``Argument a has type 'string' but should be
    'integer'``), naming the field, not the tool."""
    normalisation = "a text result's surrounding whitespace is stripped, as smolagents does"

    def declaration(self, native: Tool) -> dict[str, Any]:
        declared: dict[str, Any] = get_tool_json_schema(native)
        return declared

    def run(self, native: Tool, arguments: dict[str, Any], context: Any = None) -> NativeOutcome:
        if native.name == FINAL_ANSWER:
            raise UnsupportedToolError(
                self.standard_tool(native).name,
                self.target,
                f"its name there, {FINAL_ANSWER!r}, is that of smolagents' own final answer "
                "tool, whose place it takes in an agent (a call of it ends the run with its "
                "result as the answer, which no model reads)",
            )
        run = run_tool_calling_agent([native], [[(native.name, arguments)]], context)
        step = run.steps[0] if run.steps else None
        if step is None:
            raise PluginError(f"a smolagents run of {native.name!r} made no step")
        if step.error is not None:
            return NativeOutcome(error=str(step.error))
        if len(run.outputs) != 1:
            raise PluginError(f"a smolagents run of {native.name!r} made {len(run.outputs)} calls")
        return NativeOutcome.from_json_text(run.outputs[0].observation, is_error=False)

    def normalise(self, value: Any) -> Any:
        """A text result stripped of its surrounding whitespace, as a ``ToolCallingAgent``
        makes every observation (``observation = str(tool_call_result).strip()`` in
        ``ToolCallingAgent.process_tool_calls``, ``smolagents/agents.py``); any other result
        as it is, since an exported tool's ``str()`` of it is its JSON text, which stripping
        leaves whole."""
        return value.strip() if isinstance(value, str) else value


runtime = SmolagentsRuntime()
