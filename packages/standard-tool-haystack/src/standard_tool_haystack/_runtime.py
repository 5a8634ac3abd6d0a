"""Haystack's own runtime for exported tools: an Agent run whose model makes the call."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError

from ._scripted import declaration, run_agent

__all__ = ["HaystackRuntime", "runtime"]

TOOL_LOG = "haystack.components.agents.tool_calling"
"""Haystack's logger of the Agent's tool step, which logs every failed call as an error: the
outcome says it already."""


@contextmanager
def _quiet() -> Iterator[None]:
    logger = logging.getLogger(TOOL_LOG)
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


class HaystackRuntime(BaseRuntime):
    """A Haystack tool as a chat generator sends it to a model (``tool_spec``) and as an
    ``Agent`` runs it: a real ``agent.run`` whose scripted model (no network) calls the tool
    once, with the standard context set around the run (``standard_context``). What comes
    back is the tool result the model reads, an error result when Haystack marks it so
    (Haystack's own error log of a failed call is silenced meanwhile)."""

    target = "haystack"

    def declaration(self, native: Any) -> dict[str, Any]:
        return declaration(native)

    def run(self, native: Any, arguments: dict[str, Any], context: Any = None) -> NativeOutcome:
        with _quiet():
            run = run_agent([native], [[(native.name, arguments)], "done"], context)
        if len(run.results) != 1:
            raise PluginError(f"a Haystack run of {native.name!r} made {len(run.results)} calls")
        [result] = run.results
        if result.error:
            return NativeOutcome(error=str(result.result))
        return NativeOutcome.from_json_text(str(result.result), is_error=False)


runtime = HaystackRuntime()
