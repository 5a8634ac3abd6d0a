"""``approvals serve``: a gate's approvals inbox (``standard_tool.boundary.inbox``) served over
HTTP by uvicorn until stopped."""

from __future__ import annotations

import importlib
import socket
import sys
from collections.abc import Sequence
from types import EllipsisType
from typing import Any

import click

import standard_tool as st
from standard_tool.boundary import Gate, inbox

from ._errors import CommandError
from ._options import debug_option
from ._sources import load_gate

__all__ = ["approvals", "approvers_of", "gate_of", "serve_approvals", "serve_inbox"]

INSTALL = "pip install 'standard-tool-cli[approvals]'"


def gate_of(source: str | None, name: str) -> tuple[str, Gate]:
    """The gate ``--gate`` names, and how to name it in a message: an attribute of SOURCE
    (``approvals serve my_gate.py --gate GATE``), or, without SOURCE, ``--gate`` in the form
    every command takes (``my_gate.py:GATE``)."""
    if source is None:
        return name, load_gate(name)
    if ":" in name:
        raise CommandError(
            f"with SOURCE {source!r}, --gate names one of its attributes (e.g. --gate GATE), "
            f"not {name!r}; or leave SOURCE out and write --gate {source}:GATE"
        )
    spec = f"{source}:{name}"
    return spec, load_gate(spec)


def approvers_of(given: Sequence[str]) -> dict[str, str]:
    """``--approver NAME:TOKEN`` (repeatable) as a mapping of each name to its token."""
    approvers: dict[str, str] = {}
    for one in given:
        name, colon, token = one.partition(":")
        if not colon or not name or not token:
            raise CommandError("--approver is NAME:TOKEN (the token a person signs in with)")
        if name in approvers:
            raise CommandError(f"--approver names {name!r} twice")
        approvers[name] = token
    return approvers


def serve_inbox(
    gate: Gate,
    spec: str,
    approvers: dict[str, str],
    host: str,
    port: int,
    tenant: str | None,
) -> None:
    """Serve the inbox of ``gate`` on ``host``:``port`` (0: a free port) until stopped; one
    line on stderr says where."""
    try:
        uvicorn: Any = importlib.import_module("uvicorn")
    except ImportError:
        raise CommandError(f"approvals serve needs uvicorn: {INSTALL}") from None
    chosen: str | EllipsisType = ... if tenant is None else tenant
    try:
        app = inbox(gate, approvers, tenant=chosen)
    except st.UsageError as error:
        message = str(error).replace("pip install 'standard-tool[inbox]'", INSTALL)
        raise CommandError(f"--gate {spec!r}: {message}") from None
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listening = socket.socket(family, kind, proto)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError as error:
        raise CommandError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    bound = listening.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    config = uvicorn.Config(app, host=host, port=bound, log_level="warning", lifespan="off")
    print(
        f"standard-tool: the approvals inbox of --gate {spec} on http://{shown}:{bound}/ "
        f"({len(approvers)} approver{'s' if len(approvers) != 1 else ''}; Ctrl-C stops it)",
        file=sys.stderr,
        flush=True,
    )
    try:
        uvicorn.Server(config).run(sockets=[listening])
    except KeyboardInterrupt:
        pass
    finally:
        listening.close()


@click.group()
def approvals() -> None:
    """A gate's approvals inbox: a web page where people approve or reject its held calls."""


@approvals.command(
    "serve",
    epilog="""\b
Examples:
  standard-tool approvals serve my_gate.py --gate GATE --approver bob:$BOB_TOKEN
  standard-tool approvals serve --gate my_gate.py:GATE --approver bob:$BOB_TOKEN \\
    --approver carol:$CAROL_TOKEN --tenant acme --port 8080""",
)
@click.argument("source", required=False)
@click.option(
    "--gate",
    "gate_spec",
    required=True,
    metavar="NAME",
    help="The standard_tool.boundary.Gate: its attribute name in SOURCE (package.module or "
    "path/to/file.py), or, without SOURCE, package.module:attribute or "
    "path/to/file.py:attribute.",
)
@click.option(
    "--approver",
    "approver_specs",
    multiple=True,
    required=True,
    metavar="NAME:TOKEN",
    help="A person who may decide, and the token they sign in with (at least 16 characters; "
    "repeatable).",
)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8001,
    show_default=True,
    help="0 takes a free port.",
)
@click.option("--tenant", help="Show and decide only the calls of this tenant.")
@debug_option
def serve_approvals(
    source: str | None,
    gate_spec: str,
    approver_specs: tuple[str, ...],
    host: str,
    port: int,
    tenant: str | None,
) -> None:
    """Serve the approvals inbox of a gate over HTTP until stopped (Ctrl-C).

    The page lists the calls the gate holds, newest first, with their arguments whole, and the
    recent decisions. A person signs in with their --approver token, then approves a call or
    rejects it with a reason, recorded in the gate's store with their name as the approver;
    the call, made again by its caller, then runs once, or is refused. The gate's store must
    be one the calling processes share (a SqliteStore or a RedisStore, not a MemoryStore).
    One line on stderr says where the inbox is. Needs uvicorn and Starlette:
    pip install 'standard-tool-cli[approvals]'.
    """
    spec, gate = gate_of(source, gate_spec)
    serve_inbox(gate, spec, approvers_of(approver_specs), host, port, tenant)
