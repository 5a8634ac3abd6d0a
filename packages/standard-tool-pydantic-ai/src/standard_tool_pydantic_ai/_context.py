"""How the standard per-call ``context`` and PydanticAI's ``RunContext`` map to each other.

A standard tool running inside an agent receives, as its context, the run's ``deps`` (by
default), the whole ``RunContext`` (``context="run_context"``), or what a function of the
``RunContext`` returns. A PydanticAI tool run from the standard side receives a
``RunContext`` whose ``deps`` is the standard context (or the standard context itself when
it already is a ``RunContext``), with a model that refuses to be called: outside an agent
run there is none.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any, Literal

from pydantic_ai import RunContext
from pydantic_ai.models import Model

from standard_tool.exceptions import UsageError

__all__ = ["ContextGetter", "ContextOption", "context_getter", "deps", "run_context_for"]

ContextGetter = Callable[[RunContext[Any]], Any]
"""Builds the standard context from the ``RunContext`` of a tool call."""
ContextOption = Literal["deps", "run_context"] | ContextGetter
"""What a standard tool receives as its context inside an agent run."""


def deps(ctx: RunContext[Any]) -> Any:
    """The default context getter: the run's ``deps``."""
    return ctx.deps


def _whole(ctx: RunContext[Any]) -> Any:
    return ctx


def context_getter(option: ContextOption) -> ContextGetter:
    """The function that builds the standard context for ``option``."""
    if option == "deps":
        return deps
    if option == "run_context":
        return _whole
    if callable(option):
        return option
    raise UsageError(
        f"context must be 'deps', 'run_context' or a function of the RunContext, not {option!r}"
    )


def _no_model(messages: Any, info: Any) -> Any:
    raise UsageError(
        "this tool was called outside an agent run, where there is no model to ask; "
        "pass a RunContext as the standard context to give it one"
    )


@cache
def _outside_model() -> Model:
    """The model of a ``RunContext`` built outside an agent run: asking it raises."""
    from pydantic_ai.models.function import FunctionModel

    return FunctionModel(_no_model, model_name="standard-tool:no-model")


def run_context_for(context: Any, tool_name: str) -> RunContext[Any]:
    """The ``RunContext`` a PydanticAI tool gets when called with a standard ``context``."""
    if isinstance(context, RunContext):
        return replace(context, tool_name=tool_name)
    from pydantic_ai.usage import RunUsage

    return RunContext(
        deps=context,
        model=_outside_model(),
        usage=RunUsage(),
        tool_name=tool_name,
        tool_call_id=f"call_{uuid.uuid4().hex}",
    )
