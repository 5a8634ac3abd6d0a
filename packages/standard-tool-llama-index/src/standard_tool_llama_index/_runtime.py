"""LlamaIndex's own runtime for exported tools: a ``FunctionAgent`` run whose model makes the call."""

from __future__ import annotations

from . import _quiet  # noqa: F401  # isort: skip  (first: imports LlamaIndex quietly)
from typing import Any

from llama_index.core.tools.types import BaseTool

import standard_tool as st
from standard_tool.adapters import BaseRuntime, NativeOutcome
from standard_tool.exceptions import PluginError

from ._context import CONTEXT_KEY
from ._quiet import framework_warnings_ignored
from ._scripted import run_agent

__all__ = ["LlamaIndexRuntime", "runtime"]


class LlamaIndexRuntime(BaseRuntime):
    """A LlamaIndex tool as a function-calling model is shown it (``to_openai_tool()``) and as
    an agent runs it: a real ``FunctionAgent`` run whose scripted LLM (no network) calls the
    tool once; the standard context is in the run's workflow Context under ``CONTEXT_KEY``.
    LlamaIndex's own warnings are ignored during the run (see ``_quiet``), a tool's are not."""

    target = "llama-index"

    def declaration(self, native: BaseTool) -> dict[str, Any]:
        declared: dict[str, Any] = native.metadata.to_openai_tool()
        return declared

    def input_schema(self, native: BaseTool) -> dict[str, Any]:
        schema: dict[str, Any] = native.metadata.get_parameters_dict()
        return schema

    def run(
        self, native: BaseTool, arguments: dict[str, Any], context: Any = None
    ) -> NativeOutcome:
        """The agent's run; the model reads the tool output's ``content``."""
        name = native.metadata.get_name()
        store = None if context is None else {CONTEXT_KEY: context}
        with framework_warnings_ignored():
            run = st.run_sync(run_agent([native], [[(name, arguments)], "done"], store))
        if len(run.outputs) != 1:
            raise PluginError(f"a LlamaIndex agent run of {name!r} made {len(run.outputs)} calls")
        (output,) = run.outputs
        return NativeOutcome.from_json_text(output.content, is_error=output.is_error)


runtime = LlamaIndexRuntime()
