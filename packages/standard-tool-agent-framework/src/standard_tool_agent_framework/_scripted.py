"""A scripted chat client (no network) and a real Microsoft Agent Framework run driven by it."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agent_framework import (
    Agent,
    BaseChatClient,
    ChatResponse,
    Content,
    FunctionInvocationLayer,
    FunctionTool,
    Message,
)

__all__ = ["AgentRun", "Reply", "ScriptedChatClient", "declaration", "run_agent"]

Reply = str | list[tuple[Any, ...]] | Callable[[list[Message]], Any]
"""A scripted model turn: a final text, tool calls ``(name, arguments)`` (a dict, sent as JSON
text, or the JSON text itself) or ``(name, arguments, call_id)``, or a function of the
messages so far returning either."""

_ids = itertools.count()


def declaration(tool: FunctionTool) -> dict[str, Any]:
    """A function tool as a chat client sends it to a model (``to_json_schema_spec``)."""
    spec: dict[str, Any] = tool.to_json_schema_spec()
    return spec


class ScriptedChatClient(FunctionInvocationLayer[Any], BaseChatClient[Any]):
    """A chat client answering with scripted turns, with the framework's own function loop,
    recording what it was sent: the tools' declarations and the messages of each turn."""

    def __init__(self, replies: Sequence[Reply], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.replies = list(replies)
        self.seen_tools: list[list[dict[str, Any]]] = []
        self.seen_messages: list[list[Message]] = []

    async def _inner_get_response(
        self,
        *,
        messages: Sequence[Message],
        stream: bool,
        options: Mapping[str, Any],
        **kwargs: Any,
    ) -> ChatResponse:
        if stream:
            raise NotImplementedError("the scripted chat client does not stream")
        tools = options.get("tools") or []
        self.seen_tools.append([declaration(t) for t in tools if isinstance(t, FunctionTool)])
        self.seen_messages.append(list(messages))
        reply: Any = self.replies.pop(0) if self.replies else "done"
        if callable(reply):
            reply = reply(list(messages))
        if isinstance(reply, str):
            contents = [Content.from_text(reply)]
        else:
            contents = [_call(*call) for call in reply]
        return ChatResponse(messages=[Message(role="assistant", contents=contents)])


def _call(name: str, arguments: Any, call_id: str | None = None) -> Content:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    call_id = call_id or f"call_{next(_ids)}"
    return Content.from_function_call(call_id=call_id, name=name, arguments=text)


@dataclass
class AgentRun:
    """What a run gave: its response, the agent (and its session), and the client."""

    response: Any
    agent: Agent[Any]
    client: ScriptedChatClient
    session: Any = None

    @property
    def results(self) -> list[Content]:
        """The function results of the run, in order."""
        return [
            content
            for message in self.response.messages
            for content in message.contents
            if content.type == "function_result"
        ]

    @property
    def texts(self) -> list[str]:
        """Each function result as the model reads it."""
        return [_text(result) for result in self.results]


def _text(result: Content) -> str:
    items = getattr(result, "items", None)
    if items:
        return "".join(item.text or "" for item in items if item.type == "text")
    value = result.result
    return value if isinstance(value, str) else json.dumps(value)


async def run_agent(
    tools: Sequence[Any],
    replies: Sequence[Reply],
    context: Mapping[str, Any] | None = None,
    *,
    session: bool = False,
    middleware: Sequence[Any] = (),
) -> AgentRun:
    """``agent.run("go")`` of an ``Agent`` with ``tools`` (and ``middleware``), whose chat
    client answers ``replies`` in turn (``"done"`` once they run out), with ``context`` as
    the run's ``function_invocation_kwargs``; in a new session with ``session``."""
    client = ScriptedChatClient(replies)
    agent = Agent(client=client, tools=list(tools), middleware=list(middleware) or None)
    run_session = agent.create_session() if session else None
    response = await agent.run(
        "go", session=run_session, function_invocation_kwargs=dict(context or {})
    )
    return AgentRun(response, agent, client, run_session)
