"""Shared helpers: a LlamaIndex agent run driven by the package's scripted function-calling LLM."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

with warnings.catch_warnings():
    # llama-index-core 0.12/0.13 declare a field pydantic 2.12+ warns about, once, at import
    warnings.simplefilter("ignore")
    from standard_tool_llama_index._scripted import ScriptedLLM, run_agent


def pytest_configure(config: pytest.Config) -> None:
    # Deprecation warnings LlamaIndex's own code raises on newer pydantic and workflows
    # releases (including pydantic's, from the inspect.getmembers walk of an agent's members)
    for module in ("llama_index", "workflows", "inspect"):
        config.addinivalue_line("filterwarnings", f"ignore::DeprecationWarning:{module}")


@pytest.fixture
def agent() -> Callable[..., Any]:
    """``await agent(tools, replies, store=None, kind=FunctionAgent)``: see :func:`run_agent`."""
    return run_agent


@pytest.fixture
def scripted_llm() -> type[ScriptedLLM]:
    """The scripted function-calling LLM class (``ScriptedLLM(replies=[...])``)."""
    return ScriptedLLM


__all__ = ["agent", "scripted_llm"]
