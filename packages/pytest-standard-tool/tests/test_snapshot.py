"""Tools against their committed snapshot: ``assert_compatible``, and the run checked by
``--standard-tool-snapshot`` (pytester runs pytest on test files as a tool author writes them)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from inline import run_inline

from pytest_standard_tool import assert_compatible
from standard_tool.contracts import dump_snapshot, snapshot

ROOT = Path(__file__).resolve().parents[3]


def _weather() -> ModuleType:
    spec = importlib.util.spec_from_file_location("examples_weather", ROOT / "examples/weather.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


weather = _weather()

TESTS = """
import pytest

from examples.weather import TOOLS


@pytest.mark.standard_tools(TOOLS)
def test_the_tools_are_three() -> None:
    assert len(TOOLS) == 3
"""


def weather_snapshot() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dump_snapshot(snapshot(weather.TOOLS)))
    return data


def units(data: dict[str, Any]) -> dict[str, Any]:
    """The ``units`` property of get_forecast's input schema in ``data``."""
    [forecast] = [tool for tool in data["tools"] if tool["name"] == "get_forecast"]
    found: dict[str, Any] = forecast["input_schema"]["properties"]["units"]
    return found


def with_tests(pytester: pytest.Pytester) -> None:
    (pytester.path / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "weather.py", pytester.path / "examples" / "weather.py")
    pytester.makepyfile(test_tools=TESTS)


def test_assert_compatible_passes_the_same_tools_and_compatible_changes(tmp_path: Path) -> None:
    path = tmp_path / "tools.lock.json"
    path.write_text(dump_snapshot(snapshot(weather.TOOLS)), encoding="utf-8")
    assert assert_compatible(weather.TOOLS, path).level == "none"
    data = weather_snapshot()
    units(data)["enum"] = ["c"]  # the tools now take one more unit than the snapshot says
    found = assert_compatible(weather.TOOLS, data)
    assert [(f.rule, f.level) for f in found.findings] == [("input/enum-value-added", "compatible")]


def test_assert_compatible_fails_listing_each_breaking_change(tmp_path: Path) -> None:
    data = weather_snapshot()
    units(data)["enum"] = ["c", "f", "k"]  # the tools now refuse "k"
    data["tools"].append({**data["tools"][0], "name": "get_history"})
    path = tmp_path / "tools.lock.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(AssertionError) as raised:
        assert_compatible(weather.TOOLS, path)
    assert str(raised.value).splitlines() == [
        f"2 breaking changes against {path}:",
        "  get_forecast: input/enum-value-removed at /input_schema/properties/units/enum/2: "
        '"k" removed from the enum',
        "  get_history: tool/removed at (the tool): the tool is gone",
    ]


def test_the_run_writes_the_snapshot_then_passes_against_it(pytester: pytest.Pytester) -> None:
    with_tests(pytester)
    result = run_inline(
        pytester,
        "-p", "no:cacheprovider", "--standard-tool-snapshot=tools.lock.json",
        "--standard-tool-snapshot-update",
    )  # fmt: skip
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*= standard-tool snapshot =*", "wrote 3 tools to *"])
    written = (pytester.path / "tools.lock.json").read_text(encoding="utf-8")
    assert written == dump_snapshot(snapshot(weather.TOOLS))
    result = run_inline(
        pytester,
        "-p",
        "no:cacheprovider",
        "-k",
        "nothing",
        "--standard-tool-snapshot=tools.lock.json",
    )
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED  # every marked tool still counts
    result.stdout.fnmatch_lines(["3 tools compatible with *tools.lock.json"])


def test_a_breaking_change_against_the_snapshot_fails_the_run(pytester: pytest.Pytester) -> None:
    with_tests(pytester)
    data = weather_snapshot()
    units(data)["enum"] = ["c", "f", "k"]
    (pytester.path / "tools.lock.json").write_text(dump_snapshot(data), encoding="utf-8")
    pytester.makeini("[pytest]\nstandard_tool_snapshot = tools.lock.json\n")
    result = run_inline(pytester, "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*= standard-tool snapshot =*",
            "1 breaking change against *tools.lock.json:",
            "  get_forecast: input/enum-value-removed at /input_schema/properties/units/enum/2:*",
        ]
    )
    units(data)["enum"] = ["c"]  # only widened since: the run passes
    (pytester.path / "tools.lock.json").write_text(dump_snapshot(data), encoding="utf-8")
    result = run_inline(pytester, "-p", "no:cacheprovider")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["3 tools compatible with *tools.lock.json (1 compatible*"])


def test_a_missing_or_broken_snapshot_fails_the_run_saying_why(
    pytester: pytest.Pytester,
) -> None:
    with_tests(pytester)
    result = run_inline(
        pytester, "-p", "no:cacheprovider", "--standard-tool-snapshot=tools.lock.json"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["no snapshot at *tools.lock.json; write one with *"])
    (pytester.path / "tools.lock.json").write_text("{}", encoding="utf-8")
    result = run_inline(
        pytester, "-p", "no:cacheprovider", "--standard-tool-snapshot=tools.lock.json"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*is not a snapshot*"])
    result = run_inline(pytester, "-p", "no:cacheprovider", "--standard-tool-snapshot-update")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--standard-tool-snapshot-update writes the snapshot named by*"])
