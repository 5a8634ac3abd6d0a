"""The adapter contract, through LangChain's own tool-call runtime."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool

from standard_tool import jsonable
from standard_tool.testing import AdapterContract, NativeOutcome, outcome_from_json_text
from standard_tool_langchain import NAMES


class TestLangChainContract(AdapterContract):
    target = "langchain"
    distribution = "langchain-core"
    name_rule = NAMES

    def native_schema(self, native: BaseTool) -> dict[str, Any]:
        return native.tool_call_schema  # type: ignore[return-value]

    def call_native(
        self, native: BaseTool, arguments: Mapping[str, Any], context: Mapping[str, Any]
    ) -> NativeOutcome:
        call = {"type": "tool_call", "name": native.name, "args": dict(arguments), "id": "call_1"}
        message = native.invoke(call, config={"configurable": dict(context)})
        assert isinstance(message, ToolMessage) and message.tool_call_id == "call_1"
        if message.status == "error":
            return NativeOutcome(error=str(message.content))
        if message.artifact is not None:
            return NativeOutcome(value=jsonable(message.artifact))
        return outcome_from_json_text(str(message.content), is_error=False)
