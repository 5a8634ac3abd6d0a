"""The portability lint on a third-party MCP server's tools, adopted through the MCP adapter:
each provider finding is what that provider's dialect does to the server's schema."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

import standard_tool as st
from standard_tool.contracts import LINT_RULES, lint_tool, lint_tools
from standard_tool.dialects import convert_schema
from standard_tool.exceptions import SchemaNotExpressibleError
from standard_tool.schema.dialects._registry import PROVIDER_DIALECTS
from standard_tool_mcp import MCPTool, connect

pytest.importorskip("mcp_server_time")


@pytest.fixture(scope="module")
def tools() -> Iterator[list[MCPTool]]:
    command = [sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC"]
    with connect(command, timeout=30) as listed:
        yield list(listed)


def test_the_servers_tools_lint_without_errors_in_name_order(tools: list[MCPTool]) -> None:
    findings = lint_tools(tools)
    assert [f for f in findings if f.level == "error"] == []
    assert all(f.level == LINT_RULES[f.rule][0] for f in findings)
    assert [f.tool for f in findings] == sorted(f.tool for f in findings)
    assert {tool.name for tool in tools} == {"get_current_time", "convert_time"}


def test_each_provider_finding_is_what_the_dialect_renders(tools: list[MCPTool]) -> None:
    for tool in tools:
        schema = st.input_json_schema(tool)
        findings = lint_tool(tool)
        for target in PROVIDER_DIALECTS:
            mine = [f for f in findings if f.target == target]
            try:
                rendered = convert_schema(schema, target)
            except SchemaNotExpressibleError:
                assert any(f.rule == "lint/schema-refused" for f in mine)
                continue
            assert isinstance(rendered, dict)
            assert not any(f.rule == "lint/schema-refused" for f in mine)
            for name, sub in schema["properties"].items():
                for keyword in sub:
                    pointer = f"/input_schema/properties/{name}/{keyword}"
                    left_out = keyword not in rendered["properties"][name]
                    assert left_out == any(f.pointer == pointer for f in mine), (target, keyword)
            closed = rendered.get("additionalProperties") is False
            said = any(
                f.pointer == "/input_schema" and "additionalProperties" in f.message for f in mine
            )
            assert said == (closed and schema.get("additionalProperties") is not False)
