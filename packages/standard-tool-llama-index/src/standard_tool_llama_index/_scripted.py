"""A scripted function-calling LLM (no network) and a real LlamaIndex agent run driven by it."""

from __future__ import annotations

from . import _quiet  # noqa: F401  # isort: skip  (first: imports LlamaIndex quietly)
from collections.abc import AsyncGenerator, Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult
from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    CompletionResponse,
    LLMMetadata,
)
from llama_index.core.llms.function_calling import FunctionCallingLLM
from llama_index.core.llms.llm import ToolSelection
from llama_index.core.tools.types import ToolOutput
from llama_index.core.workflow import Context
from pydantic import Field

__all__ = ["AgentRun", "Reply", "ScriptedLLM", "run_agent", "set_in_store"]

Reply = str | list[tuple[str, dict[str, Any]]] | Callable[[Sequence[ChatMessage]], Any]
"""A scripted model turn: a final text, tool calls ``(name, arguments)``, or a function of
the messages so far returning either."""


class ScriptedLLM(FunctionCallingLLM):
    """LlamaIndex's function-calling LLM base, answering with scripted turns (no network).

    It binds tools as OpenAI-style models do (``metadata.to_openai_tool()``) and records
    what it was shown.
    """

    replies: list[Any] = Field(default_factory=list)
    seen_tools: list[list[dict[str, Any]]] = Field(default_factory=list)
    seen_messages: list[list[ChatMessage]] = Field(default_factory=list)

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(
            is_function_calling_model=True, is_chat_model=True, model_name="scripted"
        )

    def _prepare_chat_with_tools(  # type: ignore[override, unused-ignore]
        self,
        tools: Sequence[Any],
        user_msg: Any = None,
        chat_history: list[ChatMessage] | None = None,
        verbose: bool = False,
        allow_parallel_tool_calls: bool = False,
        **kwargs: Any,
    ) -> dict[str, Any]:
        self.seen_tools.append([tool.metadata.to_openai_tool() for tool in tools])
        messages = list(chat_history or [])
        if isinstance(user_msg, str):
            user_msg = ChatMessage(role="user", content=user_msg)
        if user_msg is not None:
            messages.append(user_msg)
        return {"messages": messages}

    def get_tool_calls_from_response(
        self, response: ChatResponse, error_on_no_tool_call: bool = True, **kwargs: Any
    ) -> list[ToolSelection]:
        calls = response.message.additional_kwargs.get("tool_calls") or []
        return [
            ToolSelection(tool_id=c["id"], tool_name=c["name"], tool_kwargs=c["args"])
            for c in calls
        ]

    def _reply(self, messages: Sequence[ChatMessage]) -> ChatMessage:
        self.seen_messages.append(list(messages))
        reply = self.replies.pop(0) if self.replies else "done"
        if callable(reply):
            reply = reply(messages)
        if isinstance(reply, str):
            return ChatMessage(role="assistant", content=reply)
        calls = [
            {"id": f"call_{len(self.seen_messages)}_{i}", "name": name, "args": args}
            for i, (name, args) in enumerate(reply)
        ]
        return ChatMessage(role="assistant", content="", additional_kwargs={"tool_calls": calls})

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        message = self._reply(messages)
        return ChatResponse(message=message, delta=message.content or "")

    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return self.chat(messages)

    def stream_chat(
        self, messages: Sequence[ChatMessage], **kwargs: Any
    ) -> Generator[ChatResponse, None, None]:
        yield self.chat(messages)

    async def astream_chat(  # type: ignore[override, unused-ignore]
        self, messages: Sequence[ChatMessage], **kwargs: Any
    ) -> AsyncGenerator[ChatResponse, None]:
        response = self.chat(messages)

        async def stream() -> AsyncGenerator[ChatResponse, None]:
            yield response

        return stream()

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text="")

    async def acomplete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponse:
        return CompletionResponse(text="")

    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> Generator[CompletionResponse, None, None]:
        yield CompletionResponse(text="")

    async def astream_complete(  # type: ignore[override, unused-ignore]
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> AsyncGenerator[CompletionResponse, None]:
        async def stream() -> AsyncGenerator[CompletionResponse, None]:
            yield CompletionResponse(text="")

        return stream()


@dataclass
class AgentRun:
    """What a ``FunctionAgent`` run did: each tool call's output, the answer, the model."""

    outputs: list[ToolOutput] = field(default_factory=list)
    answer: str = ""
    llm: ScriptedLLM | None = None


async def set_in_store(ctx: Any, key: str, value: Any) -> None:
    """Store a value in a workflow Context (``ctx.store``, or ``ctx.set`` where it has none)."""
    store = getattr(ctx, "store", None)
    await (store.set(key, value) if store is not None else ctx.set(key, value))


async def run_agent(
    tools: Sequence[Any],
    replies: Sequence[Reply],
    store: dict[str, Any] | None = None,
    kind: type[Any] = FunctionAgent,
) -> AgentRun:
    """Run a real LlamaIndex agent (a ``FunctionAgent``, or ``kind``) over ``tools``, with
    the scripted model; ``store`` is put in the run's workflow Context first."""
    llm = ScriptedLLM(replies=list(replies))
    agent = kind(tools=list(tools), llm=llm)
    ctx = Context(agent)
    for key, value in (store or {}).items():
        await set_in_store(ctx, key, value)
    handler = agent.run(user_msg="go", ctx=ctx)
    run = AgentRun(llm=llm)
    async for event in handler.stream_events():
        if isinstance(event, ToolCallResult):
            run.outputs.append(event.tool_output)
    run.answer = str(await handler)
    return run
