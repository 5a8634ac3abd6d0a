"""The providers' runtime: a model's call in each provider's envelope, answered by
``run_tool_calls``, read back as the model reads it."""

from __future__ import annotations

from typing import Any

import pytest

import standard_tool as st
from standard_tool.providers import _runtime as _provider_runtime
from standard_tool.registry import runtime
from standard_tool.testing import INVALID_CALLS, VALID_CALLS, sample_tools

PROVIDERS = ("openai", "anthropic", "gemini", "hf")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_declaration_is_what_convert_gives(provider: str) -> None:
    registered = runtime(provider)
    assert registered is not None
    tool = sample_tools()["catalog.lookup"]
    native = registered.native(tool)
    assert registered.declaration(native) == st.convert(tool, to=provider)
    shown = registered.input_schema(native)
    assert shown["type"] == "object" and "sku" in shown["properties"]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("name", sorted(VALID_CALLS))
def test_a_valid_call_gives_the_direct_result(provider: str, name: str) -> None:
    registered = runtime(provider)
    assert registered is not None
    arguments, expected = VALID_CALLS[name]
    outcome = registered.call(registered.native(sample_tools()[name]), arguments, {"token": "t"})
    assert (outcome.error, outcome.value) == (None, expected)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("name", sorted(INVALID_CALLS))
def test_an_invalid_call_is_an_error_naming_the_tool_and_field(provider: str, name: str) -> None:
    registered = runtime(provider)
    assert registered is not None
    arguments, field = INVALID_CALLS[name]
    native = registered.native(sample_tools()[name])
    outcome = registered.call(native, arguments)
    assert outcome.error is not None and outcome.value is None
    assert native.name in outcome.error and field in outcome.error, outcome.error


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_failing_tool_is_an_error(provider: str) -> None:
    registered = runtime(provider)
    assert registered is not None
    outcome = registered.call(registered.native(sample_tools()["explode"]), {"reason": "x"})
    assert outcome.error is not None and "exploded: x" in outcome.error


def test_openai_strict_calls_are_sent_as_a_strict_model_writes_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[Any] = []
    from standard_tool.providers import run_tool_calls as real

    def spy(tools: Any, calls: Any, provider: str, **options: Any) -> Any:
        sent.append(calls[0]["arguments"])
        return real(tools, calls, provider, **options)

    monkeypatch.setattr(_provider_runtime, "run_tool_calls", spy)
    registered = runtime("openai")
    assert registered is not None
    tool = sample_tools()["search"]
    native = registered.native(tool)
    assert native.declaration["strict"] is True
    outcome = registered.call(native, {"query": "lamp"})
    assert outcome.error is None
    assert outcome.value == st.jsonable(st.call(tool, {"query": "lamp"}))
    assert sent[0] == '{"query": "lamp", "limit": null, "filters": null, "mode": null}', sent
    refused = registered.call(native, {"query": "lamp", "unexpected": 1})  # sent as it is
    assert refused.error is not None and "unexpected" in refused.error
    assert sent[1] == '{"query": "lamp", "unexpected": 1}'
