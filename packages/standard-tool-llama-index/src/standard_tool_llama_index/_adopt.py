"""LlamaIndex tools as standard tools."""

from __future__ import annotations

from . import _quiet  # noqa: F401  # isort: skip  (first: imports LlamaIndex quietly)
import inspect
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from llama_index.core.schema import BaseNode, NodeWithScore
from llama_index.core.tools import FunctionTool
from llama_index.core.tools.tool_spec.base import BaseToolSpec
from llama_index.core.tools.types import (
    AsyncBaseTool,
    BaseTool,
    ToolOutput,
    adapt_to_async_tool,
)

import standard_tool as st
from standard_tool import run_sync
from standard_tool.adapters import AdoptedTool, adopt_all, not_adoptable
from standard_tool.exceptions import Issue

from ._context import workflow_context
from ._export import CONTEXT_PARAM, Direct, StandardFunctionTool

__all__ = ["LlamaIndexTool", "from_llama_index", "from_llama_index_tools"]

_FRAMEWORK_MODULES = ("llama_index.", "workflows.")


class LlamaIndexTool(AdoptedTool):
    """A standard tool that runs a LlamaIndex tool as LlamaIndex's agents do (``call`` /
    ``acall`` with keyword arguments).

    The input schema is what the model sees (``metadata.get_parameters_dict()``), checked
    here with full JSON Schema semantics, since LlamaIndex checks nothing; arguments the
    tool's function does not take, or that ``partial_params`` binds, are refused. A
    parameter typed as the workflow ``Context`` is filled from the standard context.
    """

    framework = "LlamaIndex"
    exported = (StandardFunctionTool,)
    wrapped: BaseTool

    def __init__(self, native: BaseTool) -> None:
        metadata = native.metadata
        super().__init__(
            native,
            name=metadata.name,
            description=metadata.description,
            metadata=getattr(metadata, "standard_tool", None),
        )
        if metadata.return_direct:
            self.meta = {**self.meta, "return_direct": True}

    def native_input_schema(self) -> Any:
        return self.wrapped.metadata.get_parameters_dict()

    @cached_property
    def _context_param(self) -> str | None:
        """The parameter that takes the workflow Context, if the tool has one."""
        native = self.wrapped
        if self._ours or not isinstance(native, FunctionTool) or not native.requires_context:
            return None
        name = getattr(native, "ctx_param_name", None)
        return name if isinstance(name, str) else None

    @cached_property
    def is_async(self) -> bool:
        native = self.wrapped
        if isinstance(native, StandardFunctionTool):
            return inspect.iscoroutinefunction(native.standard_tool.execute)
        if isinstance(native, FunctionTool):
            return self._context_param is not None or inspect.iscoroutinefunction(native.real_fn)
        return False

    @cached_property
    def has_async(self) -> bool:
        return self.is_async or isinstance(self.wrapped, AsyncBaseTool)

    @cached_property
    def _async_native(self) -> AsyncBaseTool:
        return adapt_to_async_tool(self.wrapped)

    @cached_property
    def _refused(self) -> tuple[frozenset[str] | None, frozenset[str]]:
        """The argument names the function takes (``None``: any), and those bound by
        ``partial_params``, which the model may not override."""
        native = self.wrapped
        if self._ours or not isinstance(native, FunctionTool):
            return None, frozenset()
        bound = frozenset(native.partial_params or ())
        try:
            parameters = inspect.signature(native.real_fn).parameters.values()
        except (TypeError, ValueError):
            return None, bound
        names = set()
        for parameter in parameters:
            if parameter.kind is inspect.Parameter.VAR_KEYWORD:
                return None, bound
            if parameter.kind is not inspect.Parameter.POSITIONAL_ONLY:
                names.add(parameter.name)
        names.discard(self._context_param or "")
        return frozenset(names - bound), bound

    def _kwargs(self, input: Any) -> dict[str, Any]:
        kwargs = dict(input) if isinstance(input, Mapping) else {} if input is None else input
        accepted, bound = self._refused
        if accepted is not None or bound:
            issues = [
                Issue(
                    "is bound by the tool, not an input" if key in bound else "is not an input",
                    (key,),
                )
                for key in kwargs
                if key in bound or (accepted is not None and key not in accepted)
            ]
            if issues:
                raise st.ToolValidationError(self.name, "input", issues)
        return kwargs

    def _result(self, output: Any) -> Any:
        """``raw_output`` as JSON data: nodes and documents as their text, other LlamaIndex
        objects (a query engine's ``Response``) as the text the model reads; the text also
        when only the text is set."""
        if not isinstance(output, ToolOutput):
            return output
        if output.is_error:
            cause = getattr(output, "exception", None)
            if isinstance(cause, st.StandardToolError):
                raise cause
            message = output.content or str(output.raw_output or "") or "failed"
            error = st.ToolExecutionError(self.name, message)
            if isinstance(cause, BaseException):
                raise error from cause
            raise error
        raw = output.raw_output
        if isinstance(raw, (BaseNode, NodeWithScore)):
            return raw.get_content()
        if (
            isinstance(raw, (list, tuple))
            and raw
            and all(isinstance(item, (BaseNode, NodeWithScore)) for item in raw)
        ):
            return [item.get_content() for item in raw]
        if _is_framework_value(raw) or (raw is None and output.content not in ("", "None")):
            return output.content
        return raw

    def run(self, input: Any, context: Any) -> Any:
        if self._context_param is not None:
            return run_sync(self.arun(input, context))
        kwargs = self._kwargs(input)
        if self._ours:
            kwargs[CONTEXT_PARAM] = Direct(context)
        return self._result(self._async_native.call(**kwargs))

    async def arun(self, input: Any, context: Any) -> Any:
        kwargs = self._kwargs(input)
        if self._ours:
            kwargs[CONTEXT_PARAM] = Direct(context)
        elif self._context_param is not None:
            kwargs[self._context_param] = await workflow_context(context)
        return self._result(await self._async_native.acall(**kwargs))


def _is_framework_value(value: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return bool(value) and all(
            type(item).__module__.startswith(_FRAMEWORK_MODULES) for item in value
        )
    return type(value).__module__.startswith(_FRAMEWORK_MODULES)


def from_llama_index(tool: Any) -> LlamaIndexTool:
    """A standard tool that runs a LlamaIndex ``BaseTool`` (``FunctionTool``, a query
    engine tool, any subclass) as LlamaIndex's agents run it."""
    if isinstance(tool, BaseTool):
        return LlamaIndexTool(tool)
    raise not_adoptable(
        tool,
        "a LlamaIndex tool",
        holders=(BaseToolSpec,),
        holder="a LlamaIndex tool spec",
        many="from_llama_index_tools(spec)",
    )


def from_llama_index_tools(tools_or_spec: Any) -> list[LlamaIndexTool]:
    """Standard tools for a tool spec (``BaseToolSpec``: its ``to_tool_list()``), one tool,
    or an iterable of tools and specs."""
    return adopt_all(
        tools_or_spec,
        from_llama_index,
        single=(BaseTool, BaseToolSpec),
        tools_of=lambda item: item.to_tool_list() if isinstance(item, BaseToolSpec) else None,
    )
