"""An MCP server over streamable HTTP, given as SOURCE at a path it does not serve: the one
line says so, and which URL to try."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from script import Run, serving_http


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """The URL of ``standard-tool serve --transport streamable-http`` on a free port."""
    with serving_http() as base:
        yield base


@pytest.mark.parametrize("path", ["/", "", "/api/tools"])
def test_a_path_the_server_does_not_serve_says_which_to_try(
    run: Run, served: str, path: str
) -> None:
    out = run("list", served + path, "--timeout", "20")
    assert out.returncode == 2 and out.stdout == "", out.stderr
    (line,) = out.stderr.splitlines()
    assert line.startswith(f"standard-tool list: cannot reach the MCP server of SOURCE '{served}")
    assert line.endswith(
        f" (HTTP 404 at {path or '/'}; MCP servers usually serve /mcp: try {served}/mcp)"
    ), line
    tried = run("list", f"{served}/mcp", "--json")
    assert tried.returncode == 0, tried.stderr
    assert [tool["name"] for tool in json.loads(tried.stdout)] == ["whoami", "explode"]


def test_a_server_that_is_not_there_gets_no_such_hint(run: Run) -> None:
    out = run("list", "http://127.0.0.1:9/", "--timeout", "20")
    assert out.returncode == 2
    (line,) = out.stderr.splitlines()
    assert "cannot reach the MCP server" in line and "HTTP 404" not in line, line
