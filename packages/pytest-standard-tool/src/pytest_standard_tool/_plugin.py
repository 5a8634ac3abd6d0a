"""The pytest plugin: options, the ``standard_tools`` marker, the ``conformance`` fixture, a
tool x target table at the end of the run, and the marked tools checked against a committed
snapshot (``--standard-tool-snapshot``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from standard_tool import StandardTool, adopt
from standard_tool.checks import (
    CheckResult,
    Probe,
    check_tool,
    failures,
    heading,
    installed_targets,
    legend,
    probe,
    skipped,
    tally,
)
from standard_tool.contracts import Diff, diff_tools, dump_snapshot, load_snapshot, snapshot
from standard_tool.exceptions import UsageError

from ._assert import DEFAULT_SAMPLES, DEFAULT_TIMEOUT, count, describe_breaking, describe_failures

__all__ = ["Conformance"]

MARKER = "standard_tools"
FIXTURE = "conformance"
_CELL = "standard_tool_cell"
"""The user property naming the tool and target of a conformance test."""
_RESULTS = "standard_tool_results"
"""The user property holding what :meth:`Conformance.check` found, each result a tuple."""
Probes = dict[tuple[int, str], tuple[StandardTool, Probe]]
"""The direct calls of each tool, by its ``id`` and the inputs given (JSON), made once."""
_probes = pytest.StashKey[Probes]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("standard-tool", "standard-tool conformance")
    group.addoption(
        "--standard-tool-target",
        action="append",
        dest="standard_tool_targets",
        metavar="TARGET",
        help="Check tools through this target only (repeatable; default: every installed one).",
    )
    group.addoption(
        "--standard-tool-samples",
        type=int,
        metavar="N",
        help=f"Inputs generated per tool, at most (default {DEFAULT_SAMPLES}).",
    )
    group.addoption(
        "--standard-tool-timeout",
        type=float,
        metavar="SECONDS",
        help=f"Time limit of each step of a check (default {DEFAULT_TIMEOUT:g}).",
    )
    group.addoption(
        "--standard-tool-snapshot",
        dest="standard_tool_snapshot",
        metavar="PATH",
        help="A snapshot of the tools (tools.lock.json): the tools of every standard_tools "
        "marker are compared with it at the end of the run, which fails on a breaking change.",
    )
    group.addoption(
        "--standard-tool-snapshot-update",
        action="store_true",
        dest="standard_tool_snapshot_update",
        help="Write the snapshot of the marked tools to --standard-tool-snapshot's PATH "
        "instead of comparing.",
    )
    parser.addini("standard_tool_targets", "Targets to check tools through.", type="args")
    parser.addini(
        "standard_tool_snapshot", "The tools' snapshot, checked at the end of the run.", default=""
    )
    parser.addini("standard_tool_samples", "Inputs generated per tool.", default="")
    parser.addini("standard_tool_timeout", "Time limit of each check step.", default="")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(*tools, inputs=None): run a test that takes the `{FIXTURE}` fixture once per "
        "tool and installed target (a tool, a list or a mapping of tools, or framework tools); "
        "inputs maps a tool's name to the input to call it with, or a list of inputs tried in "
        "order (then none is made from its schema)",
    )
    config.stash[_probes] = {}
    config.pluginmanager.register(_Table(), "standard-tool-table")
    chosen = (
        config.getoption("standard_tool_snapshot")
        or str(config.getini("standard_tool_snapshot")).strip()
    )
    if chosen:
        path = Path(chosen) if Path(chosen).is_absolute() else config.rootpath / chosen
        update = bool(config.getoption("standard_tool_snapshot_update"))
        config.pluginmanager.register(_Snapshot(path, update), "standard-tool-snapshot")
    elif config.getoption("standard_tool_snapshot_update"):
        raise pytest.UsageError(
            "--standard-tool-snapshot-update writes the snapshot named by "
            "--standard-tool-snapshot=PATH (or the ini option standard_tool_snapshot)"
        )


def _setting(config: pytest.Config, name: str, default: float) -> float:
    given = config.getoption(f"standard_tool_{name}")
    if given is not None:
        return float(given)
    text = str(config.getini(f"standard_tool_{name}")).strip()
    return float(text) if text else default


def _targets(config: pytest.Config) -> list[str]:
    chosen = config.getoption("standard_tool_targets") or config.getini("standard_tool_targets")
    return list(chosen) if chosen else installed_targets()


def _tools(args: Iterable[Any]) -> Iterator[StandardTool]:
    for arg in args:
        if isinstance(arg, Mapping):
            yield from _tools(arg.values())
        elif isinstance(arg, (list, tuple, set, frozenset)):
            yield from _tools(arg)
        else:
            yield adopt(arg)


def _inputs(marker: pytest.Mark, tools: list[StandardTool], where: str) -> dict[str, list[Any]]:
    """The marker's ``inputs=``: by tool name, the inputs to call the tool with, in order."""
    unknown = sorted(set(marker.kwargs) - {"inputs"})
    if unknown:
        raise UsageError(
            f"{where}: @pytest.mark.{MARKER}() takes tools and inputs=, not {unknown[0]}="
        )
    given = marker.kwargs.get("inputs") or {}
    if not isinstance(given, Mapping):
        raise UsageError(
            f"{where}: inputs= maps a tool's name to its input or a list of inputs, e.g. "
            'inputs={"get_current_time": {"timezone": "Europe/Paris"}}'
        )
    names = [tool.name for tool in tools]
    inputs: dict[str, list[Any]] = {}
    for name, value in given.items():
        if name not in names:
            raise UsageError(
                f"{where}: inputs= names {name!r}, which is no tool of the marker; its tools: "
                f"{', '.join(names)}"
            )
        inputs[name] = list(value) if isinstance(value, list) else [value]
        if not inputs[name]:
            raise UsageError(f"{where}: inputs= gives {name!r} an empty list of inputs")
    return inputs


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if FIXTURE not in metafunc.fixturenames:
        return
    where = metafunc.definition.nodeid
    marker = metafunc.definition.get_closest_marker(MARKER)
    if marker is None:
        raise UsageError(
            f"{where}: the {FIXTURE!r} fixture runs the tools of a "
            f"@pytest.mark.{MARKER}(...) marker; mark the test with the tools to check"
        )
    tools = list(_tools(marker.args))
    if not tools:
        raise UsageError(f"{where}: @pytest.mark.{MARKER}() names no tool")
    inputs = _inputs(marker, tools, where)
    cells = [
        (tool, target, inputs.get(tool.name))
        for tool in tools
        for target in _targets(metafunc.config)
    ]
    metafunc.parametrize(
        FIXTURE, cells, indirect=True, ids=[f"{tool.name}-{target}" for tool, target, _ in cells]
    )


@dataclass
class Conformance:
    """One tool through one target: :meth:`check` runs every check and fails the test with
    the reasons of those that fail."""

    tool: StandardTool
    target: str
    samples: int = DEFAULT_SAMPLES
    timeout: float | None = DEFAULT_TIMEOUT
    probes: Probes = field(default_factory=dict, repr=False)
    results: list[CheckResult] = field(default_factory=list)
    """What the last :meth:`check` found."""
    properties: list[tuple[str, object]] = field(default_factory=list, repr=False)
    """The test's user properties, where :meth:`check` counts what ran for the table."""
    inputs: list[Any] | None = None
    """The inputs the marker gives the tool (``inputs=``), tried in order; ``None``: inputs
    are made from its schema."""

    def probed(self) -> Probe:
        """The tool's direct calls, made once per tool (and inputs given), shared by its
        targets."""
        key = (id(self.tool), json.dumps(self.inputs, sort_keys=True, default=repr))
        found = self.probes.get(key)
        if found is None:
            made = probe(self.tool, inputs=self.inputs, samples=self.samples, timeout=self.timeout)
            found = self.probes[key] = (self.tool, made)
        return found[1]

    def check(self) -> list[CheckResult]:
        """Every check of :attr:`tool` through :attr:`target`; fails the test when one fails,
        skips it when none could run."""
        self.results = check_tool(
            self.tool, [self.target], timeout=self.timeout, probed=self.probed()
        )
        self.properties.append((_RESULTS, [astuple(result) for result in self.results]))
        if failures(self.results):
            pytest.fail(describe_failures(self.results), pytrace=False)
        if all(result.status == "skip" for result in self.results):
            pytest.skip("; ".join(sorted({result.reason for result in self.results})))
        return self.results


@pytest.fixture
def conformance(request: pytest.FixtureRequest) -> Conformance:
    """One tool and one target of the test's ``standard_tools`` marker, with the inputs it
    gives the tool."""
    tool, target, inputs = request.param
    config = request.config
    request.node.user_properties.append((_CELL, (tool.name, target)))
    return Conformance(
        tool,
        target,
        samples=int(_setting(config, "samples", DEFAULT_SAMPLES)),
        timeout=_setting(config, "timeout", DEFAULT_TIMEOUT),
        probes=config.stash[_probes],
        properties=request.node.user_properties,
        inputs=inputs,
    )


class _Table:
    """Keeps each conformance test's outcome, and prints them as a tool x target table,
    worded as ``standard-tool check`` words it (:mod:`standard_tool.checks`)."""

    def __init__(self) -> None:
        self.cells: dict[tuple[str, str], str] = {}
        self.results: dict[tuple[str, str], list[CheckResult]] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        properties: dict[str, Any] = dict(report.user_properties)
        cell = properties.get(_CELL)
        if cell is None or (report.when != "call" and report.outcome == "passed"):
            return
        key = (str(cell[0]), str(cell[1]))
        if self.cells.get(key, "").startswith("FAIL"):  # a failed setup or teardown stays one
            return
        shown = {"passed": "pass", "failed": "FAIL"}.get(report.outcome, "skip")
        if _RESULTS in properties:
            results = [CheckResult(*result) for result in properties[_RESULTS]]
            self.results[key] = results
            if shown != "FAIL" or failures(results):  # else FAIL alone, as a failed setup
                shown = tally(results)
        self.cells[key] = shown

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.cells:
            return
        tools = list(dict.fromkeys(tool for tool, _ in self.cells))
        targets = list(dict.fromkeys(target for _, target in self.cells))
        rows = [["tool", *targets]]
        rows += [[tool, *(self.cells.get((tool, t), "-") for t in targets)] for tool in tools]
        widths = [max(len(row[i]) for row in rows) for i in range(len(targets) + 1)]
        terminalreporter.write_sep("=", "standard-tool conformance")
        terminalreporter.write_line(heading(len(tools), len(targets)))
        for row in rows:
            line = "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            terminalreporter.write_line(line.rstrip())
        found = [result for results in self.results.values() for result in results]
        for line in [*legend(targets), *skipped(found)]:
            terminalreporter.write_line(line)


class _Snapshot:
    """The tools of every ``standard_tools`` marker collected, compared at the end of the run
    with the snapshot at :attr:`path` (or written there, with :attr:`update`)."""

    def __init__(self, path: Path, update: bool) -> None:
        self.path, self.update = path, update
        self.tools: dict[str, StandardTool] = {}
        self.found: Diff | None = None
        self.error: str | None = None
        self.written = False

    @pytest.hookimpl(tryfirst=True)  # before -k and -m deselect: every marked tool counts
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            for marker in item.iter_markers(MARKER):
                for tool in _tools(marker.args):
                    self.tools.setdefault(tool.name, tool)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        tools = [self.tools[name] for name in sorted(self.tools)]
        try:
            if self.update:
                self.path.write_text(dump_snapshot(snapshot(tools)), encoding="utf-8")
                self.written = True
                return
            if not self.path.is_file():
                self.error = (
                    f"no snapshot at {self.path}; write one with --standard-tool-snapshot-update"
                )
            else:
                self.found = diff_tools(load_snapshot(self.path), tools)
        except (UsageError, OSError) as error:
            self.error = str(error)
        failed = self.error is not None or (self.found is not None and self.found.breaking)
        if failed and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        terminalreporter.write_sep("=", "standard-tool snapshot")
        if self.written:
            terminalreporter.write_line(f"wrote {count(len(self.tools), 'tool')} to {self.path}")
        elif self.error is not None:
            terminalreporter.write_line(self.error, red=True)
        elif self.found is not None and self.found.breaking:
            terminalreporter.write_line(describe_breaking(self.found, str(self.path)), red=True)
        elif self.found is not None:
            others = len(self.found.findings)
            terminalreporter.write_line(
                f"{count(len(self.tools), 'tool')} compatible with {self.path}"
                + (f" ({count(others, 'compatible or info change')})" if others else "")
            )
