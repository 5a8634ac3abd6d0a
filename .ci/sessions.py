"""Run every default nox session, one more at a time than there are cores, and print each
session's time at the end.

``python3 .ci/sessions.py`` is the test command (``.ci/run`` calls it): the sessions of ``uvx
nox`` (``uvx nox -l --json`` lists them, in ``noxfile.py``'s order), each as ``uvx nox -s NAME``
in a process of its own, ``--jobs`` of them at once (by default one more than the cores:
:func:`default_jobs` says why). The sessions are independent: each has its own venv under
``.nox/`` and its own temporary folder (``TMPDIR``, removed when it ends), and they share uv's
cache. The ones known to take longest start first, so that the run ends with short ones.
``PYTHONDONTWRITEBYTECODE`` is left out of their environment: a session starts hundreds of
processes that import the same frameworks, which each venv then compiles once, not once per
process.

Each session's output goes to ``.nox/logs/NAME.log``; a line is printed when one starts and when
it ends. At the end: the log of each session that failed, then every session's time, slowest
first, the total, and how busy the machine's cores were meanwhile (where Linux says). The exit
status is 1 when a session failed (pytest's "no tests collected" included: nox fails on any
non-zero status).

``python3 .ci/sessions.py lint repo`` runs only the sessions named; ``--jobs 1`` one at a time.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / ".nox" / "logs"
SLOW_FIRST = (
    "integration",
    "cli",
    "lowest",
    "install-blocks",
    "providers",
    "core-lowest",
    "wheels",
    "core-only",
    "real-tools",
    "mcp-[0-9]*",
    "pytest-plugin",
    "lint",
    "boundary",
    "docs",
    "mcp-conformance",
)
"""Sessions that take longest (as the times printed at the end of a run show), started first in
this order (a name, or a pattern such as ``mcp-[0-9]*`` for each session of the MCP adapter's
matrix); the others follow in ``noxfile.py``'s order. The longest first: the run ends with short
ones, every core busy to the end."""


def default_jobs() -> int:
    """How many sessions run at once unless ``--jobs`` says: one more than the cores this
    process may use. A session spends about a tenth of its time waiting (for the servers and
    commands its tests start, for time limits to pass, for uv), so with one session per core
    the cores idle that tenth; the extra one takes it up (on two cores: busy 97% of the time
    instead of 88%, and the run a tenth shorter)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return cores + 1


def nox() -> list[str]:
    """The command that runs nox: ``uvx nox`` (uv's tool cache), else this Python's nox."""
    uvx = shutil.which("uvx")
    return [uvx, "nox"] if uvx else [sys.executable, "-m", "nox"]


def default_sessions() -> list[str]:
    """The sessions ``uvx nox`` runs, in the noxfile's order."""
    command = [*nox(), "--noxfile", str(ROOT / "noxfile.py"), "-l", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)
    if out.returncode != 0:
        sys.exit(f"sessions: `{' '.join(command)}` failed:\n{out.stderr}")
    return [row["session"] for row in json.loads(out.stdout)]


def ordered(sessions: Sequence[str]) -> list[str]:
    """``sessions`` with the known slow ones first."""
    slow = [
        name for pattern in SLOW_FIRST for name in sessions if fnmatch.fnmatchcase(name, pattern)
    ]
    slow = list(dict.fromkeys(slow))
    return slow + [name for name in sessions if name not in slow]


def session_environment(tmp: Path) -> dict[str, str]:
    """The environment of a session: this one, with ``tmp`` as its temporary folder, and
    bytecode written (each venv compiles what it imports once)."""
    env = {**os.environ, "TMPDIR": str(tmp)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cpu_times() -> tuple[float, float] | None:
    """``(busy, total)`` jiffies of every core since boot (``/proc/stat``), or ``None``."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return None
    if fields[0] != "cpu":
        return None
    values = [float(value) for value in fields[1:]]
    idle = sum(values[3:5])  # idle, iowait
    return sum(values) - idle, sum(values)


def busy_since(before: tuple[float, float] | None) -> str:
    """How busy the cores were since ``before``, as a sentence (empty where Linux does not say)."""
    after = cpu_times()
    if before is None or after is None or after[1] <= before[1]:
        return ""
    share = (after[0] - before[0]) / (after[1] - before[1])
    return f"; the {os.cpu_count()} cores were busy {share:.0%} of the time"


class Run:
    """Runs sessions, each in a process of its own, and keeps their status and time."""

    def __init__(self) -> None:
        self.results: dict[str, tuple[int, float]] = {}
        self.lock = threading.Lock()
        self.start = time.monotonic()

    def say(self, text: str) -> None:
        with self.lock:
            print(f"[{time.monotonic() - self.start:6.0f} s] {text}", flush=True)

    def session(self, name: str, posargs: Sequence[str]) -> None:
        log = LOGS / f"{name}.log"
        # Outside the repository: a test in a temporary folder must not find its pyproject.toml.
        tmp = Path(tempfile.mkdtemp(prefix=f"standard-tool-{name}-"))
        command = [*nox(), "--noxfile", str(ROOT / "noxfile.py"), "-s", name]
        if posargs:
            command += ["--", *posargs]
        self.say(f"start {name}")
        began = time.monotonic()
        with log.open("w") as out:
            status = subprocess.run(
                command,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=session_environment(tmp),
            ).returncode
        shutil.rmtree(tmp, ignore_errors=True)
        took = time.monotonic() - began
        with self.lock:
            self.results[name] = (status, took)
        self.say(f"{'passed' if status == 0 else 'FAILED'} {name} in {took:.0f} s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sessions", nargs="*", help="the sessions to run (default: every one)")
    jobs = default_jobs()
    parser.add_argument(
        "--jobs", type=int, default=jobs, help=f"sessions at once (default: the cores + 1, {jobs})"
    )
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--") if "--" in argv else len(argv)
    args, posargs = parser.parse_args(argv[:split]), argv[split + 1 :]
    every = default_sessions()
    unknown = sorted(set(args.sessions) - set(every))
    if unknown:
        parser.error(f"no such session: {', '.join(unknown)} (the sessions: {', '.join(every)})")
    names = ordered(args.sessions or every)
    LOGS.mkdir(parents=True, exist_ok=True)
    run = Run()
    cores = cpu_times()
    print(f"{len(names)} sessions, {max(1, args.jobs)} at a time; logs in {LOGS}", flush=True)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for future in [pool.submit(run.session, name, posargs) for name in names]:
            future.result()
    failed = [name for name in names if run.results[name][0] != 0]
    for name in failed:
        print(f"\n==== {name}: failed; its log ({LOGS / name}.log):", flush=True)
        print((LOGS / f"{name}.log").read_text(errors="replace"), flush=True)
    print("\nSession times, slowest first:")
    for name, (status, took) in sorted(run.results.items(), key=lambda item: -item[1][1]):
        print(f"  {took:7.0f} s  {'passed' if status == 0 else 'FAILED'}  {name}")
    took = time.monotonic() - run.start
    print(f"  {took:7.0f} s  in all ({len(names)} sessions){busy_since(cores)}")
    if failed:
        print(f"{len(failed)} of {len(names)} sessions failed: {', '.join(failed)}")
        return 1
    print(f"all {len(names)} sessions passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
