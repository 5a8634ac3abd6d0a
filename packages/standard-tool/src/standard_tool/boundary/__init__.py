"""The execution boundary between a model's proposal and its effect (work in progress)."""

from ._cedar import CedarPolicy

__all__ = ["CedarPolicy"]
