"""Every source framework -> standard -> every target framework, and chains of several hops.

Each sample tool (``standard_tool.testing.sample_tools``) is made a source framework's own
object, adopted as a standard tool, exported to a target and run by the target's runtime
(``runtimes``): the model sees the same schema, the same calls are accepted and refused, the
results are the same, failures are errors naming the tool, and no output holds a traceback or
the context's secret. A chain repeats this at every hop, each hop's tool adopted from the last.
The run ends with the source x target table.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

pytest.importorskip("standard_tool_langchain")
pytest.importorskip("standard_tool_llama_index")
pytest.importorskip("standard_tool_mcp")
pytest.importorskip("standard_tool_openai_agents")
pytest.importorskip("standard_tool_pydantic_ai")
pytest.importorskip("standard_tool_smolagents")
pytest.importorskip("standard_tool_agent_framework")
pytest.importorskip("standard_tool_google_adk")
pytest.importorskip("standard_tool_haystack")
pytest.importorskip("standard_tool_agno")

import runtimes  # noqa: E402
from runtimes import RESULTS, TARGETS, Runtime, native_tools  # noqa: E402

import standard_tool as st  # noqa: E402
from standard_tool.testing import (  # noqa: E402
    INVALID_CALLS,
    SECRET,
    VALID_CALLS,
    NativeOutcome,
    sample_tools,
)

pytestmark = [
    # LlamaIndex's workflows read pydantic attributes that pydantic has deprecated
    pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:llama_index"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:workflows"),
]

SOURCES = TARGETS
CONTEXT = {"token": SECRET}
FAILING = ("explode", {"reason": "on purpose"}, "exploded: on purpose")


@pytest.fixture
def rt() -> Iterator[dict[str, Runtime]]:
    with ExitStack() as stack:
        yield runtimes.runtimes(stack)


def source_tool(rt: dict[str, Runtime], source: str, tool: st.StandardTool) -> st.StandardTool:
    """``tool`` as the source framework's own object, adopted back as a standard tool."""
    if source == "standard":
        return tool
    return rt[source].adopt(rt[source].export(tool))


def _clean(text: str) -> None:
    assert "Traceback (most recent call last)" not in text, text
    assert SECRET not in text, text


def check_hop(runtime: Runtime, tool: st.StandardTool, original: st.StandardTool) -> list[str]:
    """Export ``tool`` (a sample tool after some hops) to ``runtime`` and run every call;
    ``original`` is that sample tool as made, none of whose objects the hops have touched."""
    name = original.name
    problems: list[str] = []
    native = runtime.export(tool)
    if runtime.schema(native) != runtime.shown(native, original):
        problems.append(f"{name}: schema")
    outcomes: list[NativeOutcome] = []
    if name in VALID_CALLS:
        arguments, expected = VALID_CALLS[name]
        outcome = runtime.run(native, arguments, CONTEXT)
        outcomes.append(outcome)
        if outcome.error is not None or outcome.value != expected:
            problems.append(f"{name}: result {outcome}")
    if name in INVALID_CALLS:
        arguments, field = INVALID_CALLS[name]
        outcome = runtime.run(native, arguments, CONTEXT)
        outcomes.append(outcome)
        named = outcome.error is not None and (name in outcome.error or runtime.prechecks)
        if outcome.error is None or not named or field not in outcome.error:
            problems.append(f"{name}: invalid input {outcome}")
    if name == FAILING[0]:
        outcome = runtime.run(native, FAILING[1], CONTEXT)
        outcomes.append(outcome)
        if outcome.error is None or FAILING[2] not in outcome.error or name not in outcome.error:
            problems.append(f"{name}: failure {outcome}")
    for outcome in outcomes:
        _clean(repr(outcome))
    return problems


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("source", SOURCES)
def test_every_source_through_standard_to_every_target(
    rt: dict[str, Runtime], source: str, target: str
) -> None:
    problems = []
    originals = sample_tools()
    for name, tool in sample_tools().items():
        adopted = source_tool(rt, source, tool)
        assert adopted.name == name
        problems += check_hop(rt[target], adopted, originals[name])
    RESULTS[(source, target)] = "ok" if not problems else f"{len(problems)} differ"
    assert not problems, problems


CHAINS = [
    ("smolagents", "langchain", "smolagents", "mcp"),
    ("llama-index", "mcp", "langchain", "pydantic-ai"),
    ("langchain", "pydantic-ai", "llama-index", "mcp"),
    ("mcp", "llama-index", "pydantic-ai", "langchain", "standard"),
    ("pydantic-ai", "mcp", "mcp", "langchain", "llama-index"),
    ("openai-agents", "langchain", "openai-agents", "mcp", "llama-index"),
    ("mcp", "openai-agents", "pydantic-ai", "openai-agents"),
    ("agent-framework", "langchain", "agent-framework", "mcp", "openai-agents"),
    ("google-adk", "openai-agents", "google-adk", "mcp", "langchain"),
]


@pytest.mark.parametrize("chain", CHAINS, ids=" -> ".join)
def test_a_chain_of_hops_keeps_everything_at_every_hop(
    rt: dict[str, Runtime], chain: tuple[str, ...]
) -> None:
    problems: list[Any] = []
    originals = sample_tools()
    for name, tool in sample_tools().items():
        current = tool
        for hop in chain:
            problems += [f"{hop}: {p}" for p in check_hop(rt[hop], current, originals[name])]
            current = rt[hop].adopt(rt[hop].export(current))
            assert current.name == name and current.description == tool.description
            assert st.input_json_schema(current) == st.input_json_schema(tool)
            assert st.output_json_schema(current) == st.output_json_schema(tool)
    assert not problems, problems


# -- tools written with each framework's own API ------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    "source",
    [
        "langchain",
        "pydantic-ai",
        "llama-index",
        "smolagents",
        "mcp",
        "openai-agents",
        "agent-framework",
        "google-adk",
        "haystack",
        "agno",
    ],
)
def test_a_framework_native_tool_behaves_the_same_in_every_target(
    rt: dict[str, Runtime], source: str, target: str
) -> None:
    """The adopted tool's verdict is the reference, and the source's own runtime gives the
    results and failures: every target gives the same. (The frameworks' own runtimes do not
    all refuse invalid input: LangChain raises pydantic's error out of ``invoke``, LlamaIndex
    runs ``"six" * 7``; the adopted tool refuses it by its schema.)"""
    problems = []
    multiply, refuse = native_tools(source)
    for native, valid, invalid in [
        (multiply, [{"a": 6, "b": 7}], [{"a": "six", "b": 7}, {"a": 6}]),
        (refuse, [{"reason": "no"}], [{}]),
    ]:
        adopted = rt[source].adopt(native)
        exported = rt[target].export(adopted)
        if rt[target].schema(exported) != rt[target].shown(exported, adopted):
            problems.append(f"{adopted.name}: schema")
        for arguments in valid:
            want = rt[source].run(native, arguments, CONTEXT)
            got = rt[target].run(exported, arguments, CONTEXT)
            _clean(repr(got))
            if (got.error is None) != (want.error is None) or got.value != want.value:
                problems.append(f"{arguments}: {got} != {want}")
            elif want.error is not None and "refused: no" not in (got.error or ""):
                problems.append(f"{arguments}: {got}")
        for arguments in invalid:
            assert runtimes.standard_run(adopted, arguments, CONTEXT).error is not None
            got = rt[target].run(exported, arguments, CONTEXT)
            _clean(repr(got))
            named = got.error is not None and (adopted.name in got.error or rt[target].prechecks)
            if got.error is None or not named:
                problems.append(f"{arguments}: {got}")
    RESULTS[(f"{source} (own API)", target)] = "ok" if not problems else f"{len(problems)} differ"
    assert not problems, problems
