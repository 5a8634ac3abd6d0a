"""The supported ranges are declared once, in each adapter's dependency specifier, and the
compatibility matrix (the noxfile's sessions, ``COMPATIBILITY.md``, the README) agrees with them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from nox.project import load_toml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
ADAPTERS = sorted(
    package
    for package in (ROOT / "packages").glob("standard-tool-*")
    if "[tool.standard-tool.matrix]" in (package / "pyproject.toml").read_text()
)
"""The adapter packages: those that declare a framework matrix (the command line has none)."""
COMPATIBILITY = ROOT / "COMPATIBILITY.md"
README = (ROOT / "README.md").read_text()


@dataclass(frozen=True)
class Declared:
    """An adapter's framework, the range its dependencies declare, and its sessions' pins."""

    short: str
    framework: str
    specifier: SpecifierSet
    text: str
    """The requirement as written in ``pyproject.toml``."""
    pins: tuple[Version, ...]


def declared(package: Path) -> Declared:
    config = load_toml(package / "pyproject.toml")
    matrix = config["tool"]["standard-tool"]["matrix"]
    (text,) = [
        line
        for line in config["project"]["dependencies"]
        if Requirement(line).name == matrix["framework"]
    ]
    return Declared(
        package.name.removeprefix("standard-tool-"),
        matrix["framework"],
        Requirement(text).specifier,
        text,
        tuple(Version(v) for v in matrix["versions"]),
    )


DECLARED = [declared(package) for package in ADAPTERS]


def bound(specifier: SpecifierSet, operator: str) -> Version:
    (version,) = [Version(s.version) for s in specifier if s.operator == operator]
    return version


def series(version: Version) -> tuple[int, ...]:
    """A release series: the major version, or ``0.minor`` before 1.0 (where minors break)."""
    return (0, version.minor) if version.major == 0 else (version.major,)


def admitted_series(specifier: SpecifierSet) -> list[tuple[int, ...]]:
    """The release series a ``>=lower,<upper`` range admits.

    Before 1.0 every ``0.minor`` up to the upper bound counts; a range reaching from ``0.x``
    past 1.0 admits the 0.x series of its lower bound (the later 0.x releases cannot be known
    without the package index; langchain-core went from 0.3 to 1.0).
    """
    lower, upper = bound(specifier, ">="), bound(specifier, "<")
    at_start = upper.release[2:] in ((), (0,)) and (upper.major > 0 or upper.minor > 0)
    if upper.major == 0:
        last = upper.minor - 1 if at_start and upper.micro == 0 else upper.minor
        return [(0, minor) for minor in range(lower.minor, last + 1)]
    last_major = upper.major - 1 if upper.release[1:] in ((), (0,), (0, 0)) else upper.major
    out = [series(lower)] if lower.major == 0 else []
    return out + [(major,) for major in range(max(lower.major, 1), last_major + 1)]


def test_the_series_rule() -> None:
    assert admitted_series(SpecifierSet(">=0.12.38,<0.15")) == [(0, 12), (0, 13), (0, 14)]
    assert admitted_series(SpecifierSet(">=0.3.36,<2")) == [(0, 3), (1,)]
    assert admitted_series(SpecifierSet(">=1.30,<3")) == [(1,), (2,)]
    assert admitted_series(SpecifierSet(">=1.78,<3.0")) == [(1,), (2,)]


@pytest.mark.parametrize("adapter", DECLARED, ids=lambda d: d.short)
def test_the_range_is_closed(adapter: Declared) -> None:
    assert {s.operator for s in adapter.specifier} == {">=", "<"}, adapter.text


@pytest.mark.parametrize("adapter", DECLARED, ids=lambda d: d.short)
def test_the_oldest_session_is_the_lower_bound(adapter: Declared) -> None:
    assert min(adapter.pins) == bound(adapter.specifier, ">="), adapter.text


@pytest.mark.parametrize("adapter", DECLARED, ids=lambda d: d.short)
def test_every_pinned_version_is_inside_the_range(adapter: Declared) -> None:
    for pin in adapter.pins:
        assert adapter.specifier.contains(pin, prereleases=True), f"{pin} not in {adapter.text}"


@pytest.mark.parametrize("adapter", DECLARED, ids=lambda d: d.short)
def test_every_series_the_range_admits_has_a_session(adapter: Declared) -> None:
    tested = {series(pin) for pin in adapter.pins}
    missing = [s for s in admitted_series(adapter.specifier) if s not in tested]
    assert not missing, f"{adapter.text}: no session for {missing}"


# -- COMPATIBILITY.md --------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    session: str
    python: str
    ranges: tuple[str, ...]
    installed: dict[str, str]
    importable: str
    passed: int
    skipped: int
    failed: int


def rows() -> list[Row]:
    text = COMPATIBILITY.read_text()
    out = []
    for line in re.findall(r"^\| `[^`]+` \|.*$", text, re.M):
        session, python, ranges, installed, importable, passed, skipped, failed = (
            cell.strip() for cell in line.strip("|").split("|")
        )
        out.append(
            Row(
                session.strip("`"),
                python,
                tuple(re.findall(r"`([^`]+)`", ranges)),
                {
                    name: version
                    for name, version in (i.rsplit(" ", 1) for i in installed.split(", "))
                },
                importable,
                int(passed),
                int(skipped),
                int(failed),
            )
        )
    return out


def test_the_table_has_a_row_for_each_matrix_session_in_order(noxfile: ModuleType) -> None:
    cells = [env for env in noxfile.ENVS if env.versions_of]
    assert [row.session for row in rows()] == [env.name for env in cells], "run `uvx nox -s matrix`"
    for row, env in zip(rows(), cells, strict=True):
        assert row.ranges == env.ranges, "run `uvx nox -s matrix`"
        assert list(row.installed) == list(env.versions_of)
        assert row.python.startswith(f"{env.python}."), row


def test_every_cell_ran_tests_and_none_failed() -> None:
    for row in rows():
        assert row.passed > 0 and row.failed == 0, row


@pytest.mark.parametrize("adapter", DECLARED, ids=lambda d: d.short)
def test_each_session_installed_its_pin_and_the_range_is_the_declared_one(
    adapter: Declared,
) -> None:
    by_session = {row.session: row for row in rows()}
    for pin in adapter.pins:
        row = by_session[f"{adapter.short}-{pin}"]
        assert row.ranges == (adapter.text,)
        assert Version(row.installed[adapter.framework]) == pin, row


def test_the_lowest_session_installed_every_framework_at_its_lower_bound() -> None:
    (row,) = [row for row in rows() if row.session == "lowest"]
    assert set(row.ranges) >= {adapter.text for adapter in DECLARED}
    for adapter in DECLARED:
        assert Version(row.installed[adapter.framework]) == bound(adapter.specifier, ">=")
    for text in row.ranges:  # the core's dependencies: the lowest all packages allow together
        requirement = Requirement(text)
        installed = Version(row.installed[requirement.name])
        assert requirement.specifier.contains(installed, prereleases=True), (text, installed)


def test_the_core_lowest_session_installed_every_lower_bound() -> None:
    (row,) = [row for row in rows() if row.session == "core-lowest"]
    for text in row.ranges:
        requirement = Requirement(text)
        assert Version(row.installed[requirement.name]) == bound(requirement.specifier, ">=")


def test_the_core_sessions_have_no_framework() -> None:
    core = [row for row in rows() if row.session.startswith("core-")]
    assert [row.session for row in core] == ["core-only", "core-lowest"]
    for row in core:
        assert row.importable == "none", row


# -- the README --------------------------------------------------------------------------


def test_the_readme_links_the_table_and_names_each_pin() -> None:
    section = README.split("## Compatibility", 1)[1].split("\n## ", 1)[0]
    assert "(COMPATIBILITY.md)" in section
    for adapter in DECLARED:
        for pin in adapter.pins:
            (line,) = [
                line
                for line in section.splitlines()
                if line.startswith(f"| `{adapter.short}-{pin}`")
            ]
            assert f"{adapter.framework} {pin}" in line, line
        assert f"`{adapter.text}`" in section, f"the README does not give the range {adapter.text}"


# -- the real-tools corpus ------------------------------------------------------------------


def test_compatibility_md_ends_with_the_real_tools_of_the_corpus(
    noxfile: ModuleType, tmp_path: Path
) -> None:
    section = noxfile.real_tools_section()
    text = COMPATIBILITY.read_text()
    assert text.endswith("\n\n" + section), "run `uvx nox -s matrix`"
    assert text.count("\n## ") == 1
    assert noxfile.compatibility(tmp_path).endswith("\n\n" + section)  # what the matrix writes
    sources = noxfile.corpus()
    rows = section.split("|---|---|---|---|---|\n", 1)[1].splitlines()
    assert len(rows) == len(sources)
    for row, source in zip(rows, sources, strict=True):
        assert row.startswith(f"| {source['source']} |"), row
        for tool in source["tools"]:
            assert f"`{tool['name']}`" in row, (tool, row)


def test_the_corpus_holds_forty_tools_each_from_a_pinned_distribution(
    noxfile: ModuleType,
) -> None:
    sources = noxfile.corpus()
    names = [(source["key"], tool["name"]) for source in sources for tool in source["tools"]]
    assert len(names) >= 40 and len(set(names)) == len(names)
    (env,) = [env for env in noxfile.ENVS if env.name == "real-tools"]
    pinned = {
        Requirement(text).name
        for text in (*env.requires, *noxfile.MCP1_SERVERS)
        if Requirement(text).specifier
    }
    for source in sources:
        for distribution in source["distribution"].split(", "):
            assert distribution in pinned, f"the real-tools session does not pin {distribution}"
        for tool in source["tools"]:
            called = source["reaches"] is not None
            assert ("input" in tool and "expect" in tool) == called, tool
