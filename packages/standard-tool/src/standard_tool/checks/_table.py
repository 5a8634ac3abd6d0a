"""The words of a tool x target table of results, the same in ``standard-tool check`` and the
``pytest-standard-tool`` plugin."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from .._protocols import Runtime
from ..plugins._registry import runtime
from ._checks import CHECKS, DESCRIPTIONS, DIRECT, CheckResult, Status

__all__ = ["failed", "heading", "legend", "normalisation", "skipped", "tally"]

_WORDS: dict[Status, str] = {"fail": "FAIL", "pass": "pass", "skip": "skip"}
"""How a table of results writes each status, a failure first and in capitals."""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def heading(tools: int, targets: int) -> str:
    """The title of a tool x target table of results: what was checked."""
    return f"Checked {_plural(tools, 'tool')} x {_plural(targets, 'target')}: {', '.join(CHECKS)}"


def tally(results: Iterable[CheckResult], separator: str = ", ") -> str:
    """The cell of one tool and target in a table of results: how many checks failed,
    passed and were skipped, e.g. ``pass 3, skip 2`` (``-`` when none ran)."""
    counts = Counter(result.status for result in results)
    shown = [f"{word} {counts[status]}" for status, word in _WORDS.items() if counts[status]]
    return separator.join(shown) or "-"


def normalisation(target: str, runtimes: Mapping[str, Runtime | None] | None = None) -> str:
    """What ``target``'s framework makes of a result before the model reads it, in words (its
    runtime's ``normalisation``; empty: nothing). The runtime is ``runtimes[target]`` when
    given, else the one its adapter registers."""
    try:
        registered = (runtimes or {})[target] if target in (runtimes or {}) else runtime(target)
    except Exception:  # an unknown target, or an adapter that fails: nothing to say
        return ""
    words = getattr(registered, "normalisation", "")
    return words if isinstance(words, str) else ""


def legend(
    targets: Iterable[str] = (), *, runtimes: Mapping[str, Runtime | None] | None = None
) -> list[str]:
    """The lines that explain a table of results whose columns are ``targets``: the checks a
    cell counts, what its words mean, and the targets whose results are compared after their
    framework's normalisation (:func:`normalisation`, asked of ``runtimes`` as there)."""
    targets = list(targets)
    width = max(len(check) for check in CHECKS)
    lines = ["A cell counts the checks of one tool through one target:"]
    lines += [f"  {check.ljust(width)}  {DESCRIPTIONS[check]}" for check in CHECKS]
    lines.append(
        "call fails everywhere when no input runs directly, or its result breaks the output schema"
    )
    if DIRECT in targets:
        lines.append(
            f"{DIRECT}: the tool called directly, the reference for the other targets "
            "(call and refuse only)"
        )
    for target in targets:
        words = "" if target == DIRECT else normalisation(target, runtimes)
        if words:
            lines.append(f"{target}: compared as the model reads it: {words}")
    lines += [
        f"{_WORDS['pass']} N: N checks passed",
        f"{_WORDS['skip']} N: N checks do not apply to that target, each listed with the reason "
        "(not a failure)",
        f"{_WORDS['fail']} N: N checks failed, each listed with the reason",
    ]
    return lines


def _targets(
    results: Iterable[CheckResult], status: Status, key: Callable[[CheckResult], tuple[str, ...]]
) -> dict[tuple[str, ...], list[str]]:
    """The targets of the results of ``status``, in order, grouped by ``key``."""
    where: dict[tuple[str, ...], list[str]] = {}
    for result in results:
        if result.status == status:
            targets = where.setdefault(key(result), [])
            if result.target not in targets:
                targets.append(result.target)
    return where


def skipped(results: Iterable[CheckResult]) -> list[str]:
    """One line per reason checks were skipped, naming the checks and the targets."""
    where = _targets(results, "skip", lambda result: (result.check, result.reason))
    grouped: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for (check, reason), names in where.items():
        grouped.setdefault((reason, tuple(names)), []).append(check)
    lines = []
    for (reason, skipped_for), checks in grouped.items():
        checks.sort(key=lambda check: CHECKS.index(check) if check in CHECKS else len(CHECKS))
        lines.append(f"skipped {', '.join(checks)} for {', '.join(skipped_for)}: {reason}")
    return lines


def failed(results: Iterable[CheckResult]) -> list[str]:
    """One line per failure: the tool, the check, every target it failed through for the
    same reason, and that reason (``FAIL tool, check -> target, target: reason``)."""
    where = _targets(results, "fail", lambda result: (result.tool, result.check, result.reason))
    return [
        f"{_WORDS['fail']} {tool}, {check} -> {', '.join(targets)}: {reason}"
        for (tool, check, reason), targets in where.items()
    ]
