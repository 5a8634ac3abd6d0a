"""A scripted model (no network) and a real Agents SDK run driven by it."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents import Agent, FunctionTool, RunConfig, Runner
from agents.items import ModelResponse, ToolCallOutputItem
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

__all__ = ["AgentRun", "Reply", "ScriptedModel", "declaration", "run_agent"]

Reply = str | list[tuple[str, Any]] | Callable[[Any], Any]
"""A scripted model turn: a final text, tool calls ``(name, arguments)`` (a dict, sent as JSON
text, or the JSON text itself), or a function of the input so far returning either."""

_ids = itertools.count()


def declaration(tool: FunctionTool) -> dict[str, Any]:
    """A function tool as the Responses API is sent it."""
    return {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.params_json_schema,
        "strict": tool.strict_json_schema,
    }


class ScriptedModel(Model):
    """An Agents SDK ``Model`` answering with scripted turns, recording what it was shown:
    the tools' declarations and the input of each turn (tool outputs included)."""

    def __init__(self, replies: Sequence[Reply]) -> None:
        self.replies = list(replies)
        self.seen_tools: list[list[dict[str, Any]]] = []
        self.seen_inputs: list[Any] = []

    async def get_response(
        self,
        system_instructions: Any,
        input: Any,
        model_settings: Any,
        tools: Any,
        output_schema: Any,
        handoffs: Any,
        tracing: Any,
        *args: Any,
        **kwargs: Any,
    ) -> ModelResponse:
        self.seen_tools.append([declaration(t) for t in tools if isinstance(t, FunctionTool)])
        self.seen_inputs.append(input)
        reply: Any = self.replies.pop(0) if self.replies else "done"
        if callable(reply):
            reply = reply(input)
        if isinstance(reply, str):
            output: list[Any] = [_message(reply)]
        else:
            output = [_call(name, arguments) for name, arguments in reply]
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("the scripted model does not stream")


def _message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id=f"msg_{next(_ids)}",
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def _call(name: str, arguments: Any) -> ResponseFunctionToolCall:
    number = next(_ids)
    return ResponseFunctionToolCall(
        type="function_call",
        id=f"fc_{number}",
        call_id=f"call_{number}",
        name=name,
        arguments=arguments if isinstance(arguments, str) else json.dumps(arguments),
        status="completed",
    )


@dataclass
class AgentRun:
    """What a run gave: its result, the tool outputs in order, and the model."""

    result: Any
    model: ScriptedModel
    outputs: list[ToolCallOutputItem] = field(default_factory=list)

    @property
    def texts(self) -> list[str]:
        """Each tool output as the model reads it (the text of its output item)."""
        return [str(item.raw_item["output"]) for item in self.outputs]  # type: ignore[index]


async def run_agent(
    tools: Sequence[Any], replies: Sequence[Reply], context: Any = None, **agent: Any
) -> AgentRun:
    """``Runner.run`` of an ``Agent`` with ``tools``, whose model answers ``replies`` in
    turn (``"done"`` once they run out), with ``context`` as the run's context."""
    model = ScriptedModel(replies)
    result = await Runner.run(
        Agent(name="scripted", model=model, tools=list(tools), **agent),
        "go",
        context=context,
        run_config=RunConfig(tracing_disabled=True),
    )
    outputs = [item for item in result.new_items if isinstance(item, ToolCallOutputItem)]
    return AgentRun(result, model, outputs)
