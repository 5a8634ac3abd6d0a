"""Tool names: rules per target, a validator, and a reversible sanitizer."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .exceptions import ToolNameError

__all__ = [
    "ANTHROPIC_NAMES",
    "GEMINI_NAMES",
    "HF_NAMES",
    "MCP_NAMES",
    "OPENAI_NAMES",
    "NameMap",
    "NameRule",
    "check_name",
    "sanitize_name",
]


@dataclass(frozen=True, slots=True)
class NameRule:
    """What a target accepts as a tool name: allowed characters, first character, length."""

    target: str
    allowed: str
    """A regular-expression character class body, e.g. ``A-Za-z0-9_-``."""
    max_length: int
    first: str = ""
    """Character class body the first character must match (empty: same as ``allowed``)."""
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        first = self.first or self.allowed
        rest = f"[{self.allowed}]{{0,{self.max_length - 1}}}"
        object.__setattr__(self, "pattern", re.compile(f"[{first}]{rest}"))

    def accepts(self, name: str) -> bool:
        return self.pattern.fullmatch(name) is not None


MCP_NAMES = NameRule("mcp", "A-Za-z0-9._-", 128)
"""MCP (SEP-986)."""
OPENAI_NAMES = NameRule("openai", "a-zA-Z0-9_-", 64)
"""OpenAI function names."""
ANTHROPIC_NAMES = NameRule("anthropic", "a-zA-Z0-9_-", 64)
"""Anthropic tool names (some endpoints allow 128 characters; 64 is accepted by all)."""
HF_NAMES = NameRule("hf", "a-zA-Z0-9_-", 64)
"""Tools in open-model chat templates, which take the OpenAI shape (and its names)."""
GEMINI_NAMES = NameRule("gemini", "a-zA-Z0-9_.:-", 64, first="a-zA-Z_")
"""Gemini function declarations (Vertex's 64-character limit)."""


def check_name(name: str, rule: NameRule) -> str:
    """Return ``name`` if ``rule`` accepts it, else raise :class:`ToolNameError`."""
    if not rule.accepts(name):
        raise ToolNameError(
            f"tool name {name!r} is not valid for {rule.target}: it must match "
            f"{rule.pattern.pattern}"
        )
    return name


def sanitize_name(name: str, rule: NameRule) -> str:
    """A name ``rule`` accepts, made from ``name``; unchanged when it is already valid.

    Disallowed characters become ``_``; a name too long keeps its start and gains a short
    hash of the original, so different long names stay different.
    """
    if rule.accepts(name):
        return name
    allowed = re.compile(f"[^{rule.allowed}]")
    clean = allowed.sub("_", name) or "_"
    if not re.fullmatch(f"[{rule.first or rule.allowed}]", clean[0]):
        clean = "_" + clean
    if len(clean) > rule.max_length:
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        clean = f"{clean[: rule.max_length - 9]}_{digest}"
    return clean


class NameMap:
    """Original names and their sanitized forms for one target, both ways.

    Two tools with the same original name, or whose sanitized names coincide, raise
    :class:`ToolNameError`: nothing is overwritten silently.
    """

    def __init__(self, rule: NameRule, names: Iterable[str] = ()) -> None:
        self.rule = rule
        self._to_target: dict[str, str] = {}
        self._to_original: dict[str, str] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> str:
        """Register ``name``; return its sanitized form."""
        if name in self._to_target:
            raise ToolNameError(f"two tools are named {name!r}")
        sanitized = sanitize_name(name, self.rule)
        other = self._to_original.get(sanitized)
        if other is not None:
            raise ToolNameError(
                f"tool names {other!r} and {name!r} both become {sanitized!r} for {self.rule.target}"
            )
        self._to_target[name] = sanitized
        self._to_original[sanitized] = name
        return sanitized

    def to_target(self, name: str) -> str:
        """The sanitized name of a registered original."""
        return self._to_target[name]

    def to_original(self, sanitized: str) -> str:
        """The original name behind a sanitized one (``KeyError`` if unknown)."""
        return self._to_original[sanitized]

    def __len__(self) -> int:
        return len(self._to_target)

    def __contains__(self, name: object) -> bool:
        return name in self._to_target
