from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from standard_tool.testing import clean_registry

plugin_manager = clean_registry
"""A fresh plugin manager from the installed entry points, installed for the test only."""


@pytest.fixture
def within() -> Callable[..., Any]:
    """``within(seconds, fn, *args)``: run ``fn`` in a daemon thread and return its result,
    re-raise what it raised, or fail the test if it has not ended in time (a hang, not a wait)."""

    def run(seconds: float, fn: Callable[..., Any], *args: Any) -> Any:
        outcome: dict[str, Any] = {}

        def target() -> None:
            try:
                outcome["value"] = fn(*args)
            except BaseException as exc:  # handed to the test's thread
                outcome["error"] = exc

        thread = threading.Thread(target=target, name="test-within", daemon=True)
        thread.start()
        thread.join(seconds)
        if thread.is_alive():
            pytest.fail(f"still running after {seconds} s: it hangs")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    return run


__all__ = ["clean_registry", "plugin_manager", "within"]
