"""Microsoft Agent Framework's own runtime for exported tools: an agent run whose chat client
makes the call."""

from __future__ import annotations

from typing import Any

import standard_tool as st
from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError

from ._export import FAILURES
from ._scripted import declaration, run_agent

__all__ = ["AgentFrameworkRuntime", "runtime"]

FAILED = "Error: "
"""How the framework's own error results begin ("Error: Function failed.", ...)."""


class AgentFrameworkRuntime(BaseRuntime):
    """A function tool as a chat client sends it to a model (``to_json_schema_spec``) and as
    an agent runs it: a real ``agent.run`` whose scripted chat client (no network) calls the
    tool once, with the standard context as the run's ``function_invocation_kwargs``. The run
    has no session, so a call a guarded tool's gate holds is its ``held_for_review`` refusal,
    as the model reads it where the run cannot pause."""

    target = "agent-framework"

    def declaration(self, native: Any) -> dict[str, Any]:
        return declaration(native)

    def run(self, native: Any, arguments: dict[str, Any], context: Any = None) -> NativeOutcome:
        """The run; the model reads the function result's text."""
        failures: list[Exception] = []
        token = FAILURES.set(failures)
        try:
            kwargs = context if isinstance(context, dict) else None
            run = st.run_sync(run_agent([native], [[(native.name, arguments)], "done"], kwargs))
        finally:
            FAILURES.reset(token)
        if len(run.results) != 1:
            raise PluginError(
                f"a Microsoft Agent Framework run of {native.name!r} made {len(run.results)} calls"
            )
        result = run.results[0]
        text = run.texts[0]
        failed = bool(failures) or result.exception is not None or text.startswith(FAILED)
        return NativeOutcome.from_json_text(text, is_error=failed)


runtime = AgentFrameworkRuntime()
