"""MCP servers that no one here wrote, from PyPI, over stdio, through every installed adapter."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from standard_tool import adopt, call, convert, jsonable, output_json_schema, targets
from standard_tool_mcp import MCPTool, connect, to_mcp_tool

pytest.importorskip("mcp_server_time")


def _time_server() -> list[str]:
    return [sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC"]


@pytest.fixture(scope="module")
def time_tools() -> Iterator[dict[str, MCPTool]]:
    connection = connect(_time_server(), timeout=30)
    tools = connection.__enter__()
    try:
        yield {tool.name: tool for tool in tools}
    finally:
        connection.__exit__(None, None, None)


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "notes.txt").write_text("hello\n")
    return tmp_path


CONVERT = {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}


def test_time_server_tools_keep_output_schemas_and_annotations(
    time_tools: dict[str, MCPTool],
) -> None:
    convert_time = time_tools["convert_time"]
    assert output_json_schema(convert_time) is not None
    assert convert_time.meta["read_only"] is True
    result = call(convert_time, CONVERT)
    assert result["target"]["timezone"] == "Asia/Tokyo" and result["time_difference"] == "+9.0h"
    assert convert_time.output_schema.validate(result).ok


def _through_each_adapter(tool: MCPTool, arguments: dict[str, Any]) -> dict[str, Any]:
    """The result of ``tool`` converted to every installed target and adopted back."""
    results = {}
    for info in targets():
        if info.name == "mcp" or info.distribution == "standard-tool" or info.version is None:
            continue  # the core's own targets: the tool itself, and providers' declarations
        back = adopt(convert(tool, to=info.name))
        assert output_json_schema(back) == output_json_schema(tool), info.name
        results[info.name] = jsonable(call(back, arguments))
    return results


def test_time_server_through_every_adapter(time_tools: dict[str, MCPTool]) -> None:
    convert_time = time_tools["convert_time"]
    expected = call(convert_time, CONVERT)
    for target, result in _through_each_adapter(convert_time, CONVERT).items():
        assert result == expected, target
    assert to_mcp_tool(convert_time) == convert(convert_time, to="mcp")


def test_time_server_invalid_input_is_refused_before_sending(
    time_tools: dict[str, MCPTool],
) -> None:
    from standard_tool.exceptions import ToolValidationError

    with pytest.raises(ToolValidationError):
        call(time_tools["convert_time"], {"source_timezone": "UTC"})


def test_git_server_on_a_temporary_repository(repository: Path) -> None:
    pytest.importorskip("mcp_server_git")
    command = [sys.executable, "-m", "mcp_server_git", "--repository", str(repository)]
    with connect(command, timeout=30) as tools:
        by_name = {tool.name: tool for tool in tools}
        assert {"git_status", "git_add", "git_commit", "git_log"} <= set(by_name)
        status = call(by_name["git_status"], {"repo_path": str(repository)})
        assert "notes.txt" in status
        call(by_name["git_add"], {"repo_path": str(repository), "files": ["notes.txt"]})
        staged = call(by_name["git_diff_staged"], {"repo_path": str(repository)})
        assert "+hello" in staged
        for target, result in _through_each_adapter(
            by_name["git_status"], {"repo_path": str(repository)}
        ).items():
            assert json.dumps(result) == json.dumps(
                call(by_name["git_status"], {"repo_path": str(repository)})
            ), target


def test_time_server_as_a_langchain_tool(time_tools: dict[str, MCPTool]) -> None:
    pytest.importorskip("standard_tool_langchain")
    native = convert(time_tools["convert_time"], to="langchain")
    message = native.invoke({"type": "tool_call", "id": "c1", "name": native.name, "args": CONVERT})
    assert message.status == "success"
    assert json.loads(message.content)["target"]["timezone"] == "Asia/Tokyo"
