"""Microsoft Agent Framework function tools as standard tools."""

from __future__ import annotations

import copy
from typing import Any

import pydantic
from agent_framework import BaseAgent, FunctionTool
from agent_framework.exceptions import ToolException

import standard_tool as st
from standard_tool.adapters import (
    METADATA_KEY,
    AdoptedTool,
    adopt_all,
    issues_from_pydantic,
    not_adoptable,
)
from standard_tool.boundary import request_id_of
from standard_tool.exceptions import Issue, ToolRefusedError

from ._context import invocation_context
from ._export import StandardFunctionTool

__all__ = ["AgentFrameworkTool", "from_agent_framework", "from_agent_framework_tools"]

NEEDS_APPROVAL = "always_require"
"""A tool's ``approval_mode`` when every call of it waits for a person in a run."""


class AgentFrameworkTool(AdoptedTool):
    """A standard tool that runs a Microsoft Agent Framework ``FunctionTool`` as a run does:
    its own ``invoke`` with the arguments and a ``FunctionInvocationContext``.

    The input schema is ``parameters()`` exactly, checked here with full JSON Schema
    semantics (the framework checks a JSON Schema ``input_model`` only at its top level); the
    result is the function's own value (``skip_parsing=True``), not the text a model would
    read. A tool whose ``approval_mode`` is ``"always_require"`` is refused as
    ``held_for_review``, since only a run asks a person.
    """

    framework = "Microsoft Agent Framework"
    exported = (StandardFunctionTool,)
    wrapped: FunctionTool

    def __init__(self, native: FunctionTool) -> None:
        properties = native.additional_properties or {}
        super().__init__(
            native,
            name=native.name,
            description=native.description or "",
            metadata=properties.get(METADATA_KEY) if isinstance(properties, dict) else None,
        )

    def native_input_schema(self) -> Any:
        return copy.deepcopy(self.wrapped.parameters())

    @property
    def is_async(self) -> bool:
        return True

    async def arun(self, input: Any, context: Any) -> Any:
        native = self.wrapped
        call_id = request_id_of(context)
        if isinstance(native, StandardFunctionTool):
            return await native.call(input, context)
        if getattr(native, "approval_mode", None) == NEEDS_APPROVAL:
            raise ToolRefusedError(
                self.name,
                "held_for_review",
                "This call needs a person's approval, which only a Microsoft Agent Framework "
                "run asks for.",
                call_id,
            )
        return await native.invoke(
            arguments=input,
            context=invocation_context(native, input, context),
            tool_call_id=call_id,
            skip_parsing=True,
        )

    def translate(self, exc: Exception) -> Exception:
        cause = exc.__cause__
        if isinstance(cause, pydantic.ValidationError):  # the framework's own argument check
            return st.ToolValidationError(self.name, "input", issues_from_pydantic(cause))
        if type(exc).__name__ == "_FunctionArgumentValidationError":
            return st.ToolValidationError(
                self.name, "input", [Issue("the tool refused the arguments")]
            )
        if isinstance(exc, ToolException):
            return st.ToolExecutionError(self.name, str(exc))
        return exc


def from_agent_framework(tool: Any) -> AgentFrameworkTool:
    """A standard tool that runs a Microsoft Agent Framework ``FunctionTool`` (from ``@tool``,
    built directly, or exported here) as a run does."""
    if isinstance(tool, FunctionTool):
        return AgentFrameworkTool(tool)
    raise not_adoptable(
        tool,
        "a Microsoft Agent Framework function tool (a hosted tool or an MCP server is not)",
        holders=(BaseAgent,),
        holder="a Microsoft Agent Framework agent",
        many="from_agent_framework_tools(agent)",
    )


def from_agent_framework_tools(tools_or_agent: Any) -> list[AgentFrameworkTool]:
    """Standard tools for an agent's tools (``agent.default_options["tools"]``), one function
    tool, or an iterable of tools and agents. A tool that is no ``FunctionTool`` (a hosted
    tool, an MCP server) is refused: only function tools run here."""
    return adopt_all(
        tools_or_agent,
        from_agent_framework,
        single=(FunctionTool, BaseAgent),
        tools_of=lambda item: _tools_of(item) if isinstance(item, BaseAgent) else None,
    )


def _tools_of(agent: Any) -> list[Any]:
    """The tools an agent was made with."""
    options = getattr(agent, "default_options", None)
    tools = options.get("tools") if isinstance(options, dict) else None
    if tools is None:
        return []
    return list(tools) if isinstance(tools, (list, tuple)) else [tools]
