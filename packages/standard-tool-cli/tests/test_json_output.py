"""``--json``: stdout is exactly one JSON document, errors included; what a tool or a SOURCE
prints goes to stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from script import SOURCES, WEATHER, Run

CHATTY = f"{SOURCES}:CHATTY"


@pytest.mark.parametrize("via", [None, "langchain", "mcp", "pydantic-ai"])
def test_what_a_tool_prints_goes_to_stderr(run: Run, via: str | None) -> None:
    args = ["call", CHATTY, "chatty", "--input", '{"word": "hi"}', "--json"]
    out = run(*args, *(["--via", via] if via else []))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["value"] == "hi"
    assert "chatter from the tool" in out.stderr


def test_what_a_source_writes_while_loading_goes_to_stderr(run: Run, tmp_path: Path) -> None:
    (tmp_path / "loud.py").write_text(
        "import os\n"
        "print('hello from the module')\n"
        "os.write(1, b'raw bytes on the descriptor\\n')\n"
        "from standard_tool import tool\n"
        "@tool\n"
        "def double(n: int) -> int:\n"
        "    '''Double n.'''\n"
        "    return 2 * n\n"
        "TOOLS = [double]\n"
    )
    out = run("list", f"{tmp_path / 'loud.py'}:TOOLS", "--json")
    assert out.returncode == 0, out.stderr
    assert [entry["name"] for entry in json.loads(out.stdout)] == ["double"]
    assert "hello from the module" in out.stderr and "raw bytes" in out.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["call", WEATHER, "nope", "--json"], "no tool 'nope' in SOURCE"),
        (["list", "examples/nope.py:TOOLS", "--json"], "no file 'examples/nope.py'"),
        (["check", WEATHER, "--target", "nope", "--json"], "--target 'nope' is not installed"),
        (["call", WEATHER, "multiply", "--json", "--input", "{'a'"], "--input is not valid JSON"),
        (["list", "--json"], "Missing argument 'SOURCE'"),
    ],
)
def test_a_usage_error_under_json_is_a_json_document(run: Run, args: list[str], says: str) -> None:
    out = run(*args)
    assert out.returncode == 2, out.stderr
    document = json.loads(out.stdout)
    assert document["exit_status"] == 2 and says in document["error"]
    (line,) = out.stderr.splitlines()
    assert line == document["error"]
