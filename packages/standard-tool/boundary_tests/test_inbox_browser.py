"""The approvals inbox in a real browser: Debian's Chromium driven by Playwright, the inbox
served by uvicorn on 127.0.0.1, and a page of another origin trying to decide for the person.

A missing ``/usr/bin/chromium`` fails the test (Debian: ``apt-get install chromium``). With
``STANDARD_TOOL_INBOX_SCREENSHOT`` set to a path, the page with its held call and its
decisions is saved there as a PNG."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Dialog, sync_playwright
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

import standard_tool as st
from standard_tool.boundary import Gate, SqliteStore, inbox, record_key
from standard_tool.exceptions import ToolRefusedError

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START = 30.0
"""The bound, in seconds, on a server's start and stop."""
TOKEN = "bob-token-0123456789abcdef"
HOSTILE = '</pre><script>window.pwned = 1; alert("pwned")</script><img src=x onerror="alert(2)">'


@contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on a free port of 127.0.0.1 (the socket bound first, so no
    other process takes it), stopped on leaving: its origin."""
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    origin = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START
        while True:
            try:
                with urllib.request.urlopen(f"{origin}/", timeout=1.0) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if not thread.is_alive() or time.monotonic() > deadline:
                pytest.fail(f"uvicorn did not answer on {origin} within {START} s")
            time.sleep(0.05)
        yield origin
    finally:
        server.should_exit = True
        thread.join(START)
        listening.close()
        assert not thread.is_alive(), "uvicorn did not stop"


def forger(target: str, request_id: str) -> Starlette:
    """Another origin's page: a form that posts a decision to the inbox at ``target`` by
    itself, with every field the inbox's own form has but the session's CSRF token."""

    async def page(request: Any) -> HTMLResponse:
        return HTMLResponse(
            f'<form method="post" action="{target}/decide">'
            f'<input name="request_id" value=\'"{request_id}"\'>'
            '<input name="tenant" value=\'"acme"\'><input name="actor" value=\'"alice"\'>'
            '<input name="csrf" value="guessed"><input name="decision" value="approve">'
            "</form><script>document.forms[0].submit()</script>"
        )

    return Starlette(routes=[Route("/", page)])


def test_a_person_decides_in_a_browser_and_a_forgery_changes_nothing(tmp_path: Path) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    runs: list[str] = []

    @st.tool(name="transfer")
    def transfer(to: str, amount: int) -> int:
        """Send money."""
        runs.append(to)
        return len(runs)

    gate = Gate(approvals=lambda request: True, store=SqliteStore(tmp_path / "gate.db"))
    guarded = gate.guard(transfer)

    def call(request_id: str, to: str) -> Any:
        context = {"request_id": request_id, "actor": "alice", "tenant": "acme"}
        return st.call(guarded, {"to": to, "amount": 250}, context)

    def status(request_id: str) -> str:
        approval = gate.store.approval(record_key("acme", "alice", request_id))
        assert approval is not None
        return approval.status

    calls = {"r-1": "DE00-1111", "r-2": HOSTILE, "r-3": "DE00-3333"}
    for request_id, to in calls.items():
        with pytest.raises(ToolRefusedError):
            call(request_id, to)
    app = inbox(gate, {"bob": TOKEN})
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    with served(app) as origin, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 1000})
            page.on("dialog", dismiss)
            page.goto(origin)
            page.fill("input[name=token]", TOKEN)
            page.click("text=Sign in")
            page.wait_for_selector("text=Signed in as")
            held = page.locator("article")
            assert held.evaluate_all("els => els.map(e => e.dataset.requestId)") == [
                "r-3",
                "r-2",
                "r-1",
            ]
            shown = page.locator('article[data-request-id="r-2"] pre.arguments').inner_text()
            assert f'"to": {json.dumps(HOSTILE)}' in shown  # the whole argument, as text
            assert page.evaluate("window.pwned") is None
            assert page.locator("article img, article script").count() == 0

            page.locator('article[data-request-id="r-1"] button[value=approve]').click()
            page.wait_for_selector('article[data-request-id="r-1"]', state="detached")
            rejecting = page.locator('article[data-request-id="r-2"]')
            rejecting.locator("input[name=reason]").fill("not this account")
            rejecting.locator("button[value=reject]").click()
            page.wait_for_selector('article[data-request-id="r-2"]', state="detached")
            decided = page.locator("table").inner_text()
            assert "not this account" in decided and "bob" in decided
            assert (status("r-1"), status("r-2"), status("r-3")) == (
                "approved",
                "rejected",
                "pending",
            )
            screenshot = os.environ.get("STANDARD_TOOL_INBOX_SCREENSHOT") or str(
                tmp_path / "inbox.png"
            )
            page.screenshot(path=screenshot, full_page=True)
            assert Path(screenshot).read_bytes().startswith(b"\x89PNG")

            # A page of another origin (another port: the same site, so the cookie goes with
            # it) posts a decision by itself: refused, nothing changes.
            with served(forger(origin, "r-3")) as other:
                answers: list[int] = []
                page.on(
                    "response",
                    lambda answer: (
                        answers.append(answer.status) if "/decide" in answer.url else None
                    ),
                )
                page.goto(other)
                page.wait_for_load_state()
                deadline = time.monotonic() + START
                while not answers and time.monotonic() < deadline:
                    page.wait_for_timeout(50)
                assert answers == [403]
                page.wait_for_selector("text=own page only")  # its Origin was what refused it
            # A request with the session, the right CSRF token, and a forged Origin: refused.
            page.goto(origin)
            csrf = page.locator("input[name=csrf]").first.get_attribute("value")
            forged = page.request.post(
                f"{origin}/decide",
                form={
                    "csrf": csrf or "",
                    "request_id": '"r-3"',
                    "tenant": '"acme"',
                    "actor": '"alice"',
                    "decision": "approve",
                },
                headers={"Origin": "http://evil.example"},
                max_redirects=0,
            )
            assert forged.status == 403
            assert status("r-3") == "pending"
            assert dialogs == [] and page.evaluate("window.pwned") is None
        finally:
            browser.close()

    assert call("r-1", calls["r-1"]) == 1
    assert call("r-1", calls["r-1"]) == 1  # a repeat: the receipt answers, it does not run
    assert runs == ["DE00-1111"]
    with pytest.raises(ToolRefusedError) as refused:
        call("r-2", calls["r-2"])
    assert refused.value.code == "denied" and runs == ["DE00-1111"]
    with pytest.raises(ToolRefusedError) as still:
        call("r-3", calls["r-3"])
    assert still.value.code == "held_for_review"
