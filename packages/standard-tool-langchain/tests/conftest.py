"""Shared fixtures: a tool-calling chat model built on LangChain's own fake model."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool


class ToolCallingFakeModel(GenericFakeChatModel):
    """LangChain's scripted chat model, binding tools the way OpenAI-style models do."""

    seen_tools: list[Any] = []

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools], **kwargs)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Any:
        self.seen_tools.append(kwargs.get("tools"))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def run_tool_loop(
    replies: Iterable[AIMessage], tools: Sequence[Any], config: dict[str, Any] | None = None
) -> tuple[ToolCallingFakeModel, list[BaseMessage]]:
    """Drive a small agent loop: the model's tool calls run through ``tool.invoke``."""
    model = ToolCallingFakeModel(messages=iter(list(replies)), seen_tools=[])
    bound = model.bind_tools(tools)
    by_name = {tool.name: tool for tool in tools if isinstance(tool, BaseTool)}
    messages: list[BaseMessage] = [HumanMessage("go")]
    for _ in range(10):
        reply = bound.invoke(messages, config=config)
        messages.append(reply)
        if not reply.tool_calls:
            break
        for call in reply.tool_calls:
            messages.append(by_name[call["name"]].invoke(call, config=config))
    return model, messages


@pytest.fixture
def tool_loop() -> Callable[..., tuple[ToolCallingFakeModel, list[BaseMessage]]]:
    return run_tool_loop
