"""``.ci/sessions.py``, the test command: every default session, several at once, each time shown.

The runner is driven here with a stand-in for nox (a script that lists three sessions and runs
one per process), so that what is tested is the runner: which sessions it starts, how many at
once, their logs, their temporary folders, the failure's log and the exit status."""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import re
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

FAKE_NOX = r"""
import json, os, pathlib, sys, time
args = sys.argv[1:]
if "-l" in args:
    print(json.dumps([{"session": name} for name in ("lint", "slow", "bad", "repo")]))
    sys.exit(0)
name = args[args.index("-s") + 1]
folder = pathlib.Path(os.environ["FAKE_NOX_RECORD"])
(folder / f"{name}.start").write_text(repr(time.monotonic()))
(folder / f"{name}.tmp").write_text(os.environ["TMPDIR"])
(folder / f"{name}.bytecode").write_text(os.environ.get("PYTHONDONTWRITEBYTECODE", "written"))
print(f"running {name} with {args[args.index('-s') + 2:]}")
time.sleep(1.0 if name == "slow" else 0.3)
(folder / f"{name}.end").write_text(repr(time.monotonic()))
sys.exit(3 if name == "bad" else 0)
"""


@pytest.fixture()
def sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, Path, Path]:
    spec = importlib.util.spec_from_file_location("sessions", ROOT / ".ci" / "sessions.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fake = tmp_path / "nox.py"
    fake.write_text(FAKE_NOX)
    record = tmp_path / "record"
    record.mkdir()
    monkeypatch.setenv("FAKE_NOX_RECORD", str(record))
    monkeypatch.setattr(module, "nox", lambda: [sys.executable, str(fake)])
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr(module, "LOGS", tmp_path / ".nox" / "logs")
    monkeypatch.setattr(module, "SLOW_FIRST", ("slow", "lint"))
    return module, record, tmp_path


def overlapping(record: Path) -> int:
    """The most sessions that ran at once."""
    start = {p.stem: float(p.read_text()) for p in record.glob("*.start")}
    end = {p.stem: float(p.read_text()) for p in record.glob("*.end")}
    return max(
        sum(1 for other in start if start[other] <= start[name] < end[other]) for name in start
    )


def test_every_session_runs_two_at_a_time_and_a_failure_fails_the_run(
    sessions: tuple[ModuleType, Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module, record, root = sessions
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert module.main(["--jobs", "2", "--", "-k", "x"]) == 1
    out = capsys.readouterr().out
    start = {p.stem: float(p.read_text()) for p in record.glob("*.start")}
    end = {p.stem: float(p.read_text()) for p in record.glob("*.end")}
    assert set(start) == {"lint", "slow", "bad", "repo"}
    first = min(end["slow"], end["lint"])  # the slow ones first: the others wait for one
    assert start["bad"] >= first and start["repo"] >= first, (start, end)
    assert overlapping(record) == 2  # two at once, never three
    tmps = {p.stem: p.read_text() for p in record.glob("*.tmp")}
    assert len(set(tmps.values())) == 4  # a temporary folder each, outside the repository
    assert not any(Path(t).is_relative_to(root) or Path(t).exists() for t in tmps.values())
    log = (root / ".nox" / "logs" / "lint.log").read_text()
    assert "running lint with ['--', '-k', 'x']" in log  # pytest's arguments passed on
    assert "==== bad: failed" in out and "running bad" in out  # the failure's log shown
    assert "==== lint" not in out
    times = out.split("Session times, slowest first:")[1].splitlines()[1:5]
    assert times[0].split()[-1] == "slow" and "FAILED  bad" in "".join(times)
    assert "1 of 4 sessions failed: bad" in out
    assert {p.read_text() for p in record.glob("*.bytecode")} == {"written"}
    if Path("/proc/stat").exists():
        assert re.search(r"in all \(4 sessions\); the \d+ cores were busy \d+% of the time", out)


def test_by_default_one_more_session_than_cores_runs_at_once(
    sessions: tuple[ModuleType, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    module, record, _ = sessions
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert cores and module.default_jobs() == cores + 1
    assert module.main(["slow", "lint", "repo"]) == 0
    assert overlapping(record) == min(3, cores + 1)  # on one core: two at once
    assert f"3 sessions, {cores + 1} at a time" in capsys.readouterr().out


def test_named_sessions_only_and_an_unknown_name_is_a_usage_error(
    sessions: tuple[ModuleType, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    module, record, _ = sessions
    began = time.monotonic()
    assert module.main(["repo", "lint", "--jobs", "1"]) == 0
    assert {p.stem for p in record.glob("*.start")} == {"lint", "repo"}
    assert time.monotonic() - began >= 0.6  # one at a time
    assert "all 2 sessions passed" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        module.main(["lnit"])
    assert exit_info.value.code == 2
    assert "no such session: lnit" in capsys.readouterr().err


def test_the_slow_sessions_named_first_are_sessions(noxfile: ModuleType) -> None:
    spec = importlib.util.spec_from_file_location("sessions", ROOT / ".ci" / "sessions.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names = [env.name for env in noxfile.ENVS]
    for pattern in module.SLOW_FIRST:  # each names a session (a pattern, one or more)
        assert [name for name in names if fnmatch.fnmatchcase(name, pattern)], pattern
    order = module.ordered(names)
    assert sorted(order) == sorted(names)
    assert order[:3] == list(module.SLOW_FIRST[:3])
    mcp = [name for name in names if re.fullmatch(r"mcp-\d.*", name)]
    assert len(mcp) >= 2
    first = order.index(mcp[0])
    assert order[first : first + len(mcp)] == mcp  # the matrix of one adapter, together
