"""What ``standard-tool check`` prints for people, at the widths of real terminals, worded
as the core words it (``standard_tool.checks``), and the help of every command."""

from __future__ import annotations

import json
import re
import subprocess
from importlib.metadata import entry_points

import pytest
from script import ROOT, SOURCES, WEATHER, invoke, weather_report

from standard_tool.checks import CHECKS, DIRECT, CheckResult, heading, legend, skipped, tally
from standard_tool.registry import get_plugin_manager
from standard_tool_cli import cli


def run_at(width: int, *args: str) -> subprocess.CompletedProcess[str]:
    """``standard-tool ARGS...`` (in this process) with its output ``width`` columns wide
    (``COLUMNS``)."""
    return invoke(*args, env={"COLUMNS": str(width)})


def cells(text: str) -> dict[tuple[str, str], str]:
    """The cells of the table in ``text``, by tool and target, whatever its layout: a row
    per tool, a row per target, or a row per tool and target (a cell of several lines, one
    status a line, continues on the next lines under an empty first cell)."""
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("┃"))
    names = [cell.strip() for cell in header.strip("┃").split("┃")]
    rows: list[list[str]] = []
    for line in lines:
        if line.startswith("│"):
            parts = [cell.strip() for cell in line.strip("│").split("│")]
            if rows and not parts[0]:
                rows[-1] = [f"{a}, {b}" if b else a for a, b in zip(rows[-1], parts, strict=True)]
            else:
                rows.append(parts)
    found: dict[tuple[str, str], str] = {}
    for row in rows:
        if names[:2] == ["tool", "target"]:
            found[(row[0], row[1])] = row[2]
        elif names[0] == "tool":
            found.update(
                {(row[0], target): cell for target, cell in zip(names[1:], row[1:], strict=True)}
            )
        else:
            found.update(
                {(tool, row[0]): cell for tool, cell in zip(names[1:], row[1:], strict=True)}
            )
    return found


@pytest.fixture(scope="module")
def weather_results() -> list[CheckResult]:
    out = weather_report()
    assert out.returncode == 0, out.stderr
    return [CheckResult(**result) for result in json.loads(out.stdout)["results"]]


def expected_cells(results: list[CheckResult]) -> dict[tuple[str, str], str]:
    pairs = dict.fromkeys((result.tool, result.target) for result in results)
    return {
        (tool, target): tally(r for r in results if (r.tool, r.target) == (tool, target))
        for tool, target in pairs
    }


@pytest.mark.parametrize("width", [80, 120, 200])
def test_check_says_what_it_checked_with_full_names_at_any_width(
    weather_results: list[CheckResult], width: int
) -> None:
    out = run_at(width, "check", WEATHER)
    assert out.returncode == 0, out.stderr
    tools = list(dict.fromkeys(result.tool for result in weather_results))
    targets = list(dict.fromkeys(result.target for result in weather_results))
    assert targets[0] == DIRECT  # a column named as the plugin names it
    assert "…" not in out.stdout  # no name, no cell is cut
    assert " ".join(out.stdout.split()).startswith(heading(len(tools), len(targets)))
    assert cells(out.stdout) == expected_cells(weather_results)
    text = " ".join(out.stdout.split())
    for line in [*legend(targets), *skipped(weather_results)]:
        assert " ".join(line.split()) in text, line
    assert all(f"{check} " in text for check in CHECKS)


def test_a_provider_cell_shows_its_skips_as_skips(weather_results: list[CheckResult]) -> None:
    out = run_at(200, "check", WEATHER, "--target", "standard", "--target", "openai")
    assert out.returncode == 0, out.stderr
    mine = [r for r in weather_results if (r.tool, r.target) == ("multiply", "openai")]
    skips, passes = (sum(r.status == status for r in mine) for status in ("skip", "pass"))
    assert skips and passes
    assert cells(out.stdout)[("multiply", "openai")] == f"pass {passes}, skip {skips}"
    assert cells(out.stdout)[("multiply", DIRECT)] == "pass 2"


def test_a_failure_is_counted_first_and_listed_with_its_reason() -> None:
    out = run_at(80, "check", f"{SOURCES}:BROKEN", "--target", "mcp")
    assert out.returncode == 1
    assert cells(out.stdout)[("shout", "mcp")] == "FAIL 1, skip 4"
    assert "FAIL shout, convert -> mcp: " in out.stdout
    assert f"skipped {', '.join(CHECKS[1:])} for mcp: not converted" in out.stdout
    assert out.stdout.rstrip().splitlines()[-1] == "0 checks passed, 1 failed, 4 skipped"


def project_targets() -> list[str]:
    """The targets of the project's own packages (the core's and its adapters'), from their
    entry points; a third-party adapter installed beside them is not one."""
    packages = {path.name for path in (ROOT / "packages").iterdir()}
    plugins = {
        point.name
        for point in entry_points(group="standard_tool")
        if point.dist is not None and point.dist.name in packages
    }
    owners = get_plugin_manager().target_owners()
    return sorted(target for target, (owner, _) in owners.items() if owner in plugins)


def help_of(command: str | None) -> str:
    out = run_at(100, *([command] if command else []), "--help")
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize("command", [None, *cli.commands])
def test_help_paragraphs_are_wrapped_without_runs_of_spaces(command: str | None) -> None:
    text = help_of(command)
    description = text[: text.index("\nOptions:")].splitlines()[1:]  # after the usage line
    assert description
    for line in description:
        assert "   " not in line.strip(), line
        assert not line.startswith("     "), line  # no paragraph indented as a block


def test_check_help_names_every_check() -> None:
    text = " ".join(help_of("check").split())
    for check in CHECKS:
        assert f"`{check}`" in text, check


@pytest.mark.parametrize("command", ["show", "call"])
def test_show_and_call_help_name_every_target_of_the_project(command: str) -> None:
    targets = project_targets()
    assert {"standard", "langchain", "llama-index", "mcp", "openai"} <= set(targets)
    text = " ".join(help_of(command).split())
    for target in targets:  # quoted alone or as an option's value (`--as standard`)
        assert re.search(rf"[`\s]{re.escape(target)}`", text), target


def test_the_bare_command_prints_the_help_as_click_does() -> None:
    """``no_args_is_help``: the normal help, on stderr, with the usage error's status 2."""
    out = run_at(100)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == help_of(None)
    assert "\nCommands:\n" in out.stderr and all(
        f"  {name} " in out.stderr for name in cli.commands
    )


def test_a_cell_takes_a_line_per_status_before_names_are_cut(
    weather_results: list[CheckResult],
) -> None:
    targets = ["standard", "anthropic", "gemini", "hf", "openai", "langchain", "mcp"]
    out = run_at(100, "check", WEATHER, *(arg for t in targets for arg in ("--target", t)))
    assert out.returncode == 0, out.stderr
    assert "…" not in out.stdout
    assert any(line.startswith("│ get_forecast ") for line in out.stdout.splitlines())
    rows = [line.split("│") for line in out.stdout.splitlines() if line.startswith("│")]
    assert any(row[1].strip() == "" for row in rows)  # a cell continued on the next line
    mine = [r for r in weather_results if r.target in targets]
    assert cells(out.stdout) == expected_cells(mine)
