"""Digests and snapshots of tools: stable, canonical, and read back without trusting the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import standard_tool as st
from standard_tool.contracts import (
    FORMAT,
    dump_snapshot,
    load_snapshot,
    schema_digest,
    snapshot,
    tool_digest,
)
from standard_tool.exceptions import UsageError


@st.tool
def forecast(city: str, days: int = 3) -> str:
    """The weather in a city for the next days."""
    return f"{city}: sunny for {days} days"


NAN: dict[str, Any] = {"title": None, "description": float("nan"), "input_schema": {}}
NAN |= {"output_schema": None, "meta": {}}


def weather(description: str = "The weather.", schema: dict[str, Any] | None = None) -> st.Tool:
    return st.Tool(
        name="weather",
        description=description,
        input_schema=schema or {"type": "object", "properties": {"city": {"type": "string"}}},
        execute=lambda input, context=None: "sunny",
    )


def test_a_schema_digest_ignores_key_order_and_number_spelling() -> None:
    one = json.loads('{"type": "object", "properties": {"n": {"maximum": 1.0, "type": "number"}}}')
    two = json.loads('{"properties": {"n": {"type": "number", "maximum": 1}}, "type": "object"}')
    assert schema_digest(one) == schema_digest(two)
    assert schema_digest(one).startswith("sha256:") and len(schema_digest(one)) == 71
    assert schema_digest(one) != schema_digest({**one, "required": ["n"]})


def test_a_tool_digest_changes_with_each_part_it_promises() -> None:
    base = tool_digest(weather())
    assert tool_digest(weather()) == base
    assert tool_digest(weather(description="Weather.")) != base
    changed = {"type": "object", "properties": {"city": {"type": "integer"}}}
    assert tool_digest(weather(schema=changed)) != base


def test_a_snapshot_is_sorted_stable_and_carries_the_digests_of_each_part() -> None:
    data = snapshot([weather(), forecast])
    assert data["format"] == FORMAT
    assert [entry["name"] for entry in data["tools"]] == ["forecast", "weather"]
    entry = data["tools"][1]
    assert entry["digests"]["tool"] == tool_digest(weather())
    assert entry["digests"]["input"] == schema_digest(entry["input_schema"])
    assert entry["digests"]["output"] is None
    assert dump_snapshot(data) == dump_snapshot(snapshot([forecast, weather()]))


def test_a_snapshot_file_reads_back_and_its_digests_are_computed_again(tmp_path: Path) -> None:
    data = snapshot([weather(), forecast])
    text = json.loads(dump_snapshot(data))
    text["tools"][1]["digests"]["tool"] = "sha256:forged"
    path = tmp_path / "tools.lock.json"
    path.write_text(json.dumps(text), encoding="utf-8")
    assert load_snapshot(path) == data


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json", "cannot be read as JSON"),
        ('{"tools": []}', "is not a snapshot"),
        (json.dumps({"format": FORMAT, "tools": {}}), "no list of tools"),
        (json.dumps({"format": FORMAT, "tools": [{"name": "x"}]}), "tool 0 lacks"),
        (
            json.dumps({"format": FORMAT, "tools": [{**NAN, "name": "x"}]}),
            "not JSON data",
        ),
    ],
)
def test_a_file_that_is_not_a_snapshot_is_refused_saying_why(
    tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "tools.lock.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=says):
        load_snapshot(path)


def test_two_tools_of_one_name_are_refused() -> None:
    with pytest.raises(UsageError, match="two tools are named 'weather'"):
        snapshot([weather(), weather(description="Another.")])
