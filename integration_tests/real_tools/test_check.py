"""Every tool of the corpus through every installed target (``check_tool``), with no failure.

A tool that is called gets the corpus' input: the direct call must run it and give what the
corpus expects, then each target must show its schema, adopt it back whole, give the direct
call's result and refuse what the direct call refuses. A tool that needs the network is
converted to each target and its schema and round trip checked; it is never called.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from corpus import SOURCES
from sources import FAILED, SKIPPED, WARNINGS, Places, iter_entries, tool_of

from standard_tool.checks import (
    DIRECT,
    Probe,
    check_tool,
    failures,
    installed_targets,
    probe,
    skipped,
)

pytestmark = [pytest.mark.filterwarnings(warning) for warning in WARNINGS]
FRAMEWORKS = ("langchain", "llama-index", "mcp", "openai-agents", "pydantic-ai", "smolagents")
"""The targets of the adapters the ``real-tools`` session installs: each must be there."""
NOT_CALLED = "the tool needs the network: converted and checked, never called"
ENTRIES = [
    pytest.param(source, entry, id=f"{source['key']}/{entry['name']}")
    for source, entry in iter_entries(SOURCES)
]


def test_every_adapter_is_installed() -> None:
    assert set(FRAMEWORKS) <= set(installed_targets()), installed_targets()


@pytest.mark.parametrize(("source", "entry"), ENTRIES)
def test_every_target_agrees_with_the_direct_call(
    source: dict[str, Any], entry: dict[str, Any], places: Places, request: pytest.FixtureRequest
) -> None:
    tool = tool_of(source, entry, places)
    called = source["reaches"] is not None
    if called:
        value = places.substitute(entry["input"])
        found = probe(tool, inputs=[value])
        assert found.input == value, found
        assert found.outcome is not None and found.outcome.error is None, found
        shown = json.dumps(found.outcome.value, ensure_ascii=False)
        assert entry["expect"] in shown, f"{entry['expect']!r} is not in {shown[:500]}"
        if "varies" in entry:  # its result holds what changes from call to call
            found.deterministic = False
        results = check_tool(tool, probed=found)
    else:
        results = [
            result
            for result in check_tool(tool, probed=Probe(reason=NOT_CALLED))
            if result.check not in ("call", "refuse")
        ]
    expected = [t for t in installed_targets() if called or t != DIRECT]
    assert list(dict.fromkeys(result.target for result in results)) == expected
    calls = [result for result in results if result.check in ("call", "refuse")]
    if skipped(calls):  # a call not made: the summary at the end says which and why
        SKIPPED[request.node.name] = skipped(calls)
    failed = [str(result) for result in failures(results)]
    if failed:
        FAILED[request.node.name] = failed
    assert not failed, "\n".join([*failed, *skipped(results)])
