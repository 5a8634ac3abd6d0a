"""Run the official JSON-Schema-Test-Suite (draft 2020-12) through a Tool's input validation.

The suite is vendored beside this file, in ``json-schema-test-suite/``, as python-jsonschema
vendors it: the draft 2020-12 test files, ``remotes/`` (the documents the suite's schemas refer
to under ``http://localhost:1234/``) and the suite's ``LICENSE.txt``. Nothing outside the
repository is looked up: a missing or partial copy fails the run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urldefrag, urljoin

import pytest

from standard_tool import Tool, ToolValidationError
from standard_tool.schema._schema import JsonSchema

SKIPS: dict[str, str] = {}
"""Suite entries not run, keyed ``file::case`` or ``file::case::test``, with the reason."""

SUITE = Path(__file__).resolve().parent / "json-schema-test-suite"
REMOTE_BASE = "http://localhost:1234/"
MISSING = (
    f"JSON-Schema-Test-Suite (draft 2020-12) not found at {SUITE}: it is part of the repository"
)


class Case(NamedTuple):
    file: str
    case: str
    test: str
    schema: Any
    data: Any
    valid: bool


def load_cases(suite: Path) -> list[Case]:
    return [
        Case(path.name, g["description"], t["description"], g["schema"], t["data"], t["valid"])
        for path in sorted(suite.glob("*.json"))
        for g in json.loads(path.read_text(encoding="utf-8"))
        for t in g["tests"]
    ]


CASES = load_cases(SUITE)
REMOTES: dict[str, Any] = {
    REMOTE_BASE + path.relative_to(SUITE / "remotes").as_posix(): json.loads(path.read_text())
    for path in sorted((SUITE / "remotes").rglob("*.json"))
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


def test_the_suite_is_all_there() -> None:
    assert (SUITE / "LICENSE.txt").is_file(), MISSING
    files = {path.stem for path in SUITE.glob("*.json")}
    assert {"ref", "refRemote", "dynamicRef", "unevaluatedProperties", "type"} <= files, MISSING
    assert len(CASES) > 1000


def _references(schema: Any, base: str) -> Iterator[tuple[str, str]]:
    """``(kind, absolute URI)`` for every ``$id`` and ``$ref``/``$dynamicRef`` in ``schema``."""
    if isinstance(schema, dict):
        if isinstance(schema.get("$id"), str):
            base = urljoin(base, schema["$id"])
            yield "id", urldefrag(base).url
        for key in ("$ref", "$dynamicRef"):
            if isinstance(schema.get(key), str):
                yield "ref", urldefrag(urljoin(base, schema[key])).url
        for value in schema.values():
            yield from _references(value, base)
    elif isinstance(schema, list):
        for value in schema:
            yield from _references(value, base)


def test_every_remote_the_suite_refers_to_is_handed_over() -> None:
    """Each ``http://localhost:1234/...`` document a schema refers to and does not embed is in REMOTES."""
    needed = set()
    for case in {(c.file, c.case): c for c in CASES}.values():
        found = list(_references(case.schema, ""))
        embedded = {uri for kind, uri in found if kind == "id"}
        needed |= {
            uri
            for kind, uri in found
            if kind == "ref" and uri.startswith(REMOTE_BASE) and uri not in embedded
        }
    assert needed, "no case refers to a remote document: the suite's layout changed"
    assert sorted(needed - set(REMOTES)) == []


def test_every_skip_names_a_suite_entry() -> None:
    if not CASES:
        pytest.fail(MISSING, pytrace=False)
    known = {key for c in CASES for key in (f"{c.file}::{c.case}", f"{c.file}::{c.case}::{c.test}")}
    assert sorted(set(SKIPS) - known) == []
