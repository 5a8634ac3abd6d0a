"""An approvals inbox: a web page where the people a gate names see the calls it holds, and
approve or reject each (``pip install 'standard-tool[inbox]'``)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import importlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import EllipsisType
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from .._text import legible
from ..exceptions import UsageError
from ._gate import Gate
from ._types import Approval

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["inbox"]

COOKIE = "standard_tool_inbox"
"""The session cookie's name: a random session id, never a token."""
SESSION_SECONDS = 8 * 3600.0
"""How long a session lasts after its last use."""
MOST_SESSIONS = 10_000
"""How many sessions an inbox keeps at most (the least recently used dropped first)."""
MOST_BODY = 64 * 1024
"""The largest form an inbox reads, in bytes."""
SHORTEST_TOKEN = 16
"""The fewest characters an approver's token has."""

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem;
  padding: 0 1rem; color: #1d1d1f; }
header { display: flex; justify-content: space-between; align-items: baseline; }
article { border: 1px solid #ccc; border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; }
article h3 { margin: 0 0 .4rem; font-family: ui-monospace, monospace; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0; }
dt { color: #555; } dd { margin: 0; font-family: ui-monospace, monospace;
  overflow-wrap: anywhere; }
pre { background: #f5f5f7; padding: .6rem; overflow-x: auto; white-space: pre-wrap;
  overflow-wrap: anywhere; margin: .5rem 0; }
form.decide { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
input[name=reason] { flex: 1; min-width: 12rem; }
.error { background: #fde8e8; border: 1px solid #c81e1e; padding: .6rem 1rem;
  border-radius: 6px; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #ddd;
  vertical-align: top; overflow-wrap: anywhere; }
.approved, .used { color: #046c4e; } .rejected { color: #c81e1e; }
"""
HEADERS = [
    (
        b"content-security-policy",
        (
            "default-src 'none'; style-src 'sha256-"
            + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
            + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        ).encode(),
    ),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
    (b"cache-control", b"no-store"),
]
"""Sent with every answer: no script runs on the page (it has none), its one style is named
by its hash, no other site frames it, and a form posts to the inbox only."""


@dataclass
class _Session:
    approver: str
    csrf: str
    until: float


def _text(value: Any) -> str:
    """``value`` as HTML text: every character that does not show as itself written as its
    escape (:func:`~standard_tool.boundary.legible`), then HTML-escaped."""
    return html.escape(legible(str(value)), quote=True)


def _json_lines(value: Any) -> str:
    """``value`` as indented JSON in HTML, line by line as :func:`_text` writes text."""
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)
    return "\n".join(_text(line) for line in text.split("\n"))


def _age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{int(seconds // size)} {unit} ago"
    return f"{int(seconds)} s ago"


def _when(moment: float | None, now: float) -> str:
    if moment is None:
        return ""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(moment))
    return f'<time title="{_text(stamp)}">{_text(_age(now - moment))}</time>'


class _Headers:
    """ASGI middleware: :data:`HEADERS` on every answer."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        await self.app(scope, receive, sending)


class _Inbox:
    """What one inbox holds: its gate, its approvers and their sessions."""

    def __init__(
        self,
        gate: Gate,
        approvers: Mapping[str, str],
        tenant: str | None | EllipsisType,
        limit: int,
    ) -> None:
        self.gate = gate
        self.store = gate.store
        self.approvers = dict(approvers)
        self.tenant = tenant
        self.limit = limit
        self.sessions: OrderedDict[str, _Session] = OrderedDict()
        self.lock = threading.Lock()

    # -- who is asking -----------------------------------------------------------------

    def session(self, request: Request) -> tuple[str, _Session] | None:
        sid = request.cookies.get(COOKIE)
        if not sid:
            return None
        now = time.time()
        with self.lock:
            held = self.sessions.get(sid)
            if held is None or held.until <= now:
                self.sessions.pop(sid, None)
                return None
            held.until = now + SESSION_SECONDS
            self.sessions.move_to_end(sid)
            return sid, held

    def approver_of(self, token: str) -> str | None:
        """The approver whose token ``token`` is: every token compared in constant time."""
        found = None
        given = token.encode()
        for name, known in self.approvers.items():
            if hmac.compare_digest(given, known.encode()):
                found = name
        return found

    def open_session(self, approver: str) -> str:
        sid = secrets.token_urlsafe(32)
        with self.lock:
            self.sessions[sid] = _Session(
                approver, secrets.token_urlsafe(32), time.time() + SESSION_SECONDS
            )
            while len(self.sessions) > MOST_SESSIONS:
                self.sessions.popitem(last=False)
        return sid

    # -- the page ----------------------------------------------------------------------

    def page(self, session: _Session | None, error: str = "", status: int = 200) -> Response:
        from starlette.responses import HTMLResponse

        parts = ['<!doctype html><html lang="en"><head><meta charset="utf-8">']
        parts.append('<meta name="viewport" content="width=device-width, initial-scale=1">')
        parts.append(f"<title>Approvals</title><style>{STYLE}</style></head><body>")
        if session is None:
            parts.append("<header><h1>Approvals</h1></header>")
            if error:
                parts.append(f'<p class="error" role="alert">{_text(error)}</p>')
            parts.append(
                '<form method="post" action="/sign-in"><label>Your approver token '
                '<input type="password" name="token" autocomplete="current-password" '
                'required autofocus></label> <button type="submit">Sign in</button></form>'
            )
        else:
            parts.append(self.listing(session, error))
        parts.append("</body></html>")
        return HTMLResponse("".join(parts), status_code=status)

    def listing(self, session: _Session, error: str) -> str:
        now = time.time()
        pending = self.store.list_approvals(status="pending", tenant=self.tenant, limit=self.limit)
        decided = self.store.list_approvals(status="decided", tenant=self.tenant, limit=self.limit)
        csrf = f'<input type="hidden" name="csrf" value="{_text(session.csrf)}">'
        parts = [
            '<header><h1>Approvals</h1><form method="post" action="/sign-out">',
            f"Signed in as <strong>{_text(session.approver)}</strong> {csrf}",
            '<button type="submit">Sign out</button></form></header>',
        ]
        if error:
            parts.append(f'<p class="error" role="alert">{_text(error)}</p>')
        parts.append(f"<h2>Waiting for a decision ({len(pending)})</h2>")
        if not pending:
            parts.append("<p>No call waits.</p>")
        for approval in pending:
            parts.append(self.held(approval, csrf, now))
        parts.append("<h2>Decided</h2>")
        if not decided:
            parts.append("<p>Nothing decided yet.</p>")
        else:
            parts.append(
                "<table><thead><tr><th>when</th><th>decision</th><th>by</th><th>reason</th>"
                "<th>tool</th><th>request id</th><th>actor</th><th>tenant</th></tr></thead><tbody>"
            )
            for approval in decided:
                status = {"used": "approved, has run"}.get(approval.status, approval.status)
                cells = [
                    _when(approval.decided, now),
                    f'<span class="{_text(approval.status)}">{_text(status)}</span>',
                    *(
                        _text("" if value is None else value)
                        for value in (
                            approval.approver,
                            approval.reason,
                            approval.tool,
                            approval.request_id,
                            approval.actor,
                            approval.tenant,
                        )
                    ),
                ]
                parts.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
            parts.append("</tbody></table>")
        return "".join(parts)

    def held(self, approval: Approval, csrf: str, now: float) -> str:
        """One held call: who made it, its arguments whole, and the decision's forms."""
        arguments = approval.arguments
        shown = _json_lines(arguments) if arguments is not None else _text(approval.summary)
        rows = [
            ("actor", approval.actor),
            ("tenant", approval.tenant),
            ("request id", approval.request_id),
            ("digest", approval.digest),
        ]
        call = "".join(
            f'<input type="hidden" name="{name}" value="{_text(json.dumps(value))}">'
            for name, value in (
                ("request_id", approval.request_id),
                ("tenant", approval.tenant),
                ("actor", approval.actor),
            )
        )
        return (
            f'<article data-request-id="{_text(approval.request_id)}">'
            f"<h3>{_text(approval.tool)}</h3><dl>"
            + "".join(
                f"<dt>{name}</dt><dd>{'<em>none</em>' if value is None else _text(value)}</dd>"
                for name, value in rows
            )
            + f"<dt>held</dt><dd>{_when(approval.created, now)}</dd></dl>"
            f'<pre class="arguments">{shown}</pre>'
            f'<form class="decide" method="post" action="/decide">{csrf}{call}'
            '<button type="submit" name="decision" value="approve">Approve</button>'
            '<input name="reason" placeholder="Reason for a rejection" maxlength="2000">'
            '<button type="submit" name="decision" value="reject">Reject</button>'
            "</form></article>"
        )

    # -- the requests ------------------------------------------------------------------

    async def show(self, request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        found = self.session(request)
        return await run_in_threadpool(self.page, None if found is None else found[1])

    async def sign_in(self, request: Request) -> Response:
        from starlette.responses import RedirectResponse

        refused = _foreign(request)
        if refused is not None:
            return refused
        form = await _form(request)
        if form is None:
            return _plain(400, "a form is application/x-www-form-urlencoded, at most 64 KiB")
        approver = self.approver_of(form.get("token", ""))
        if approver is None:
            return self.page(None, "That token is no approver's.", 401)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            COOKIE,
            self.open_session(approver),
            max_age=int(SESSION_SECONDS),
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/",
        )
        return response

    async def sign_out(self, request: Request) -> Response:
        from starlette.responses import RedirectResponse

        checked = await self.checked(request)
        if not isinstance(checked, tuple):
            return checked
        with self.lock:
            self.sessions.pop(checked[0], None)
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def checked(self, request: Request) -> tuple[str, _Session, dict[str, str]] | Response:
        """The session and the form of a POST from this inbox's own page; else the answer
        that refuses it: 403 from another origin, 401 without a session, 403 without the
        session's CSRF token."""
        refused = _foreign(request)
        if refused is not None:
            return refused
        found = self.session(request)
        if found is None:
            return _plain(401, "sign in first")
        form = await _form(request)
        if form is None:
            return _plain(400, "a form is application/x-www-form-urlencoded, at most 64 KiB")
        if not hmac.compare_digest(form.get("csrf", "").encode(), found[1].csrf.encode()):
            return _plain(403, "this form is not from this inbox's page")
        return found[0], found[1], form

    async def decide(self, request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import RedirectResponse

        checked = await self.checked(request)
        if not isinstance(checked, tuple):
            return checked
        _, session, form = checked
        try:
            call = {name: json.loads(form.get(name, "")) for name in ("request_id", "tenant")}
            call["actor"] = json.loads(form.get("actor", ""))
        except ValueError:
            return _plain(400, "the form names no call")
        if not isinstance(call["request_id"], str) or not all(
            value is None or isinstance(value, str) for value in call.values()
        ):
            return _plain(400, "the form names no call")
        if self.tenant is not ... and call["tenant"] != self.tenant:
            return _plain(403, "this inbox decides the calls of another tenant")
        decision = form.get("decision")
        try:
            if decision == "approve":
                await run_in_threadpool(
                    lambda: self.gate.approve(**call, approver=session.approver)
                )
            elif decision == "reject":
                reason = form.get("reason", "")
                await run_in_threadpool(
                    lambda: self.gate.reject(**call, approver=session.approver, reason=reason)
                )
            else:
                return _plain(400, "a decision is approve or reject")
        except UsageError as error:
            return await run_in_threadpool(self.page, session, str(error), 409)
        return RedirectResponse("/", status_code=303)


def _plain(status: int, message: str) -> Response:
    from starlette.responses import PlainTextResponse

    return PlainTextResponse(message, status_code=status)


def _foreign(request: Request) -> Response | None:
    """A 403 for a POST whose ``Origin`` (else ``Referer``) is not this inbox's own origin,
    or that names none; else ``None``."""
    own = f"{request.url.scheme}://{request.url.netloc}".lower()
    origin = request.headers.get("origin")
    if origin is None:
        referer = urlsplit(request.headers.get("referer", ""))
        origin = f"{referer.scheme}://{referer.netloc}" if referer.netloc else None
    if origin is None or origin.lower() != own:
        return _plain(403, "a form is taken from this inbox's own page only")
    return None


async def _form(request: Request) -> dict[str, str] | None:
    """The urlencoded form of ``request`` (one value a name, the first), or ``None`` when it
    is not one or is too large."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MOST_BODY:
            return None
    try:
        fields = parse_qs(body.decode(), keep_blank_values=True, max_num_fields=32)
    except (UnicodeDecodeError, ValueError):
        return None
    return {name: values[0] for name, values in fields.items()}


def inbox(
    gate: Gate,
    approvers: Mapping[str, str],
    *,
    tenant: str | None | EllipsisType = ...,
    limit: int = 100,
) -> Starlette:
    """A Starlette app: the approvals inbox of ``gate`` (``pip install
    'standard-tool[inbox]'``; serve it with any ASGI server, e.g. ``uvicorn``).

    Its page lists the calls the gate holds, newest first, each with its tool, actor, tenant,
    request id, age, its arguments whole (as they will run, but for values the tool marks
    secret) and the digest an approval is bound to; then the recent decisions with their
    approvers and reasons (at most ``limit`` of each). ``approvers`` maps each person's name
    to their token (at least 16 characters, each their own): a person signs in with their
    token and gets a session cookie (a random id, ``HttpOnly``, ``SameSite=Strict``; the token
    is never sent back), then approves a call or rejects it with a reason, recorded by
    :meth:`Gate.approve` or :meth:`Gate.reject` with their name as the approver. A decision the
    gate refuses (the call's own actor approving, unless the gate allows it; a call decided
    already, or unknown) is shown, and changes nothing.

    A decision is taken only from the inbox's own page: a POST whose ``Origin`` (else
    ``Referer``) is another origin is refused (403), one without a session too (401), and one
    without the session's CSRF token (403). Every value shown is HTML-escaped, with every
    character that does not show as itself written as its escape
    (:func:`~standard_tool.boundary.legible`). The page has no script, and says so in its
    ``Content-Security-Policy``; it may not be framed.

    ``tenant`` limits the inbox to the calls of one tenant (``None``: the calls made for no
    tenant; ``...``, the default: every tenant's). Sessions live in the inbox's process; the
    calls and decisions live in the gate's store (which must list its approvals: see
    :class:`~standard_tool.boundary.Store`), so every inbox over one shared store (SQLite,
    Redis) shows the same calls. Serve it on 127.0.0.1, or behind TLS.
    """
    if not isinstance(gate, Gate):
        raise UsageError(f"inbox() takes a Gate, not {type(gate).__name__}")
    if not callable(getattr(gate.store, "list_approvals", None)):
        raise UsageError(
            f"the gate's store {gate.store!r} does not list its approvals (list_approvals): "
            "give the gate a MemoryStore, SqliteStore or RedisStore"
        )
    if not isinstance(approvers, Mapping) or not approvers:
        raise UsageError("an inbox needs approvers: a mapping of each person's name to a token")
    for name, token in approvers.items():
        if not isinstance(name, str) or not name.strip():
            raise UsageError(f"an approver's name is a non-empty string, not {name!r}")
        if not isinstance(token, str) or len(token) < SHORTEST_TOKEN:
            raise UsageError(
                f"approver {name!r}'s token is a string of at least {SHORTEST_TOKEN} characters"
            )
    if len(set(approvers.values())) != len(approvers):
        raise UsageError("each approver has a token of their own")
    if tenant is not ... and tenant is not None and not isinstance(tenant, str):
        raise UsageError(f"an inbox's tenant is a string, None or ..., not {tenant!r}")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise UsageError(f"an inbox's limit is an int of at least 1, not {limit!r}")
    try:
        applications = importlib.import_module("starlette.applications")
        middleware = importlib.import_module("starlette.middleware")
        routing = importlib.import_module("starlette.routing")
    except ImportError:
        raise UsageError("inbox() needs Starlette: pip install 'standard-tool[inbox]'") from None
    state = _Inbox(gate, approvers, tenant, limit)
    app: Starlette = applications.Starlette(
        routes=[
            routing.Route("/", state.show, methods=["GET"]),
            routing.Route("/sign-in", state.sign_in, methods=["POST"]),
            routing.Route("/sign-out", state.sign_out, methods=["POST"]),
            routing.Route("/decide", state.decide, methods=["POST"]),
        ],
        middleware=[middleware.Middleware(_Headers)],
    )
    return app
