"""Where the command's JSON goes: stdout, which under ``--json`` holds that one document."""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

from ._render import print_json

__all__ = ["DOCUMENT", "Document"]


class Document:
    """Where the command's JSON goes: stdout. Under ``--json`` (:meth:`divert`), stdout
    holds that one document only: everything else written to it, by Python or at the file
    descriptor (a tool's ``print()``, a SOURCE that prints while loading, a subprocess),
    goes to stderr."""

    def __init__(self) -> None:
        self.stream: TextIO | None = None
        """The saved stdout, once diverted."""

    def divert(self) -> None:
        sys.stdout.flush()
        try:
            out = sys.stdout.fileno()
            saved: TextIO = os.fdopen(os.dup(out), "w", encoding=sys.stdout.encoding or "utf-8")
            os.dup2(sys.stderr.fileno(), out)
        except (AttributeError, OSError, ValueError):  # no file descriptors (in-process)
            saved = sys.stdout
        self.stream = saved
        sys.stdout = sys.stderr

    def print(self, value: Any) -> None:
        print_json(value, file=self.stream)

    def flush(self) -> None:
        for stream in (self.stream, sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass


DOCUMENT = Document()
"""The process's one document."""
