"""The execution boundary between a model's proposal and its effect (work in progress)."""

from ._audit import JsonlAudit, LoggingAudit

__all__ = ["JsonlAudit", "LoggingAudit"]
