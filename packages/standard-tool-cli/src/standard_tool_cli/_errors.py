"""The command line's own error: one line for stderr, and the exit status."""

from __future__ import annotations

__all__ = ["FAILED", "USAGE", "CommandError"]

FAILED = 1
"""Exit status when a tool or a check fails."""
USAGE = 2
"""Exit status when the command is used wrongly (bad SOURCE, unknown tool, bad JSON...)."""


class CommandError(Exception):
    """What went wrong, where, and how to fix it, for one line on stderr."""

    def __init__(self, message: str, status: int = USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
