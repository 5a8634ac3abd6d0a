"""Agents SDK function tools as standard tools."""

from __future__ import annotations

import copy
import inspect
import json
from functools import cached_property
from typing import Any

import pydantic
from agents import Agent, FunctionTool, RunContextWrapper, exceptions as sdk_errors

import standard_tool as st
from standard_tool.adapters import AdoptedTool, adopt_all, issues_from_pydantic, not_adoptable
from standard_tool.exceptions import (
    Issue,
    ToolRefusedError,
)

from ._context import tool_context
from ._export import StandardFunctionTool

__all__ = ["OpenAIAgentsTool", "from_openai_agents", "from_openai_agents_tools"]

FAILED = "An error occurred while running the tool. Please try again."
"""The SDK's default failure text (0.2.x appends `` Error: <the error>``)."""


class OpenAIAgentsTool(AdoptedTool):
    """A standard tool that runs an Agents SDK ``FunctionTool`` as a run does: its
    ``on_invoke_tool`` with a ``ToolContext`` and the arguments as JSON text.

    The input schema is ``params_json_schema`` exactly, checked here with full JSON Schema
    semantics; ``timeout_seconds`` is the tool's ``timeout``. A failure comes back as the
    exception the tool raised (the SDK's failure handler is set aside where the SDK allows
    it) or, else, from the SDK's failure text; a tool that needs approval is refused, since
    only a run asks for it.
    """

    framework = "OpenAI Agents SDK"
    exported = (StandardFunctionTool,)
    wrapped: FunctionTool

    def __init__(self, native: FunctionTool) -> None:
        super().__init__(
            native,
            name=native.name,
            description=native.description or "",
            metadata=getattr(native, "standard_tool_metadata", None),
        )
        seconds = getattr(native, "timeout_seconds", None)
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds > 0:
            self.timeout = float(seconds)

    def native_input_schema(self) -> Any:
        return copy.deepcopy(self.wrapped.params_json_schema)

    @property
    def is_async(self) -> bool:
        return True

    @cached_property
    def _invoker(self) -> Any:
        """``on_invoke_tool`` of a copy whose failures raise (0.24+: the SDK reads the failure
        handler from the tool at call time), else the tool's own."""
        native = self.wrapped
        try:
            from agents.tool import set_function_tool_failure_error_function
        except ImportError:  # 0.2.x: the handler is fixed when the tool is made
            return native.on_invoke_tool
        raising = copy.copy(native)
        set_function_tool_failure_error_function(raising, None)
        return raising.on_invoke_tool

    async def arun(self, input: Any, context: Any) -> Any:
        native = self.wrapped
        text = json.dumps(input, ensure_ascii=False)
        ctx = tool_context(context, name=native.name, arguments=text)
        if isinstance(native, StandardFunctionTool):
            return await native.invoke(ctx, text)
        await self._check_approval(ctx, input)
        return self._result(await self._invoker(ctx, text))

    async def _check_approval(self, ctx: Any, input: Any) -> None:
        needs = getattr(self.wrapped, "needs_approval", False)
        if callable(needs):
            needs = needs(RunContextWrapper(ctx.context), input, ctx.tool_call_id)
            needs = await needs if inspect.isawaitable(needs) else needs
        if needs:
            raise ToolRefusedError(
                self.name,
                "held_for_review",
                "This call needs a person's approval, which only an Agents SDK run asks for.",
                ctx.tool_call_id,
            )

    def _result(self, output: Any) -> Any:
        """The tool's output as JSON data; the SDK's failure text as the failure."""
        if isinstance(output, str):
            if output == FAILED:
                raise st.ToolExecutionError(self.name, output)
            if output.startswith(FAILED + " Error: "):
                raise st.ToolExecutionError(self.name, output[len(FAILED) + len(" Error: ") :])
            return output
        text = getattr(output, "text", None)
        if type(output).__name__ == "ToolOutputText" and isinstance(text, str):
            return text
        return st.jsonable(output)

    def translate(self, exc: Exception) -> Exception:
        timeout = getattr(sdk_errors, "ToolTimeoutError", None)
        if timeout is not None and isinstance(exc, timeout):
            return st.ToolTimeoutError(self.name, float(exc.timeout_seconds))
        if isinstance(exc, sdk_errors.ModelBehaviorError):  # the arguments, as the SDK read them
            cause = exc.__cause__
            issues = (
                issues_from_pydantic(cause)
                if isinstance(cause, pydantic.ValidationError)
                else [Issue("the tool refused the arguments")]
            )
            return st.ToolValidationError(self.name, "input", issues)
        return exc


def from_openai_agents(tool: Any) -> OpenAIAgentsTool:
    """A standard tool that runs an Agents SDK ``FunctionTool`` (from ``@function_tool``,
    built directly, or exported here) as a run does."""
    if isinstance(tool, FunctionTool):
        return OpenAIAgentsTool(tool)
    raise not_adoptable(
        tool,
        "an Agents SDK function tool (a hosted tool runs on OpenAI's side)",
        holders=(Agent,),
        holder="an Agents SDK agent",
        many="from_openai_agents_tools(agent)",
    )


def from_openai_agents_tools(tools_or_agent: Any) -> list[OpenAIAgentsTool]:
    """Standard tools for an ``Agent``'s tools, one function tool, or an iterable of tools
    and agents. A hosted tool (one OpenAI runs, such as web search) is refused: only
    function tools run here."""
    return adopt_all(
        tools_or_agent,
        from_openai_agents,
        single=(FunctionTool, Agent),
        tools_of=lambda item: item.tools if isinstance(item, Agent) else None,
    )
