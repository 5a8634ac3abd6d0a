"""The Agents SDK's own runtime for exported tools: a ``Runner.run`` whose model makes the call."""

from __future__ import annotations

import copy
from typing import Any

import standard_tool as st
from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError
from standard_tool.providers import strict_arguments

from ._adopt import FAILED
from ._approvals import PAUSES
from ._export import FAILURES, StandardFunctionTool
from ._scripted import declaration, run_agent

__all__ = ["OpenAIAgentsRuntime", "runtime"]


class OpenAIAgentsRuntime(BaseRuntime):
    """An Agents SDK function tool as a model is sent it (the Responses API declaration) and
    as a run calls it: a real ``Runner.run`` whose scripted model (no network) calls the tool
    once, with the standard context as the run's context. Under strict mode the model writes
    a valid call as strict mode makes it (every property, ``null`` for an absent one)."""

    target = "openai-agents"

    @staticmethod
    def dialect(native: Any) -> str | None:
        """What a model is shown: the strict rendering of a strict tool, else the schema."""
        return "openai-strict" if native.strict_json_schema else None

    def declaration(self, native: Any) -> dict[str, Any]:
        return declaration(native)

    def input_schema(self, native: Any) -> dict[str, Any]:
        schema: dict[str, Any] = native.params_json_schema
        return schema

    def run(self, native: Any, arguments: dict[str, Any], context: Any = None) -> NativeOutcome:
        """The run; the model reads the tool's output text. One call, with no pause: a call
        a guarded tool's gate holds is its ``held_for_review`` refusal, as the model reads it
        where the SDK cannot pause."""
        if isinstance(native, StandardFunctionTool) and PAUSES:
            native = copy.copy(native)
            native.needs_approval = False
        sent = arguments
        if native.strict_json_schema and _valid(native, sent):
            sent = strict_arguments(sent, native.params_json_schema)
        failures: list[Exception] = []
        token = FAILURES.set(failures)
        try:
            run = st.run_sync(run_agent([native], [[(native.name, sent)], "done"], context))
        finally:
            FAILURES.reset(token)
        if len(run.outputs) != 1:
            raise PluginError(f"an Agents SDK run of {native.name!r} made {len(run.outputs)} calls")
        text = run.texts[0]
        return NativeOutcome.from_json_text(text, is_error=bool(failures) or _failed(text))


def _valid(native: Any, arguments: Any) -> bool:
    """Whether ``arguments`` is valid for the tool's own input schema."""
    tool = native.standard_tool if isinstance(native, StandardFunctionTool) else None
    if tool is None:
        return False
    schema = st.as_schema(st.input_json_schema(tool))
    return schema is not None and schema.validate(arguments).issues is None


def _failed(text: str) -> bool:
    """Whether ``text`` is the SDK's own failure text (a tool not made here)."""
    return text == FAILED or text.startswith(FAILED + " Error: ")


runtime = OpenAIAgentsRuntime()
