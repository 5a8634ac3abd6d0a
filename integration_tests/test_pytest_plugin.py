"""Tools written with each framework's own API, checked through every installed target by the
``pytest-standard-tool`` plugin (the ``standard_tools`` marker and ``conformance`` fixture)."""

from __future__ import annotations

import pytest
from runtimes import native_tools

from pytest_standard_tool import Conformance
from standard_tool.checks import installed_targets

pytestmark = [
    # LlamaIndex's workflows read pydantic attributes that pydantic has deprecated
    pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:llama_index"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:workflows"),
]

RUNTIMES = ("standard", "langchain", "pydantic-ai", "llama-index", "mcp", "toy")
"""The targets that run a model's call here; every check of theirs must run."""


PROVIDERS = ("openai", "anthropic", "gemini", "hf")
"""Targets a model is shown the provider's dialect of the schema, nothing adopts back."""
DIALECT_RUNTIMES = ("smolagents",)
"""Targets that run a model's call and show a model their framework's own dialect of the schema."""


NEVER_RUNS = "refuse"
"""The native tool that raises on every input: no call of it runs, so its call check fails,
through every target alike, and only that check."""


def ran(conformance: Conformance) -> None:
    never_runs = conformance.tool.name == NEVER_RUNS
    if never_runs:
        with pytest.raises(pytest.fail.Exception, match="no input ran"):
            conformance.check()
        results = conformance.results
        assert {r.check for r in results if r.status == "fail"} == {"call"}, results
    else:
        results = conformance.check()
    passed = {r.check for r in results if r.status == "pass"} | ({"call"} if never_runs else set())
    if conformance.target in RUNTIMES[1:]:
        assert passed == {"convert", "schema", "round trip", "call", "refuse"}, results
    elif conformance.target in PROVIDERS:
        assert passed == {"convert", "call", "refuse"}, results
    elif conformance.target in DIALECT_RUNTIMES:
        assert passed == {"convert", "round trip", "call", "refuse"}, results


def test_every_runtime_is_installed() -> None:
    assert {*RUNTIMES, *PROVIDERS, *DIALECT_RUNTIMES} <= set(installed_targets())


@pytest.mark.standard_tools(native_tools("langchain"))
def test_langchain_tools_conform(conformance: Conformance) -> None:
    ran(conformance)


@pytest.mark.standard_tools(native_tools("pydantic-ai"))
def test_pydantic_ai_tools_conform(conformance: Conformance) -> None:
    ran(conformance)


@pytest.mark.standard_tools(native_tools("llama-index"))
def test_llama_index_tools_conform(conformance: Conformance) -> None:
    ran(conformance)


@pytest.mark.standard_tools(native_tools("smolagents"))
def test_smolagents_tools_conform(conformance: Conformance) -> None:
    ran(conformance)
