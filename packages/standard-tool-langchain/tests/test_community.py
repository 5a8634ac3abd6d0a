"""Real third-party LangChain tools (langchain-community file management) as test material."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool

import standard_tool as st
from standard_tool_langchain import from_langchain_tools, to_langchain, to_langchain_tools


@pytest.fixture
def toolkit(tmp_path: Path) -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=".*langchain-community.*", category=DeprecationWarning
        )
        from langchain_community.agent_toolkits import FileManagementToolkit

    return FileManagementToolkit(root_dir=str(tmp_path))


def test_file_tools_run_as_standard_tools(toolkit: Any, tmp_path: Path) -> None:
    tools = {tool.name: tool for tool in from_langchain_tools(toolkit)}
    assert {"read_file", "write_file", "list_directory", "copy_file"} <= set(tools)
    assert "text" in st.input_json_schema(tools["write_file"])["properties"]
    assert st.call(tools["write_file"], {"file_path": "a.txt", "text": "hello"}).startswith(
        "File written"
    )
    assert (tmp_path / "a.txt").read_text() == "hello"
    assert st.call(tools["read_file"], {"file_path": "a.txt"}) == "hello"
    assert asyncio.run(
        st.acall(tools["copy_file"], {"source_path": "a.txt", "destination_path": "b.txt"})
    )
    assert set(st.call(tools["list_directory"], {}).split("\n")) == {"a.txt", "b.txt"}
    with pytest.raises(st.ToolValidationError) as raised:
        st.call(tools["read_file"], {"path": "a.txt"})
    assert "file_path" in raised.value.fields


def test_file_tools_round_trip(toolkit: Any, tmp_path: Path) -> None:
    natives = {tool.name: tool for tool in toolkit.get_tools()}
    again = {tool.name: tool for tool in to_langchain_tools(from_langchain_tools(toolkit))}
    for name, native in natives.items():
        assert convert_to_openai_tool(again[name]) == convert_to_openai_tool(native), name
    again["write_file"].invoke({"file_path": "r.txt", "text": "round"})
    assert natives["read_file"].invoke({"file_path": "r.txt"}) == again["read_file"].invoke(
        {"file_path": "r.txt"}
    )


def test_file_tools_in_a_tool_loop(toolkit: Any, tmp_path: Path, tool_loop: Any) -> None:
    tools = [to_langchain(tool) for tool in from_langchain_tools(toolkit)]
    replies = [
        AIMessage(
            "",
            tool_calls=[
                {"name": "write_file", "args": {"file_path": "n.txt", "text": "note"}, "id": "c1"}
            ],
        ),
        AIMessage(
            "", tool_calls=[{"name": "read_file", "args": {"file_path": "n.txt"}, "id": "c2"}]
        ),
        AIMessage("", tool_calls=[{"name": "read_file", "args": {}, "id": "c3"}]),
        AIMessage("done"),
    ]
    model, messages = tool_loop(replies, tools)
    results = [m for m in messages if isinstance(m, ToolMessage)]
    assert [m.status for m in results] == ["success", "success", "error"]
    assert results[1].content == "note" and "file_path" in results[2].content
    assert len(model.seen_tools[0]) == len(tools)
