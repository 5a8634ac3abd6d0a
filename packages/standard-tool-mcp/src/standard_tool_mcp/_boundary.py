"""What a served guarded tool (``standard_tool.boundary``) takes from an MCP request: the
request id, the caller's identity, its view of the tool list, and the form of a refusal.

- The request id is the client's ``_meta["standard-tool/request-id"]`` when it sends one (a
  retry of the same call sends the same id, and the gate runs it once), else one the gate
  makes (a JSON-RPC id names a message of one connection, not a call).
- The caller is the authenticated bearer token's subject (its client id when it has none),
  the tenant its ``tenant`` (or ``tid``) claim.
- A guarded tool whose gate hides it from this caller is not listed, and calling it reads as
  calling an unknown tool.
- A refusal is an ``isError`` result: the refusal's JSON line as text, its payload as
  structured content.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standard_tool import StandardTool
from standard_tool.boundary import guarded_of
from standard_tool.exceptions import ToolRefusedError

from . import _compat
from ._content import text_block

__all__ = [
    "REQUEST_ID_META",
    "TENANT_CLAIMS",
    "identify",
    "refusal_result",
    "sees",
]

REQUEST_ID_META = "standard-tool/request-id"
"""The ``_meta`` key of a ``tools/call`` request that names the call's request id."""
TENANT_CLAIMS = ("tenant", "tid")
"""The access token's claims read, in this order, as the caller's tenant."""
MAX_REQUEST_ID = 200
"""Characters a request id sent in ``_meta`` may have."""
_DEPTH = 32
"""Wrappers looked through for a guarded tool."""


def identify(context: dict[str, Any], meta: Mapping[str, Any] | None) -> str | None:
    """Fill the boundary's keys of a served call's ``context`` in place: ``request_id`` from
    ``_meta`` (when sent), ``actor`` and ``tenant`` from the authenticated token (a key
    already set is kept). Returns what is wrong with the ``_meta`` request id, else ``None``."""
    sent = (meta or {}).get(REQUEST_ID_META)
    if sent is not None:
        if not isinstance(sent, str) or not 0 < len(sent) <= MAX_REQUEST_ID:
            return (
                f"_meta[{REQUEST_ID_META!r}] must be a string of 1 to {MAX_REQUEST_ID} characters"
            )
        context["request_id"] = sent
    token = context.get("auth")
    if token is not None:
        subject = getattr(token, "subject", None)  # SDK 1.x before the field: none
        actor = subject if isinstance(subject, str) and subject else token.client_id
        context.setdefault("actor", actor)
        claims = getattr(token, "claims", None) or {}
        tenant = next(
            (claims[k] for k in TENANT_CLAIMS if isinstance(claims.get(k), str) and claims[k]),
            None,
        )
        if tenant is not None:
            context.setdefault("tenant", tenant)
    return None


def sees(tool: StandardTool, context: Any) -> bool:
    """Whether this caller sees ``tool``: a guarded tool asks its gate, any other is seen."""
    guarded = guarded_of(tool)
    return guarded is None or bool(guarded.gate.visible([guarded.wrapped], context))


def refusal_result(error: ToolRefusedError) -> Any:
    """A refused call as a ``tools/call`` result: ``isError``, the refusal's JSON line as its
    text, and its payload (``code``, ``retryable``, ``message``, ``request_id``) as structured
    content. Clients check structured content against a tool's output schema only when the
    result is not an error (both SDK majors), so the payload has its own shape there."""
    return _compat.tool_result([text_block(str(error))], error.payload, is_error=True)
