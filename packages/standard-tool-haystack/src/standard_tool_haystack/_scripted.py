"""A scripted model (no network) and real Haystack Agent runs driven by it."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from haystack.components.agents import Agent
from haystack.components.generators.chat import MockChatGenerator
from haystack.dataclasses import ChatMessage, ToolCall, ToolCallResult

from ._context import standard_context

__all__ = [
    "AgentRun",
    "Reply",
    "Script",
    "arun_agent",
    "declaration",
    "run_agent",
    "scripted_agent",
]

Reply = str | list[tuple[Any, ...]] | Callable[[list[ChatMessage]], Any]
"""A scripted model turn: a final text, tool calls ``(name, arguments)`` or ``(name,
arguments, call_id)``, or a function of the messages so far returning either."""

_ids = itertools.count()


@dataclass
class Script:
    """The model's turns, answered in order (``"done"`` once they run out), and what the
    model was sent: each turn's messages and the tools the Agent offered it."""

    replies: list[Reply]
    seen_messages: list[list[ChatMessage]] = field(default_factory=list)
    seen_tools: list[list[Any]] = field(default_factory=list)

    def __call__(self, messages: list[ChatMessage]) -> ChatMessage:
        self.seen_messages.append(list(messages))
        reply: Any = self.replies.pop(0) if self.replies else "done"
        if callable(reply):
            reply = reply(list(messages))
        if isinstance(reply, str):
            return ChatMessage.from_assistant(reply)
        return ChatMessage.from_assistant(tool_calls=[_call(*call) for call in reply])


def _call(name: str, arguments: Any, call_id: str | None = None) -> ToolCall:
    return ToolCall(tool_name=name, arguments=arguments, id=call_id or f"call_{next(_ids)}")


def scripted_agent(
    tools: Sequence[Any], replies: Sequence[Reply], **options: Any
) -> tuple[Agent, Script]:
    """An ``Agent`` with ``tools`` (and ``options``: ``hooks``...) whose model answers
    ``replies`` in turn."""
    script = Script(list(replies))
    generator = MockChatGenerator(response_fn=script)
    run, run_async = generator.run, generator.run_async

    @functools.wraps(run)
    def recording_run(*args: Any, **kwargs: Any) -> Any:
        script.seen_tools.append(list(kwargs.get("tools") or []))
        return run(*args, **kwargs)

    @functools.wraps(run_async)
    async def recording_run_async(*args: Any, **kwargs: Any) -> Any:
        script.seen_tools.append(list(kwargs.get("tools") or []))
        return await run_async(*args, **kwargs)

    generator.run, generator.run_async = recording_run, recording_run_async  # type: ignore[method-assign]
    agent = Agent(chat_generator=generator, tools=list(tools), **options)
    return agent, script


@dataclass
class AgentRun:
    """What a run gave: its output (``messages``, ``last_message``...) and the script."""

    output: dict[str, Any]
    script: Script

    @property
    def results(self) -> list[ToolCallResult]:
        """The tool results of the run, in order."""
        return [
            result for message in self.output["messages"] for result in message.tool_call_results
        ]

    @property
    def texts(self) -> list[str]:
        """Each tool result as the model reads it."""
        return [str(result.result) for result in self.results]


def run_agent(
    tools: Sequence[Any], replies: Sequence[Reply], context: Any = None, **options: Any
) -> AgentRun:
    """``agent.run`` of a scripted ``Agent`` with ``tools`` (and ``options``: ``hooks``...),
    with ``context`` as the standard context (:func:`standard_context` around the run)."""
    agent, script = scripted_agent(tools, replies, **options)
    with standard_context(context):
        output = agent.run([ChatMessage.from_user("go")])
    return AgentRun(output, script)


async def arun_agent(
    tools: Sequence[Any], replies: Sequence[Reply], context: Any = None, **options: Any
) -> AgentRun:
    """:func:`run_agent` with ``agent.run_async``."""
    agent, script = scripted_agent(tools, replies, **options)
    with standard_context(context):
        output = await agent.run_async([ChatMessage.from_user("go")])
    return AgentRun(output, script)


def declaration(tool: Any) -> dict[str, Any]:
    """A tool as Haystack's chat generators send it to a model (``tool_spec``)."""
    spec: dict[str, Any] = tool.tool_spec
    return spec
