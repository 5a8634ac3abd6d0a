"""``snapshot``, ``lint`` and ``diff``: the tools of a SOURCE as a contract, where they leave
what every provider reads alike, and what changed between two versions of them."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click

from standard_tool.contracts import (
    LINT_RULES,
    diff_tools,
    dump_snapshot,
    lint_tools,
    load_snapshot,
    snapshot,
)

from ._document import DOCUMENT
from ._errors import FAILED, CommandError
from ._lint import LEVELS, Accepted, accepted, failing, kept, lint_targets
from ._options import (
    SOURCE_HELP,
    debug_option,
    described,
    json_option,
    open_tools,
    server_options,
    timeout_option,
)
from ._render import count, diff_report, lint_report

__all__ = ["diff", "lint", "snapshot_"]


@click.command(
    "snapshot",
    epilog="""\b
Examples:
  standard-tool snapshot examples/weather.py:TOOLS -o tools.lock.json
  standard-tool snapshot 'mcp+stdio:uvx mcp-server-time' -o time.lock.json
  standard-tool list 'mcp+stdio:uvx mcp-server-time' --pin time.lock.json""",
)
@click.argument("source")
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    help="Write the snapshot to FILE (default: print it).",
)
@server_options
@timeout_option
@debug_option
def snapshot_(source: str, output: str | None, timeout: float) -> None:
    """Every tool SOURCE holds, with its description, schemas and digests: sorted JSON, the
    same text for the same tools (commit it; `--pin` holds a source to it, `diff` compares)."""
    with ExitStack() as stack:
        taken = snapshot(open_tools(source, stack, timeout))
    text = dump_snapshot(taken)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot write {output!r}: {error.strerror or error}", FAILED) from None
    click.echo(f"{output}: {count(len(taken['tools']), 'tool')}", err=True)


@click.command(
    epilog="""\b
Examples:
  standard-tool lint examples/weather.py:TOOLS
  standard-tool lint examples/weather.py:TOOLS --json
  standard-tool lint 'mcp+stdio:uvx mcp-server-time' --target openai --fail-on warning
  standard-tool lint my_tools.py:TOOLS --ignore lint/name-renamed:fetch.report \\
    --ignore-file lint-ignore.txt"""
)
@click.argument("source")
@click.option(
    "--target",
    "only",
    multiple=True,
    metavar="NAME",
    help="Keep only the findings that concern this target or dialect, and those that concern "
    "none (repeatable).",
)
@click.option(
    "--fail-on",
    type=click.Choice(LEVELS),
    default="error",
    show_default=True,
    help="Exit 1 when a finding at this level or a graver one remains.",
)
@click.option(
    "--ignore",
    "ignores",
    multiple=True,
    metavar="RULE[:TOOL]",
    help="Accept the findings of RULE (of TOOL only, when given): they are left out (repeatable).",
)
@click.option(
    "--ignore-file",
    metavar="PATH",
    help="A file of RULE[:TOOL] lines to accept, as --ignore does ('#' starts a comment).",
)
@json_option
@server_options
@timeout_option
@debug_option
def lint(
    source: str,
    only: tuple[str, ...],
    fail_on: str,
    ignores: tuple[str, ...],
    ignore_file: str | None,
    as_json: bool,
    timeout: float,
) -> None:
    """Where the tools of SOURCE leave what every provider and framework reads alike.

    For each tool: its name against each target's name rule, its description (missing, too
    long for LlamaIndex), parameters without a description, `required` naming an undeclared
    property, credentials and internal hosts in anything a model is shown, and what each
    provider's dialect (openai, openai-strict, anthropic, gemini, gemini-json-schema, hf)
    does to its input schema: a keyword rewritten, written into the description, dropped, or
    refused. Each finding has a rule id, a level (error, warning, info), a JSON Pointer into
    the tool's snapshot entry and, when it concerns one, the target.

    `--target` keeps the findings that concern the targets named, and those that concern no
    target; `--ignore RULE[:TOOL]` and `--ignore-file` accept findings, which are then left
    out and counted apart. Exits 1 when a finding at the level of `--fail-on` (default:
    error) or a graver one remains.
    """
    rules = lint_targets(only)
    accepting = accepted(ignores, ignore_file)
    with ExitStack() as stack:
        tools = open_tools(source, stack, timeout)
        found = lint_tools(tools)
    concerned = [finding for finding in found if kept(finding, rules)]
    findings = [finding for finding in concerned if not _matches(finding, accepting)]
    ignored = [finding for finding in concerned if _matches(finding, accepting)]
    failed = failing(findings, fail_on)
    if as_json:
        DOCUMENT.print(
            {
                "source": source,
                "passed": not failed,
                "fail_on": fail_on,
                "targets": list(only) or None,
                "counts": {level: sum(f.level == level for f in findings) for level in LEVELS},
                "rules": {
                    rule: {"level": level, "summary": text}
                    for rule, (level, text) in LINT_RULES.items()
                },
                "findings": [finding.to_dict() for finding in findings],
                "ignored": [finding.to_dict() for finding in ignored],
            }
        )
    else:
        lint_report(len(tools), findings, len(ignored))
    if failed:
        sys.exit(FAILED)


def _matches(finding: Any, accepting: list[Accepted]) -> bool:
    return any(one.accepts(finding) for one in accepting)


@click.command(
    epilog="""\b
Examples:
  standard-tool diff tools.lock.json examples/weather.py:TOOLS
  standard-tool diff tools.lock.json 'mcp+stdio:uvx mcp-server-time' --fail-on breaking
  standard-tool diff old.lock.json new.lock.json --json"""
)
@click.argument("old")
@click.argument("new")
@click.option(
    "--fail-on",
    type=click.Choice(["breaking", "compatible"]),
    help="Exit 1 when a breaking change is found (breaking), or any change but a description, "
    "a title, an annotation or meta (compatible).",
)
@json_option
@server_options
@timeout_option
@debug_option
def diff(old: str, new: str, fail_on: str | None, as_json: bool, timeout: float) -> None:
    """What changed from the tools of OLD to those of NEW, and whether it breaks callers.

    Each of OLD and NEW is a SOURCE or a snapshot file (a `.json` file whose `format` is
    `standard-tool-snapshot/1`, as `standard_tool.contracts.dump_snapshot` writes it). Lists
    the tools added, removed and renamed, and each change of a schema, a description or the
    meta as a finding, one a line: its level, breaking (an input refused now that was valid
    before, an output possible now that was not), compatible or info; the tool; the JSON
    pointer where it is (`-` for the tool as a whole); its rule (see CONTRACTS.md,
    `## Diff rules`); and what changed.
    """
    with ExitStack() as stack:
        found = diff_tools(_side(old, stack, timeout), _side(new, stack, timeout))
    levels = {finding.level for finding in found.findings}
    failed = bool(
        fail_on and ("breaking" in levels or (fail_on == "compatible" and levels - {"info"}))
    )
    if as_json:
        DOCUMENT.print(
            {"old": old, "new": new, "fail_on": fail_on, "failed": failed, **found.to_dict()}
        )
    else:
        diff_report(found)
    if failed:
        sys.exit(FAILED)


def _side(source: str, stack: ExitStack, timeout: float) -> dict[str, Any]:
    """A snapshot of OLD or NEW: a snapshot file read back, or one taken of SOURCE's tools."""
    if source.endswith(".json") and Path(source).is_file():
        return load_snapshot(source)
    return snapshot(open_tools(source, stack, timeout))


for _command in (snapshot_, lint, diff):
    described(_command, SOURCE_HELP)
