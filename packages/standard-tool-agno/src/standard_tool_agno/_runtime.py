"""Agno's own runtime for exported tools: an agent run whose model makes the call."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import standard_tool as st
from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError, StandardToolError

from ._context import run_context
from ._export import StandardFunction
from ._scripted import declaration, run_agent

__all__ = ["AgnoRuntime", "runtime"]


class AgnoRuntime(BaseRuntime):
    """An Agno function as a model is sent it (``{"type": "function", "function":
    function.to_dict()}``) and as an agent runs it: a real ``agent.run`` whose scripted model
    (no network) calls the function once, with the standard context as the run's
    ``dependencies`` (Agno's own log off). What comes back is the tool message the model reads, an error when
    Agno marks it ``tool_call_error``. The run is not resumed: a call a guarded tool's gate
    holds pauses it, and is read as the gate's ``held_for_review`` refusal."""

    target = "agno"

    def declaration(self, native: Any) -> dict[str, Any]:
        return declaration(native)

    def run(self, native: Any, arguments: dict[str, Any], context: Any = None) -> NativeOutcome:
        """The run; the model reads the tool message's text."""
        with _quiet():
            run = run_agent([native], [[(native.name, arguments)], "done"], context)
        paused = run.output.tools_requiring_confirmation or []
        if paused:
            return NativeOutcome(error=_held(native, arguments, context, paused[0].tool_call_id))
        if len(run.results) != 1:
            raise PluginError(f"an Agno run of {native.name!r} made {len(run.results)} calls")
        [message] = run.results
        text = run.texts[0]
        return NativeOutcome.from_json_text(text, is_error=bool(message.tool_call_error))


@contextmanager
def _quiet() -> Iterator[None]:
    """Agno's own log (which writes a failed call's traceback to stdout) off during a run:
    what the run gives is its outcome."""
    from agno.utils import log

    loggers = {log.agent_logger, log.team_logger, log.workflow_logger, log.logger}
    was = {each: each.disabled for each in loggers}
    for each in loggers:
        each.disabled = True
    try:
        yield
    finally:
        for each, disabled in was.items():
            each.disabled = disabled


def _held(native: Any, arguments: dict[str, Any], context: Any, call_id: Any) -> str:
    """The gate's refusal of the call a run paused for (the same call, asked again)."""
    if isinstance(native, StandardFunction):
        call = native.call_context(run_context(context), call_id)
        try:
            st.call(native.standard_tool, arguments, call)
        except StandardToolError as error:
            return str(error)
    return "This call waits for a person's confirmation."


runtime = AgnoRuntime()
