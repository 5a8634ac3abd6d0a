"""A scripted model (no network) and real Google ADK runs driven by it."""

from __future__ import annotations

import itertools
from collections.abc import AsyncGenerator, Callable, Sequence
from typing import Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.events.event import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.tool_confirmation import ToolConfirmation
from google.genai import types
from pydantic import Field

__all__ = [
    "CONFIRMATION",
    "Conversation",
    "Reply",
    "ScriptedLlm",
    "confirmation",
    "declarations",
    "function_calls",
    "function_responses",
]

CONFIRMATION = "adk_request_confirmation"
"""The name of the function call by which a run asks a person to confirm a tool call."""

Reply = str | list[tuple[str, Any]] | Callable[[LlmRequest], Any]
"""A scripted model turn: a final text, function calls ``(name, arguments)``, or a function
of the request returning either."""

_ids = itertools.count()


class ScriptedLlm(BaseLlm):
    """An ADK model answering with scripted turns, keeping each ``LlmRequest`` it was sent."""

    model: str = "scripted"
    replies: list[Any] = Field(default_factory=list)
    requests: list[LlmRequest] = Field(default_factory=list)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(llm_request)
        reply: Any = self.replies.pop(0) if self.replies else "done"
        if callable(reply):
            reply = reply(llm_request)
        if isinstance(reply, str):
            parts = [types.Part(text=reply)]
        else:
            parts = [
                types.Part(
                    function_call=types.FunctionCall(
                        id=f"call_{next(_ids)}", name=name, args=arguments
                    )
                )
                for name, arguments in reply
            ]
        usage = types.GenerateContentResponseUsageMetadata(
            prompt_token_count=0, candidates_token_count=0, total_token_count=0
        )
        yield LlmResponse(content=types.Content(role="model", parts=parts), usage_metadata=usage)


def declarations(request: LlmRequest) -> list[types.FunctionDeclaration]:
    """The function declarations a request sends the model."""
    found: list[types.FunctionDeclaration] = []
    for tool in request.config.tools or []:
        found.extend(getattr(tool, "function_declarations", None) or [])
    return found


def confirmation(call_id: str, confirmed: bool) -> types.Part:
    """A person's answer to the ``adk_request_confirmation`` call ``call_id``."""
    answer = ToolConfirmation(confirmed=confirmed).model_dump(by_alias=True)
    return types.Part(
        function_response=types.FunctionResponse(name=CONFIRMATION, id=call_id, response=answer)
    )


def function_calls(events: Sequence[Event]) -> list[types.FunctionCall]:
    """The function calls of ``events``, in order."""
    return [call for event in events for call in event.get_function_calls()]


def function_responses(events: Sequence[Event]) -> list[types.FunctionResponse]:
    """The function responses of ``events``, in order."""
    return [response for event in events for response in event.get_function_responses()]


class Conversation:
    """One session of an ``LlmAgent`` with ``tools`` and a :class:`ScriptedLlm` answering
    ``replies``, run by an ``InMemoryRunner``: each :meth:`send` is one run."""

    def __init__(
        self,
        tools: Sequence[Any],
        replies: Sequence[Reply] = (),
        *,
        user_id: str = "user",
        **agent: Any,
    ) -> None:
        self.model = ScriptedLlm(replies=list(replies))
        self.agent = LlmAgent(name="scripted", model=self.model, tools=list(tools), **agent)
        self.runner = InMemoryRunner(agent=self.agent, app_name="scripted")
        self.user_id = user_id
        self.session_id: str | None = None

    async def send(self, *message: str | types.Part) -> list[Event]:
        """One run with the user's ``message`` (texts or parts); its events."""
        if self.session_id is None:
            session = await self.runner.session_service.create_session(
                app_name="scripted", user_id=self.user_id
            )
            self.session_id = session.id
        parts = [types.Part(text=m) if isinstance(m, str) else m for m in message]
        content = types.Content(role="user", parts=parts)
        return [
            event
            async for event in self.runner.run_async(
                user_id=self.user_id, session_id=self.session_id, new_message=content
            )
        ]
