"""Every ``standard-tool check`` transcript of the README is what the command prints.

Each ``$ uv run standard-tool check ...`` line of a ``console`` block is run as written (at
the width its comment names, else 120 columns), mcp-server-time started from this
environment rather than by ``uvx``; a transcript of every installed target is run for the
targets its table shows, so that an adapter installed here and not there (the toy plugin)
does not change it."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from script import MCP_TIME, ROOT, SCRIPT

README = Path(__file__).resolve().parents[1] / "README.md"
UVX_TIME = "mcp+stdio:uvx mcp-server-time"


def transcripts() -> list[tuple[str, str]]:
    """Each ``check`` command of the README's console blocks, with the output shown."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(), flags=re.S):
        for command in re.split(r"^(?=\$ )", block, flags=re.M):
            line, _, output = command.partition("\n")
            if line.startswith("$ uv run standard-tool check "):
                found.append((line.removeprefix("$ uv run standard-tool "), output))
    return found


def targets_shown(output: str) -> list[str]:
    """The targets of the table in ``output``: its header's, or its rows' first cells."""
    lines = output.splitlines()
    header = [cell.strip() for cell in next(x for x in lines if x.startswith("┃")).split("┃")]
    if header[1] == "tool":
        return header[2:-1]
    return [line.split("│")[1].strip() for line in lines if line.startswith("│")]


def test_the_readme_shows_check_transcripts() -> None:
    commands = [command for command, _ in transcripts()]
    assert any(UVX_TIME in command and "--input" in command for command in commands), commands
    assert any("--target" not in command for command in commands), commands


@pytest.mark.parametrize(
    ("command", "output"),
    [pytest.param(command, output, id=command[:80]) for command, output in transcripts()],
)
def test_a_check_transcript_is_what_the_command_prints(command: str, output: str) -> None:
    command, _, comment = command.partition("#")
    width = re.search(r"(\d+) columns wide", comment)
    args = [MCP_TIME if arg == UVX_TIME else arg for arg in shlex.split(command)]
    if "--target" not in args:
        args += [arg for target in targets_shown(output) for arg in ("--target", target)]
    done = subprocess.run(
        [str(SCRIPT), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": width.group(1) if width else "120"},
    )
    printed = [line.rstrip() for line in done.stdout.splitlines()]
    assert printed == [line.rstrip() for line in output.splitlines()], done.stderr
