"""Shared fixtures: a tool-calling chat model built on LangChain's own fake model."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
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
            messages.append(by_name[call["name"]].invoke(call, config=cast(RunnableConfig, config)))
    return model, messages


@pytest.fixture
def tool_loop() -> Callable[..., tuple[ToolCallingFakeModel, list[BaseMessage]]]:
    return run_tool_loop


ASYNC_CONFIG_ON_310 = (
    "test_contract.py::TestLangChainContract::test_adopted_tool_calls_sync_and_async[whoami]",
    "test_events.py::test_ainvoke_sends_them_in_order_before_the_run_ends",
    "test_events.py::test_astream_events_shows_them",
    "test_export.py::test_context_is_the_configurable_mapping",
)
"""Tests of an exported tool's async run reading its ``RunnableConfig``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if sys.version_info >= (3, 11):
        return
    reason = (
        "Python 3.10: LangChain awaits an async tool's _arun outside the tool run's context "
        "(asyncio.create_task(context=) is 3.11+), so an exported tool run by ainvoke reads "
        "no RunnableConfig: no context from configurable, no custom events"
    )
    for item in items:
        if item.nodeid.endswith(ASYNC_CONFIG_ON_310):
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
