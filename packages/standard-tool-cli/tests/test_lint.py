"""``standard-tool lint``: findings of a source with problems, a clean one, and a real MCP
server's tools, each against what the core's lint and the providers' dialects say; the
findings kept by ``--target``, accepted by ``--ignore`` and ``--ignore-file``, and the level
``--fail-on`` fails at."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
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


def _findings(out: Any) -> list[tuple[str, str, str, str | None]]:
    document = json.loads(out.stdout)
    return [(f["rule"], f["tool"], f["pointer"], f["target"]) for f in document["findings"]]


def test_target_keeps_its_findings_and_those_of_no_target(run: Run, tmp_path: Path) -> None:
    source = _source(tmp_path)
    every = run("lint", source, "--json")
    for only in (["gemini"], ["gemini", "openai-strict"]):
        out = run("lint", source, "--json", *(arg for name in only for arg in ("--target", name)))
        assert out.returncode == 1, out.stderr
        kept = _findings(out)
        assert kept == [f for f in _findings(every) if f[3] is None or f[3] in only]
        assert {f[3] for f in kept} == {None, *only}
        assert json.loads(out.stdout)["targets"] == only


def test_fail_on_sets_the_level_that_fails(run: Run) -> None:
    counts = json.loads(run("lint", WEATHER, "--json").stdout)["counts"]
    assert counts["error"] == 0 and counts["warning"] > 0 and counts["info"] > 0
    for fail_on, status in (("error", 0), ("warning", 1), ("info", 1)):
        out = run("lint", WEATHER, "--fail-on", fail_on, "--json")
        assert out.returncode == status, (fail_on, out.stderr)
        document = json.loads(out.stdout)
        assert (document["passed"], document["fail_on"]) == (status == 0, fail_on)
    assert run("lint", WEATHER).returncode == 0  # error, by default


def test_ignore_accepts_a_rule_or_a_rule_of_one_tool(run: Run, tmp_path: Path) -> None:
    source = _source(tmp_path)
    every = _findings(run("lint", source, "--json"))
    out = run(
        "lint",
        source,
        "--json",
        "--ignore",
        "lint/parameter-description-missing",
        "--ignore",
        "lint/name-renamed:fetch.report",
        "--ignore",
        "lint/credential:another-tool",
    )
    accepted = [
        f
        for f in every
        if f[0] == "lint/parameter-description-missing"
        or (f[0], f[1]) == ("lint/name-renamed", "fetch.report")
    ]
    assert accepted and any(f[0] == "lint/credential" for f in every)
    document = json.loads(out.stdout)
    assert _findings(out) == [f for f in every if f not in accepted]
    ignored = [(f["rule"], f["tool"], f["pointer"], f["target"]) for f in document["ignored"]]
    assert ignored == accepted
    errors = [f for f in every if LINT_RULES[f[0]][0] == "error"]
    rules = sorted({f[0] for f in errors})
    passed = run("lint", source, *(arg for rule in rules for arg in ("--ignore", rule)))
    assert passed.returncode == 0, passed.stdout  # no error left
    assert passed.stdout.rstrip().endswith(f", {len(errors)} ignored")


def test_an_ignore_file_is_read_as_the_options_are(run: Run, tmp_path: Path) -> None:
    source = _source(tmp_path)
    listed = tmp_path / "lint-ignore.txt"
    listed.write_text(
        "# accepted until the tools are described\n"
        "lint/parameter-description-missing\n"
        "\n"
        "lint/name-renamed:fetch.report  # renamed by three providers\n",
        encoding="utf-8",
    )
    from_file = run("lint", source, "--json", "--ignore-file", str(listed))
    options = ["--ignore", "lint/parameter-description-missing"]
    options += ["--ignore", "lint/name-renamed:fetch.report"]
    from_options = run("lint", source, "--json", *options)
    assert from_file.returncode == from_options.returncode == 1
    assert from_file.stdout == from_options.stdout
    assert json.loads(from_file.stdout)["ignored"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--ignore", "lint/credentials"], "--ignore: no lint rule 'lint/credentials'"),
        (["--ignore", "lint/credential:"], "names no tool"),
        (["--ignore-file", "{file}"], "line 2: no lint rule 'lint/nope'"),
        (["--ignore-file", "{missing}"], "cannot read the file"),
        (["--fail-on", "warnings"], "Invalid value for '--fail-on'"),
    ],
)
def test_an_ignore_or_a_level_that_does_not_read_is_a_usage_error(
    run: Run, tmp_path: Path, args: list[str], says: str
) -> None:
    (tmp_path / "ignore.txt").write_text("lint/credential\nlint/nope\n", encoding="utf-8")
    given = [
        arg.format(file=tmp_path / "ignore.txt", missing=tmp_path / "missing.txt") for arg in args
    ]
    out = run("lint", WEATHER, *given)
    assert out.returncode == 2 and out.stdout == "", out.stderr
    (line,) = out.stderr.splitlines()
    assert line.startswith("standard-tool lint: ") and says in line, line


def _counted(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"


def test_the_summary_counts_in_words(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "one.py"
    path.write_text(PROBLEMS + "\nONE = TOOLS[1:]\n", encoding="utf-8")
    counts = json.loads(run("lint", f"{path}:ONE", "--json").stdout)["counts"]
    assert counts["error"] == 1  # the credential
    out = run("lint", f"{path}:ONE")
    assert out.stdout.rstrip().splitlines()[-1] == (
        f"1 tool linted: 1 error, {_counted(counts['warning'], 'warning')}, {counts['info']} info"
    )
