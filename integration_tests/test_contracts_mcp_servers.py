"""Contracts on third-party MCP servers: mcp-server-git's tools snapshotted, diffed against
edited copies of the snapshot, and pinned."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from standard_tool.contracts import diff_tools, snapshot
from standard_tool.exceptions import PinMismatchError
from standard_tool_mcp import connect


@pytest.fixture(scope="module")
def git_server(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    repository = tmp_path_factory.mktemp("repository")
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    return [sys.executable, "-m", "mcp_server_git", "--repository", str(repository)]


@pytest.fixture(scope="module")
def git_snapshot(git_server: list[str]) -> dict[str, Any]:
    with connect(git_server) as tools:
        return snapshot(tools)


def _edited(taken: dict[str, Any], name: str, change: Any) -> dict[str, Any]:
    copied = copy.deepcopy(taken)
    (entry,) = [entry for entry in copied["tools"] if entry["name"] == name]
    change(entry)
    return copied


def _rules(old: dict[str, Any], new: dict[str, Any]) -> dict[str, str]:
    return {finding.rule: finding.level for finding in diff_tools(old, new).findings}


def test_the_git_servers_snapshot_is_stable_and_diffs_to_nothing(
    git_server: list[str], git_snapshot: dict[str, Any]
) -> None:
    names = [entry["name"] for entry in git_snapshot["tools"]]
    assert "git_add" in names and names == sorted(names)
    with connect(git_server) as tools:
        again = snapshot(tools)
    assert again == git_snapshot
    assert not diff_tools(git_snapshot, again).findings


def test_a_required_argument_the_old_snapshot_lacked_is_breaking(
    git_snapshot: dict[str, Any],
) -> None:
    def optional_files(entry: dict[str, Any]) -> None:
        entry["input_schema"]["required"].remove("files")

    older = _edited(git_snapshot, "git_add", optional_files)
    assert _rules(older, git_snapshot) == {"input/required-added": "breaking"}
    assert _rules(git_snapshot, older) == {"input/required-removed": "compatible"}


def test_a_description_edit_is_info_and_a_removed_tool_breaking(
    git_snapshot: dict[str, Any],
) -> None:
    older = _edited(git_snapshot, "git_status", lambda entry: entry.update(description="Old."))
    assert _rules(older, git_snapshot) == {"description/changed": "info"}
    fewer = {**git_snapshot, "tools": git_snapshot["tools"][1:]}
    assert _rules(git_snapshot, fewer) == {"tool/removed": "breaking"}


def test_the_git_server_pinned_to_an_edited_snapshot_is_refused(
    git_server: list[str], git_snapshot: dict[str, Any]
) -> None:
    def optional_files(entry: dict[str, Any]) -> None:
        entry["input_schema"]["required"].remove("files")

    with connect(git_server, pin=git_snapshot) as tools:
        assert len(tools) == len(git_snapshot["tools"])
    with pytest.raises(PinMismatchError) as raised:
        with connect(git_server, pin=_edited(git_snapshot, "git_add", optional_files)):
            pass
    assert (raised.value.tool, raised.value.changed) == ("git_add", ("input",))


def test_the_snapshot_file_round_trips(tmp_path: Path, git_snapshot: dict[str, Any]) -> None:
    from standard_tool.contracts import dump_snapshot, load_snapshot

    path = tmp_path / "git.lock.json"
    path.write_text(dump_snapshot(git_snapshot), encoding="utf-8")
    assert load_snapshot(path) == git_snapshot
