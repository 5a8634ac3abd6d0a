"""LlamaIndex tools as standard tools."""

from __future__ import annotations

from . import _quiet  # noqa: F401  # isort: skip  (first: imports LlamaIndex quietly)
import inspect
from collections.abc import Iterable, Mapping
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
from standard_tool.adapters import WrapperTool, unpack_metadata
from standard_tool.exceptions import ConversionError, Issue, UnsupportedObjectError

from ._context import workflow_context
from ._export import CONTEXT_PARAM, Direct, StandardFunctionTool

__all__ = ["LlamaIndexTool", "from_llama_index", "from_llama_index_tools"]

_FRAMEWORK_MODULES = ("llama_index.", "workflows.")


class LlamaIndexTool(WrapperTool):
    """A standard tool that runs a LlamaIndex tool as LlamaIndex's agents do (``call`` /
    ``acall`` with keyword arguments).

    The input schema is what the model sees (``metadata.get_parameters_dict()``), checked
    here with full JSON Schema semantics, since LlamaIndex checks nothing; arguments the
    tool's function does not take, or that ``partial_params`` binds, are refused. A
    parameter typed as the workflow ``Context`` is filled from the standard context.
    """

    wrapped: BaseTool

    def __init__(self, native: BaseTool) -> None:
        metadata = native.metadata
        name = metadata.name
        if not isinstance(name, str) or not name:
            raise ConversionError(f"a LlamaIndex tool without a name: {type(native).__name__}")
        stored = unpack_metadata(getattr(metadata, "standard_tool", None)).fields()
        if metadata.return_direct:
            stored["meta"] = {**stored["meta"], "return_direct": True}
        stored.setdefault("name", name)
        super().__init__(native, description=metadata.description, **stored)

    @property
    def native(self) -> BaseTool:
        """The LlamaIndex tool."""
        return self.wrapped

    @cached_property
    def _ours(self) -> bool:
        return isinstance(self.wrapped, StandardFunctionTool)

    @cached_property
    def input_schema(self) -> Any:
        """The JSON Schema of the arguments the model provides."""
        if isinstance(self.wrapped, StandardFunctionTool):
            return st.input_json_schema(self.wrapped.standard_tool)
        return self.wrapped.metadata.get_parameters_dict()

    @cached_property
    def validate_input(self) -> bool:  # type: ignore[override]
        """Checked here, except by tools of this package, which check their own input."""
        return not self._ours

    @cached_property
    def validate_output(self) -> bool:  # type: ignore[override]
        return not self._ours

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

    def __repr__(self) -> str:
        return f"LlamaIndexTool({self.name!r})"


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
    if isinstance(tool, BaseToolSpec):
        raise UnsupportedObjectError(
            f"{type(tool).__name__} is a LlamaIndex tool spec, which holds several tools: "
            "adopt them with from_llama_index_tools(spec)"
        )
    raise UnsupportedObjectError(
        f"not a LlamaIndex tool: {type(tool).__module__}.{type(tool).__qualname__}"
    )


def from_llama_index_tools(tools_or_spec: Any) -> list[LlamaIndexTool]:
    """Standard tools for a tool spec (``BaseToolSpec``: its ``to_tool_list()``), one tool,
    or an iterable of tools and specs."""
    items: Iterable[Any]
    if isinstance(tools_or_spec, (BaseTool, BaseToolSpec)):
        items = [tools_or_spec]
    else:
        items = tools_or_spec
    out: list[LlamaIndexTool] = []
    for item in items:
        if isinstance(item, BaseToolSpec):
            out.extend(from_llama_index(tool) for tool in item.to_tool_list())
        else:
            out.append(from_llama_index(item))
    return out
