"""PydanticAI's own runtime for exported tools: an agent run whose model makes the call."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from pydantic_ai import Agent, Tool
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import standard_tool as st
from standard_tool.adapters import METADATA_KEY, BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError

from ._quiet import no_banner

__all__ = ["PydanticAIRuntime", "runtime"]


class PydanticAIRuntime(BaseRuntime):
    """A PydanticAI tool as a model is shown it (its ``ToolDefinition``) and as an agent runs
    it: a real agent run whose scripted model (``FunctionModel``, no network) calls the tool
    once, with the standard context as the run's ``deps``; PydanticAI's first-run banner is
    left for the user's own first run."""

    target = "pydantic-ai"

    def declaration(self, native: Tool[Any]) -> dict[str, Any]:
        """The tool's ``ToolDefinition``, as JSON data."""
        declared: dict[str, Any] = st.jsonable(asdict(native.tool_def))
        return declared

    def input_schema(self, native: Tool[Any]) -> dict[str, Any]:
        return native.tool_def.parameters_json_schema

    def run(
        self, native: Tool[Any], arguments: dict[str, Any], context: Any = None
    ) -> NativeOutcome:
        call = ToolCallPart(native.name, json.dumps(arguments))

        def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
            if len(messages) == 1:
                return ModelResponse(parts=[call])
            return ModelResponse(parts=[TextPart("done")])

        agent: Agent[Any, str] = Agent(FunctionModel(model, model_name="script"), tools=[native])
        with no_banner():
            result = st.run_sync(agent.run("go", deps=context))
        answers = [
            part
            for message in result.all_messages()
            if isinstance(message, ModelRequest)
            for part in message.parts
            if part.part_kind in ("tool-return", "retry-prompt")
        ]
        if len(answers) != 1:
            raise PluginError(f"a PydanticAI run of {native.name!r} answered {len(answers)} calls")
        return _outcome(answers[0])


def _is_error(part: Any) -> bool:
    """Whether a call's answer tells the model the call failed (a retry prompt, a failed
    outcome on 2.x, a failure reported on 1.x)."""
    if part.part_kind == "retry-prompt":
        return True
    if getattr(part, "outcome", "success") in ("failed", "retried", "denied"):
        return True
    metadata = part.metadata
    return isinstance(metadata, dict) and "error" in metadata.get(METADATA_KEY, {})


def _outcome(part: Any) -> NativeOutcome:
    """The answer as the model reads it: a text result as it is (``model_response_str``)."""
    content = part.content
    if _is_error(part):
        return NativeOutcome(error=content if isinstance(content, str) else json.dumps(content))
    text = content if isinstance(content, str) else None
    return NativeOutcome(value=st.jsonable(content), text=text)


runtime = PydanticAIRuntime()
