"""``assert_conforms``: every check of a tool, failing with the reasons of those that fail;
``assert_compatible``: tools against their committed snapshot, failing on a breaking change."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from standard_tool import adopt
from standard_tool.checks import CheckResult, Probe, check_tool, failures
from standard_tool.contracts import Diff, diff_tools, load_snapshot

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_TIMEOUT",
    "assert_compatible",
    "assert_conforms",
    "describe_breaking",
    "describe_failures",
]

DEFAULT_SAMPLES = 5
"""Inputs generated from a tool's schema, at most, until a direct call accepts one."""
DEFAULT_TIMEOUT = 30.0
"""Seconds each step of a check (a conversion, a framework's call) may take."""


def assert_conforms(
    tool: Any,
    targets: Sequence[str] | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    timeout: float | None = DEFAULT_TIMEOUT,
    probed: Probe | None = None,
    inputs: Iterable[Any] | None = None,
) -> list[CheckResult]:
    """Check that ``tool`` behaves the same through each of ``targets`` (default: every
    installed target, the direct call ``"standard"`` first) and return every result.

    ``tool`` is a standard tool or anything :func:`standard_tool.adopt` takes (a framework's
    tool). ``inputs``, when given, are the inputs to call it with, tried in order until one
    runs (none is then made from its schema). Raises :class:`AssertionError` listing each
    failed check with its reason, a ``call`` that no input ran among them; checks an
    export-only target cannot run are skipped, not failed
    (:func:`standard_tool.checks.check_tool` says which run).
    """
    results = check_tool(
        adopt(tool), targets, samples=samples, timeout=timeout, probed=probed, inputs=inputs
    )
    failed = failures(results)
    if failed:
        raise AssertionError(describe_failures(results))
    return results


def describe_failures(results: Sequence[CheckResult]) -> str:
    """The failed checks among ``results``, one per line, after a count."""
    failed = failures(results)
    names = sorted({result.tool for result in failed})
    lines = [
        f"{', '.join(repr(name) for name in names)}: {len(failed)} of {len(results)} checks failed"
    ]
    lines += [f"  {result}" for result in failed]
    return "\n".join(lines)


def assert_compatible(
    tools: Any, snapshot: str | os.PathLike[str] | Mapping[str, Any] = "tools.lock.json"
) -> Diff:
    """Check that ``tools`` (anything :func:`standard_tool.contracts.snapshot` takes) break
    no caller or reader of the tools ``snapshot`` (a snapshot file, or one loaded) recorded,
    and return the diff (:func:`standard_tool.contracts.diff_tools`).

    Raises :class:`AssertionError` listing each breaking finding (a tool removed or renamed,
    an input refused now that was valid before, an output possible now that was not);
    compatible and info findings pass. A snapshot that cannot be read is a
    :class:`~standard_tool.exceptions.UsageError`.
    """
    found = diff_tools(load_snapshot(snapshot), tools)
    if found.breaking:
        where = "the snapshot" if isinstance(snapshot, Mapping) else os.fspath(snapshot)
        raise AssertionError(describe_breaking(found, where))
    return found


def count(number: int, noun: str) -> str:
    """``number`` and ``noun``, in the plural unless there is one: "1 tool", "3 tools"."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def describe_breaking(found: Diff, where: str) -> str:
    """The breaking findings of ``found``, one per line, after a count."""
    lines = [f"{count(len(found.breaking), 'breaking change')} against {where}:"]
    lines += [
        f"  {f.tool}: {f.rule} at {f.pointer or '(the tool)'}: {f.message}" for f in found.breaking
    ]
    return "\n".join(lines)
