"""Where a served guarded tool's calls keep their request ids.

A gate keeps each caller's request ids apart by tenant and actor. An authenticated caller has
them (from its token); an anonymous one has neither, so that every anonymous client would
share one set of request ids: one client sending the ``_meta`` request id of another would be
answered with the other's receipt. So each anonymous connection gets a namespace of its own:
a random secret kept per connection, and the request id the gate sees is the client's own
behind a prefix derived from that secret (``anon-<32 hex digits>/``). The client and the model
only ever see their own request id; the gate, its steps, its audit events and the tool see the
prefixed one. Nothing of what a policy reads as tenant or actor changes.

A transport with one client only (stdio: the process that started the server) is one
namespace for the whole run (:data:`one_client`), whatever the SDK makes of its requests: the
client's retries are answered by their receipts. Where the SDK makes a connection per request
over a transport many clients share (stateless HTTP; every request of protocol 2026-07-28 on
SDK 2.x), an anonymous caller's namespace is that one request: a retry is then a new call
(authenticate callers, and their tenant and actor are their namespace). The answer to an ``input_required`` approval form, which comes in a new request, finds
its call through the request state, which carries the secret of the call's namespace: the
server gives it to the calling client only, and no other client can guess it.
"""

from __future__ import annotations

import contextvars
import hashlib
import re
import secrets
import uuid
import weakref
from dataclasses import dataclass
from typing import Any

from standard_tool.exceptions import ToolRefusedError

from . import _compat

__all__ = ["ANONYMOUS", "OneClient", "Scope", "Scopes", "one_client"]

ANONYMOUS = "anon-"
"""How the request id an anonymous caller's call runs under at its gate begins."""
_SECRET = re.compile(r"[A-Za-z0-9_-]{32}")
"""A namespace's secret, as :func:`secrets.token_urlsafe` writes 24 bytes."""


class OneClient:
    """Stands for the one client of a transport that has only one (stdio), for as long as the
    server runs on it."""


one_client: contextvars.ContextVar[OneClient | None] = contextvars.ContextVar(
    "standard_tool_mcp_one_client", default=None
)
"""Set while a server runs on a transport with one client only: its anonymous calls then share
one namespace, that client's."""


@dataclass(frozen=True)
class Scope:
    """The namespace of one served call's request id: ``secret`` for an anonymous caller (its
    connection's), ``None`` for an authenticated one (its tenant and actor are its namespace,
    and its request ids reach the gate as they are)."""

    secret: str | None

    @property
    def prefix(self) -> str:
        """What the request ids of this namespace begin with at the gate ("" for none)."""
        if self.secret is None:
            return ""
        return f"{ANONYMOUS}{hashlib.sha256(self.secret.encode()).hexdigest()[:32]}/"

    def gate_id(self, request_id: str | None) -> str | None:
        """The request id the gate runs the client's ``request_id`` under: ``None`` (the gate
        makes one) for an authenticated caller that sent none; an anonymous caller's call gets
        an id made here, so that the client can send it again."""
        if self.secret is None:
            return request_id
        return self.prefix + (uuid.uuid4().hex if request_id is None else request_id)

    def client_id(self, gate_id: str) -> str:
        """The request id the client knows a call by (the gate's, without this namespace's
        prefix)."""
        prefix = self.prefix
        return gate_id[len(prefix) :] if prefix and gate_id.startswith(prefix) else gate_id

    def refusal(self, error: ToolRefusedError) -> ToolRefusedError:
        """``error`` as the client reads it: its request id (and its approval request's) the
        client's own."""
        if not self.prefix or error.request_id is None:
            return error
        approval = error.approval
        if approval is not None and isinstance(approval.get("id"), str):
            approval = {**approval, "id": self.client_id(approval["id"])}
        return ToolRefusedError(
            error.tool, error.code, error.message, self.client_id(error.request_id), approval
        )

    def state(self, gate_id: str) -> str:
        """The request state of an ``input_required`` approval form for the call ``gate_id``:
        the client's request id, behind the namespace's secret for an anonymous caller."""
        client = self.client_id(gate_id)
        return client if self.secret is None else f"{self.secret}/{client}"

    @staticmethod
    def answered(state: str, anonymous: bool) -> tuple[Scope, str] | None:
        """The namespace and the client's request id that the request state ``state`` of an
        answered form names, for an ``anonymous`` caller or not; ``None`` when it names none
        (an anonymous caller's state without a secret)."""
        if not anonymous:
            return (Scope(None), state) if state else None
        secret, _, request_id = state.partition("/")
        if not _SECRET.fullmatch(secret) or not request_id:
            return None
        return Scope(secret), request_id


class Scopes:
    """The namespace of each anonymous connection to one server, kept as long as the
    connection lives."""

    def __init__(self) -> None:
        self._secrets: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()

    def of(self, ctx: Any, anonymous: bool) -> Scope:
        """The namespace of the request of ``ctx``: its connection's for an ``anonymous``
        caller (a new one for a request whose connection cannot be told), else none."""
        if not anonymous:
            return Scope(None)
        connection = one_client.get() or _compat.connection_of(ctx)
        try:
            secret = self._secrets.get(connection) if connection is not None else None
            if secret is None:
                secret = secrets.token_urlsafe(24)
                if connection is not None:
                    self._secrets[connection] = secret
        except TypeError:  # a connection that cannot be weakly referenced: this request's own
            secret = secrets.token_urlsafe(24)
        return Scope(secret)
