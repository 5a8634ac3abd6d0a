"""Output: JSON on stdout, rich tables for people, one-line errors on stderr."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from standard_tool.checks import CheckResult, failed, failures, heading, legend, skipped, tally
from standard_tool.contracts import Diff, Finding

__all__ = [
    "arguments_summary",
    "check_report",
    "console",
    "count",
    "diff_report",
    "lint_report",
    "print_json",
    "summary",
]


def print_json(value: Any, file: TextIO | None = None) -> None:
    """``value`` as indented JSON on stdout, or ``file`` (non-ASCII kept, so names read as
    written)."""
    stream = sys.stdout if file is None else file
    stream.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
    stream.flush()


def console(stderr: bool = False) -> Any:
    """A rich console on stdout (or stderr), as wide as the terminal or ``COLUMNS`` (120
    columns otherwise)."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    sized = stream.isatty() or os.environ.get("COLUMNS", "").isdigit()
    return Console(file=stream, width=None if sized else 120, soft_wrap=False)


def summary(text: str | None) -> str:
    """The first line of a description."""
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def _type_of(schema: Any) -> str:
    if not isinstance(schema, Mapping):
        return "any"
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return "|".join(json.dumps(value) for value in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind == "array":
        return f"array[{_type_of(schema.get('items'))}]"
    if kind:
        return f"{kind} ({schema['format']})" if "format" in schema else str(kind)
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    for combiner in ("anyOf", "oneOf"):
        if isinstance(schema.get(combiner), list):
            return "|".join(_type_of(option) for option in schema[combiner])
    return "any"


def arguments_summary(schema: Mapping[str, Any]) -> str:
    """One line per argument: ``name*: type = default`` (``*``: required)."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return "(none)" if schema.get("type") == "object" else _type_of(schema)
    required = set(schema.get("required") or ())
    lines = []
    for name, sub in properties.items():
        line = f"{name}{'*' if name in required else ''}: {_type_of(sub)}"
        if isinstance(sub, Mapping) and "default" in sub:
            line += f" = {json.dumps(sub['default'])}"
        lines.append(line)
    return "\n".join(lines)


def check_report(
    tools: Sequence[str], targets: Sequence[str], results: Sequence[CheckResult]
) -> None:
    """The results of ``standard-tool check`` on stdout: a title, a tool x target table that
    fits the console without cutting a name, what its cells mean, each failure and skip with
    its reason (one line for a reason several targets share), and the counts."""
    from rich.text import Text

    out = console()
    out.print(Text(heading(len(tools), len(targets)), style="bold"))
    out.print(_table(out, tools, targets, results))
    for line in legend(targets):
        out.print(line, markup=False, style="dim", highlight=False, soft_wrap=True)
    for line in failed(results):  # each on one line, whatever the width, for grep
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    for line in skipped(results):
        out.print(line, markup=False, style="dim", highlight=False, soft_wrap=True)
    passed = sum(result.status == "pass" for result in results)
    fails = len(failures(results))
    out.print(
        f"{passed} checks passed, {fails} failed, {len(results) - passed - fails} skipped",
        markup=False,
        highlight=False,
    )


_UNBOUNDED = 1_000_000
"""A console width no table reaches: what a table measures when nothing wraps."""


def _cell(text: str) -> Any:
    from rich.text import Text

    cell = Text(text)
    for word, style in (("FAIL", "bold red"), ("pass", "green"), ("skip", "dim")):
        cell.highlight_words([word], style)
    return cell


def _table(
    out: Any, tools: Sequence[str], targets: Sequence[str], results: Sequence[CheckResult]
) -> Any:
    """The first table that fits ``out`` without cutting a name: a row per tool and a column
    per target, each cell on one line, then a line per status; a row per target and a column
    per tool; else a row per tool and target."""
    from rich.measure import Measurement
    from rich.table import Table

    def cell(tool: str, target: str, separator: str = ", ") -> Any:
        mine = [r for r in results if r.tool == tool and r.target == target]
        return _cell(tally(mine, separator))

    for by_tool, separator in ((True, ", "), (True, "\n"), (False, ", ")):
        rows, columns = (tools, targets) if by_tool else (targets, tools)
        table = Table("tool" if by_tool else "target", *columns, show_lines=separator == "\n")
        for header in table.columns:
            header.no_wrap = True
        for row in rows:
            table.add_row(
                row,
                *(
                    cell(row, column, separator) if by_tool else cell(column, row, separator)
                    for column in columns
                ),
            )
        if Measurement.get(out, out.options.update_width(_UNBOUNDED), table).maximum <= out.width:
            return table
    table = Table("tool", "target", "checks")
    for header in table.columns:
        header.overflow = "fold"
    for tool in tools:
        for index, target in enumerate(targets):
            table.add_row(tool, target, cell(tool, target), end_section=index == len(targets) - 1)
    return table


_LEVEL_STYLES = {"error": "bold red", "warning": "yellow", "info": "dim"}
_LEVEL_ORDER = {"error": 0, "warning": 1, "info": 2}


def lint_report(tools: int, findings: Sequence[Finding], ignored: int = 0) -> None:
    """The findings of ``standard-tool lint`` on stdout, one line each (whatever the width,
    for grep): level, tool, pointer, rule, the targets it concerns (one line for a finding
    that several targets share), message; the gravest first, then the counts per level, and
    of the findings accepted (``ignored``)."""
    from rich.text import Text

    rows: dict[tuple[str, str, str, str, str], list[str]] = {}
    for found in findings:
        key = (found.tool, found.level, found.pointer, found.rule, found.message)
        targets = rows.setdefault(key, [])
        if found.target is not None:
            targets.append(found.target)
    out = console()
    ordered = sorted(rows.items(), key=lambda item: (item[0][0], _LEVEL_ORDER[item[0][1]]))
    for (tool, level, pointer, rule, message), targets in ordered:
        line = Text(f"{level:<7}", style=_LEVEL_STYLES[level])
        where = f" [{', '.join(targets)}]" if targets else ""
        line.append(f" {tool} {pointer or '/'} {rule}{where}: {message}")
        out.print(line, highlight=False, soft_wrap=True)
    counts = {level: sum(f.level == level for f in findings) for level in _LEVEL_ORDER}
    text = (
        f"{count(tools, 'tool')} linted: {count(counts['error'], 'error')}, "
        f"{count(counts['warning'], 'warning')}, {counts['info']} info"
    )
    out.print(text + (f", {ignored} ignored" if ignored else ""), markup=False, highlight=False)


def count(number: int, word: str) -> str:
    """``1 tool``, ``2 tools``: ``number`` and ``word``, made plural with -s unless one."""
    return f"{number} {word}{'' if number == 1 else 's'}"


_DIFF_STYLES = {"breaking": "bold red", "compatible": "yellow", "info": "dim"}


def diff_report(found: Diff) -> None:
    """The results of ``standard-tool diff`` on stdout: one line per finding, whatever the
    width (a JSON pointer is never cut): level (``BREAKING`` in capitals), tool, pointer
    (``-`` for the tool as a whole), rule and what changed; then a count per level."""
    from rich.text import Text

    out = console()
    if not found.findings:
        out.print("No change.")
        return
    for finding in found.findings:
        level = finding.level.upper() if finding.level == "breaking" else finding.level
        line = Text(f"{level:<10}", style=_DIFF_STYLES.get(finding.level, ""))
        line.append(f" {finding.tool} {finding.pointer or '-'} {finding.rule}: {finding.message}")
        out.print(line, highlight=False, soft_wrap=True)
    counts = {level: 0 for level in ("breaking", "compatible", "info")}
    for finding in found.findings:
        counts[finding.level] += 1
    out.print(", ".join(f"{number} {level}" for level, number in counts.items()), markup=False)
