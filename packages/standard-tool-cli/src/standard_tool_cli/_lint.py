"""Which findings of ``lint`` count: those of the targets ``--target`` names, less those
``--ignore`` and ``--ignore-file`` accept, failing at the level of ``--fail-on``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from standard_tool.checks import installed_targets
from standard_tool.contracts import LINT_RULES, NAME_RULES, Finding
from standard_tool.dialects import dialects

from ._errors import CommandError, did_you_mean

__all__ = ["LEVELS", "Accepted", "accepted", "failing", "kept", "lint_targets"]

LEVELS = ("error", "warning", "info")
"""The levels of a lint finding, the gravest first."""


@dataclass(frozen=True)
class Accepted:
    """A finding accepted (``--ignore RULE[:TOOL]``): every finding of ``rule``, or of
    ``rule`` about ``tool``."""

    rule: str
    tool: str | None = None

    def accepts(self, finding: Finding) -> bool:
        return finding.rule == self.rule and self.tool in (None, finding.tool)


def lint_targets(given: Sequence[str]) -> frozenset[str]:
    """The targets of ``--target NAME`` (repeatable), each one a lint finding may name: an
    installed target, a JSON Schema dialect, or a target whose name rule or limit the lint
    reads; a usage error for another."""
    known = sorted(
        {*installed_targets(), *dialects(), *(rule.target for rule in NAME_RULES), "llama-index"}
    )
    for name in given:
        if name not in known:
            raise CommandError(
                f"--target {name!r} is not a target or a dialect the lint knows; known: "
                f"{', '.join(known)}{did_you_mean(name, known)}"
            )
    return frozenset(given)


def kept(finding: Finding, targets: frozenset[str]) -> bool:
    """Whether ``finding`` concerns one of ``targets`` or none (all of them when none are
    named)."""
    return not targets or finding.target is None or finding.target in targets


def accepted(given: Iterable[str], path: str | None) -> list[Accepted]:
    """What ``--ignore RULE[:TOOL]`` (repeatable) and the lines of ``--ignore-file PATH``
    accept: one a line, ``#`` starting a comment, blank lines skipped."""
    found = [_accepted(spec, "--ignore") for spec in given]
    if path is None:
        return found
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        why = getattr(error, "strerror", None) or "not UTF-8 text"
        raise CommandError(
            f"--ignore-file {path!r}: cannot read the file ({why}); give a text file of "
            "RULE[:TOOL] lines"
        ) from None
    for number, line in enumerate(text.splitlines(), start=1):
        spec = line.partition("#")[0].strip()
        if spec:
            found.append(_accepted(spec, f"--ignore-file {path!r} line {number}"))
    return found


def _accepted(spec: str, where: str) -> Accepted:
    rule, colon, tool = spec.strip().partition(":")
    if rule not in LINT_RULES:
        rules = sorted(LINT_RULES)
        raise CommandError(
            f"{where}: no lint rule {rule!r}; write RULE[:TOOL], RULE one of "
            f"{', '.join(rules)}{did_you_mean(rule, rules)}"
        )
    if colon and not tool:
        raise CommandError(f"{where}: {spec!r} names no tool after ':'; write RULE or RULE:TOOL")
    return Accepted(rule, tool or None)


def failing(findings: Iterable[Finding], fail_on: str) -> bool:
    """Whether a finding of ``findings`` is at level ``fail_on`` or a graver one."""
    graver = LEVELS[: LEVELS.index(fail_on) + 1]
    return any(finding.level in graver for finding in findings)
