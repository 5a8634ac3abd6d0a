"""Standard tools as Agno functions."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from agno.tools.function import Function, FunctionCall
from pydantic import Field

import standard_tool as st
from standard_tool.adapters import (
    METADATA_KEY,
    build_context,
    export_tools,
    pack_metadata,
    result_text,
    to_export,
)
from standard_tool.boundary import Approver, check_approver, guarded_of, with_request_id
from standard_tool.names import OPENAI_NAMES, NameRule

from ._approvals import held_in_turn
from ._context import ContextGetter, context_from_run, sent_arguments

__all__ = ["NAMES", "StandardFunction", "to_agno", "to_agno_tools"]

NAMES: NameRule = OPENAI_NAMES
"""The names an Agno function gets: what the providers' APIs accept (letters, digits, ``_``
and ``-``, 64 characters at most)."""

FC = "fc"
"""The parameter Agno fills with the call's ``FunctionCall``."""


class StandardFunction(Function):
    """An Agno ``Function`` that runs a standard tool.

    ``parameters`` is the tool's input JSON Schema, unchanged: the function is marked
    ``skip_entrypoint_processing`` and ``strict=False``, so that a run does not rewrite it
    (Agno would add ``additionalProperties: false``, recompute ``required`` and, under
    strict output, more). Its entrypoint is a plain function, which a sync ``run()`` calls
    and an ``arun()`` calls in a worker thread, as Agno runs every sync tool; an async
    standard tool runs there on an event loop of its own, so it works in both.

    A call receives what the model sent (see ``_context.sent_arguments``) and is validated
    by the standard tool with full JSON Schema semantics; its result is the text the model
    reads (JSON text for anything but a string). A failed call raises its typed error,
    which Agno hands the model as the call's error result (``tool_call_error``): its
    message names the tool and each failing field, and quotes no value.

    A guarded tool gets the model's call id as its request id; a call its gate holds
    pauses the run for a person's confirmation (see ``_approvals``).
    """

    standard: Any = Field(default=None, exclude=True, repr=False)
    approver: Any = Field(default=None, exclude=True, repr=False)
    context_getter: Any = Field(default=None, exclude=True, repr=False)
    standard_metadata: Any = Field(default=None, exclude=True, repr=False)
    derived: bool = Field(default=False, exclude=True, repr=False)

    @property
    def standard_tool(self) -> st.StandardTool:
        """The standard tool this function runs."""
        tool: st.StandardTool = self.standard
        return tool

    @property
    def metadata(self) -> dict[str, Any]:
        """What an Agno function has no slot for (output schema, meta, an original name),
        under ``"standard_tool"`` (the title is the function's own ``title``)."""
        held: dict[str, Any] | None = self.standard_metadata
        if held is None:
            entry = pack_metadata(self.standard, name=self.name, slots=("title",))
            held = self.standard_metadata = {METADATA_KEY: entry}
        return held

    def call_context(self, run_context: Any, call_id: Any) -> Any:
        """The standard context of a call: built from its ``RunContext`` (``None`` outside a
        run), with ``call_id`` as a guarded tool's request id."""
        getter = self.context_getter or context_from_run
        context = build_context(self.standard.name, getter, run_context)
        if guarded_of(self.standard) is not None:
            context = with_request_id(self.standard, context, call_id)
        return context

    def call(self, fc: Any, arguments: dict[str, Any]) -> str:
        """One call, as Agno makes it (``fc`` is its ``FunctionCall``): the text the model
        reads; a failure raised as its typed error."""
        call_id = run = None
        if isinstance(fc, FunctionCall):
            call_id, run = fc.call_id, self._run_context
            messages = getattr(run, "messages", None)
            arguments = sent_arguments(messages, call_id, self.name, arguments)
        elif fc is not None:  # the tool's own argument named "fc", which Agno hands on
            arguments = {**arguments, FC: fc}
        context = self.call_context(run, call_id)
        return result_text(self.standard.name, st.call(self.standard, arguments, context))

    def to_dict(self) -> dict[str, Any]:
        """What a model is sent for the function (its schema derived first)."""
        _ = self.parameters
        return super().to_dict()

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> StandardFunction:
        """A deep copy (as Agno's servers make of each function per request) that runs the
        same standard tool, under the same gate and approver."""
        memo = {} if memo is None else memo
        _ = self.parameters
        for shared in (self.standard, self.approver, self.context_getter):
            memo.setdefault(id(shared), shared)
        copied = super().__deepcopy__(memo)
        assert isinstance(copied, StandardFunction)
        return copied

    def __repr__(self) -> str:
        return f"StandardFunction({self.name!r})"


def _requires_confirmation(self: StandardFunction) -> Any:
    """Whether a run pauses this function's calls for a person's confirmation: as declared,
    or, for a guarded tool, whether its gate holds one of its calls in the model's latest
    turn (Agno asks this of the function, not of each call)."""
    declared = self.__dict__.get("requires_confirmation")
    if declared or guarded_of(self.standard) is None:
        return declared
    return held_in_turn(self) or declared


def _declare_confirmation(self: StandardFunction, value: Any) -> None:
    self.__dict__["requires_confirmation"] = value


# A property over the field: a run reads it once its model has asked for calls.
StandardFunction.requires_confirmation = property(  # type: ignore[assignment]
    _requires_confirmation, _declare_confirmation
)


def _parameters(self: StandardFunction) -> dict[str, Any]:
    """The tool's input JSON Schema, as it is (derived on first use)."""
    if not self.__dict__.get("derived"):
        schema = st.input_json_schema(self.standard)
        _set_parameters(self, copy.deepcopy(schema) if isinstance(schema, dict) else {})
    held: dict[str, Any] = self.__dict__["parameters"]
    return held


def _set_parameters(self: StandardFunction, value: dict[str, Any]) -> None:
    self.__dict__["parameters"] = value
    self.__dict__["derived"] = True


StandardFunction.parameters = property(_parameters, _set_parameters)  # type: ignore[assignment]


def _entrypoint_of(function: StandardFunction) -> Any:
    def entrypoint(fc: Any = None, **arguments: Any) -> str:
        owner = fc.function if isinstance(fc, FunctionCall) else None
        runs = owner if isinstance(owner, StandardFunction) else function
        return runs.call(fc, arguments)

    entrypoint.__annotations__ = {}  # nothing for Agno to resolve in each run's processing
    return entrypoint


def to_agno(
    tool: Any,
    *,
    name: str | None = None,
    context: ContextGetter | None = None,
    approver: Approver | None = None,
) -> StandardFunction:
    """An Agno ``Function`` running ``tool`` (anything :func:`standard_tool.adopt` takes).

    Args:
        tool: the tool to run.
        name: the name the model sees (checked against :data:`NAMES`); by default the tool's
            name made valid for it (``from_agno`` restores the original).
        context: builds the standard context from the call's ``RunContext``; by default
            the run's ``dependencies``.
        approver: who decides on a guarded tool's held calls in Agno's own confirmation,
            which carries no approver: a name, or a function of the call's standard
            context giving one. The gate records each decision under it.
    """
    check_approver(approver)
    standard, name = to_export(tool, name, NAMES)
    function = StandardFunction(
        name=name,
        description=standard.description,
        title=getattr(standard, "title", None),
        skip_entrypoint_processing=True,
        strict=False,
        standard=standard,
        approver=approver,
        context_getter=context,
    )
    function.entrypoint = _entrypoint_of(function)
    return function


def to_agno_tools(
    tools: Iterable[Any] | Any,
    *,
    context: ContextGetter | None = None,
    approver: Approver | None = None,
) -> list[StandardFunction]:
    """Agno functions for one tool or several; two names that collide raise
    ``ToolNameError``."""
    return export_tools(
        tools,
        lambda tool, name: to_agno(tool, name=name, context=context, approver=approver),
        NAMES,
    )
