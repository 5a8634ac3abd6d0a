"""A real PydanticAI agent driven by a scripted ``FunctionModel``, and what its runs told the model."""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.tools import ToolDefinition

from standard_tool import jsonable
from standard_tool.adapters import METADATA_KEY
from standard_tool.testing import NativeOutcome

PYDANTIC_AI = tuple(int(p) for p in importlib.metadata.version("pydantic-ai-slim").split(".")[:2])
"""The installed pydantic-ai-slim version, (major, minor)."""
V2 = PYDANTIC_AI >= (2, 0)

T = TypeVar("T")
Call = tuple[str, Any]
"""A tool call a scripted model makes: the tool's name and its arguments (a dict or JSON text)."""


@dataclass
class Script:
    """A model that makes the given tool calls, one step at a time, then answers ``done``.

    It records what it was shown: the tool definitions of each step and each request.
    """

    steps: list[list[Call]]
    tools: list[list[ToolDefinition]] = field(default_factory=list)
    requests: list[ModelRequest] = field(default_factory=list)

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.tools.append(list(info.function_tools))
        last = messages[-1]
        if isinstance(last, ModelRequest):
            self.requests.append(last)
        step = len(self.tools) - 1
        if step < len(self.steps):
            return ModelResponse(
                parts=[
                    ToolCallPart(name, args if isinstance(args, str) else json.dumps(args))
                    for name, args in self.steps[step]
                ]
            )
        return ModelResponse(parts=[TextPart("done")])

    def model(self) -> FunctionModel:
        return FunctionModel(self.__call__, model_name="script")


def run_agent(
    steps: Sequence[Sequence[Call]],
    *,
    tools: Sequence[Any] = (),
    toolsets: Sequence[Any] = (),
    deps: Any = None,
    **agent_options: Any,
) -> tuple[Script, Any]:
    """Run a real agent whose model makes the scripted calls; the script and the run result."""
    script = Script([list(step) for step in steps])
    agent: Agent[Any, str] = Agent(
        script.model(), tools=list(tools), toolsets=list(toolsets), **agent_options
    )
    return script, run_sync(agent.run("go", deps=deps))


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run an agent from sync code on a loop of its own, closed after the run.

    ``agent.run_sync`` of PydanticAI 1.x leaves a new event loop set on the thread, unclosed.
    """
    return asyncio.run(coroutine)


def answers(result: Any) -> list[Any]:
    """The parts that answer tool calls in a run's messages, in order."""
    return [
        part
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if part.part_kind in ("tool-return", "retry-prompt")
    ]


def is_error(part: Any) -> bool:
    """Whether a tool call's answer tells the model the call failed."""
    if part.part_kind == "retry-prompt":
        return True
    if getattr(part, "outcome", "success") in ("failed", "retried", "denied"):
        return True
    metadata = part.metadata
    return isinstance(metadata, dict) and "error" in metadata.get(METADATA_KEY, {})


def is_retry(part: Any) -> bool:
    """Whether a tool call's answer asks the model to try again."""
    return part.part_kind == "retry-prompt" or getattr(part, "outcome", None) == "retried"


def outcome(part: Any) -> NativeOutcome:
    """What the model was told by one answer to a tool call."""
    if is_error(part):
        content = part.content
        return NativeOutcome(error=content if isinstance(content, str) else json.dumps(content))
    return NativeOutcome(value=jsonable(part.content))
