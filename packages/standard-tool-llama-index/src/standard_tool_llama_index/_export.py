"""Standard tools as LlamaIndex tools."""

from __future__ import annotations

from . import _quiet  # noqa: F401  # isort: skip  (first: imports LlamaIndex quietly)
import inspect
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from llama_index.core.tools import FunctionTool
from llama_index.core.tools.types import BaseTool, ToolOutput
from llama_index.core.workflow import Context

import standard_tool as st
from standard_tool.adapters import (
    METADATA_KEY,
    context_failed,
    export_tools,
    keyword_functions,
    result_text,
    to_export,
)
from standard_tool.exceptions import ConversionError, Issue
from standard_tool.names import OPENAI_NAMES, NameRule

from ._context import ContextGetter, context_from_workflow
from ._metadata import MAX_DESCRIPTION, StandardToolMetadata

__all__ = [
    "CONTEXT_PARAM",
    "METADATA_KEY",
    "NAMES",
    "Direct",
    "StandardFunctionTool",
    "to_llama_index",
    "to_llama_index_tools",
]

NAMES: NameRule = OPENAI_NAMES
"""The names a LlamaIndex tool gets: what the function-calling models it is sent to accept."""

CONTEXT_PARAM = f"_standard_tool_context_{secrets.token_hex(8)}"
"""The keyword under which LlamaIndex agents pass an exported tool the workflow Context:
private to the process, so that no model can name it (a model's argument of any name is
input, checked against the schema)."""


@dataclass(frozen=True)
class Direct:
    """A standard context passed as it is, in place of a workflow Context."""

    value: Any


class StandardFunctionTool(FunctionTool):
    """A LlamaIndex ``FunctionTool`` that runs a standard tool.

    The model sees the tool's raw input JSON Schema (:class:`StandardToolMetadata`); the
    standard tool validates every call; the output's ``raw_output`` is the result and its
    text is JSON for anything but a string. ``call``/``acall`` raise the project's typed
    errors, which ``call_tool``/``acall_tool`` and agents turn into
    ``ToolOutput(is_error=True)``. An agent passes the workflow Context, from which the
    standard context is taken.
    """

    def __init__(
        self, tool: st.StandardTool, *, name: str, context: ContextGetter | None = None
    ) -> None:
        meta = getattr(tool, "meta", None) or {}
        metadata = StandardToolMetadata(
            tool,
            name=name,
            description=tool.description,
            return_direct=meta.get("return_direct") is True,
        )
        fn, async_fn = keyword_functions(tool)
        super().__init__(fn=fn, async_fn=async_fn, metadata=metadata)
        self.requires_context = True
        self.ctx_param_name = CONTEXT_PARAM
        self._standard = tool
        self._get_context = context

    @property
    def standard_tool(self) -> st.StandardTool:
        """The standard tool this LlamaIndex tool runs."""
        return self._standard

    def _arguments(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """The input: keyword arguments, or one positional value for a one-property schema
        (as ``call_tool`` passes it)."""
        arguments = {**self.partial_params, **kwargs} if self.partial_params else kwargs
        if not args:
            return arguments
        properties = list(self.metadata.get_parameters_dict()["properties"])
        if len(args) == 1 and len(properties) == 1 and properties[0] not in arguments:
            return {properties[0]: args[0], **arguments}
        issue = Issue(f"takes keyword arguments, not {len(args)} positional")
        raise st.ToolValidationError(self.metadata.get_name(), "input", [issue])

    def _getter(self, workflow_ctx: Any) -> ContextGetter | None:
        """The getter to build the standard context with (``None``: there is none), once
        ``workflow_ctx`` is checked to be what LlamaIndex passes: a workflow Context."""
        if workflow_ctx is not None and not isinstance(workflow_ctx, Context):
            raise st.ToolExecutionError(
                self._standard.name,
                "the per-call context could not be built (it was given "
                f"{type(workflow_ctx).__name__}, not a workflow Context)",
            )
        if workflow_ctx is None and self._get_context is None:
            return None
        return self._get_context or context_from_workflow

    def _context(self, workflow_ctx: Any) -> Any:
        if isinstance(workflow_ctx, Direct):
            return workflow_ctx.value
        getter = self._getter(workflow_ctx)
        if getter is None:
            return None
        try:
            value = getter(workflow_ctx)
            return st.run_sync(value) if inspect.isawaitable(value) else value
        except Exception as exc:
            raise context_failed(self._standard.name, exc) from exc

    async def _acontext(self, workflow_ctx: Any) -> Any:
        if isinstance(workflow_ctx, Direct):
            return workflow_ctx.value
        getter = self._getter(workflow_ctx)
        if getter is None:
            return None
        try:
            value = getter(workflow_ctx)
            return await value if inspect.isawaitable(value) else value
        except Exception as exc:
            raise context_failed(self._standard.name, exc) from exc

    def _output(self, arguments: dict[str, Any], result: Any) -> ToolOutput:
        return ToolOutput(
            content=result_text(self._standard.name, result),
            tool_name=self.metadata.get_name(),
            raw_input={"args": (), "kwargs": arguments},
            raw_output=result,
        )

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        workflow_ctx = kwargs.pop(CONTEXT_PARAM, None)
        arguments = self._arguments(args, kwargs)
        result = st.call(self._standard, arguments, self._context(workflow_ctx))
        return self._output(arguments, result)

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        workflow_ctx = kwargs.pop(CONTEXT_PARAM, None)
        arguments = self._arguments(args, kwargs)
        context = await self._acontext(workflow_ctx)
        with st.reporting(_reporter(workflow_ctx, self.metadata.get_name())):
            result = await st.acall(self._standard, arguments, context)
        return self._output(arguments, result)

    def __repr__(self) -> str:
        return f"StandardFunctionTool({self.metadata.name!r})"


def _reporter(workflow_ctx: Any, name: str) -> st.Reporter | None:
    """Events on the stream of the workflow run calling the tool, else the reporter already
    installed around the call."""
    if workflow_ctx is None or isinstance(workflow_ctx, Direct):
        return st.current_reporter()
    if not callable(getattr(workflow_ctx, "write_event_to_stream", None)):
        return st.current_reporter()
    from ._events import WorkflowEvents

    return WorkflowEvents(workflow_ctx, name)


def _check_description(name: str, description: Any) -> str:
    if not isinstance(description, str):
        raise ConversionError(f"tool {name!r}: the description must be a string")
    if len(description) > MAX_DESCRIPTION:
        raise ConversionError(
            f"tool {name!r}: the description has {len(description):,} characters; LlamaIndex "
            f"sends at most {MAX_DESCRIPTION:,} to a model (ToolMetadata.to_openai_tool raises "
            "past that): shorten it"
        )
    return description


def to_llama_index(
    tool: Any, *, name: str | None = None, context: ContextGetter | None = None
) -> BaseTool:
    """A LlamaIndex ``FunctionTool`` running ``tool`` (anything :func:`standard_tool.adopt` takes).

    Its name is ``name`` (checked against :data:`NAMES`), or the tool's name made valid
    for :data:`NAMES` (the original is kept in ``metadata.standard_tool`` and restored by
    ``from_llama_index``). A description longer than LlamaIndex sends to a model raises
    ``ConversionError`` here. ``context`` builds the standard context from the workflow
    ``Context`` of each call (``None`` outside an agent run), by default the value stored
    under ``CONTEXT_KEY``.
    """
    standard, name = to_export(tool, name, NAMES)
    _check_description(standard.name, standard.description)
    return StandardFunctionTool(standard, name=name, context=context)


def to_llama_index_tools(
    tools: Iterable[Any] | Any, *, context: ContextGetter | None = None
) -> list[BaseTool]:
    """LlamaIndex tools for one tool or several; two names that collide raise ``ToolNameError``."""
    return export_tools(
        tools, lambda tool, name: to_llama_index(tool, name=name, context=context), NAMES
    )
