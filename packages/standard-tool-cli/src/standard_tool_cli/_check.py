"""``check``: every tool of a SOURCE through every installed target's runtime."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from typing import Any

import click

from standard_tool.checks import (
    CHECKS,
    DESCRIPTIONS,
    DIRECT,
    CheckResult,
    check_tool,
    installed_targets,
)

from ._document import DOCUMENT
from ._errors import FAILED, CommandError, did_you_mean
from ._options import (
    SOURCE_HELP,
    debug_option,
    described,
    json_option,
    json_value,
    open_tools,
    server_options,
    timeout_option,
)
from ._render import check_report, console, count

__all__ = ["check"]


@click.command(
    epilog="""\b
Examples:
  standard-tool check examples/weather.py:TOOLS
  standard-tool check examples/weather.py:TOOLS --target langchain --target mcp
  standard-tool check 'mcp+stdio:uvx mcp-server-time' \\
    --input get_current_time='{"timezone": "Europe/Paris"}' \\
    --input convert_time=@convert_time.json
  standard-tool check 'mcp+stdio:uvx mcp-server-time' --json"""
)
@click.argument("source")
@click.option(
    "--target",
    "-t",
    "only",
    multiple=True,
    help="Check only this target (repeatable; default: every installed one).",
)
@click.option(
    "--input",
    "given",
    multiple=True,
    metavar="TOOL=JSON",
    help="An input to call TOOL with, as JSON (@path reads a file, - reads stdin); repeatable, "
    "tried in order: a tool given inputs is called with those only.",
)
@click.option(
    "--samples",
    type=click.IntRange(1, 50),
    default=5,
    show_default=True,
    help="Inputs made from a tool's schema tried, at most, until one runs.",
)
@json_option
@server_options
@timeout_option
@debug_option
def check(
    source: str,
    only: Sequence[str],
    given: Sequence[str],
    samples: int,
    as_json: bool,
    timeout: float,
) -> None:
    """Run every tool of SOURCE through every installed target; print what passed.

    For each tool, the direct call (the `standard` target) is tried with the inputs `--input`
    gives for it, in order, and only those; without any, with inputs made from its input
    schema: first the values the schema gives (`examples`, `default`, `const`, `enum`,
    property by property), then hypothesis-jsonschema's draws, the same on every run. The
    first input that runs is the one compared, and an input the schema refuses is derived
    from it. Then, through each target's own runtime:

    {checks}

    When no input runs directly, `call` fails directly and through every target with one
    reason, which says what was tried: give an input that runs with `--input TOOL=JSON`. A
    result that breaks the tool's output schema fails `call` the same way. A result is
    compared as the model reads it: a text result as its text, after what the framework does
    to every result (the legend names such targets). A target that cannot run a tool skips
    the checks it cannot run, saying why.

    A cell of the table counts the checks of a tool through a target by outcome (`pass 5`,
    `pass 3, skip 2`, `FAIL 1, pass 4`); a check that does not apply to a target is skipped,
    not failed, and each failure and skip is listed with its reason, a reason shared by
    several targets once. While it works, a line per tool and target goes to stderr (a
    progress bar on a terminal). Exits 1 when any check fails.
    """
    installed = installed_targets()
    unknown = [name for name in only if name not in installed]
    if unknown:
        raise CommandError(
            f"--target {unknown[0]!r} is not installed; installed targets: "
            f"{', '.join(installed)}{did_you_mean(unknown[0], installed)}"
        )
    names = [name for name in installed if not only or name in only]
    inputs = _given_inputs(given)
    with ExitStack() as stack:
        tools = open_tools(source, stack, timeout)
        _known_tools(inputs, tools)
        results = _checked(tools, names, samples, timeout, inputs)
    failures = [r for r in results if r.status == "fail"]
    if as_json:
        DOCUMENT.print(
            {
                "source": source,
                "targets": names,
                "checks": list(CHECKS),
                "passed": not failures,
                "results": [vars(r) for r in results],
            }
        )
    else:
        check_report([tool.name for tool in tools], names, results)
    if failures:
        sys.exit(FAILED)


def _given_inputs(given: Sequence[str]) -> dict[str, list[Any]]:
    """The inputs ``--input TOOL=JSON`` gives, by tool, in order."""
    inputs: dict[str, list[Any]] = {}
    for spec in given:
        name, equals, text = spec.partition("=")
        if not equals or not name.strip():
            raise CommandError(
                f"--input {spec!r} names no tool; write --input TOOL=JSON, e.g. "
                '--input multiply=\'{"a": 6, "b": 7}\''
            )
        inputs.setdefault(name, []).append(json_value(text, f"--input {name}="))
    return inputs


def _known_tools(inputs: dict[str, list[Any]], tools: Sequence[Any]) -> None:
    """Refuse ``--input`` for a tool SOURCE does not hold."""
    names = [tool.name for tool in tools]
    unknown = [name for name in inputs if name not in names]
    if unknown:
        raise CommandError(
            f"--input {unknown[0]}=...: no tool {unknown[0]!r} in SOURCE; its tools: "
            f"{', '.join(names)}"
        )


def _checked(
    tools: Sequence[Any],
    names: Sequence[str],
    samples: int,
    timeout: float,
    inputs: dict[str, list[Any]],
) -> list[CheckResult]:
    """Every check of ``tools`` through ``names``, telling stderr how far it is: a progress
    bar on a terminal, else a first line, then a line as each tool is checked through each
    target."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    results: list[CheckResult] = []
    err = console(stderr=True)
    total = len(tools) * len(names)
    if not err.is_terminal:
        print(
            f"checking {count(len(tools), 'tool')} through {count(len(names), 'target')}",
            file=sys.stderr,
            flush=True,
        )
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("checking", total=total)
        for tool in tools:
            progress.update(task, description=f"{tool.name}: calling it directly")

            def done(target: str, name: str = tool.name) -> None:
                progress.update(task, advance=1, description=f"{name}: {target} checked")
                if not err.is_terminal:
                    where = "directly" if target == DIRECT else f"through {target}"
                    completed = int(progress.tasks[0].completed)
                    print(
                        f"checked {name} {where} ({completed}/{total})",
                        file=sys.stderr,
                        flush=True,
                    )

            results += check_tool(
                tool,
                names,
                timeout=timeout,
                samples=samples,
                inputs=inputs.get(tool.name),
                progress=done,
            )
    return results


check.help = inspect.cleandoc(check.help or "").replace(
    "{checks}",
    "\n".join(f"`{name}`: {DESCRIPTIONS[name]}." for name in CHECKS).replace("\n", "\n\n"),
)
described(check, SOURCE_HELP)
