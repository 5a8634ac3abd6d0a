"""Google ADK tools as standard tools."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from typing import Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.base_toolset import BaseToolset
from google.adk.tools.function_tool import FunctionTool

import standard_tool as st
from standard_tool.adapters import AdoptedTool, adopt_all, not_adoptable
from standard_tool.boundary import REJECTED
from standard_tool.exceptions import Issue, ToolRefusedError, UnsupportedObjectError

from ._context import standard_context, tool_context
from ._export import StandardAdkTool
from ._schema import schema_to_json

__all__ = ["GoogleAdkTool", "from_google_adk", "from_google_adk_tools"]

HELD = "This call needs a person's confirmation, which only a Google ADK run asks for."
"""The message of the ``held_for_review`` refusal of a call an ADK tool asks to confirm."""
_CONFIRM = "This tool call requires confirmation, please approve or reject."
_REJECTED = "This tool call is rejected."
_PARAMETER = re.compile(r"^Parameter '([^']+)': expected type '([^']+)'", re.MULTILINE)
_EMPTY = {"type": "object", "properties": {}}


class GoogleAdkTool(AdoptedTool):
    """A standard tool that runs a Google ADK ``BaseTool`` as a run does: its ``run_async``
    with a real ``ToolContext`` (see ``_context``).

    The input schema is the declaration's ``parameters_json_schema`` exactly, or its
    ``parameters`` (a ``types.Schema``) as the JSON Schema it means, checked here with full
    JSON Schema semantics. A tool that asks for a person's confirmation
    (``require_confirmation``, or ``tool_context.request_confirmation`` in the call) is the
    ``held_for_review`` refusal, since only a run asks for it.

    ADK's tools answer a failure with an ``{"error": ...}`` result. It becomes the project's
    typed error only where it is unambiguously ADK's own: a ``FunctionTool``'s argument check
    (``Invoking `name()` failed due to argument validation errors`` / ``... mandatory input
    parameters are not present``: ``ToolValidationError`` naming the fields) and its
    confirmation answers (a refusal). Any other ``{"error": ...}`` is the tool's own result
    and is returned as it is (the model reads it the same either way); an exception the tool
    raises is its failure.
    """

    framework = "Google ADK"
    exported = (StandardAdkTool,)
    wrapped: BaseTool

    def __init__(self, native: BaseTool) -> None:
        declaration = native._get_declaration()
        if declaration is None:
            raise UnsupportedObjectError(
                f"the Google ADK tool {getattr(native, 'name', '?')!r} has no function "
                "declaration (a built-in tool runs on Google's side): only tools that run "
                "here are adopted"
            )
        self._declaration = declaration
        super().__init__(
            native,
            name=native.name,
            description=native.description or declaration.description or "",
            metadata=native.custom_metadata,
        )

    def native_input_schema(self) -> Any:
        declared = self._declaration
        if declared.parameters_json_schema is not None:
            return copy.deepcopy(declared.parameters_json_schema)
        if declared.parameters is not None:
            return schema_to_json(declared.parameters)
        return dict(_EMPTY)

    @property
    def is_async(self) -> bool:
        return True

    async def arun(self, input: Any, context: Any) -> Any:
        native = self.wrapped
        ctx = tool_context(context)
        with standard_context(context):
            if isinstance(native, StandardAdkTool):
                return await native.invoke(ctx, input)
            requires = getattr(native, "check_require_confirmation", None)  # not in 2.0
            if requires is not None and await requires(input, ctx) is True:
                raise self._held(ctx)
            result = await native.run_async(args=copy.deepcopy(input), tool_context=ctx)
        if ctx.actions.requested_tool_confirmations:
            raise self._held(ctx)
        return self._result(result)

    def _held(self, ctx: Any) -> ToolRefusedError:
        return ToolRefusedError(self.name, "held_for_review", HELD, ctx.function_call_id)

    def _result(self, result: Any) -> Any:
        """The tool's result; ADK's own error answers as the typed errors they stand for."""
        if not isinstance(result, dict) or set(result) != {"error"}:
            return result
        text = result["error"]
        if not isinstance(text, str):
            return result
        call = f"Invoking `{self.wrapped.name}()` failed"
        if text.startswith(call + " due to argument validation errors:"):
            issues = [
                Issue(f"expected {kind}", (field,)) for field, kind in _PARAMETER.findall(text)
            ]
            raise st.ToolValidationError(self.name, "input", issues or [Issue("invalid")])
        if text.startswith(call + " as the following mandatory input parameters"):
            missing = text.split("\n")[1:]
            fields = [line for line in missing if line and not line.startswith("You could")]
            raise st.ToolValidationError(
                self.name, "input", [Issue("a required property is missing", (f,)) for f in fields]
            )
        if text == _CONFIRM:
            raise ToolRefusedError(self.name, "held_for_review", HELD)
        if text == _REJECTED:
            raise ToolRefusedError(self.name, "denied", REJECTED)
        return result


def from_google_adk(tool: Any) -> GoogleAdkTool:
    """A standard tool that runs a Google ADK tool (a ``FunctionTool``, any ``BaseTool``
    with a function declaration, or one exported here) as a run does."""
    if isinstance(tool, BaseTool):
        return GoogleAdkTool(tool)
    raise not_adoptable(
        tool,
        "a Google ADK tool",
        holders=(LlmAgent, BaseToolset),
        holder="a Google ADK agent or toolset",
        many="from_google_adk_tools(...)",
    )


def from_google_adk_tools(tools: Any) -> list[GoogleAdkTool]:
    """Standard tools for an ``LlmAgent``'s tools (functions it takes become
    ``FunctionTool``s, as ADK makes them), a ``BaseToolset``'s tools, one tool, or an
    iterable of these."""
    return adopt_all(tools, _adopt, single=(BaseTool, BaseToolset, LlmAgent), tools_of=_tools_of)


def _tools_of(item: Any) -> Iterable[Any] | None:
    if isinstance(item, LlmAgent):
        out: list[Any] = []
        for held in item.tools:
            tools = _tools_of(held)
            out.extend([held] if tools is None else tools)
        return out
    if isinstance(item, BaseToolset):
        listed: list[Any] = st.run_sync(item.get_tools())
        return listed
    return None


def _adopt(item: Any) -> GoogleAdkTool:
    """A tool, or a function an agent takes (as ADK makes it a ``FunctionTool``)."""
    if callable(item) and not isinstance(item, BaseTool):
        item = FunctionTool(item)
    return from_google_adk(item)
