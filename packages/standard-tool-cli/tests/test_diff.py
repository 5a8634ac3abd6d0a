"""``standard-tool diff``: snapshots and sources compared through the real console script,
on mcp-server-time's tools (started over stdio) and on the bundled examples."""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from script import MCP_TIME, ROOT, WEATHER, Run

from standard_tool.contracts import FORMAT, diff_tools, dump_snapshot, load_snapshot, snapshot
from standard_tool_mcp import connect

sys.path.insert(0, str(ROOT / "examples"))
import weather  # noqa: E402

WIDE = {"COLUMNS": "200"}
"""A console wide enough that no cell of the table wraps."""


@pytest.fixture(scope="module")
def time_snapshot() -> Iterator[dict[str, Any]]:
    """mcp-server-time's tools, snapshotted over stdio."""
    with connect([sys.executable, "-m", "mcp_server_time"], timeout=30) as tools:
        data = snapshot(tools)
    yield json.loads(dump_snapshot(data))


def write(path: Path, data: dict[str, Any]) -> str:
    path.write_text(dump_snapshot(data), encoding="utf-8")
    return str(path)


def entry(data: dict[str, Any], name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [tool for tool in data["tools"] if tool["name"] == name]
    return found[0]


def findings(out: Any) -> list[tuple[str, str, str, str]]:
    document = json.loads(out.stdout)
    return [(f["rule"], f["tool"], f["pointer"], f["level"]) for f in document["findings"]]


def test_the_server_against_its_own_snapshot_has_no_change(
    run: Run, time_snapshot: dict[str, Any], tmp_path: Path
) -> None:
    assert [tool["name"] for tool in time_snapshot["tools"]] == ["convert_time", "get_current_time"]
    old = write(tmp_path / "tools.lock.json", time_snapshot)
    out = run("diff", old, MCP_TIME, "--fail-on", "compatible")
    assert out.returncode == 0, out.stderr
    assert "No change." in out.stdout


def test_a_required_property_added_by_the_server_is_breaking(
    run: Run, time_snapshot: dict[str, Any], tmp_path: Path
) -> None:
    old = copy.deepcopy(time_snapshot)
    entry(old, "convert_time")["input_schema"]["required"].remove("time")
    path = write(tmp_path / "tools.lock.json", old)
    out = run("diff", path, MCP_TIME, "--json", "--fail-on", "breaking")
    assert out.returncode == 1, out.stderr
    assert findings(out) == [
        ("input/required-added", "convert_time", "/input_schema/properties/time", "breaking")
    ]
    document = json.loads(out.stdout)
    assert (document["failed"], document["level"], document["fail_on"]) == (
        True,
        "breaking",
        "breaking",
    )
    assert run("diff", path, MCP_TIME).returncode == 0  # without --fail-on


def test_an_enum_value_removed_is_breaking_and_a_description_changed_is_info(
    run: Run, time_snapshot: dict[str, Any], tmp_path: Path
) -> None:
    old = copy.deepcopy(time_snapshot)
    zone = entry(old, "get_current_time")["input_schema"]["properties"]["timezone"]
    zone["enum"] = ["UTC", "Europe/Paris", "Asia/Tokyo"]
    new = copy.deepcopy(old)
    entry(new, "get_current_time")["input_schema"]["properties"]["timezone"]["enum"] = ["UTC"]
    entry(new, "convert_time")["description"] = "Convert a time between two timezones."
    out = run(
        "diff", write(tmp_path / "old.json", old), write(tmp_path / "new.json", new), "--json"
    )
    assert out.returncode == 0, out.stderr
    pointer = "/input_schema/properties/timezone/enum"
    assert findings(out) == [
        ("description/changed", "convert_time", "/description", "info"),
        ("input/enum-value-removed", "get_current_time", f"{pointer}/1", "breaking"),
        ("input/enum-value-removed", "get_current_time", f"{pointer}/2", "breaking"),
    ]
    assert diff_tools(load_snapshot(tmp_path / "old.json"), new).level == "breaking"
    # against the server itself, the enum it no longer declares only widens its input
    out = run("diff", str(tmp_path / "old.json"), MCP_TIME, "--fail-on", "breaking", env=WIDE)
    assert out.returncode == 0, out.stderr
    assert "input/enum-removed" in out.stdout and "compatible" in out.stdout


def test_fail_on_compatible_counts_every_change_but_info(run: Run, tmp_path: Path) -> None:
    data = json.loads(dump_snapshot(snapshot(weather.TOOLS)))
    entry(data, "multiply")["description"] = "Multiply."
    info_only = write(tmp_path / "info.json", data)
    out = run("diff", WEATHER, info_only, "--fail-on", "compatible", env=WIDE)
    assert out.returncode == 0, out.stderr
    assert "description/changed" in out.stdout and "0 breaking, 0 compatible, 1 info" in out.stdout
    entry(data, "multiply")["input_schema"]["required"] = ["a"]
    widened = write(tmp_path / "widened.json", data)
    assert run("diff", WEATHER, widened, "--fail-on", "breaking").returncode == 0
    out = run("diff", WEATHER, widened, "--fail-on", "compatible", env=WIDE)
    assert out.returncode == 1
    assert "input/required-removed" in out.stdout and "/input_schema/properties/b" in out.stdout


def test_tools_removed_and_added_are_listed(run: Run, tmp_path: Path) -> None:
    data = json.loads(dump_snapshot(snapshot(weather.TOOLS)))
    data["tools"] = [tool for tool in data["tools"] if tool["name"] != "multiply"]
    out = run("diff", WEATHER, write(tmp_path / "fewer.json", data), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["removed"] == ["multiply"]
    out = run("diff", str(tmp_path / "fewer.json"), WEATHER, "--json")
    assert json.loads(out.stdout)["added"] == ["multiply"]
    assert findings(out) == [("tool/added", "multiply", "", "compatible")]


def test_a_json_file_that_is_not_a_snapshot_is_a_usage_error(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "other", "tools": []}), encoding="utf-8")
    out = run("diff", str(path), WEATHER, "--json")
    assert out.returncode == 2
    assert f"is not a snapshot (its format is not {FORMAT!r})" in out.stderr
    assert json.loads(out.stdout)["exit_status"] == 2
    assert "Traceback" not in out.stderr


def test_a_pointer_is_never_cut_on_a_narrow_terminal(run: Run, tmp_path: Path) -> None:
    """One finding a line, whatever the width: a long JSON pointer reads whole, for grep."""
    data = json.loads(dump_snapshot(snapshot(weather.TOOLS)))
    city = entry(data, "get_forecast")["input_schema"]["$defs"]["Location"]["properties"]["city"]
    city["minLength"] = 5
    old = write(tmp_path / "old.json", data)
    document = json.loads(run("diff", old, WEATHER, "--json").stdout)
    assert document["findings"]
    out = run("diff", old, WEATHER, env={"COLUMNS": "60"})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    for finding in document["findings"]:
        assert len(finding["pointer"]) > 40  # longer than a column of a 60-column table
        (line,) = [line for line in lines if finding["rule"] in line]
        assert finding["pointer"] in line and finding["tool"] in line, lines
        assert line.split()[0] == finding["level"], line
    counts = {level: 0 for level in ("breaking", "compatible", "info")}
    for finding in document["findings"]:
        counts[finding["level"]] += 1
    assert lines[-1] == ", ".join(f"{count} {level}" for level, count in counts.items())
