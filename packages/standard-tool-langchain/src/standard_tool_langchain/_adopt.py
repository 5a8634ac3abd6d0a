"""LangChain tools as standard tools."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, Tool, ToolException
from langchain_core.tools.base import InjectedToolCallId, _is_injected_arg_type
from pydantic import BaseModel, ValidationError as ValidationErrorV2

import standard_tool as st
from standard_tool import run_sync
from standard_tool.adapters import AdoptedTool, issues_from_pydantic
from standard_tool.exceptions import Issue, UnsupportedObjectError

from ._context import config_for
from ._export import ERROR_SINK, StandardStructuredTool

__all__ = ["LangChainTool", "from_langchain", "from_langchain_tools"]

SINGLE_INPUT_SCHEMA: dict[str, Any] = {
    "properties": {"__arg1": {"title": "__arg1", "type": "string"}},
    "required": ["__arg1"],
    "type": "object",
}
"""What a model sees for a single-string ``Tool``: LangChain's own ``__arg1`` form."""

try:
    from pydantic.v1 import ValidationError as ValidationErrorV1
except ImportError:  # pragma: no cover
    ValidationErrorV1 = ValidationErrorV2  # type: ignore[misc,assignment]


class LangChainTool(AdoptedTool):
    """A standard tool that runs a LangChain tool through its own ``invoke``/``ainvoke``.

    The input schema is what the model sees (injected arguments left out). The input is
    checked here against that JSON Schema, JSON types strict (``"0"`` is not an integer),
    whatever target runs the tool; LangChain's own validation then runs in ``invoke`` as
    usual. A tool made by ``to_langchain`` keeps the rule of the standard tool it runs.
    Injected arguments are filled from the standard context by name, after the check; the
    tool call id from ``context["tool_call_id"]`` (or a fresh one), and a mapping context
    becomes the ``RunnableConfig``'s ``configurable``.
    """

    framework = "LangChain"
    exported = (StandardStructuredTool,)
    wrapped: BaseTool

    def __init__(self, native: BaseTool) -> None:
        super().__init__(
            native, name=native.name, description=native.description, metadata=native.metadata
        )
        if native.return_direct:
            self.meta = {**self.meta, "return_direct": True}

    @cached_property
    def input_schema(self) -> Any:
        """The input schema of the standard tool a tool made by ``to_langchain`` runs (the
        same object); else what the model sees."""
        if self._ours:
            return getattr(self.standard_tool, "input_schema", None)
        return self.native_input_schema()

    def native_input_schema(self) -> Any:
        """The JSON Schema (or pydantic schema) of the arguments the model provides."""
        native = self.wrapped
        if isinstance(native.args_schema, dict):
            return dict(native.args_schema)
        if isinstance(native, Tool) and not native.args_schema:
            return dict(SINGLE_INPUT_SCHEMA)
        schema = native.tool_call_schema
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            return st.PydanticSchema(schema)
        from langchain_core.utils.function_calling import convert_to_openai_tool

        return convert_to_openai_tool(native)["function"].get("parameters", {})

    @cached_property
    def _hidden_validation(self) -> Any:
        """The ``args_schema`` model of a tool whose ``handle_validation_error`` turns
        LangChain's refusals into text without the failing fields (its validators' too): run
        here as LangChain runs it, to name them; else ``None``."""
        native = self.wrapped
        model = native.args_schema
        if self._ours or not native.handle_validation_error or not isinstance(model, type):
            return None
        return model if hasattr(model, "model_validate") or hasattr(model, "parse_obj") else None

    @cached_property
    def is_async(self) -> bool:
        return _is_async_only(self.wrapped)

    @cached_property
    def has_async(self) -> bool:
        return self.is_async or _has_async_path(self.wrapped)

    @cached_property
    def _injected(self) -> tuple[tuple[str, ...], str | None]:
        """The injected argument names, and the one that takes the tool call id."""
        native = self.wrapped
        model = native.args_schema if not isinstance(native.args_schema, dict) else None
        if model is None and not isinstance(native, Tool) and native.args_schema is None:
            model = native.get_input_schema()
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return (), None
        from langchain_core.tools.base import get_all_basemodel_annotations

        names, call_id = [], None
        for name, annotation in get_all_basemodel_annotations(model).items():
            if _is_injected_arg_type(annotation, injected_type=InjectedToolCallId):
                call_id = name
            elif _is_injected_arg_type(annotation):
                names.append(name)
        return tuple(names), call_id

    @cached_property
    def _unparsed_injected(self) -> tuple[str, ...]:
        """The required injected arguments of a tool whose input LangChain does not parse (a
        ``BaseTool`` subclass without ``args_schema``): missing, they are refused here, not
        left to a ``TypeError`` of its ``_run``."""
        native = self.wrapped
        names = self._injected[0]
        if not names or isinstance(native, Tool) or native.args_schema is not None:
            return ()
        fields = getattr(native.get_input_schema(), "model_fields", {})
        return tuple(name for name in names if name in fields and fields[name].is_required())

    @cached_property
    def _via_tool_call(self) -> bool:
        """Whether to call with a ``ToolCall`` (error status, artifact, call id) or a dict."""
        native = self.wrapped
        return bool(
            native.response_format == "content_and_artifact"
            or native.handle_tool_error
            or native.handle_validation_error
            or self._injected[1] is not None
        )

    def _prepare(self, input: Any, context: Any) -> tuple[Any, Any]:
        args = dict(input) if isinstance(input, Mapping) else {} if input is None else input
        names = self._injected[0]
        if names and isinstance(context, Mapping):
            for name in names:
                if name in context and name not in args:
                    args[name] = context[name]
        missing = [name for name in self._unparsed_injected if name not in args]
        if missing:
            required = [Issue("Field required", (name,)) for name in missing]
            raise st.ToolValidationError(self.name, "input", required)
        config = config_for(context)
        if not self._via_tool_call:
            return args, config
        call_id = context.get("tool_call_id") if isinstance(context, Mapping) else None
        if not isinstance(call_id, str):
            call_id = f"call_{uuid.uuid4().hex}"
        self._validate_hidden(args, call_id)
        call = {"type": "tool_call", "name": self.wrapped.name, "args": args, "id": call_id}
        return call, config

    def _validate_hidden(self, args: Any, call_id: str) -> None:
        """LangChain's validation of a call whose refusal it would hide (see
        :attr:`_hidden_validation`), on the arguments as ``invoke`` gets them."""
        model = self._hidden_validation
        if model is None:
            return
        data = dict(args)
        if self._injected[1] is not None:
            data[self._injected[1]] = call_id
        try:
            if hasattr(model, "model_validate"):
                model.model_validate(data)
            else:
                model.parse_obj(data)
        except (ValidationErrorV2, ValidationErrorV1) as exc:
            raise st.ToolValidationError(self.name, "input", _issues(exc)) from None

    def _finish(self, output: Any, sink: list[Exception]) -> Any:
        if not isinstance(output, ToolMessage):
            return output
        if output.status == "error":
            if sink:
                raise sink[-1]
            text = output.content if isinstance(output.content, str) else str(output.content)
            raise st.ToolExecutionError(self.name, text)
        if self.wrapped.response_format == "content_and_artifact" and isinstance(
            self.wrapped, StandardStructuredTool
        ):
            return output.artifact
        return output.content

    def translate(self, exc: Exception) -> Exception:
        if isinstance(exc, ToolException):
            return st.ToolExecutionError(self.name, str(exc) or type(exc).__name__)
        if isinstance(exc, (ValidationErrorV2, ValidationErrorV1)):
            return st.ToolValidationError(self.name, "input", _issues(exc))
        return exc

    def run(self, input: Any, context: Any) -> Any:
        payload, config = self._prepare(input, context)
        sink: list[Exception] = []
        token = ERROR_SINK.set(sink)
        try:
            try:
                output = self.wrapped.invoke(payload, config)
            except NotImplementedError:  # an async-only tool
                output = run_sync(self.wrapped.ainvoke(payload, config))
        finally:
            ERROR_SINK.reset(token)
        return self._finish(output, sink)

    async def arun(self, input: Any, context: Any) -> Any:
        payload, config = self._prepare(input, context)
        sink: list[Exception] = []
        token = ERROR_SINK.set(sink)
        try:
            output = await self.wrapped.ainvoke(payload, config)
        finally:
            ERROR_SINK.reset(token)
        return self._finish(output, sink)


def _issues(exc: Any) -> Sequence[Issue]:
    if isinstance(exc, ValidationErrorV2):
        return issues_from_pydantic(exc)
    return [Issue(str(error["msg"])[:300], tuple(error["loc"])) for error in exc.errors()[:50]]


def _is_async_only(native: BaseTool) -> bool:
    if isinstance(native, StandardStructuredTool):
        import inspect

        return inspect.iscoroutinefunction(native.standard_tool.execute)
    if isinstance(native, (StructuredTool, Tool)):
        return native.func is None and native.coroutine is not None
    return False


def _has_async_path(native: BaseTool) -> bool:
    """Whether the tool has an async implementation of its own, besides the sync one."""
    if isinstance(native, (StructuredTool, Tool)):
        return native.coroutine is not None
    return type(native)._arun is not BaseTool._arun


def from_langchain(tool: Any) -> LangChainTool:
    """A standard tool that runs a LangChain ``BaseTool`` through its own runtime."""
    if not isinstance(tool, BaseTool):
        raise UnsupportedObjectError(
            f"not a LangChain tool: {type(tool).__module__}.{type(tool).__qualname__}"
        )
    return LangChainTool(tool)


def from_langchain_tools(tools: Any) -> list[LangChainTool]:
    """Standard tools for a toolkit (anything with ``get_tools()``), one tool, or an iterable
    of tools (a tool is a pydantic model: iterating it gives its fields, not tools)."""
    get_tools = getattr(tools, "get_tools", None)
    items: Iterable[Any] = get_tools() if callable(get_tools) else tools
    if isinstance(tools, BaseTool):
        items = [tools]
    return [from_langchain(tool) for tool in items]
