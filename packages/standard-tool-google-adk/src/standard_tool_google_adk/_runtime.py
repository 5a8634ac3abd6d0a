"""Google ADK's own runtime for exported tools: an ``InMemoryRunner`` run whose model makes
the call."""

from __future__ import annotations

from typing import Any

import standard_tool as st
from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError

from ._context import standard_context
from ._export import ToolError
from ._scripted import Conversation

__all__ = ["GoogleAdkRuntime", "runtime"]


class GoogleAdkRuntime(BaseRuntime):
    """An ADK tool as a model is sent it (its ``FunctionDeclaration``, whose
    ``parameters_json_schema`` is the tool's input schema) and as an ``LlmAgent`` run calls
    it: a real ``InMemoryRunner`` run whose scripted model (no network) calls the tool once,
    with the standard context set around the run (``standard_context``). What comes back is
    the tool's result as ADK hands it on (a result that is no JSON object reaches the model
    as ``{"result": value}``), or the text of its ``{"error": ...}`` answer."""

    target = "google-adk"

    def declaration(self, native: Any) -> dict[str, Any]:
        declared: dict[str, Any] = native._get_declaration().model_dump(
            mode="json", exclude_none=True
        )
        return declared

    def run(self, native: Any, arguments: dict[str, Any], context: Any = None) -> NativeOutcome:
        results: list[Any] = []

        def after(**kwargs: Any) -> None:
            results.append(kwargs.get("tool_response"))

        conversation = Conversation(
            [native], [[(native.name, arguments)], "done"], after_tool_callback=after
        )

        async def one_run() -> Any:
            with standard_context(context):
                return await conversation.send("go")

        st.run_sync(one_run())
        if len(results) != 1:
            raise PluginError(f"a Google ADK run of {native.name!r} made {len(results)} calls")
        [result] = results
        if isinstance(result, ToolError):
            return NativeOutcome(error=result["error"])
        return NativeOutcome(value=result, text=result if isinstance(result, str) else None)


runtime = GoogleAdkRuntime()
