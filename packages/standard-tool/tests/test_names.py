"""Tool names: validation and reversible sanitizing per target."""

from __future__ import annotations

import pytest

from standard_tool.exceptions import ToolNameError
from standard_tool.names import (
    GEMINI_NAMES,
    MCP_NAMES,
    OPENAI_NAMES,
    NameMap,
    check_name,
    sanitize_name,
)


def test_check_name() -> None:
    assert check_name("get.weather", MCP_NAMES) == "get.weather"
    with pytest.raises(ToolNameError, match="openai"):
        check_name("get.weather", OPENAI_NAMES)
    with pytest.raises(ToolNameError):
        check_name("9lives", GEMINI_NAMES)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("get_weather", "get_weather"),
        ("get.weather", "get_weather"),
        ("my tool!", "my_tool_"),
        ("ünïcode", "_n_code"),
    ],
)
def test_sanitize(name: str, expected: str) -> None:
    assert sanitize_name(name, OPENAI_NAMES) == expected
    assert OPENAI_NAMES.accepts(sanitize_name(name, OPENAI_NAMES))


def test_sanitize_long_names_stay_distinct() -> None:
    a, b = "x" * 70 + "a", "x" * 70 + "b"
    sa, sb = sanitize_name(a, OPENAI_NAMES), sanitize_name(b, OPENAI_NAMES)
    assert len(sa) == len(sb) == 64 and sa != sb


def test_gemini_first_character() -> None:
    assert sanitize_name("1st", GEMINI_NAMES) == "_1st"


def test_name_map_round_trip_and_collisions() -> None:
    names = NameMap(OPENAI_NAMES, ["fs.read", "fs.write", "plain"])
    assert names.to_target("fs.read") == "fs_read"
    assert names.to_original("fs_read") == "fs.read"
    assert names.to_original("plain") == "plain"
    with pytest.raises(ToolNameError, match="both become 'fs_read'"):
        names.add("fs-read".replace("-", " "))
    with pytest.raises(ToolNameError, match="two tools are named"):
        names.add("plain")
    assert len(names) == 3
