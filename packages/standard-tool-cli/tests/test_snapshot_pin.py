"""``standard-tool snapshot`` writes a stable snapshot; ``--pin`` holds ``list`` and ``call``
to one, for a module's tools and for an MCP server's."""

from __future__ import annotations

import json
from pathlib import Path

from script import MCP_TIME, WEATHER, Run

from standard_tool.contracts import FORMAT, load_snapshot


def test_snapshot_prints_the_same_sorted_text_every_time(run: Run) -> None:
    first, second = run("snapshot", WEATHER), run("snapshot", WEATHER)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["format"] == FORMAT
    names = [entry["name"] for entry in data["tools"]]
    assert names == sorted(names) and len(names) >= 2
    assert load_snapshot(data) == data  # the digests in the file are the ones computed again


def test_snapshot_of_an_mcp_server_to_a_file_then_list_and_call_pinned(
    run: Run, tmp_path: Path
) -> None:
    lock = tmp_path / "time.lock.json"
    made = run("snapshot", MCP_TIME, "-o", str(lock))
    assert made.returncode == 0, made.stderr
    assert made.stdout == "" and f"{lock}: 2 tools" in made.stderr
    listed = run("list", MCP_TIME, "--pin", str(lock), "--json")
    assert listed.returncode == 0, listed.stderr
    assert sorted(t["name"] for t in json.loads(listed.stdout)) == [
        "convert_time",
        "get_current_time",
    ]
    called = run(
        "call", MCP_TIME, "get_current_time", "--input", '{"timezone": "UTC"}', "--pin", str(lock)
    )
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["timezone"] == "UTC"

    data = json.loads(lock.read_text(encoding="utf-8"))
    data["tools"][0]["description"] = "What was reviewed."
    lock.write_text(json.dumps(data), encoding="utf-8")
    refused = run("list", MCP_TIME, "--pin", str(lock))
    assert refused.returncode == 1
    assert "'convert_time'" in refused.stderr and "description changed" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_a_module_source_is_held_to_its_pin_as_well(run: Run, tmp_path: Path) -> None:
    lock = tmp_path / "weather.lock.json"
    assert run("snapshot", WEATHER, "-o", str(lock)).returncode == 0
    assert run("list", WEATHER, "--pin", str(lock)).returncode == 0
    data = json.loads(lock.read_text(encoding="utf-8"))
    dropped = data["tools"].pop()["name"]
    lock.write_text(json.dumps(data), encoding="utf-8")
    refused = run("list", WEATHER, "--pin", str(lock))
    assert refused.returncode == 1
    assert f"tool {dropped!r}" in refused.stderr and "not in the pin" in refused.stderr


def test_a_pin_that_is_not_a_snapshot_is_a_usage_error(run: Run, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"tools": []}', encoding="utf-8")
    for path in (str(wrong), str(tmp_path / "missing.json")):
        out = run("list", WEATHER, "--pin", path)
        assert out.returncode == 2
        assert "--pin" in out.stderr and "snapshot" in out.stderr


def test_snapshot_to_an_unwritable_place_fails_with_one_line(run: Run, tmp_path: Path) -> None:
    out = run("snapshot", WEATHER, "-o", str(tmp_path / "no" / "such" / "dir.json"))
    assert out.returncode == 1
    assert out.stderr.startswith("standard-tool snapshot: cannot write")
