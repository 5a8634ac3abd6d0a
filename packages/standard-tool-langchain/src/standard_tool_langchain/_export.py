"""Standard tools as LangChain tools."""

from __future__ import annotations

import json
from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any, Literal

from langchain_core.runnables.config import var_child_runnable_config
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import PrivateAttr

import standard_tool as st
from standard_tool.adapters import METADATA_KEY, export_tools, keyword_functions, pack_metadata
from standard_tool.boundary import Approver, check_approver, with_request_id
from standard_tool.exceptions import NotJsonError, ToolRefusedError
from standard_tool.names import OPENAI_NAMES, NameRule, sanitize_name

from ._approvals import Pause, watch
from ._context import ContextGetter, context_from_config
from ._events import AsyncEvents, events_for

__all__ = ["METADATA_KEY", "NAMES", "StandardStructuredTool", "to_langchain", "to_langchain_tools"]

NAMES: NameRule = OPENAI_NAMES
"""The names a LangChain tool gets: what the chat models it is bound to accept."""

_LAZY = frozenset({"args_schema", "metadata"})
_TOOL_CALL_ID: ContextVar[str | None] = ContextVar("standard_tool_langchain_call_id", default=None)
ERROR_SINK: ContextVar[list[Exception] | None] = ContextVar(
    "standard_tool_langchain_errors", default=None
)
"""Where an exported tool leaves the typed error behind an error ``ToolMessage``."""
_REPORTED = (st.ToolValidationError, st.ToolExecutionError, ToolRefusedError)
"""The errors a model's tool call reads as an error ``ToolMessage`` (their ``str()``)."""


class StandardStructuredTool(StructuredTool):
    """A LangChain tool that runs a standard tool.

    The model sees the tool's raw input JSON Schema; input is validated by the standard
    tool; results come back as JSON text content plus the value itself as the artifact.
    ``args_schema`` and ``metadata`` are derived from the standard tool on first use.
    """

    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: Any = True

    _standard: Any = PrivateAttr(default=None)
    _get_context: Any = PrivateAttr(default=None)
    _approver: Any = PrivateAttr(default=None)

    @classmethod
    def from_standard(
        cls,
        tool: st.StandardTool,
        context: ContextGetter | None = None,
        name: str | None = None,
        approver: Approver | None = None,
    ) -> StandardStructuredTool:
        """The LangChain tool for ``tool`` (named ``name``, default the tool's own name); its
        schemas are derived later, on first use. ``approver`` names who decides on a call its
        gate holds, when a LangGraph run pauses for it (see :func:`to_langchain`)."""
        meta = getattr(tool, "meta", None) or {}
        func, coroutine = keyword_functions(tool)
        native = cls.model_construct(
            name=name or tool.name,
            description=tool.description,
            func=func,
            coroutine=coroutine,
            return_direct=meta.get("return_direct") is True,
        )
        del native.__dict__["metadata"]  # a default of None until derived
        native._standard = tool
        native._get_context = context
        native._approver = approver
        watch(tool)
        return native

    def __getattr__(self, name: str) -> Any:
        if name in _LAZY:
            self._derive()
            return self.__dict__[name]
        return super().__getattr__(name)  # type: ignore[misc]

    def _derive(self) -> None:
        """Fill ``args_schema`` and ``metadata`` from the standard tool, once."""
        fields = self.__dict__
        tool = self._standard
        if "args_schema" not in fields:
            fields["args_schema"] = st.input_json_schema(tool)
        if "metadata" not in fields:
            fields["metadata"] = {METADATA_KEY: pack_metadata(tool, name=fields["name"])}

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        self._derive()
        return super().model_dump(**kwargs)

    def model_dump_json(self, **kwargs: Any) -> str:
        self._derive()
        return super().model_dump_json(**kwargs)

    def model_copy(self, **kwargs: Any) -> Any:
        self._derive()
        return super().model_copy(**kwargs)

    def __getstate__(self) -> dict[Any, Any]:
        self._derive()
        return super().__getstate__()

    def __eq__(self, other: object) -> bool:
        self._derive()
        if isinstance(other, StandardStructuredTool):
            other._derive()
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    @property
    def standard_tool(self) -> st.StandardTool:
        """The standard tool this LangChain tool runs."""
        tool: st.StandardTool = self._standard
        return tool

    @property
    def tool_call_schema(self) -> dict[str, Any]:
        """The input JSON Schema exactly as the standard tool declares it."""
        schema: dict[str, Any] = self.args_schema  # type: ignore[assignment]
        return schema

    @property
    def args(self) -> dict[str, Any]:
        properties: dict[str, Any] = self.tool_call_schema.get("properties", {})
        return properties

    def run(self, tool_input: Any, *args: Any, **kwargs: Any) -> Any:
        token = _TOOL_CALL_ID.set(kwargs.get("tool_call_id"))
        try:
            return super().run(tool_input, *args, **kwargs)
        finally:
            _TOOL_CALL_ID.reset(token)

    async def arun(self, tool_input: Any, *args: Any, **kwargs: Any) -> Any:
        token = _TOOL_CALL_ID.set(kwargs.get("tool_call_id"))
        try:
            return await super().arun(tool_input, *args, **kwargs)
        finally:
            _TOOL_CALL_ID.reset(token)

    def _run(self, /, *args: Any, **kwargs: Any) -> Any:
        config = var_child_runnable_config.get()
        context = with_request_id(
            self._standard, (self._get_context or context_from_config)(config), _TOOL_CALL_ID.get()
        )
        events = events_for(config, asynchronous=False)
        try:
            with st.reporting(events or st.current_reporter()):
                try:
                    result = st.call(self._standard, kwargs, context)
                except ToolRefusedError as error:
                    pause = self._pause(error, kwargs, context, config)
                    if pause is None:
                        raise
                    while True:  # each turn takes one answer, or pauses the run
                        pause.turn()
                        try:
                            result = st.call(self._standard, kwargs, context)
                            break
                        except ToolRefusedError as again:
                            if not pause.still(again):
                                raise
            return _content_and_artifact(self._standard, result)
        except _REPORTED as error:
            _report(error)
            raise

    async def _arun(self, /, *args: Any, **kwargs: Any) -> Any:
        config = var_child_runnable_config.get()
        context = with_request_id(
            self._standard, (self._get_context or context_from_config)(config), _TOOL_CALL_ID.get()
        )
        events = events_for(config, asynchronous=True)
        try:
            with st.reporting(events or st.current_reporter()):
                try:
                    result = await st.acall(self._standard, kwargs, context)
                except ToolRefusedError as error:
                    pause = self._pause(error, kwargs, context, config)
                    if pause is None:
                        raise
                    while True:
                        pause.turn()
                        try:
                            result = await st.acall(self._standard, kwargs, context)
                            break
                        except ToolRefusedError as again:
                            if not pause.still(again):
                                raise
            return _content_and_artifact(self._standard, result)
        except _REPORTED as error:
            _report(error)
            raise
        finally:
            if isinstance(events, AsyncEvents):
                await events.flush()

    def _pause(
        self, error: ToolRefusedError, arguments: Any, context: Any, config: Any
    ) -> Pause | None:
        """How a model's call that its gate held waits for a person inside a LangGraph run
        with a checkpointer; ``None`` elsewhere (the model reads the refusal)."""
        call_id = _TOOL_CALL_ID.get()
        if call_id is None:
            return None
        return Pause.of(self._standard, error, arguments, context, call_id, config, self._approver)


def _report(error: Exception) -> None:
    """For a model's tool call, raise a ``ToolException`` (an error ``ToolMessage``) instead."""
    if _TOOL_CALL_ID.get() is None:
        return
    sink = ERROR_SINK.get()
    if sink is not None:
        sink.append(error)
    raise ToolException(str(error)) from error


def _content_and_artifact(tool: st.StandardTool, result: Any) -> tuple[Any, Any]:
    """Text for the model (JSON unless already a string) and the value itself.

    A direct call (no tool call id) gets the value itself, as from a native tool. The
    standard call has checked that the result serializes; should it still not, that is an
    invalid output, not a crash.
    """
    if isinstance(result, str) or _TOOL_CALL_ID.get() is None:
        return result, result
    try:
        data = st.jsonable(result)
    except NotJsonError as exc:
        raise st.ToolValidationError(tool.name, "output", exc.issues) from None
    return json.dumps(data, ensure_ascii=False), result


def to_langchain(
    tool: Any,
    *,
    name: str | None = None,
    context: ContextGetter | None = None,
    approver: Approver | None = None,
) -> BaseTool:
    """A LangChain ``StructuredTool`` running ``tool`` (anything :func:`standard_tool.adopt` takes).

    Its name is ``name``, or the tool's name made valid for :data:`NAMES` (the original is
    kept in the metadata and restored by ``from_langchain``). ``context`` builds the standard
    context from the ``RunnableConfig`` of each call; by default it is
    ``config["configurable"]``.

    A model's call that the tool's gate holds for a person's approval, made by LangGraph
    (a ``ToolNode``, an agent) in a run with a checkpointer, pauses the run with
    ``langgraph.types.interrupt`` (its value is the approval request); the answer the app
    resumes with is recorded in the gate, and the call then runs once, or the model reads
    the refusal. ``approver`` names who decides (a name, or a function of the call's
    context), unless the answer names them; elsewhere the model reads the refusal.
    """
    check_approver(approver)
    standard = st.adopt(tool)
    name = name or sanitize_name(standard.name, NAMES)
    return StandardStructuredTool.from_standard(standard, context, name, approver)


def to_langchain_tools(
    tools: Iterable[Any] | Any,
    *,
    context: ContextGetter | None = None,
    approver: Approver | None = None,
) -> list[BaseTool]:
    """LangChain tools for one tool or several; two names that collide raise ``ToolNameError``."""
    return export_tools(
        tools,
        lambda tool, name: to_langchain(tool, name=name, context=context, approver=approver),
        NAMES,
    )
