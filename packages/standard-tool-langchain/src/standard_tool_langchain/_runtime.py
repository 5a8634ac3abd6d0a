"""LangChain's own runtime for exported tools: a model's ``ToolCall`` run by ``invoke``."""

from __future__ import annotations

import uuid
from typing import Any, cast

from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from standard_tool import jsonable
from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError

from ._context import config_for

__all__ = ["LangChainRuntime", "runtime"]


class LangChainRuntime(BaseRuntime):
    """A LangChain tool as chat models see it (``bind_tools``) and as agents run it."""

    target = "langchain"

    def declaration(self, native: BaseTool) -> dict[str, Any]:
        """What ``model.bind_tools([native])`` sends: ``convert_to_openai_tool(native)``."""
        return convert_to_openai_tool(native)

    def input_schema(self, native: BaseTool) -> dict[str, Any]:
        schema: dict[str, Any] = native.tool_call_schema  # type: ignore[assignment]
        return schema

    def run(
        self, native: BaseTool, arguments: dict[str, Any], context: Any = None
    ) -> NativeOutcome:
        """``native.invoke(ToolCall)``, as a tool node or an agent runs a model's call (each
        call with an id of its own, as a model gives it); the model reads the
        ``ToolMessage``'s content."""
        call = {
            "type": "tool_call",
            "name": native.name,
            "args": arguments,
            "id": f"call_{uuid.uuid4().hex}",
        }
        message = native.invoke(call, config=cast("RunnableConfig | None", config_for(context)))
        if not isinstance(message, ToolMessage):
            raise PluginError(
                f"LangChain tool {native.name!r} answered a tool call with "
                f"{type(message).__name__}, not a ToolMessage"
            )
        if message.status == "error":
            return NativeOutcome(error=str(message.content))
        text = message.content if isinstance(message.content, str) else None
        if message.artifact is not None:
            return NativeOutcome(value=jsonable(message.artifact), text=text)
        return NativeOutcome.from_json_text(str(message.content), is_error=False)


runtime = LangChainRuntime()
