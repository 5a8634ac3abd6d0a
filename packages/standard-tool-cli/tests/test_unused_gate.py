"""``serve`` and ``call`` without ``--gate``, on a SOURCE whose module defines a gate that
guards none of its tools: one warning line on stderr names the gate, and the tools run
unguarded, as asked."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from script import SCRIPT, Run

GATED = '''
from standard_tool import tool
from standard_tool.boundary import Decision, Gate


@tool
def send(to: str) -> str:
    """Send a message."""
    return f"sent to {to}"


TOOLS = [send]
GATE = Gate(policy=lambda request: request.arguments["to"] != "mallory" or Decision.deny())
GUARDED = GATE.guard(TOOLS)
'''
"""A module with a gate beside its tools (``TOOLS``), and the same tools behind it
(``GUARDED``)."""
INPUT = ["--input", '{"to": "mallory"}']


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "gated_tools.py").write_text(GATED, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("where", "shown"),
    [("gated_tools.py", "gated_tools.py:GATE"), ("gated_tools", "gated_tools:GATE")],
    ids=["file", "module"],
)
def test_call_warns_of_a_gate_not_in_use_and_calls_unguarded(
    run: Run, folder: Path, where: str, shown: str
) -> None:
    out = run("call", f"{where}:TOOLS", "send", *INPUT, cwd=folder)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == "sent to mallory"  # the policy would deny it
    (line,) = out.stderr.splitlines()
    assert line == (
        f"standard-tool call: warning: {where} defines a gate ({shown}) that is not in use: "
        f"pass --gate {where}:GATE to guard its tools"
    )
    guarded = run("call", f"{where}:TOOLS", "send", *INPUT, "--gate", f"{where}:GATE", cwd=folder)
    assert guarded.returncode == 1 and "warning" not in guarded.stderr
    assert json.loads(guarded.stderr.partition(": ")[2])["code"] == "denied"


def test_no_warning_when_the_tools_are_behind_the_gate_already(run: Run, folder: Path) -> None:
    out = run("call", "gated_tools.py:GUARDED", "send", *INPUT, cwd=folder)
    assert out.returncode == 1 and "warning" not in out.stderr, out.stderr
    assert json.loads(out.stderr.partition(": ")[2])["code"] == "denied"


@pytest.mark.parametrize("where", ["gated_tools.py", "gated_tools"], ids=["file", "module"])
def test_serve_warns_of_a_gate_not_in_use_and_serves(folder: Path, where: str) -> None:
    done = subprocess.run(  # stdin closed: the server ends once it has started
        [str(SCRIPT), "serve", f"{where}:TOOLS"],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    warning, serving = done.stderr.splitlines()
    shown = "gated_tools.py:GATE" if where.endswith(".py") else "gated_tools:GATE"
    assert warning == (
        f"standard-tool serve: warning: {where} defines a gate ({shown}) that is not in use: "
        f"pass --gate {where}:GATE to guard its tools"
    )
    assert serving.startswith("standard-tool: serving 1 tool (send)"), serving
    behind = subprocess.run(
        [str(SCRIPT), "serve", f"{where}:TOOLS", "--gate", f"{where}:GATE"],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert behind.returncode == 0 and "warning" not in behind.stderr, behind.stderr
