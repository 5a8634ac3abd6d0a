"""``--gate``: calls and servers behind a ``standard_tool.boundary.Gate``, through the real
console script, each command its own process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from file_store import JsonFileStore
from script import ROOT, SCRIPT, Run, runner

import standard_tool as st
from standard_tool.boundary import Store
from standard_tool.testing import StoreContract
from standard_tool_mcp import connect


class TestJsonFileStore(StoreContract):
    """The test double keeps the store protocol, as the gate relies on it."""

    thread_rounds = 100
    """Each operation rereads and rewrites the whole file, under a lock that serialises the
    threads: a race that a lock left out would let through shows in the first few rounds."""

    def new_store(self, tmp_path: Path) -> Store:
        return JsonFileStore(tmp_path / "store.json")


GATED = '''
import sys
from pathlib import Path

from standard_tool import tool
from standard_tool.boundary import Gate

sys.path.insert(0, TESTS)  # the folder of file_store
from file_store import JsonFileStore

EFFECTS = Path(__file__).with_name("effects.txt")


@tool
def send(to: str) -> str:
    """Send a message (each message sent is a line of effects.txt)."""
    with EFFECTS.open("a", encoding="utf-8") as effects:
        effects.write(to + "\\n")
    return f"sent to {to}"


TOOLS = [send]
NOT_A_GATE = 42
SERVED = Gate(policy=lambda request: request.arguments["to"] != "mallory")
CALLED = Gate(policy=lambda request: request.actor == "alice" and request.tenant == "acme")
HELD = Gate(
    approvals=lambda request: request.tool == "send",
    store=JsonFileStore(Path(__file__).with_name("store.json")),
)
'''
"""A gate module: a tool with a side effect; gates with their stores in memory, and one
(``HELD``) holding every call for approval, with its store in a file."""


@pytest.fixture
def gated(tmp_path: Path) -> Path:
    text = GATED.replace("TESTS", repr(str(Path(__file__).parent)), 1)
    (tmp_path / "gated.py").write_text(text, encoding="utf-8")
    return tmp_path


def effects(folder: Path) -> list[str]:
    """The messages ``send`` sent, in order."""
    path = folder / "effects.txt"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def test_serve_behind_a_gate_answers_a_real_mcp_client(gated: Path) -> None:
    source = str(gated / "gated.py")
    command = [str(SCRIPT), "serve", f"{source}:TOOLS", "--gate", f"{source}:SERVED"]
    with connect(command, cwd=str(ROOT), timeout=60) as tools:
        (send,) = tools
        assert send.name == "send"
        assert st.call(send, {"to": "ada"}) == "sent to ada"
        with pytest.raises(st.StandardToolError) as refused:
            st.call(send, {"to": "mallory"})
    line = str(refused.value)
    refusal = json.loads(line[line.index("{") :])
    assert refusal["code"] == "denied" and refusal["retryable"] is False
    assert effects(gated) == ["ada"]


def test_call_behind_a_gate_with_an_identity(run: Run, gated: Path) -> None:
    source = str(gated / "gated.py")
    args = ["call", f"{source}:TOOLS", "send", "--input", '{"to": "ada"}']
    gate = ["--gate", f"{source}:CALLED"]
    out = run(*args, *gate, "--actor", "alice", "--tenant", "acme")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == "sent to ada"
    refused = run(*args, *gate, "--actor", "alice", "--tenant", "other")
    assert refused.returncode == 1 and refused.stdout == ""
    assert effects(gated) == ["ada"]
    # The same identity in --context, and the options merged into it.
    context = '{"actor": "alice", "note": "x"}'
    out = run(*args, *gate, "--context", context, "--tenant", "acme")
    assert out.returncode == 0, out.stderr
    assert effects(gated) == ["ada", "ada"]
    assert run(*args, "--actor", "alice").returncode == 0  # without --gate: no gate
    assert effects(gated) == ["ada", "ada", "ada"]


def test_identity_options_set_the_context_the_tool_sees(run: Run) -> None:
    from script import SOURCES

    args = ["call", f"{SOURCES}:TOOLS", "whoami", "--input", '{"label": "x"}']
    out = run(*args, "--context", '{"user": "ada"}', "--actor", "alice", "--request-id", "r-1")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["context"] == {
        "user": "ada",
        "actor": "alice",
        "request_id": "r-1",
    }


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--gate", "{source}:NOT_A_GATE"], "is a builtins.int, not a standard_tool.boundary.Gate"),
        (["--gate", "{source}:TOOLS"], "is a builtins.list, not a standard_tool.boundary.Gate"),
        (["--gate", "{source}:NOPE"], "has no attribute 'NOPE' (--gate '"),
        (["--gate", "{source}"], "names no attribute; write package.module:attribute or"),
        (["--gate", "no_such_module_here:GATE"], "no module 'no_such_module_here' (--gate"),
        (["--actor", "a", "--context", "[1]"], "--actor sets a key of the context, and"),
        (["--actor", "a", "--context", '{"actor": "b"}'], "--actor and --context's 'actor' differ"),
    ],
)
def test_a_gate_or_an_identity_that_does_not_fit_is_a_usage_error(
    run: Run, gated: Path, extra: list[str], says: str
) -> None:
    source = str(gated / "gated.py")
    extra = [arg.replace("{source}", source) for arg in extra]
    for command in (["call", f"{source}:TOOLS", "send"], ["serve", f"{source}:TOOLS"]):
        if command[0] == "serve" and "--gate" not in extra:
            continue
        out = run(*command, *extra)
        assert out.returncode == 2, (out.stdout, out.stderr)
        (line,) = out.stderr.splitlines()
        assert line.startswith(f"standard-tool {command[0]}: ") and says in line, line
    assert effects(gated) == []


def test_a_gate_names_its_gates_when_the_attribute_is_missing(run: Run, gated: Path) -> None:
    source = str(gated / "gated.py")
    out = run("call", f"{source}:TOOLS", "send", "--gate", f"{source}:NOPE")
    assert "its gates: CALLED, HELD, SERVED" in out.stderr


def refusal(stderr: str) -> dict[str, Any]:
    """The refusal a failed ``call`` printed: its one line on stderr, after the prefix."""
    (line,) = stderr.splitlines()
    prefix = "standard-tool call: "
    assert line.startswith(prefix), line
    loaded: dict[str, Any] = json.loads(line.removeprefix(prefix))
    return loaded


def test_a_held_call_runs_once_once_another_process_approves_it(run: Run, gated: Path) -> None:
    source = str(gated / "gated.py")
    gate = ["--gate", f"{source}:HELD"]
    call = ["call", f"{source}:TOOLS", "send", "--input", '{"to": "ada"}', *gate]
    call += ["--actor", "alice", "--request-id", "order-42"]
    for _ in range(2):  # held, and held again until a person decides
        held = run(*call)
        assert held.returncode == 1 and held.stdout == "", held.stderr
        assert refusal(held.stderr) == {
            "code": "held_for_review",
            "retryable": False,
            "message": "This call waits for a person's review.",
            "request_id": "order-42",
        }
    alice = ["--actor", "alice"]
    shown = run("pending", "order-42", *gate, *alice)
    assert shown.returncode == 0, shown.stderr
    request = json.loads(shown.stdout)
    digest = request.pop("digest")
    assert digest.startswith("sha256:") and request == {
        "id": "order-42",
        "tool": "send",
        "tenant": None,
        "actor": "alice",
        "arguments": {"to": "ada"},
        "summary": '{"to": "ada"}',
    }
    nobody = run("pending", "order-42", *gate)  # another caller's request ids: not this one
    assert nobody.returncode == 2 and "give them with --tenant and --actor" in nobody.stderr
    assert effects(gated) == []

    approved = run("approve", "order-42", *gate, *alice, "--approver", "bob")
    assert approved.returncode == 0, approved.stderr
    assert approved.stdout == (
        'approved {"id": "order-42", "tool": "send", "tenant": null, "actor": "alice", '
        f'"arguments": {{"to": "ada"}}, "digest": "{digest}", "approver": "bob"}}\n'
    )
    for decided, says in (
        (run("approve", "order-42", *gate, *alice, "--approver", "bob"), "a decision is made once"),
        (
            run("reject", "order-42", *gate, *alice, "--approver", "carol"),
            "a decision is made once",
        ),
        (run("pending", "order-42", *gate, *alice), "it waits for no decision"),
    ):
        assert decided.returncode == 2 and decided.stdout == ""
        (line,) = decided.stderr.splitlines()
        assert line.endswith(
            "the call under request id 'order-42' of actor 'alice' was approved by 'bob' and "
            f"has not run yet; {says}"
        ), line

    done = run(*call)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == "sent to ada"
    assert effects(gated) == ["ada"]
    again = run(*call)  # the same request id answers with its receipt: not sent twice
    assert again.returncode == 0, again.stderr
    assert again.stdout == done.stdout
    assert effects(gated) == ["ada"]
    late = run("approve", "order-42", *gate, *alice, "--approver", "bob")
    assert late.returncode == 2
    assert "request id 'order-42' of actor 'alice' was approved by 'bob' and has run" in late.stderr


def test_a_call_is_decided_for_the_caller_named(run: Run, gated: Path) -> None:
    """Two tenants' calls wait under one request id: each is shown and decided as its own."""
    source = str(gated / "gated.py")
    gate = ["--gate", f"{source}:HELD"]
    call = ["call", f"{source}:TOOLS", "send", *gate, "--actor", "alice", "--request-id", "r-7"]
    acme = [*call, "--input", '{"to": "ada"}', "--tenant", "acme"]
    globex = [*call, "--input", '{"to": "bob"}', "--tenant", "globex"]
    assert refusal(run(*acme).stderr)["code"] == refusal(run(*globex).stderr)["code"]
    alice = ["--actor", "alice"]
    for tenant, to in (("acme", "ada"), ("globex", "bob")):
        shown = json.loads(run("pending", "r-7", *gate, *alice, "--tenant", tenant).stdout)
        assert (shown["tenant"], shown["arguments"]) == (tenant, {"to": to})
    approved = run("approve", "r-7", *gate, *alice, "--tenant", "globex", "--approver", "carol")
    assert approved.returncode == 0, approved.stderr
    assert json.loads(approved.stdout.removeprefix("approved "))["tenant"] == "globex"
    assert refusal(run(*acme).stderr)["code"] == "held_for_review"
    assert json.loads(run(*globex).stdout) == "sent to bob"
    assert effects(gated) == ["bob"]


def test_an_actor_approves_no_call_of_their_own(run: Run, gated: Path) -> None:
    source = str(gated / "gated.py")
    gate = ["--gate", f"{source}:HELD"]
    call = ["call", f"{source}:TOOLS", "send", "--input", '{"to": "ada"}', *gate]
    assert refusal(run(*call, "--actor", "alice", "--request-id", "r-8").stderr)["code"]
    own = run("approve", "r-8", *gate, "--actor", "alice", "--approver", "alice")
    assert own.returncode == 2 and own.stdout == ""
    assert "'alice' may not approve a call of their own" in own.stderr
    assert json.loads(run("pending", "r-8", *gate, "--actor", "alice").stdout)["id"] == "r-8"


def test_the_approval_request_is_shown_and_echoed_whole(run: Run, gated: Path) -> None:
    """Long arguments are never clipped; a line break or a direction override in them is
    written as its escape, so that no argument reads as another line or as other text."""
    source = str(gated / "gated.py")
    gate = ["--gate", f"{source}:HELD"]
    to = "a" * 3000 + "\n\u202emallory"
    call = ["call", f"{source}:TOOLS", "send", "--input", json.dumps({"to": to}), *gate]
    assert refusal(run(*call, "--request-id", "r-9").stderr)["code"] == "held_for_review"
    shown = run("pending", "r-9", *gate)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["arguments"] == {"to": to}
    assert "\u202e" not in shown.stdout and "\\u202emallory" in shown.stdout
    approved = run("approve", "r-9", *gate, "--approver", "bob")
    assert approved.returncode == 0, approved.stderr
    (line,) = approved.stdout.splitlines()
    assert json.loads(line.removeprefix("approved "))["arguments"] == {"to": to}
    assert "\u202e" not in line and effects(gated) == []


def test_a_rejected_call_is_denied(run: Run, gated: Path) -> None:
    source = str(gated / "gated.py")
    gate = ["--gate", f"{source}:HELD"]
    call = ["call", f"{source}:TOOLS", "send", "--input", '{"to": "eve"}', *gate]
    call += ["--request-id", "r-2"]
    assert refusal(run(*call).stderr)["code"] == "held_for_review"
    rejected = run("reject", "r-2", *gate, "--approver", "bob", "--reason", "wrong account")
    assert rejected.returncode == 0, rejected.stderr
    document = json.loads(rejected.stdout.removeprefix("rejected "))
    assert document.pop("digest").startswith("sha256:")
    assert document == {
        "id": "r-2",
        "tool": "send",
        "tenant": None,
        "actor": None,
        "arguments": {"to": "eve"},
        "approver": "bob",
        "reason": "wrong account",
    }
    denied = run(*call)
    assert denied.returncode == 1
    assert refusal(denied.stderr) == {
        "code": "denied",
        "retryable": False,
        "message": "A person rejected this call.",
        "request_id": "r-2",
    }
    again = run("approve", "r-2", *gate, "--approver", "carol")
    assert again.returncode == 2 and "was rejected by 'bob'; a decision is made" in again.stderr
    assert effects(gated) == []


def test_an_approval_past_its_time_holds_the_call_again(run: Run, gated: Path) -> None:
    source = str(gated / "gated.py")
    gate = ["--gate", f"{source}:HELD"]
    call = ["call", f"{source}:TOOLS", "send", "--input", '{"to": "ada"}', *gate]
    call += ["--request-id", "r-3"]
    assert refusal(run(*call).stderr)["code"] == "held_for_review"
    approved = run("approve", "r-3", *gate, "--approver", "bob", "--expires-in", "0.001")
    assert approved.returncode == 0, approved.stderr
    assert json.loads(approved.stdout.removeprefix("approved "))["expires_in"] == 0.001
    assert refusal(run(*call).stderr)["code"] == "held_for_review"  # a process starts slower
    assert json.loads(run("pending", "r-3", *gate).stdout)["id"] == "r-3"
    assert effects(gated) == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["approve", "nope", "--gate", "{source}:HELD", "--approver", "bob"],
            "no call waits for approval under request id 'nope' in the store of --gate",
        ),
        (
            ["reject", "nope", "--gate", "{source}:HELD", "--approver", "bob"],
            "no call waits for approval under request id 'nope'",
        ),
        (
            ["pending", "nope", "--gate", "{source}:HELD"],
            "no call waits for approval under request id 'nope'",
        ),
        (
            ["approve", "nope", "--gate", "{source}:CALLED", "--approver", "bob"],
            "the gate keeps its approvals in a MemoryStore, which lives in one process",
        ),
        (
            ["approve", "nope", "--gate", "{source}:TOOLS", "--approver", "bob"],
            "is a builtins.list, not a standard_tool.boundary.Gate",
        ),
        (["approve", "nope", "--gate", "{source}:HELD"], "Missing option '--approver'"),
        (["approve", "nope", "--approver", "bob"], "Missing option '--gate'"),
        (
            [
                "approve",
                "nope",
                "--gate",
                "{source}:HELD",
                "--approver",
                "bob",
                "--expires-in",
                "0",
            ],
            "Invalid value for '--expires-in'",
        ),
    ],
)
def test_deciding_what_does_not_wait_is_a_usage_error(
    run: Run, gated: Path, args: list[str], says: str
) -> None:
    out = run(*(arg.replace("{source}", str(gated / "gated.py")) for arg in args))
    assert out.returncode == 2 and out.stdout == "", out.stderr
    (line,) = out.stderr.splitlines()
    assert line.startswith(f"standard-tool {args[0]}") and says in line, line


@pytest.mark.parametrize("via", [None, "langchain", "pydantic-ai", "llama-index", "openai-agents"])
def test_a_refused_call_fails_with_the_refusal_line(gated: Path, via: str | None) -> None:
    """Exit 1, as a tool's failure; the one line is the refusal a model reads, the same
    through every framework."""
    run = runner(via)
    source = str(gated / "gated.py")
    args = ["call", f"{source}:TOOLS", "send", "--input", '{"to": "ada"}']
    args += ["--gate", f"{source}:CALLED", "--actor", "bob", "--request-id", "order-9"]
    args += ["--via", via] if via else []
    out = run(*args)
    assert out.returncode == 1 and out.stdout == "", out.stderr
    (line,) = out.stderr.splitlines()
    prefix = f"standard-tool call: {f'through {via}: ' if via else ''}"
    assert line.startswith(prefix), line
    assert json.loads(line.removeprefix(prefix)) == {
        "code": "denied",
        "retryable": False,
        "message": "This call is not allowed.",
        "request_id": "order-9",
    }
    document = run(*args, "--json")
    assert document.returncode == 1 and document.stderr == ""
    shown = json.loads(document.stdout)
    assert shown["ok"] is False and shown["value"] is None
    assert shown["error"] == line.removeprefix("standard-tool call: ")
    assert effects(gated) == []
