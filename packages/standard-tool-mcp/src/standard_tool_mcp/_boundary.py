"""What a served guarded tool (``standard_tool.boundary``) takes from an MCP request: the
request id, the caller's identity, its view of the tool list, and the form of a refusal.

- The request id is the client's ``_meta["standard-tool/request-id"]`` when it sends one (a
  retry of the same call sends the same id, and the gate runs it once), else a new one (a
  JSON-RPC id names a message of one connection, not a call); an anonymous caller's is its
  connection's own (see ``_scope``).
- The caller is the authenticated bearer token's subject (its client id when it has none),
  the tenant its ``tenant`` (or ``tid``) claim.
- A guarded tool whose gate hides it from this caller is not listed, and calling it reads as
  calling an unknown tool.
- A refusal is an ``isError`` result: the refusal's JSON line as text, its payload as
  structured content. An adopted tool reads such a result back as the refusal
  (:func:`refusal_of`).
- A call its own gate held (``held_for_review``), of a client that declared elicitation, is
  put to the person through the client (:func:`confirm`) when the gate lets a caller approve
  its own calls (``self_approval``): a form showing the approval request whole
  (:func:`question`), with one required boolean, ``approve``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Mapping
from typing import Any

from standard_tool import StandardTool
from standard_tool.boundary import Approval, guarded_of, legible
from standard_tool.exceptions import REFUSAL_CODES, ToolRefusedError

from . import _compat
from ._content import text_block

__all__ = [
    "APPROVAL_FORM",
    "APPROVAL_KEY",
    "CLIENT_APPROVER",
    "DECLINED",
    "REQUEST_ID_META",
    "TENANT_CLAIMS",
    "approver_of",
    "confirm",
    "identify",
    "question",
    "refusal_of",
    "refusal_result",
    "sees",
    "verdict",
]

REQUEST_ID_META = "standard-tool/request-id"
"""The ``_meta`` key of a ``tools/call`` request that names the call's request id."""
TENANT_CLAIMS = ("tenant", "tid")
"""The access token's claims read, in this order, as the caller's tenant."""
MAX_REQUEST_ID = 200
"""Characters a request id sent in ``_meta`` may have."""
APPROVAL_FORM: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {
            "type": "boolean",
            "title": "Approve",
            "description": "Run this call (true) or reject it (false).",
        }
    },
    "required": ["approve"],
}
"""The form a held call is confirmed with, in a client that declared elicitation."""
APPROVAL_KEY = "standard-tool/approval"
"""The key of the approval form in an ``input_required`` result (protocol 2026-07-28)."""
CLIENT_APPROVER = "mcp-client"
"""The approver recorded for an answer in the client of a caller with no ``actor``."""
DECLINED = "declined in the client"
"""The reason recorded for a call rejected in the client."""
MAX_MESSAGE = 4000
"""Characters of a refusal's message read from a server's result (more are clipped)."""
MAX_SUMMARY = 100_000
"""Characters a held call's approval summary (its arguments' JSON text) read from a server's
result may have. An approval request with a longer one is not read as one (nor is the result
read as a refusal): it is never clipped, since a clipped text could hide a field."""
MAX_NAME = 1000
"""Characters the tool, tenant and actor of an approval request read from a server's result
may have (more, and it is not read as one)."""
_PAYLOAD = frozenset({"code", "retryable", "message", "request_id"})
_APPROVAL = frozenset({"id", "tool", "tenant", "actor", "arguments", "summary", "digest"})
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")

_logger = logging.getLogger("standard_tool_mcp")


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


def approver_of(context: Mapping[str, Any]) -> str:
    """Who answered in the client: the caller's ``actor``, else :data:`CLIENT_APPROVER`."""
    actor = context.get("actor")
    return actor if isinstance(actor, str) and actor else CLIENT_APPROVER


def question(approval: Approval, name: str, request_id: str) -> str:
    """What the person is asked about the held call of the tool served as ``name``, known to
    the client as ``request_id``: its approval request whole, each value on a line of its own
    as JSON (the tool; whose call it is, tenant and actor; the arguments exactly as they will
    run, but for values the tool marks secret; the digest the approval is bound to). A value
    is never clipped, and a character that would not read as itself (a line break, a
    direction override) is written as its escape: no text of the caller or the model can pass
    for another line, or for other arguments."""
    request = approval.request()
    lines = [
        f"The call of {_visible(name)} waits for your approval.",
        f"tool: {_visible(request['tool'])}",
        f"tenant: {_visible(request['tenant'])}",
        f"actor: {_visible(request['actor'])}",
        f"arguments: {legible(request['summary'])}",
        f"digest: {_visible(request['digest'])}",
        f"request id: {_visible(request_id)}",
    ]
    return "\n".join(lines)


def _visible(value: Any) -> str:
    """``value`` as JSON, as a person reads it (``standard_tool.boundary.legible``)."""
    return legible(json.dumps(value, ensure_ascii=False))


def verdict(action: Any, content: Any) -> bool | None:
    """The person's answer to :data:`APPROVAL_FORM`: ``True`` to run the call; ``False`` when
    they decline, cancel, or answer ``approve: false``; ``None`` for no answer (an accepted
    form whose ``approve`` is not a boolean)."""
    if action in ("decline", "cancel"):
        return False
    answer = content.get("approve") if isinstance(content, Mapping) else None
    return answer if action == "accept" and isinstance(answer, bool) else None


async def confirm(ctx: Any, asked: str, name: str, limit: float | None) -> bool | None:
    """The :func:`verdict` of the person, asked ``asked`` (a :func:`question`) with a request
    to the client of the request of ``ctx``, on a held call of the tool served as ``name``;
    ``None`` (no answer) when the client failed or did not answer within ``limit`` seconds."""
    try:
        action, content = await asyncio.wait_for(
            _compat.elicit_form(ctx, asked, APPROVAL_FORM), limit
        )
    except Exception as exc:  # the client failed or did not answer in time: still held
        _logger.info(
            "asking the client about a held call of %r failed (%s)", name, type(exc).__name__
        )
        return None
    return verdict(action, content)


def refusal_result(error: ToolRefusedError) -> Any:
    """A refused call as a ``tools/call`` result: ``isError``, the refusal's JSON line as its
    text, and its payload (``code``, ``retryable``, ``message``, ``request_id``) as structured
    content. Clients check structured content against a tool's output schema only when the
    result is not an error (both SDK majors), so the payload has its own shape there."""
    return _compat.tool_result([text_block(str(error))], error.payload, is_error=True)


def refusal_of(tool: str, structured: Any) -> ToolRefusedError | None:
    """The refusal of the adopted tool ``tool`` that an error result's structured content
    ``structured`` is, or ``None`` when it is anything else.

    It is one when it holds exactly the payload :func:`refusal_result` sends: ``code`` (one
    of ``REFUSAL_CODES``), ``retryable`` (the code's own), ``message`` (a string, clipped to
    :data:`MAX_MESSAGE` characters) and ``request_id`` (a string of 1 to
    :data:`MAX_REQUEST_ID` characters, or ``None``), and optionally ``approval``: ``None``, or
    a held call's approval request (see :func:`_approval_of`). Any other key or type, and it
    is not."""
    if not isinstance(structured, dict):
        return None
    if not _PAYLOAD <= structured.keys() <= _PAYLOAD | {"approval"}:
        return None
    code, retryable = structured["code"], structured["retryable"]
    message, request_id = structured["message"], structured["request_id"]
    if not (
        isinstance(code, str)
        and code in REFUSAL_CODES
        and retryable is REFUSAL_CODES[code]
        and isinstance(message, str)
        and (request_id is None or _request_id(request_id))
    ):
        return None
    approval = structured.get("approval")
    if approval is not None:
        approval = _approval_of(approval, request_id)
        if approval is None:
            return None
    return ToolRefusedError(tool, code, _clip(message, MAX_MESSAGE), request_id, approval)


def _request_id(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_REQUEST_ID


def _approval_of(value: Any, request_id: str | None) -> dict[str, Any] | None:
    """A held call's approval request read from a server's result, or ``None`` when ``value``
    is not one (for the call of ``request_id``).

    It is one when it has exactly the keys of ``Approval.request()``: ``id`` (the request id),
    ``tool`` (1 to :data:`MAX_NAME` characters), ``tenant`` and ``actor`` (``None`` or at most
    :data:`MAX_NAME` characters), ``summary`` (at most :data:`MAX_SUMMARY` characters of JSON
    text), ``arguments`` (the JSON value ``summary`` is the text of) and ``digest`` (a
    ``sha256:`` digest), every text valid Unicode. Nothing is clipped or replaced: what a
    person would read must be what the server sent, whole, or nothing."""
    if not isinstance(value, dict) or value.keys() != _APPROVAL:
        return None
    texts = [value[key] for key in ("id", "tool", "summary", "digest")]
    names = [value[key] for key in ("tenant", "actor")]
    if not all(isinstance(text, str) for text in texts):
        return None
    if not all(name is None or (isinstance(name, str) and len(name) <= MAX_NAME) for name in names):
        return None
    if value["id"] != request_id or not _DIGEST.fullmatch(value["digest"]):
        return None
    if not 0 < len(value["tool"]) <= MAX_NAME or len(value["summary"]) > MAX_SUMMARY:
        return None
    if not all(_unicode(text) for text in [*texts, *names] if text is not None):
        return None
    same = _same_json(value["summary"], value["arguments"])
    if same is None:
        return None
    (arguments,) = same
    return {
        "id": value["id"],
        "tool": value["tool"],
        "tenant": value["tenant"],
        "actor": value["actor"],
        "arguments": arguments,
        "summary": value["summary"],
        "digest": value["digest"],
    }


def _unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _reject(constant: str) -> Any:
    raise ValueError(constant)


def _same_json(summary: str, arguments: Any) -> tuple[Any] | None:
    """The JSON value ``summary`` is the text of (a copy, alone in a tuple), when it is
    ``arguments`` (the same canonical JSON, valid Unicode); else ``None``: a server that would
    show a person one thing and send another is not read."""
    try:
        shown = json.loads(summary, parse_constant=_reject)
        canonical = json.dumps(shown, ensure_ascii=False, sort_keys=True, allow_nan=False)
        sent = json.dumps(arguments, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        return None
    return (shown,) if canonical == sent and _unicode(canonical) else None


def _clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters (``...`` marks the cut), as valid Unicode
    (a lone surrogate becomes ``?``), as the core clips text chosen by someone else."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")
