"""``serve``: the tools of a SOURCE served over MCP, behind a gate or not."""

from __future__ import annotations

from contextlib import ExitStack

import click

import standard_tool as st
from standard_tool.checks import one_line

from ._errors import CommandError
from ._gates import warn_unused_gates
from ._options import (
    GATE_HELP,
    SOURCE_HELP,
    debug_option,
    described,
    gate_option,
    open_tools,
    server_options,
    timeout_option,
)
from ._sources import load_gate

__all__ = ["serve"]


@click.command(
    epilog="""\b
Examples:
  standard-tool serve examples/weather.py:TOOLS
  standard-tool serve examples/weather.py:TOOLS --transport streamable-http --port 8000
  standard-tool serve 'mcp+stdio:uvx mcp-server-time' --transport streamable-http --port 0
  standard-tool serve my_tools.py:TOOLS --gate my_gate.py:GATE

An MCP client configuration runs it over stdio, e.g.
  {"command": "uv", "args": ["run", "standard-tool", "serve", "my_tools.py:TOOLS"]}"""
)
@click.argument("source")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "streamable-http"]),
    default="stdio",
    show_default=True,
)
@click.option("--host", default="127.0.0.1", show_default=True, help="streamable-http only.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="streamable-http only; 0 takes a free port.",
)
@click.option("--name", default="standard-tool", show_default=True, help="The server's name.")
@gate_option()
@server_options
@timeout_option
@debug_option
def serve(
    source: str,
    transport: str,
    host: str,
    port: int,
    name: str,
    gate_spec: str | None,
    timeout: float,
) -> None:
    """Serve the tools of SOURCE over MCP until stopped (Ctrl-C).

    One line on stderr says what is served and where; over stdio, stdout is the MCP channel.
    With `--gate`, every call goes through that gate (`gate.guard`): a refused call answers
    the client with an error whose text is the refusal, one line of JSON. Without `--gate`, a
    warning on stderr names a gate that SOURCE's module defines and that guards none of its
    tools; they are served unguarded.
    """
    try:
        from standard_tool_mcp import serve as serve_mcp
    except ImportError:
        raise CommandError(
            "serve needs the MCP adapter; install it: pip install standard-tool-mcp"
        ) from None
    gate = None if gate_spec is None else load_gate(gate_spec)
    with ExitStack() as stack:
        tools = open_tools(source, stack, timeout)
        if gate is None:
            warn_unused_gates(source, tools)
        else:
            tools = gate.guard(tools)
        try:
            serve_mcp(tools, transport, host, port, name=name)  # type: ignore[arg-type]
        except KeyboardInterrupt:
            return
        except st.UsageError as error:
            raise CommandError(f"cannot serve SOURCE {source!r}: {one_line(str(error))}") from error


described(serve, SOURCE_HELP, GATE_HELP)
