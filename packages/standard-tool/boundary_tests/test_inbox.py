"""The approvals inbox (``standard_tool.boundary.inbox``) through Starlette's test client:
signing in, the page (its order, its escaping, its headers), decisions recorded through the
gate, and every forged or refused decision changing nothing in the store."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from starlette.testclient import TestClient

import standard_tool as st
from standard_tool.boundary import (
    Approval,
    Gate,
    MemoryStore,
    SqliteStore,
    Store,
    inbox,
    record_key,
)
from standard_tool.exceptions import ToolRefusedError, UsageError

ORIGIN = "http://testserver"
TOKENS = {
    "bob": "bob-token-0123456789abcdef",
    "cy": "cy-token-0123456789abcdef",
    "alice": "alice-token-0123456789abcdef",
}
HOSTILE = "</pre><script>alert(1)</script>"
BIDI = "pay \u202eDE00-9999\u202c"


class Bank:
    """A guarded transfer tool, each call held for approval, and its runs."""

    def __init__(self, store: Store | None = None, **gate: Any) -> None:
        self.runs: list[dict[str, Any]] = []
        runs = self.runs

        @st.tool(name="transfer")
        def transfer(to: str, amount: int, api_key: SecretStr | None = None) -> int:
            """Send money."""
            runs.append({"to": to, "amount": amount})
            return len(runs)

        self.gate = Gate(approvals=lambda request: True, store=store or MemoryStore(), **gate)
        self.tool = self.gate.guard(transfer)

    def call(
        self, request_id: str, *, actor: str = "alice", tenant: str | None = "acme", **args: Any
    ) -> Any:
        arguments = {"to": "DE00-4242", "amount": 10, **args}
        context = {"request_id": request_id, "actor": actor, "tenant": tenant}
        return st.call(self.tool, arguments, context)

    def hold(self, request_id: str, **more: Any) -> None:
        with pytest.raises(ToolRefusedError) as caught:
            self.call(request_id, **more)
        assert caught.value.code == "held_for_review"

    def status(self, request_id: str, actor: str = "alice", tenant: str | None = "acme") -> str:
        approval = self.gate.store.approval(record_key(tenant, actor, request_id))
        assert approval is not None
        return approval.status


def client(bank: Bank, **options: Any) -> TestClient:
    return TestClient(inbox(bank.gate, TOKENS, **options), base_url=ORIGIN)


def sign_in(web: TestClient, who: str = "bob") -> str:
    """Sign ``who`` in; the page's CSRF token."""
    answer = web.post("/sign-in", data={"token": TOKENS[who]}, headers={"Origin": ORIGIN})
    assert answer.status_code == 200 and f"Signed in as <strong>{who}</strong>" in answer.text
    return csrf_of(answer.text)


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return html.unescape(found[1])


def decision(
    request_id: str, csrf: str | None, decide: str = "approve", **more: Any
) -> dict[str, str]:
    """A decision's form, as the page's hidden fields write the call (JSON)."""
    form = {
        "request_id": f'"{request_id}"',
        "tenant": '"acme"',
        "actor": '"alice"',
        "decision": decide,
        **more,
    }
    if csrf is not None:
        form["csrf"] = csrf
    return form


def post(web: TestClient, form: dict[str, str], origin: str | None = ORIGIN) -> Any:
    headers = {} if origin is None else {"Origin": origin}
    return web.post("/decide", data=form, headers=headers, follow_redirects=False)


def order(page: str) -> list[str]:
    """The request ids of the held calls, in the page's order."""
    return re.findall(r'<article data-request-id="([^"]*)"', page)


def test_a_good_token_signs_in_with_a_session_cookie_never_the_token() -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    page = web.get("/")
    assert page.status_code == 200 and 'name="token"' in page.text
    assert "r-1" not in page.text and "DE00-4242" not in page.text  # nothing before signing in
    wrong = web.post("/sign-in", data={"token": "x" * 30}, headers={"Origin": ORIGIN})
    assert wrong.status_code == 401 and "set-cookie" not in wrong.headers
    assert "x" * 30 not in wrong.text and "r-1" not in wrong.text
    answer = web.post(
        "/sign-in",
        data={"token": TOKENS["bob"]},
        headers={"Origin": ORIGIN},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    cookie = answer.headers["set-cookie"]
    assert re.search(r"(?i)httponly", cookie) and re.search(r"(?i)samesite=strict", cookie)
    session = web.cookies.get("standard_tool_inbox")
    assert session and len(session) >= 40 and TOKENS["bob"] not in cookie
    page = web.get("/")
    assert "Signed in as <strong>bob</strong>" in page.text and TOKENS["bob"] not in page.text
    assert order(page.text) == ["r-1"]


def test_a_sign_in_from_another_origin_is_refused() -> None:
    web = client(Bank())
    answer = web.post("/sign-in", data={"token": TOKENS["bob"]}, headers={"Origin": "http://evil"})
    assert answer.status_code == 403 and "standard_tool_inbox" not in web.cookies


def test_the_page_lists_the_newest_call_first_then_the_decisions() -> None:
    bank = Bank()
    for request_id in ("r-1", "r-2", "r-3", "r-4"):
        bank.hold(request_id)
    web = client(bank)
    csrf = sign_in(web)
    assert order(web.get("/").text) == ["r-4", "r-3", "r-2", "r-1"]
    assert post(web, decision("r-1", csrf)).status_code == 303
    reason = "wrong account <b>"
    assert post(web, decision("r-2", csrf, "reject", reason=reason)).status_code == 303
    page = web.get("/").text
    assert order(page) == ["r-4", "r-3"]
    decided = page.split("<h2>Decided</h2>", 1)[1]
    rows = re.findall(r"<tr><td>.*?</tr>", decided)
    assert [re.findall(r"<td>(r-\d)</td>", row) for row in rows] == [["r-2"], ["r-1"]]
    assert "rejected" in rows[0] and "<td>bob</td>" in rows[0]
    assert "wrong account &lt;b&gt;" in rows[0] and "<b>" not in decided
    assert "approved" in rows[1] and "<td>bob</td>" in rows[1]


def test_the_arguments_are_shown_whole_and_escaped() -> None:
    bank = Bank()
    long = "y" * 5000
    bank.hold("r-1", to=HOSTILE + BIDI + long, api_key="sk-the-key")
    web = client(bank)
    sign_in(web)
    page = web.get("/").text
    shown = page.split('<pre class="arguments">', 1)[1].split("</pre>", 1)[0]
    assert "<script>" not in page and "alert(1)</script>" not in page
    assert "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in shown
    assert "\u202e" not in page and "\u202c" not in page
    assert "pay \\u202eDE00-9999\\u202c" in shown  # written as its escape, not obeyed
    assert long in shown  # never clipped
    assert "sk-the-key" not in page and "&quot;&lt;secret&gt;&quot;" in shown
    assert "\n  &quot;amount&quot;: 10,\n" in shown  # indented JSON, one key a line
    approval = bank.gate.store.approval(record_key("acme", "alice", "r-1"))
    assert approval is not None and approval.digest in page


def test_every_value_is_escaped_the_tool_actor_tenant_and_request_id_too() -> None:
    bank = Bank()
    hostile = '"><img src=x onerror=alert({})>\u202e'
    bank.hold("r-1", actor=hostile.format(1), tenant=hostile.format(2))
    kept = Approval(hostile.format(3), hostile.format(4), "d" * 64, "{}", actor="ann", created=1.0)
    bank.gate.store.save_approval(kept)  # a tool and a request id no gate check holds
    web = client(bank)
    sign_in(web)
    page = web.get("/").text
    assert "<img" not in page and "\u202e" not in page
    for n in (1, 2, 3, 4):
        assert f"&quot;&gt;&lt;img src=x onerror=alert({n})&gt;\\u202e" in page


def test_an_approved_call_made_again_runs_exactly_once() -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web)
    answer = post(web, decision("r-1", csrf))
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    assert bank.status("r-1") == "approved" and bank.runs == []
    assert bank.call("r-1") == 1
    assert bank.call("r-1") == 1  # the receipt answers a repeat
    assert bank.runs == [{"to": "DE00-4242", "amount": 10}]
    approval = bank.gate.store.approval(record_key("acme", "alice", "r-1"))
    assert approval is not None and approval.approver == "bob" and approval.status == "used"


def test_a_rejected_call_made_again_is_denied() -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web, "cy")
    assert post(web, decision("r-1", csrf, "reject", reason="not today")).status_code == 303
    with pytest.raises(ToolRefusedError) as caught:
        bank.call("r-1")
    assert caught.value.code == "denied" and bank.runs == []
    approval = bank.gate.store.approval(record_key("acme", "alice", "r-1"))
    assert approval is not None
    assert (approval.approver, approval.reason) == ("cy", "not today")
    assert "not today" in web.get("/").text


@pytest.mark.parametrize("path", ["/decide", "/sign-out"])
def test_a_post_without_a_session_is_refused(path: str) -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web)
    stranger = client(bank)  # no session: the CSRF token of another's
    answer = stranger.post(path, data=decision("r-1", csrf), headers={"Origin": ORIGIN})
    assert answer.status_code == 401
    stranger.cookies.set("standard_tool_inbox", "made-up")
    answer = stranger.post(path, data=decision("r-1", csrf), headers={"Origin": ORIGIN})
    assert answer.status_code == 401
    assert bank.status("r-1") == "pending" and bank.runs == []


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://testserver:8080"},
        {"Origin": "null"},
        {"Referer": "http://evil.example/page"},
        {},
    ],
    ids=["other-site", "other-port", "null", "other-referer", "none"],
)
def test_a_post_from_another_origin_is_refused(headers: dict[str, str]) -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web)
    answer = web.post("/decide", data=decision("r-1", csrf), headers=headers)
    assert answer.status_code == 403
    assert bank.status("r-1") == "pending"


def test_a_post_with_its_own_page_as_referer_is_taken() -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web)
    answer = web.post(
        "/decide",
        data=decision("r-1", csrf),
        headers={"Referer": f"{ORIGIN}/"},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and bank.status("r-1") == "approved"


@pytest.mark.parametrize("csrf", [None, "", "wrong-token"])
def test_a_post_without_the_session_csrf_token_is_refused(csrf: str | None) -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    sign_in(web)
    assert post(web, decision("r-1", csrf)).status_code == 403
    assert bank.status("r-1") == "pending"


def test_a_csrf_token_is_its_session_own() -> None:
    bank = Bank()
    bank.hold("r-1")
    bob, cy = client(bank), client(bank)
    sign_in(bob)
    cy_csrf = sign_in(cy, "cy")
    assert post(bob, decision("r-1", cy_csrf)).status_code == 403
    assert bank.status("r-1") == "pending"


def test_a_decision_the_gate_refuses_is_shown_and_changes_nothing() -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web, "alice")  # the call's own actor
    answer = post(web, decision("r-1", csrf))
    assert answer.status_code == 409 and 'class="error"' in answer.text
    assert "may not approve a call of their own" in answer.text
    assert bank.status("r-1") == "pending" and order(answer.text) == ["r-1"]
    unknown = post(web, decision("r-9", csrf))
    assert unknown.status_code == 409 and "no call waits for approval" in unknown.text
    bob = client(bank)
    bob_csrf = sign_in(bob)
    assert post(bob, decision("r-1", bob_csrf)).status_code == 303
    again = post(bob, decision("r-1", bob_csrf, "reject", reason="late"))
    assert again.status_code == 409 and "a decision is made once" in again.text
    assert bank.status("r-1") == "approved"
    approval = bank.gate.store.approval(record_key("acme", "alice", "r-1"))
    assert approval is not None and approval.reason is None


def test_a_gate_that_allows_self_approval_takes_it() -> None:
    bank = Bank(self_approval=True)
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web, "alice")
    assert post(web, decision("r-1", csrf)).status_code == 303
    assert bank.call("r-1") == 1


@pytest.mark.parametrize(
    "form",
    [
        {"request_id": "r-1"},  # not JSON
        {"request_id": "1"},  # not a string
        {"tenant": "[]"},
        {"decision": "maybe"},
    ],
)
def test_a_malformed_decision_is_refused(form: dict[str, str]) -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web)
    answer = post(web, {**decision("r-1", csrf), **form})
    assert answer.status_code == 400 and bank.status("r-1") == "pending"


def test_a_form_that_is_not_urlencoded_or_too_large_is_refused() -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web)
    json_body = web.post("/decide", json=decision("r-1", csrf), headers={"Origin": ORIGIN})
    assert json_body.status_code == 400
    large = post(web, decision("r-1", csrf, reason="x" * 70_000))
    assert large.status_code == 400 and bank.status("r-1") == "pending"


def test_an_inbox_of_one_tenant_shows_and_decides_only_its_calls() -> None:
    bank = Bank()
    bank.hold("a-1", tenant="acme")
    bank.hold("g-1", tenant="globex")
    bank.hold("n-1", tenant=None)
    web = client(bank, tenant="acme")
    csrf = sign_in(web)
    page = web.get("/").text
    assert order(page) == ["a-1"] and "globex" not in page
    forged = {**decision("g-1", csrf), "tenant": '"globex"'}
    assert post(web, forged).status_code == 403
    assert bank.status("g-1", tenant="globex") == "pending"
    post(web, decision("a-1", csrf))
    every = client(bank)
    sign_in(every)
    assert order(every.get("/").text) == ["n-1", "g-1"]
    nobody = client(bank, tenant=None)
    sign_in(nobody)
    assert order(nobody.get("/").text) == ["n-1"]


def test_sign_out_ends_the_session() -> None:
    bank = Bank()
    bank.hold("r-1")
    web = client(bank)
    csrf = sign_in(web)
    out = web.post("/sign-out", data={"csrf": csrf}, headers={"Origin": ORIGIN})
    assert out.status_code == 200 and 'name="token"' in out.text
    web.cookies.set("standard_tool_inbox", "")
    assert post(web, decision("r-1", csrf)).status_code == 401
    assert bank.status("r-1") == "pending"


def test_every_answer_forbids_scripts_frames_and_referrers() -> None:
    web = client(Bank())
    for answer in (web.get("/"), web.get("/nowhere"), web.post("/decide", data={})):
        policy = answer.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src" not in policy
        assert "frame-ancestors 'none'" in policy and "form-action 'self'" in policy
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "same-origin"
        assert answer.headers["cache-control"] == "no-store"
    page = web.get("/").text
    assert "<script" not in page and " on" not in re.sub(r">[^<]*<", "><", page)


def test_two_inboxes_over_one_store_show_the_same_calls(tmp_path: Path) -> None:
    """Inboxes share nothing but the gate's store: what one decides, the other shows."""
    bank = Bank(SqliteStore(tmp_path / "gate.db"))
    other = Bank(SqliteStore(tmp_path / "gate.db"))
    bank.hold("r-1")
    bank.hold("r-2")
    first, second = client(bank), client(other)
    csrf = sign_in(first)
    sign_in(second, "cy")
    assert order(second.get("/").text) == ["r-2", "r-1"]
    assert post(first, decision("r-2", csrf, "reject", reason="dup")).status_code == 303
    page = second.get("/").text
    assert order(page) == ["r-1"] and "dup" in page
    assert other.status("r-2") == "rejected"


def test_an_inbox_is_made_of_a_gate_with_a_listing_store_and_approvers() -> None:
    class Bare:
        """A store with no listing: every operation but ``list_approvals``."""

    gate = Gate()
    with pytest.raises(UsageError, match="does not list"):
        inbox(Gate(store=Bare()), TOKENS)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="at least 16"):
        inbox(gate, {"bob": "short"})
    with pytest.raises(UsageError, match="of their own"):
        inbox(gate, {"bob": "x" * 20, "cy": "x" * 20})
    with pytest.raises(UsageError, match="approvers"):
        inbox(gate, {})
    with pytest.raises(UsageError, match="tenant"):
        inbox(gate, TOKENS, tenant=3)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="limit"):
        inbox(gate, TOKENS, limit=0)
    with pytest.raises(UsageError, match="Gate"):
        inbox(object(), TOKENS)  # type: ignore[arg-type]


def test_the_boundary_imports_no_web_framework() -> None:
    code = (
        "import sys, standard_tool.boundary\n"
        "assert not {'starlette', 'uvicorn', 'httpx'} & set(sys.modules), sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
