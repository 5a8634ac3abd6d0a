"""Run the official JSON-Schema-Test-Suite (draft 2020-12) through a Tool's input validation."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from standard_tool import Tool, ToolValidationError
from standard_tool._schema import JsonSchema

SKIPS: dict[str, str] = {}
"""Suite entries not run, keyed ``file::case`` or ``file::case::test``, with the reason."""

ENV_VAR = "JSON_SCHEMA_TEST_SUITE"
SUITE_DIR = Path("shared", "data", "json-schema-test-suite-draft2020-12")


class Case(NamedTuple):
    file: str
    case: str
    test: str
    schema: Any
    data: Any
    valid: bool


def find_suite() -> Path | None:
    """The suite: ``$JSON_SCHEMA_TEST_SUITE``, else ``<ancestor>/shared/data/...``, or None."""
    if os.environ.get(ENV_VAR):
        candidates = [Path(os.environ[ENV_VAR])]
    else:
        candidates = [parent / SUITE_DIR for parent in Path(__file__).resolve().parents]
    return next((c for c in candidates if c.is_dir() and any(c.glob("*.json"))), None)


SUITE = find_suite()
MISSING = (
    f"JSON-Schema-Test-Suite (draft 2020-12) not found: set {ENV_VAR} to its folder, or put it "
    f"at <ancestor of {Path(__file__).name}>/{SUITE_DIR.as_posix()} (CI: <clone>/../shared/...)"
)


def load_cases(suite: Path | None) -> list[Case]:
    if suite is None:
        return []
    return [
        Case(path.name, g["description"], t["description"], g["schema"], t["data"], t["valid"])
        for path in sorted(suite.glob("*.json"))
        for g in json.loads(path.read_text(encoding="utf-8"))
        for t in g["tests"]
    ]


CASES = load_cases(SUITE)
REMOTES: dict[str, Any] = {
    f"http://localhost:1234/{path.relative_to(SUITE / 'remotes').as_posix()}": json.loads(
        path.read_text()
    )
    for path in (sorted((SUITE / "remotes").rglob("*.json")) if SUITE else [])
}
"""The suite's remote documents, under the URIs its schemas use; handed over, never fetched."""


def params() -> list[Any]:
    if not CASES:
        return [pytest.param(None, id="suite-not-found")]
    out = []
    for case in CASES:
        key = f"{case.file}::{case.case}"
        reason = SKIPS.get(f"{key}::{case.test}") or SKIPS.get(key)
        marks = [pytest.mark.skip(reason=reason)] if reason else []
        out.append(pytest.param(case, id=f"{key}::{case.test}", marks=marks))
    return out


@pytest.mark.parametrize("case", params())
def test_suite_case(case: Case | None) -> None:
    if case is None:
        pytest.fail(MISSING, pytrace=False)
    schema = JsonSchema(case.schema, resources=REMOTES)
    tool = Tool(name="case", description="d", input_schema=schema, execute=lambda input: input)
    if case.valid:
        assert tool.execute(case.data) is case.data
    else:
        with pytest.raises(ToolValidationError) as info:
            tool.execute(case.data)
        assert info.value.target == "input"
        assert info.value.issues


def test_every_skip_names_a_suite_entry() -> None:
    if not CASES:
        pytest.fail(MISSING, pytrace=False)
    known = {key for c in CASES for key in (f"{c.file}::{c.case}", f"{c.file}::{c.case}::{c.test}")}
    assert sorted(set(SKIPS) - known) == []
