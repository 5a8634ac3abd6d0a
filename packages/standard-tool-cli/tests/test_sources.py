"""SOURCE: one that does not load is one line on stderr and exit 2, whatever it does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from script import Run


def _one_line(out: object, command: str = "list") -> str:
    assert out.returncode == 2, (out.stdout, out.stderr)  # type: ignore[attr-defined]
    assert out.stdout == ""  # type: ignore[attr-defined]
    (line,) = out.stderr.splitlines()  # type: ignore[attr-defined]
    assert line.startswith(f"standard-tool {command}: ") and "Traceback" not in line
    return str(line)


@pytest.mark.parametrize("code", ["sys.exit(3)", "sys.exit()", "sys.exit('bye')"])
def test_a_file_that_exits_while_loading_does_not_load(run: Run, tmp_path: Path, code: str) -> None:
    (tmp_path / "leaves.py").write_text(f"import sys\n{code}\nTOOLS = []\n")
    line = _one_line(run("list", f"{tmp_path / 'leaves.py'}:TOOLS"))
    assert "SystemExit" in line and "leaves.py" in line


def test_a_module_that_exits_while_importing_does_not_load(run: Run, tmp_path: Path) -> None:
    (tmp_path / "leaving.py").write_text("raise SystemExit(4)\n")
    line = _one_line(run("call", "leaving:TOOLS", "x", cwd=tmp_path), "call")
    assert "SystemExit" in line and "'leaving'" in line


def test_an_unbalanced_quote_in_an_mcp_command_does_not_load(run: Run) -> None:
    line = _one_line(run("list", f"mcp+stdio:{sys.executable} -c 'print(1)"))
    assert "quot" in line and "unexpected" not in line


@pytest.mark.parametrize(
    "source",
    [
        f"mcp+stdio:{sys.executable} -c 'raise SystemExit(3)'",
        "mcp+stdio:no-such-command-for-standard-tool",
        "http://127.0.0.1:9/mcp",
    ],
)
def test_an_mcp_server_that_cannot_be_reached_does_not_load(run: Run, source: str) -> None:
    line = _one_line(run("list", source, "--timeout", "20"))
    assert "cannot reach the MCP server" in line


def test_a_list_holding_a_non_tool_names_the_element(run: Run, tmp_path: Path) -> None:
    (tmp_path / "mixed.py").write_text(
        'def double(x: int) -> int:\n    """Double x."""\n    return 2 * x\n\n\nTOOLS = [double, 3]\n'
    )
    line = _one_line(run("list", f"{tmp_path / 'mixed.py'}:TOOLS"))
    assert "element 1 of the list (an int) is not a tool" in line
