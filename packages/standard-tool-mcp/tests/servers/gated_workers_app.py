"""An importable ASGI app for ``uvicorn --workers``: guarded tools whose gate keeps its state
in one SQLite file shared by every worker, for callers with the bearer token :data:`TOKEN`
(an authenticated caller's request ids are its own on every request and every worker; an
anonymous caller's would be those of one connection, here one request).

The test that starts it names the files in the environment: ``GATED_STORE`` (the gate's
store), ``GATED_RUNS`` (each tool run appends one line: the effect), ``GATED_AUDIT`` (each
call appends one line: which process answered it, and how), and ``GATED_LIMIT`` (the budget
of the ``charge`` tool).
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from mcp.server.auth.provider import AccessToken

from standard_tool import tool
from standard_tool.boundary import AuditEvent, Budget, Gate, SqliteStore
from standard_tool_mcp import to_asgi_app

TOKEN = "ops-token"
"""The one bearer token the app accepts: the caller ``ops``."""


class Verifier:
    async def verify_token(self, token: str) -> AccessToken | None:
        return AccessToken(token=token, client_id="ops", scopes=[]) if token == TOKEN else None


def _append(variable: str, record: dict[str, Any]) -> None:
    """One line of JSON at the end of the file named by ``variable`` (one short ``O_APPEND``
    write: whole, whichever process writes it)."""
    with open(os.environ[variable], "a", encoding="utf-8") as file:
        file.write(json.dumps(record) + "\n")


def _run(name: str, context: Any) -> dict[str, Any]:
    _append("GATED_RUNS", {"tool": name, "request_id": context["request_id"], "pid": os.getpid()})
    return {"tool": name, "request_id": context["request_id"], "pid": os.getpid()}


@tool
def book(seat: str, context: Any = None) -> dict[str, Any]:
    """Book a seat, slowly (long enough for repeats of the call to arrive while it runs).

    Args:
        seat: The seat to book.
    """
    time.sleep(0.5)
    return _run("book", context)


@tool
def charge(cents: int, context: Any = None) -> dict[str, Any]:
    """Charge an amount, within the budget.

    Args:
        cents: The amount to charge.
    """
    return _run("charge", context)


@tool
def notify(text: str, context: Any = None) -> dict[str, Any]:
    """Send a notice, unless the tool is switched off.

    Args:
        text: The notice.
    """
    return _run("notify", context)


def audit(event: AuditEvent) -> None:
    _append(
        "GATED_AUDIT",
        {"request_id": event.request_id, "code": event.code, "pid": os.getpid()},
    )


gate = Gate(
    store=SqliteStore(os.environ["GATED_STORE"]),
    budgets=[Budget(int(os.environ["GATED_LIMIT"]), key="tool", tools=["charge"])],
    audit=[audit],
)
app = to_asgi_app(gate.guard([book, charge, notify]), token_verifier=Verifier())
