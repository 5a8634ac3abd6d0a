"""A real third-party tool spec (llama-index-tools-database) on a temporary SQLite file."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import standard_tool as st
from standard_tool.exceptions import ToolExecutionError, ToolValidationError
from standard_tool_llama_index import from_llama_index_tools, to_llama_index_tools

database = pytest.importorskip("llama_index.tools.database")


@pytest.fixture
def spec(tmp_path: Path) -> Any:
    path = tmp_path / "people.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        connection.executemany("INSERT INTO people (name) VALUES (?)", [("Ada",), ("Bob",)])
    spec = database.DatabaseToolSpec(uri=f"sqlite:///{path}")
    yield spec
    spec.sql_database.engine.dispose()


def test_the_database_tools_run_as_standard_tools(spec: Any) -> None:
    tools = {tool.name: tool for tool in from_llama_index_tools(spec)}
    assert set(tools) == {"load_data", "describe_tables", "list_tables"}
    natives = {tool.metadata.name: tool for tool in spec.to_tool_list()}
    for name, tool in tools.items():
        assert st.input_json_schema(tool) == natives[name].metadata.get_parameters_dict()
    assert st.call(tools["list_tables"], {}) == ["people"]
    assert "CREATE TABLE people" in st.call(tools["describe_tables"], {"tables": ["people"]})
    query = {"query": "SELECT id, name FROM people ORDER BY id"}
    assert st.call(tools["load_data"], query) == ["1, Ada", "2, Bob"]  # the documents' text
    assert asyncio.run(st.acall(tools["load_data"], query)) == ["1, Ada", "2, Bob"]


def test_database_errors_are_typed(spec: Any) -> None:
    tools = {tool.name: tool for tool in from_llama_index_tools(spec)}
    with pytest.raises(ToolValidationError) as raised:
        st.call(tools["load_data"], {"query": 42})
    assert raised.value.fields == ("query",)
    with pytest.raises(ToolExecutionError) as raised:
        st.call(tools["describe_tables"], {"tables": ["nope"]})
    assert raised.value.tool == "describe_tables" and "'nope' does not exist" in str(raised.value)


async def test_the_database_tools_in_an_agent_after_a_round_trip(spec: Any, agent: Any) -> None:
    natives = spec.to_tool_list()
    again = to_llama_index_tools(from_llama_index_tools(spec))
    assert [t.metadata.to_openai_tool() for t in again] == [
        t.metadata.to_openai_tool() for t in natives
    ]
    run = await agent(
        again,
        [
            [("list_tables", {})],
            [("load_data", {"query": "SELECT name FROM people WHERE id = 2"})],
            [("describe_tables", {"tables": ["nope"]})],
            "done",
        ],
    )
    tables, rows, missing = run.outputs
    assert json.loads(tables.content) == ["people"] and json.loads(rows.content) == ["Bob"]
    assert missing.is_error and "describe_tables" in missing.content and "nope" in missing.content
    assert "Traceback" not in missing.content
