"""The execution boundary between a model's proposal and its effect (work in progress)."""

from ._audit import JsonlAudit, LoggingAudit
from ._otel import OpenTelemetryAudit

__all__ = ["JsonlAudit", "LoggingAudit", "OpenTelemetryAudit"]
