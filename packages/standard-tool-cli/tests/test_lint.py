"""``standard-tool lint``: findings of a source with problems, a clean one, and a real MCP
server's tools, each against what the core's lint and the providers' dialects say."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from script import MCP_TIME, WEATHER, Run

from standard_tool.contracts import LINT_RULES
from standard_tool.dialects import convert_schema
from standard_tool.exceptions import SchemaNotExpressibleError

PROBLEMS = """
import standard_tool as st

def _run(input, context=None):
    return "ok"

TOOLS = [
    st.Tool(
        name="fetch.report",
        description="",
        input_schema={
            "type": "object",
            "properties": {"day": {"type": "string", "format": "uri"}, "tags": {}},
            "required": ["day", "region"],
        },
        execute=_run,
    ),
    st.Tool(
        name="send",
        description="Posts to http://ann:hunter22@crm.internal/api.",
        input_schema={"type": "object", "properties": {"to": {"type": "string"}}},
        execute=_run,
    ),
]
"""
PROVIDERS = ("openai", "openai-strict", "anthropic", "gemini", "gemini-json-schema", "hf")


def _source(tmp_path: Path) -> str:
    path = tmp_path / "problems.py"
    path.write_text(PROBLEMS, encoding="utf-8")
    return f"{path}:TOOLS"


def test_a_source_with_problems_exits_1_and_says_each_one(run: Run, tmp_path: Path) -> None:
    source = _source(tmp_path)
    out = run("lint", source, "--json")
    assert out.returncode == 1, out.stderr
    report = json.loads(out.stdout)
    assert report["passed"] is False and report["source"] == source
    findings = report["findings"]
    assert all(f["level"] == LINT_RULES[f["rule"]][0] for f in findings)
    assert report["counts"]["error"] == sum(f["level"] == "error" for f in findings) > 0
    said = {(f["tool"], f["rule"], f["pointer"], f["target"]) for f in findings}
    assert {
        ("fetch.report", "lint/description-missing", "/description", None),
        ("fetch.report", "lint/name-renamed", "/name", "openai"),
        ("fetch.report", "lint/required-undeclared", "/input_schema/required/1", None),
        ("fetch.report", "lint/parameter-description-missing", "/input_schema/properties/day", None),
        ("fetch.report", "lint/schema-refused", "/input_schema/properties/tags", "gemini"),
        ("fetch.report", "lint/schema-described", "/input_schema/properties/day/format", "openai-strict"),
        ("send", "lint/credential", "/description", None),
        ("send", "lint/internal-host", "/description", None),
    } <= said  # fmt: skip
    assert "hunter22" not in out.stdout and "crm.internal" not in out.stdout
    text = run("lint", source)
    assert text.returncode == 1
    assert "error   send /description lint/credential" in text.stdout
    assert "[anthropic, hf, openai]" in text.stdout  # one line for the targets that rename
    assert f"2 tools linted: {report['counts']['error']} errors" in text.stdout


def test_a_clean_source_exits_0(run: Run) -> None:
    out = run("lint", WEATHER, "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["passed"] is True and report["counts"]["error"] == 0
    assert set(report["rules"]) == set(LINT_RULES)
    assert {f["tool"] for f in report["findings"]} <= {"get_forecast", "multiply", "wait_and_echo"}
    text = run("lint", WEATHER)
    assert text.returncode == 0 and "3 tools linted: 0 errors" in text.stdout


def _refused(schema: dict[str, Any], target: str) -> str | None:
    try:
        convert_schema(schema, target)
    except SchemaNotExpressibleError as error:
        return error.pointer
    return None


def test_a_real_mcp_servers_tools_lint_as_their_schemas_convert(run: Run) -> None:
    out = run("lint", MCP_TIME, "--json")
    assert out.returncode == 0, out.stderr
    findings = json.loads(out.stdout)["findings"]
    listed = json.loads(run("list", MCP_TIME, "--json").stdout)
    assert {entry["name"] for entry in listed} == {"get_current_time", "convert_time"}
    for entry in listed:
        mine = [f for f in findings if f["tool"] == entry["name"]]
        for target in PROVIDERS:
            refused = [
                f for f in mine if f["target"] == target and f["rule"] == "lint/schema-refused"
            ]
            assert bool(refused) == (_refused(entry["input_schema"], target) is not None)
            rendered = convert_schema(entry["input_schema"], target)
            assert isinstance(rendered, dict)
            for name, sub in entry["input_schema"]["properties"].items():
                for keyword in sub:
                    pointer = f"/input_schema/properties/{name}/{keyword}"
                    left_out = keyword not in rendered["properties"][name]
                    said = any(f["pointer"] == pointer and f["target"] == target for f in mine)
                    assert left_out == said, (entry["name"], target, name, keyword)


def test_a_source_that_does_not_load_is_a_usage_error_as_one_json_document(run: Run) -> None:
    out = run("lint", "packages/standard-tool-cli/tests/sources.py:NOPE", "--json")
    assert out.returncode == 2
    error = json.loads(out.stdout)
    assert error["exit_status"] == 2 and error["error"].startswith("standard-tool lint: ")
