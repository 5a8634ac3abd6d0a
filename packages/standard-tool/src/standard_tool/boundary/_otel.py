"""The OpenTelemetry audit sink: one ``execute_tool`` span per call, as the GenAI semantic
conventions name it. ``opentelemetry-api`` (the ``otel`` extra) is imported when the sink is
made, never with this module."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..exceptions import UsageError
from ._audit import audit_record
from ._types import AuditEvent

if TYPE_CHECKING:
    from opentelemetry.trace import TracerProvider

__all__ = ["OpenTelemetryAudit"]

DONE = frozenset({"succeeded", "replayed", "reconciled"})
"""The outcomes of a call that did its work (or whose work was found done): every other
outcome sets the span's status to ``ERROR``."""

_OWN = (
    "outcome",
    "code",
    "actor",
    "tenant",
    "digest",
    "schema_digest",
    "approval_id",
    "approver",
    "effect_id",
)
"""The event's fields recorded as ``standard_tool.<field>`` attributes."""

_SCALARS = (str, bool, int, float)


class OpenTelemetryAudit:
    """Record each event as a span of ``tracer_provider`` (default: the global one), named
    ``execute_tool <tool>`` with kind ``INTERNAL``, as the OpenTelemetry GenAI semantic
    conventions have a tool's execution.

    Attributes: ``gen_ai.operation.name`` (``execute_tool``), ``gen_ai.tool.name``,
    ``gen_ai.tool.call.id`` (the request id), and the event's own fields under the
    ``standard_tool.`` prefix (``outcome``, ``code``, ``actor``, ``tenant``, ``digest``,
    ``schema_digest``, ``approval_id``, ``approver``, ``effect_id``; none for a value that is
    ``None``). The event's extra attributes go under the same prefix (the event's own fields
    win a clash): strings, numbers, booleans and lists of one of those as they are, anything
    else as JSON text. Never the arguments or the result.

    An outcome other than ``succeeded``, ``replayed`` or ``reconciled`` sets the status to
    ``ERROR`` and ``error.type`` to the refusal code, or else the outcome. The span starts
    ``duration`` seconds before the event's ``time`` and ends at it, under the span current
    when the sink is called.

    Raises:
        UsageError: ``opentelemetry-api`` is not installed (``pip install
            'standard-tool[otel]'``).
    """

    def __init__(self, tracer_provider: TracerProvider | None = None) -> None:
        try:
            from opentelemetry import trace
        except ImportError:
            raise UsageError(
                "OpenTelemetryAudit needs opentelemetry-api: pip install 'standard-tool[otel]'"
            ) from None
        self._trace = trace
        self._tracer = trace.get_tracer("standard_tool", tracer_provider=tracer_provider)

    def __call__(self, event: AuditEvent) -> None:
        trace = self._trace
        record = audit_record(event)
        attributes: dict[str, Any] = {}
        for key, value in record["attributes"].items():
            _put(attributes, f"standard_tool.{key}", value)
        for key in _OWN:
            attributes.pop(f"standard_tool.{key}", None)
            _put(attributes, f"standard_tool.{key}", record[key])
        attributes["gen_ai.operation.name"] = "execute_tool"
        attributes["gen_ai.tool.name"] = event.tool
        attributes["gen_ai.tool.call.id"] = event.request_id
        error = None if event.outcome in DONE else (event.code or event.outcome)
        if error is not None:
            attributes["error.type"] = error
        end = _nanoseconds(event.time)
        start = end - max(0, _nanoseconds(event.duration))
        span = self._tracer.start_span(
            f"execute_tool {event.tool}",
            kind=trace.SpanKind.INTERNAL,
            attributes=attributes,
            start_time=start,
        )
        if error is not None:
            span.set_status(trace.Status(trace.StatusCode.ERROR, error))
        span.end(end_time=end)

    def __repr__(self) -> str:
        return "OpenTelemetryAudit()"


def _put(attributes: dict[str, Any], key: str, value: Any) -> None:
    """Set ``key`` to ``value`` (JSON data) as an OpenTelemetry attribute value allows: a
    scalar or a list of one kind of scalar as it is, other data as JSON text, ``None`` not."""
    if value is None:
        return
    if isinstance(value, _SCALARS):
        attributes[key] = value
    elif (
        isinstance(value, list)
        and value
        and isinstance(value[0], _SCALARS)
        and all(type(item) is type(value[0]) for item in value)
    ):
        attributes[key] = tuple(value)
    else:
        attributes[key] = json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _nanoseconds(seconds: Any) -> int:
    """``seconds`` (a finite number, else 0) in whole nanoseconds."""
    if isinstance(seconds, (int, float)) and seconds - seconds == 0:
        return round(seconds * 1e9)
    return 0
