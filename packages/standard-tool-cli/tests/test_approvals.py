"""``approvals serve``: a gate's approvals inbox served by the real console script, in a process
of its own sharing only the gate's SQLite store with the process that makes the calls."""

from __future__ import annotations

import re
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from script import ROOT, SCRIPT, Run

import standard_tool as st
from standard_tool.boundary import Gate, SqliteStore, record_key
from standard_tool.exceptions import ToolRefusedError

TOKEN = "bob-token-0123456789abcdef"
START = 30.0
"""The bound, in seconds, on the server's start and stop."""


def _gate_file(folder: Path) -> Path:
    """A file whose ``GATE`` holds every call, its store the SQLite file beside it."""
    path = folder / "my_gate.py"
    path.write_text(
        "from standard_tool.boundary import Gate, SqliteStore\n\n"
        f"GATE = Gate(approvals=lambda request: True, store=SqliteStore({str(folder / 'gate.db')!r}))\n",
        encoding="utf-8",
    )
    return path


class Caller:
    """The process that makes the calls: a guarded tool over the same store, and its runs."""

    def __init__(self, folder: Path) -> None:
        self.runs: list[str] = []
        runs = self.runs

        @st.tool(name="transfer")
        def transfer(to: str) -> int:
            """Send money."""
            runs.append(to)
            return len(runs)

        self.gate = Gate(approvals=lambda request: True, store=SqliteStore(folder / "gate.db"))
        self.tool = self.gate.guard(transfer)

    def call(self, request_id: str) -> Any:
        context = {"request_id": request_id, "actor": "alice", "tenant": "acme"}
        return st.call(self.tool, {"to": "DE00-4242 <b>"}, context)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def _serving(*args: str) -> Iterator[str]:
    """``standard-tool approvals serve ARGS... --port P`` on a free port, stopped on leaving:
    the inbox's origin once it answers."""
    port = _free_port()
    process = subprocess.Popen(
        [str(SCRIPT), "approvals", "serve", *args, "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    origin = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START
        while True:
            try:
                if httpx.get(f"{origin}/", timeout=1.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                out, err = process.communicate(timeout=START)
                pytest.fail(f"approvals serve did not answer on {origin}: {out}{err}")
            time.sleep(0.05)
        yield origin
    finally:
        process.terminate()
        try:
            process.communicate(timeout=START)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate(timeout=START)
    assert process.returncode is not None


def test_a_person_approves_over_http_and_the_call_runs_once(tmp_path: Path) -> None:
    gate_file = _gate_file(tmp_path)
    caller = Caller(tmp_path)
    with pytest.raises(ToolRefusedError):
        caller.call("r-1")
    with _serving(str(gate_file), "--gate", "GATE", "--approver", f"bob:{TOKEN}") as origin:
        with httpx.Client(base_url=origin, headers={"Origin": origin}) as web:
            assert "r-1" not in web.get("/").text  # nothing before signing in
            assert web.post("/sign-in", data={"token": "x" * 20}).status_code == 401
            page = web.post("/sign-in", data={"token": TOKEN}, follow_redirects=True)
            assert page.status_code == 200 and "Signed in as <strong>bob</strong>" in page.text
            assert 'data-request-id="r-1"' in page.text and "DE00-4242 &lt;b&gt;" in page.text
            found = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert found is not None
            form = {
                "csrf": found[1],
                "request_id": '"r-1"',
                "tenant": '"acme"',
                "actor": '"alice"',
                "decision": "approve",
            }
            assert web.post("/decide", data={**form, "csrf": "forged"}).status_code == 403
            approval = caller.gate.store.approval(record_key("acme", "alice", "r-1"))
            assert approval is not None and approval.status == "pending"
            assert web.post("/decide", data=form).status_code == 303
            assert 'data-request-id="r-1"' not in web.get("/").text
    approval = caller.gate.store.approval(record_key("acme", "alice", "r-1"))
    assert approval is not None and (approval.status, approval.approver) == ("approved", "bob")
    assert caller.call("r-1") == 1 and caller.call("r-1") == 1
    assert caller.runs == ["DE00-4242 <b>"]


def test_the_gate_is_named_as_every_command_names_it_too(tmp_path: Path) -> None:
    """Without SOURCE, ``--gate FILE:NAME``; ``--tenant`` shows one tenant's calls only."""
    gate_file = _gate_file(tmp_path)
    caller = Caller(tmp_path)
    with pytest.raises(ToolRefusedError):
        caller.call("r-1")
    spec = f"{gate_file}:GATE"
    args = ["--gate", spec, "--approver", f"bob:{TOKEN}", "--tenant", "globex"]
    with _serving(*args) as origin:
        with httpx.Client(base_url=origin, headers={"Origin": origin}) as web:
            page = web.post("/sign-in", data={"token": TOKEN}, follow_redirects=True)
            assert "Signed in as" in page.text and "r-1" not in page.text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["{file}", "--gate", "{file}:GATE", "--approver", f"bob:{TOKEN}"], "names one of its"),
        (["{file}", "--gate", "GATE", "--approver", "bob"], "NAME:TOKEN"),
        (["{file}", "--gate", "GATE", "--approver", "bob:short"], "at least 16"),
        (["{file}", "--gate", "NOPE", "--approver", f"bob:{TOKEN}"], "NOPE"),
        (["{file}", "--gate", "GATE"], "--approver"),
    ],
)
def test_a_wrong_command_line_is_a_usage_error(
    tmp_path: Path, run: Run, args: list[str], said: str
) -> None:
    gate_file = _gate_file(tmp_path)
    done = run("approvals", "serve", *(arg.format(file=gate_file) for arg in args))
    assert done.returncode == 2 and said in done.stderr, done.stderr
