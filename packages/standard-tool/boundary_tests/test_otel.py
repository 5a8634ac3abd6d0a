"""OpenTelemetryAudit: one ``execute_tool`` span per call, as the GenAI semantic conventions
have it, recorded by the SDK's in-memory exporter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from standard_tool.boundary import OpenTelemetryAudit
from standard_tool.boundary._types import AuditEvent


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    yield exporter
    exporter.shutdown()


@pytest.fixture
def provider(exporter: InMemorySpanExporter) -> Iterator[TracerProvider]:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield provider
    provider.shutdown()


def _event(**changes: Any) -> AuditEvent:
    fields: dict[str, Any] = {
        "request_id": "req-1",
        "tool": "search",
        "schema_digest": "a" * 64,
        "digest": "b" * 64,
        "actor": "alice",
        "tenant": "acme",
        "outcome": "succeeded",
        "duration": 0.25,
        "time": 1_750_000_000.5,
    }
    fields.update(changes)
    return AuditEvent(**fields)


def _span(exporter: InMemorySpanExporter) -> ReadableSpan:
    [span] = exporter.get_finished_spans()
    return span


def test_a_call_is_one_execute_tool_span(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    event = _event(approval_id="req-1", approver="bob", effect_id="charge-9")
    OpenTelemetryAudit(provider)(event)
    span = _span(exporter)
    assert span.name == "execute_tool search"
    assert span.kind is SpanKind.INTERNAL
    assert dict(span.attributes or {}) == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "search",
        "gen_ai.tool.call.id": "req-1",
        "standard_tool.outcome": "succeeded",
        "standard_tool.actor": "alice",
        "standard_tool.tenant": "acme",
        "standard_tool.digest": "b" * 64,
        "standard_tool.schema_digest": "a" * 64,
        "standard_tool.approval_id": "req-1",
        "standard_tool.approver": "bob",
        "standard_tool.effect_id": "charge-9",
    }
    assert span.status.status_code is StatusCode.UNSET
    assert span.instrumentation_scope is not None
    assert span.instrumentation_scope.name == "standard_tool"


def test_the_span_spans_the_call(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    event = _event(duration=1.5, time=1_750_000_123.25)
    OpenTelemetryAudit(provider)(event)
    span = _span(exporter)
    assert span.end_time == round(event.time * 1e9)
    assert span.start_time is not None and span.end_time is not None
    assert span.end_time - span.start_time == 1_500_000_000


@pytest.mark.parametrize("outcome", ["succeeded", "replayed", "reconciled"])
def test_a_call_that_did_its_work_leaves_the_status_unset(
    provider: TracerProvider, exporter: InMemorySpanExporter, outcome: str
) -> None:
    OpenTelemetryAudit(provider)(_event(outcome=outcome))
    span = _span(exporter)
    assert span.status.status_code is StatusCode.UNSET
    assert "error.type" not in (span.attributes or {})


@pytest.mark.parametrize(
    ("outcome", "code", "error"),
    [
        ("refused", "denied", "denied"),
        ("refused", "held_for_review", "held_for_review"),
        ("failed", None, "failed"),
        ("timeout", None, "timeout"),
        ("unknown_outcome", None, "unknown_outcome"),
    ],
)
def test_a_call_that_did_not_is_an_error(
    provider: TracerProvider,
    exporter: InMemorySpanExporter,
    outcome: str,
    code: str | None,
    error: str,
) -> None:
    OpenTelemetryAudit(provider)(_event(outcome=outcome, code=code, digest=None))
    span = _span(exporter)
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description == error
    attributes = dict(span.attributes or {})
    assert attributes["error.type"] == error
    assert attributes["standard_tool.outcome"] == outcome
    assert attributes.get("standard_tool.code") == code
    assert "standard_tool.digest" not in attributes  # no attribute for a value that is None


def test_extra_attributes_are_under_the_projects_prefix(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    class Opaque:
        def __repr__(self) -> str:
            return "secret-token"

    attributes = {
        "attempt": 2,
        "cached": False,
        "ratio": 0.5,
        "tags": ["a", "b"],
        "limits": {"calls": 3},
        "mixed": [1, "a"],
        "empty": None,
        "opaque": Opaque(),
        "outcome": "overridden?",
    }
    OpenTelemetryAudit(provider)(_event(attributes=attributes))
    recorded = dict(_span(exporter).attributes or {})
    assert recorded["standard_tool.attempt"] == 2
    assert recorded["standard_tool.cached"] is False
    assert recorded["standard_tool.ratio"] == 0.5
    assert recorded["standard_tool.tags"] == ("a", "b")
    assert recorded["standard_tool.limits"] == '{"calls":3}'
    assert recorded["standard_tool.mixed"] == '[1,"a"]'
    assert recorded["standard_tool.opaque"] == "<not JSON: Opaque>"
    assert "standard_tool.empty" not in recorded
    assert recorded["standard_tool.outcome"] == "succeeded"  # the event's own fields win
    assert "secret-token" not in repr(recorded)


def test_the_span_is_a_child_of_the_current_span(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    sink = OpenTelemetryAudit(provider)
    with provider.get_tracer("agent").start_as_current_span("invoke_agent") as parent:
        sink(_event())
    child, outer = exporter.get_finished_spans()
    assert child.parent is not None
    assert child.parent.span_id == parent.get_span_context().span_id
    assert child.context is not None and outer.context is not None
    assert child.context.trace_id == outer.context.trace_id


def test_without_a_provider_the_global_one_is_used(
    provider: TracerProvider, exporter: InMemorySpanExporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: provider)
    OpenTelemetryAudit()(_event())
    assert _span(exporter).name == "execute_tool search"
