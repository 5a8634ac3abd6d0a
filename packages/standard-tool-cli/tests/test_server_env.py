"""An ``mcp+stdio:`` server's environment (``--env``) and its stderr (``--verbose``)."""

from __future__ import annotations

import json
import sys

import pytest
from script import SCRIPT, SOURCES, WEATHER, Run

SERVER = f"mcp+stdio:{SCRIPT} serve {SOURCES}:ENVIRON"
"""The command itself serving a tool that reads its environment; it says so on stderr."""


def _environ(run: Run, name: str, *extra: str, env: dict[str, str] | None = None) -> object:
    args = ["call", SERVER, "environ", "--input", json.dumps({"name": name}), *extra]
    out = run(*args, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_env_sets_a_variable_and_passes_one_through(run: Run) -> None:
    assert _environ(run, "ST_CLI_SET", "--env", "ST_CLI_SET=a=b") == "a=b"
    mine = {"ST_CLI_OWN": "from the command"}
    assert _environ(run, "ST_CLI_OWN", env=mine) is None  # not passed by default
    assert _environ(run, "ST_CLI_OWN", "--env", "ST_CLI_OWN", env=mine) == "from the command"
    assert _environ(run, "PATH") is not None  # the MCP SDK's default environment


def test_the_servers_stderr_is_held_back_unless_verbose(run: Run) -> None:
    args = ["list", SERVER, "--json"]
    quiet = run(*args)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    verbose = run(*args, "--verbose")
    assert verbose.returncode == 0
    lines = verbose.stderr.splitlines()
    assert lines and all(line.startswith("server: ") for line in lines), lines
    assert any("serving 1 tool" in line for line in lines)


def test_a_server_that_fails_is_one_line_naming_its_stderr(run: Run) -> None:
    code = "import sys; sys.stderr.write('boom from the server\\n'); raise SystemExit(3)"
    out = run("list", f'mcp+stdio:{sys.executable} -c "{code}"', "--timeout", "20")
    assert out.returncode == 2
    (line,) = out.stderr.splitlines()
    assert line.startswith("standard-tool list: cannot reach") and "boom from the server" in line


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["list", SERVER, "--env", "=x"], "Invalid value for '--env'"),
        (["list", SERVER, "--env", "ST_CLI_SURELY_UNSET"], "ST_CLI_SURELY_UNSET"),
        (["list", WEATHER, "--env", "A=1"], "mcp+stdio:"),
        (["show", WEATHER, "multiply", "--env", "=x"], "Invalid value for '--env'"),
        (["call", WEATHER, "multiply", "--env", "=x"], "Invalid value for '--env'"),
        (["check", WEATHER, "--env", "=x"], "Invalid value for '--env'"),
        (["serve", WEATHER, "--env", "=x"], "Invalid value for '--env'"),
    ],
)
def test_env_mistakes_are_usage_errors(run: Run, args: list[str], says: str) -> None:
    out = run(*args)
    assert out.returncode == 2, out.stderr
    (line,) = out.stderr.splitlines()
    assert says in line, line
