"""The command line's own error: one line for stderr, and the exit status."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

__all__ = ["FAILED", "USAGE", "CommandError", "did_you_mean"]

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


def did_you_mean(name: str, known: Sequence[str]) -> str:
    """``; did you mean 'x'?`` when a name of ``known`` is close to ``name`` (a typo), else
    nothing."""
    close = difflib.get_close_matches(name, known, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""
