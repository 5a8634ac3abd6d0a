"""Digests on the wire and pinned servers: a served tool carries its digest, an adopted tool
has the digest of what the server sent, and a pinned connection refuses a tool that drifted
from its snapshot, when listed and after the server says its list changed."""

from __future__ import annotations

import copy
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

import standard_tool as st
from standard_tool.contracts import Pin, dump_snapshot, snapshot, tool_digest
from standard_tool.exceptions import PinMismatchError, UsageError
from standard_tool_mcp import connect, load_mcp_tools, to_mcp_server, to_mcp_tool

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "packages" / "standard-tool-mcp" / "tests" / "servers"
EXAMPLES = ROOT / "examples"
TIME = [sys.executable, "-m", "mcp_server_time", "--local-timezone", "Europe/Paris"]
DRIFTING = [sys.executable, str(SERVERS / "drifting_server.py")]


def weather_tools() -> list[Any]:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import weather
    finally:
        sys.path.remove(str(EXAMPLES))
    return list(weather.TOOLS)


def edited(pinned: dict[str, Any], name: str, change: Any) -> dict[str, Any]:
    """A copy of the snapshot ``pinned`` with the entry of tool ``name`` changed by ``change``."""
    copied = copy.deepcopy(pinned)
    for entry in copied["tools"]:
        if entry["name"] == name:
            change(entry)
    return copied


def test_a_served_tool_carries_its_digest_and_its_adoption_has_the_same() -> None:
    tools = weather_tools()
    for original in tools:
        descriptor = to_mcp_tool(original)
        assert descriptor.meta is not None
        assert descriptor.meta["standard-tool/digest"] == tool_digest(st.adopt(original))
    with connect(to_mcp_server(tools)) as adopted:
        for original, tool in zip(tools, adopted, strict=True):
            assert tool.digest == tool_digest(st.adopt(original))
            assert tool.remote.digest == tool.digest  # what the server said, checked here
            assert "standard-tool/digest" not in tool.meta  # not part of what it promises


def test_a_snapshot_through_the_server_equals_the_snapshot_of_the_module() -> None:
    tools = weather_tools()
    with connect(to_mcp_server(tools)) as adopted:
        assert snapshot(adopted) == snapshot(tools)


@pytest.fixture(scope="module")
def time_pin() -> dict[str, Any]:
    with connect(TIME) as tools:
        return snapshot(tools)


def test_a_pinned_mcp_server_time_opens_and_answers(time_pin: dict[str, Any]) -> None:
    names = sorted(entry["name"] for entry in time_pin["tools"])
    assert names == ["convert_time", "get_current_time"]
    with connect(TIME, pin=time_pin) as tools:
        current = {tool.name: tool for tool in tools}["get_current_time"]
        assert st.call(current, {"timezone": "UTC"})["timezone"] == "UTC"


def test_a_pin_file_is_read_as_its_snapshot(time_pin: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "tools.lock.json"
    path.write_text(dump_snapshot(time_pin), encoding="utf-8")
    with connect(TIME, pin=path) as tools:
        assert len(tools) == 2
    changed = edited(time_pin, "convert_time", lambda entry: entry.update(description="Old."))
    path.write_text(dump_snapshot(changed), encoding="utf-8")
    with pytest.raises(PinMismatchError, match="'convert_time'.*description changed"):
        with connect(TIME, pin=str(path)):
            pass


def _drop_property(entry: dict[str, Any]) -> None:
    properties = entry["input_schema"]["properties"]
    properties.pop(sorted(properties)[0])


@pytest.mark.parametrize(
    ("change", "what"),
    [
        (
            lambda entry: entry.update(description=entry["description"] + " Reviewed."),
            "description",
        ),
        (_drop_property, "input"),
        (lambda entry: entry.update(output_schema={"type": "object"}), "output"),
    ],
    ids=["description", "input", "output"],
)
def test_a_tool_unlike_its_pin_fails_the_connection_naming_it_and_what_changed(
    time_pin: dict[str, Any], change: Any, what: str
) -> None:
    pinned = edited(time_pin, "get_current_time", change)
    with pytest.raises(PinMismatchError) as raised:
        with connect(TIME, pin=pinned):
            pass
    assert raised.value.tool == "get_current_time"
    assert raised.value.changed == (what,)
    assert "mcp_server_time" in (raised.value.source or "")


def test_a_tool_the_pin_does_not_name_is_refused_unless_allowed(
    time_pin: dict[str, Any],
) -> None:
    pinned = {**time_pin, "tools": [e for e in time_pin["tools"] if e["name"] != "convert_time"]}
    with pytest.raises(PinMismatchError) as raised:
        with connect(TIME, pin=pinned):
            pass
    assert (raised.value.tool, raised.value.changed) == ("convert_time", ("unpinned",))
    with connect(TIME, pin=pinned, allow_unpinned=True) as tools:
        assert sorted(tool.name for tool in tools) == ["convert_time", "get_current_time"]
    with connect(TIME, pin=Pin(pinned), allow_unpinned=True) as tools:
        assert len(tools) == 2


def test_a_pin_that_is_not_a_snapshot_is_a_usage_error_before_connecting() -> None:
    for wrong in ({"format": "something-else", "tools": []}, {"tools": "no"}, "/nonexistent.json"):
        with pytest.raises(UsageError, match="snapshot"):
            connect(DRIFTING, pin=wrong)


@pytest.fixture(scope="module")
def drifting_pin() -> dict[str, Any]:
    with connect(DRIFTING) as tools:
        return snapshot(tools)


@pytest.mark.parametrize(
    ("args", "changed"), [([], ("description",)), (["--schema"], ("description", "input"))]
)
def test_a_tool_that_drifts_after_list_changed_is_refused_at_its_next_call(
    drifting_pin: dict[str, Any], args: list[str], changed: tuple[str, ...]
) -> None:
    with connect([*DRIFTING, *args], pin=drifting_pin) as tools:
        by_name = {tool.name: tool for tool in tools}
        assert st.call(by_name["echo"], {"text": "before"}) == "before"
        assert st.call(by_name["drift"], {}) == "drifted"  # sends notifications/tools/list_changed
        with pytest.raises(PinMismatchError) as raised:
            st.call(by_name["echo"], {"text": "after"})
        assert (raised.value.tool, raised.value.changed) == ("echo", changed)
        assert "id_rsa" not in str(raised.value)  # the drifted text never reaches the caller
        assert st.call(by_name["drift"], {}) == "drifted"  # a tool as pinned still answers


def test_without_a_pin_a_drifted_tool_still_answers() -> None:
    with connect(DRIFTING) as tools:
        by_name = {tool.name: tool for tool in tools}
        st.call(by_name["drift"], {})
        assert st.call(by_name["echo"], {"text": "after"}) == "after"


async def test_a_server_whose_description_differs_between_two_listings_is_refused(
    drifting_pin: dict[str, Any],
) -> None:
    connection = connect([*DRIFTING, "--each-list"])
    async with connection as first:
        assert snapshot(first) == drifting_pin
        with pytest.raises(PinMismatchError) as raised:
            await load_mcp_tools(connection.session, pin=drifting_pin)
        assert (raised.value.tool, raised.value.changed) == ("echo", ("description",))


def test_pin_changes_name_each_part_against_a_stored_snapshot(
    drifting_pin: dict[str, Any],
) -> None:
    pin = Pin(json.loads(dump_snapshot(drifting_pin)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with connect(DRIFTING) as tools:
            assert [pin.changes(tool) for tool in tools] == [(), ()]

    def echo(text: int) -> int:
        """Repeat the text."""
        return text

    other = st.tool(echo)
    assert pin.changes(other) == ("input", "output")  # an int, and an output schema now
    assert pin.changes(st.tool(echo, name="new")) == ("unpinned",)
