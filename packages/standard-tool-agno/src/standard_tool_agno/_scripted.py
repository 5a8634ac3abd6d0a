"""A scripted model (no network) and a real Agno agent run driven by it."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agno.agent import Agent
from agno.models.base import Model
from agno.models.message import Message
from agno.models.response import ModelResponse

__all__ = ["Reply", "ScriptedModel", "declaration", "run_agent"]

Reply = str | list[tuple[Any, ...]] | Callable[[list[Message]], Any]
"""A scripted model turn: a final text, tool calls ``(name, arguments)`` (a dict, sent as JSON
text, or the JSON text itself) or ``(name, arguments, call_id)``, or a function of the
messages so far returning either."""

_ids = itertools.count()


def declaration(function: Any) -> dict[str, Any]:
    """A ``Function`` as a model is sent it (``{"type": "function", "function": ...}``)."""
    return {"type": "function", "function": function.to_dict()}


@dataclass
class ScriptedModel(Model):
    """A model answering with scripted turns, recording what it was sent: the tools'
    declarations and the messages of each turn."""

    id: str = "scripted"
    name: str | None = "Scripted"
    provider: str | None = "standard-tool"
    replies: list[Reply] = field(default_factory=list)
    seen_tools: list[list[dict[str, Any]]] = field(default_factory=list)
    seen_messages: list[list[Message]] = field(default_factory=list)

    def _answer(self, messages: Sequence[Message], tools: Any) -> ModelResponse:
        self.seen_tools.append([dict(t) for t in tools or []])
        self.seen_messages.append(list(messages))
        reply: Any = self.replies.pop(0) if self.replies else "done"
        if callable(reply):
            reply = reply(list(messages))
        if isinstance(reply, str):
            return ModelResponse(role="assistant", content=reply)
        return ModelResponse(role="assistant", tool_calls=[_call(*call) for call in reply])

    def invoke(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return self._answer(kwargs.get("messages") or [], kwargs.get("tools"))

    async def ainvoke(self, *args: Any, **kwargs: Any) -> ModelResponse:
        return self._answer(kwargs.get("messages") or [], kwargs.get("tools"))

    def invoke_stream(self, *args: Any, **kwargs: Any) -> Iterator[ModelResponse]:
        yield self._answer(kwargs.get("messages") or [], kwargs.get("tools"))

    async def ainvoke_stream(self, *args: Any, **kwargs: Any) -> AsyncIterator[ModelResponse]:
        yield self._answer(kwargs.get("messages") or [], kwargs.get("tools"))

    def _parse_provider_response(self, response: Any, **kwargs: Any) -> ModelResponse:
        return response  # type: ignore[no-any-return]

    def _parse_provider_response_delta(self, response: Any) -> ModelResponse:
        return response  # type: ignore[no-any-return]


def _call(name: str, arguments: Any, call_id: str | None = None) -> dict[str, Any]:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "id": call_id or f"call_{next(_ids)}",
        "type": "function",
        "function": {"name": name, "arguments": text},
    }


@dataclass
class AgentRun:
    """What a run gave: its output, the agent and its model."""

    output: Any
    agent: Agent
    model: ScriptedModel

    @property
    def results(self) -> list[Message]:
        """The tool messages of the run, in order."""
        return [m for m in self.output.messages or [] if m.role == "tool"]

    @property
    def texts(self) -> list[str]:
        """Each tool result as the model reads it."""
        return [m.get_content_string() for m in self.results]


def make_agent(tools: Sequence[Any], replies: Sequence[Reply], **kwargs: Any) -> Agent:
    """An ``Agent`` with ``tools`` whose model answers ``replies`` in turn (``"done"`` once
    they run out)."""
    return Agent(model=ScriptedModel(replies=list(replies)), tools=list(tools), **kwargs)


def run_agent(
    tools: Sequence[Any],
    replies: Sequence[Reply],
    context: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> AgentRun:
    """``agent.run("go")`` of an ``Agent`` with ``tools``, with ``context`` as the run's
    ``dependencies``."""
    agent = make_agent(tools, replies, **kwargs)
    output = agent.run("go", dependencies=dict(context) if context is not None else None)
    return AgentRun(output, agent, agent.model)  # type: ignore[arg-type]


async def arun_agent(
    tools: Sequence[Any],
    replies: Sequence[Reply],
    context: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> AgentRun:
    """``await agent.arun("go")``, as :func:`run_agent`."""
    agent = make_agent(tools, replies, **kwargs)
    output = await agent.arun("go", dependencies=dict(context) if context is not None else None)
    return AgentRun(output, agent, agent.model)  # type: ignore[arg-type]
