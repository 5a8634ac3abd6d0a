"""Every ``console`` block of every Markdown file in the repository is what its commands print.

A ``console`` block is a transcript: a line ``$ COMMAND`` is a command, the lines after it are
what it prints, stdout and stderr merged in the order a terminal shows them; the exit status is
not shown (``$ echo $?`` shows it). A command continues on the lines right after it that start
with ``> `` (``>`` alone: an empty line), as bash prompts for the rest of a here-document. A
comment ``# on a terminal N columns wide`` at the end of a command runs it with ``COLUMNS=N``;
every other command runs with ``COLUMNS=120``.

Each block runs with bash, its commands one after the other in one shell, in a fresh copy of
the repository's files (what a clone holds: the files git tracks, and new ones it does not
ignore), so that what a command writes (``-o time.lock.json``) stays there. A ``python`` block
whose first line is a comment naming a relative ``.py`` path (``# refunds.py``) is that file:
it is written into the copy before the console blocks of its Markdown file run. The commands
run in this environment, as in a clone's development environment: ``uv run [--no-sync]
COMMAND`` runs ``COMMAND`` from here (``standard-tool``, ``python``), ``uvx COMMAND`` runs the
installed ``COMMAND`` (``mcp-server-time``, installed for the tests), and a plugin
installed only for the tests (the toy plugin) is disabled. On a terminal, ``standard-tool
check`` shows a progress bar on stderr and erases it; elsewhere it writes a line per step
instead, and those lines are left out here. Trailing whitespace, and empty lines at the end of
an output, are not compared.

A transcript is never typed: run a command that can run here, as the block shows it, and
``STANDARD_TOOL_UPDATE_TRANSCRIPTS=1 pytest integration_tests/test_transcripts.py`` rewrites
each output in place (the commands and the text around the blocks untouched) instead of
comparing. A command that cannot run here (it needs the network, or a server that never ends)
goes in an ``sh`` block, without its output.
"""

from __future__ import annotations

import difflib
import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import ModuleType

import pytest
from test_readmes import ROOT, markdown_files

UPDATE_ENV = "STANDARD_TOOL_UPDATE_TRANSCRIPTS"
UPDATE = os.environ.get(UPDATE_ENV) == "1"
WIDTH = 120
"""The terminal width of a command whose comment names none."""
TIMEOUT = 900
"""Seconds a block may take, all its commands together."""
TEST_ONLY_PLUGINS = ("toy",)
"""Plugins installed here for the tests (``integration_tests/toy-plugin``), which a
clone's environment does not have: disabled while the transcripts run."""

CONSOLE = re.compile(r"^```console\n(.*?)^```[ \t]*$", re.M | re.S)
PYTHON_FILE = re.compile(r"^```python\n(# ([\w.-]+(?:/[\w.-]+)*\.py)\n.*?)^```[ \t]*$", re.M | re.S)
WIDE = re.compile(r"#\s*on a terminal (\d+) columns wide\s*$")
PROGRESS = re.compile(
    r"^(checking \d+ tools? through \d+ targets?|checked \S+ (directly|through \S+) \(\d+/\d+\))$"
)
"""The lines ``standard-tool check`` writes on stderr, when it is not a terminal, as it works."""
LEFT_OUT = {"PYTHONPATH", UPDATE_ENV, "FORCE_COLOR", "PY_COLORS", "CLICOLOR_FORCE", "COLUMNS"}
"""Variables of this run that a reader's shell does not have."""

UV = """#!/usr/bin/env bash
# uv run [--no-sync] COMMAND...: COMMAND, from the environment the transcripts run in
if [ "$1" = run ]; then
  shift
  if [ "$1" = --no-sync ]; then shift; fi
  exec "$@"
fi
echo "uv $1: a transcript runs only 'uv run COMMAND'" >&2
exit 2
"""
UVX = """#!/usr/bin/env bash
# uvx COMMAND...: the installed COMMAND
exec "$@"
"""


@dataclass(frozen=True)
class Command:
    """A command of a transcript: its lines as written, and the output shown after them."""

    lines: tuple[str, ...]
    """``$ COMMAND``, then its continuation lines (``> ...``)."""
    output: tuple[str, ...]

    @property
    def script(self) -> str:
        """The command as bash reads it."""
        rest = [line[2:] if line.startswith("> ") else "" for line in self.lines[1:]]
        return "\n".join([self.lines[0][2:], *rest])

    @property
    def width(self) -> int:
        found = WIDE.search(self.lines[0])
        return int(found.group(1)) if found else WIDTH


@dataclass(frozen=True)
class Block:
    """A ``console`` block of a Markdown file."""

    path: Path
    line: int
    """The line of its opening fence."""
    body: str
    """Its text between the fences."""

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT).as_posix()}:{self.line}"

    @property
    def commands(self) -> list[Command]:
        return parse(self.body)


def parse(body: str) -> list[Command]:
    """The commands of a transcript, each with the output shown after it."""
    found: list[tuple[list[str], list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            found.append(([line], []))
        elif not found:
            raise ValueError(f"a console block starts with a command ('$ ...'), not {line!r}")
        elif not found[-1][1] and (line == ">" or line.startswith("> ")):
            found[-1][0].append(line)
        else:
            found[-1][1].append(line)
    return [Command(tuple(lines), tuple(output)) for lines, output in found]


def console_blocks(path: Path) -> list[Block]:
    """The ``console`` blocks of the Markdown file at ``path``."""
    text = path.read_text()
    return [
        Block(path, text.count("\n", 0, match.start()) + 1, match.group(1))
        for match in CONSOLE.finditer(text)
    ]


def shown_files(path: Path) -> dict[str, str]:
    """The files the Markdown file at ``path`` shows whole: ``python`` blocks named by their
    first line (``# refunds.py``), by their path."""
    found = {}
    for match in PYTHON_FILE.finditer(path.read_text()):
        name = PurePosixPath(match.group(2))
        if ".." not in name.parts:
            found[name.as_posix()] = match.group(1)
    return found


def _ci_wheels() -> ModuleType:
    """``.ci/wheels.py``, whose copy of the repository (what a clone holds) the blocks run in,
    as its install blocks do."""
    spec = importlib.util.spec_from_file_location("ci_wheels", ROOT / ".ci" / "wheels.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def copy_repository(to: Path) -> Path:
    """A fresh copy of the repository's files at ``to``."""
    copied: Path = _ci_wheels().copy_repository(ROOT, to)
    return copied


def environment(shims: Path) -> dict[str, str]:
    """This environment as a clone's shell has it: its commands first on ``PATH``, ``uv`` and
    ``uvx`` running them, the test-only plugins disabled, Python's output unbuffered (so that
    stdout and stderr interleave as they are written)."""
    for name, text in (("uv", UV), ("uvx", UVX)):
        (shims / name).write_text(text)
        (shims / name).chmod(0o755)
    env = {key: value for key, value in os.environ.items() if key not in LEFT_OUT}
    env = {key: value for key, value in env.items() if not key.startswith("PYTEST_")}
    path = [str(shims), str(Path(sys.executable).parent), env.get("PATH", os.defpath)]
    env["PATH"] = os.pathsep.join(path)
    env["PYTHONUNBUFFERED"] = "1"
    installed = {entry.name for entry in importlib.metadata.entry_points(group="standard_tool")}
    disabled = [name for name in TEST_ONLY_PLUGINS if name in installed]
    if disabled:
        env["STANDARD_TOOL_DISABLED_PLUGINS"] = ",".join(disabled)
    return env


def run(commands: Sequence[Command], cwd: Path, shims: Path) -> list[list[str]]:
    """What each of ``commands`` prints, run one after the other in one bash at ``cwd``."""
    marker = f"transcript-{uuid.uuid4().hex}"
    script = ["__transcript_status=0"]
    for command in commands:
        script += [
            f"export COLUMNS={command.width}",
            "(exit $__transcript_status)",
            command.script,
            "__transcript_status=$?",
            f"printf '\\n%s\\n' {marker}",
        ]
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=cwd,
        env=environment(shims),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
    )
    chunks = done.stdout.split(f"\n{marker}\n")
    if len(chunks) != len(commands) + 1:
        raise AssertionError(
            f"the shell stopped after {len(chunks) - 1} of {len(commands)} commands "
            f"(exit status {done.returncode}): {chunks[-1]}"
        )
    return [printed(chunk) for chunk in chunks[:-1]]


def printed(text: str) -> list[str]:
    """The lines of an output as a transcript shows them."""
    return comparable(line for line in text.splitlines() if not PROGRESS.match(line))


def comparable(lines: Iterable[str]) -> list[str]:
    """``lines`` without trailing whitespace, nor empty lines at the end."""
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def rewritten(block: Block, outputs: Sequence[Sequence[str]]) -> str:
    """The text of ``block`` with ``outputs`` in place of the outputs it shows."""
    lines: list[str] = []
    for command, output in zip(block.commands, outputs, strict=True):
        lines += [*command.lines, *output]
    return "".join(f"{line}\n" for line in lines)


def rewrite(block: Block, outputs: Sequence[Sequence[str]]) -> None:
    """Write ``outputs`` into the Markdown file of ``block``, as it is now."""
    text = block.path.read_text()
    old = f"```console\n{block.body}```"
    if old not in text:
        raise AssertionError(f"{block.name}: the block changed while it ran; run it again")
    block.path.write_text(text.replace(old, f"```console\n{rewritten(block, outputs)}```"))


def differences(block: Block, outputs: Sequence[Sequence[str]]) -> list[str]:
    """How what each command of ``block`` printed differs from what the block shows."""
    out = []
    for command, output in zip(block.commands, outputs, strict=True):
        shown = comparable(command.output)
        if shown != list(output):
            diff = difflib.unified_diff(shown, output, "shown", "printed", lineterm="", n=2)
            out.append(f"{command.lines[0]}\n" + "\n".join(diff))
    return out


def check(block: Block, workspace: Path) -> None:
    """Run ``block`` in ``workspace``; compare its outputs, or write them under UPDATE."""
    workspace.mkdir()
    shims = workspace / "bin"
    shims.mkdir()
    clone = copy_repository(workspace / "clone")
    for name, text in shown_files(block.path).items():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        (clone / name).write_text(text)
    outputs = run(block.commands, clone, shims)
    if UPDATE:
        rewrite(block, outputs)
        return
    found = differences(block, outputs)
    if found:
        pytest.fail(
            f"{block.name}: a transcript is not what its command prints "
            f"({UPDATE_ENV}=1 rewrites it):\n" + "\n".join(found),
            pytrace=False,
        )


BLOCKS = [block for path in markdown_files() for block in console_blocks(path)]


def test_every_console_block_is_a_transcript() -> None:
    for block in BLOCKS:
        assert block.commands, block.name  # parse() raises on a block that starts otherwise
    assert "packages/standard-tool-cli/README.md" in {
        block.path.relative_to(ROOT).as_posix() for block in BLOCKS
    }


@pytest.mark.parametrize("block", BLOCKS, ids=lambda block: block.name)
def test_a_transcript_is_what_its_commands_print(block: Block, tmp_path: Path) -> None:
    check(block, tmp_path / "block")


# What the transcripts rely on, run in a folder of their own.


def ran(body: str, tmp_path: Path) -> list[list[str]]:
    (tmp_path / "bin").mkdir(exist_ok=True)
    return run(parse(body), tmp_path, tmp_path / "bin")


def test_stdout_and_stderr_interleave_as_written(tmp_path: Path) -> None:
    assert ran(
        "$ echo a; echo b >&2; python -c 'import sys; print(1); sys.exit(\"c\")'\n", tmp_path
    ) == [["a", "b", "1", "c"]]


def test_the_exit_status_carries_to_the_next_command(tmp_path: Path) -> None:
    assert ran("$ false\n$ echo $?\n$ true\n$ echo $?\n", tmp_path) == [[], ["1"], [], ["0"]]


def test_a_comment_names_the_terminal_width(tmp_path: Path) -> None:
    body = "$ echo $COLUMNS   # on a terminal 77 columns wide\n$ echo $COLUMNS\n"
    assert ran(body, tmp_path) == [["77"], [str(WIDTH)]]


def test_a_here_document_continues_the_command(tmp_path: Path) -> None:
    body = "$ cat > f.txt << 'EOF'\n> one\n>\n> two\n> EOF\n$ cat f.txt\n"
    assert parse(body)[0].script == "cat > f.txt << 'EOF'\none\n\ntwo\nEOF"
    assert ran(body, tmp_path) == [[], ["one", "", "two"]]


def test_uv_run_and_uvx_run_this_environments_commands(tmp_path: Path) -> None:
    body = (
        "$ uv run python -c 'import sys; print(sys.prefix)'\n"
        "$ uv run --no-sync python -c 'print(2)'\n"
        "$ uvx python -c 'print(3)'\n"
    )
    assert ran(body, tmp_path) == [[sys.prefix], ["2"], ["3"]]


def test_check_progress_lines_are_left_out() -> None:
    text = "checking 1 tool through 2 targets\nchecked f directly (1/2)\nchecked f through mcp (2/2)\nok  \n\n"
    assert printed(text) == ["ok"]


def test_a_stale_transcript_fails_and_an_update_rewrites_only_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    markdown = tmp_path / "README.md"
    body = "$ echo one\ntwo\n$ cat << 'EOF'\n> three\n> EOF\n"
    markdown.write_text(f"Prose.\n\n```console\n{body}```\n\nMore prose.\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (block,) = console_blocks(markdown)
    outputs = ran(block.body, tmp_path)
    assert differences(block, outputs) == [
        "$ echo one\n--- shown\n+++ printed\n@@ -1 +1 @@\n-two\n+one",
        "$ cat << 'EOF'\n--- shown\n+++ printed\n@@ -0,0 +1 @@\n+three",
    ]
    rewrite(block, outputs)
    assert markdown.read_text() == (
        "Prose.\n\n```console\n$ echo one\none\n$ cat << 'EOF'\n> three\n> EOF\nthree\n```\n"
        "\nMore prose.\n"
    )
    (block,) = console_blocks(markdown)
    assert differences(block, ran(block.body, tmp_path)) == []


def test_a_block_names_the_files_its_markdown_shows(tmp_path: Path) -> None:
    markdown = tmp_path / "README.md"
    markdown.write_text(
        "```python\n# pkg/mod.py\nX = 1\n```\n\n```python\n# not a path\nY = 2\n```\n"
        "```python\n# ../out.py\nZ = 3\n```\n"
    )
    assert shown_files(markdown) == {"pkg/mod.py": "# pkg/mod.py\nX = 1\n"}
