"""One finding of a contract check: the breaking-change diff and the portability lint say what
they found in the same shape."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["Finding"]


@dataclass(frozen=True)
class Finding:
    """One thing a contract check found about one tool.

    ``rule`` is the rule's id (each rule is documented in the table of its check); ``pointer``
    is a JSON pointer into the tool's snapshot entry (``/input_schema/properties/city``,
    ``/description``; ``""`` for the tool as a whole); ``level`` is, for the diff,
    ``breaking``, ``compatible`` or ``info``, and for the lint ``error``, ``warning`` or
    ``info``; ``target`` names the provider or framework a lint finding concerns.
    """

    rule: str
    tool: str
    pointer: str
    level: str
    message: str
    target: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
