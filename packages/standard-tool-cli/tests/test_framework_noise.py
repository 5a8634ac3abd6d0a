"""What the frameworks print on their own stays out of ``standard-tool check``'s output."""

from __future__ import annotations

import os
import subprocess

import pytest
from script import ROOT, SCRIPT, WEATHER

from standard_tool.checks import installed_targets


@pytest.mark.skipif("pydantic-ai" not in installed_targets(), reason="needs pydantic-ai")
def test_check_shows_no_pydantic_ai_banner() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_VERSION")}
    env.pop("PYDANTIC_AI_NO_BANNER", None)
    env["CLAUDECODE"] = "1"  # a coding agent reads stderr: PydanticAI would show it the banner
    done = subprocess.run(
        [str(SCRIPT), "check", WEATHER, "--target", "pydantic-ai"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "15 checks passed" in done.stdout
    for banner in ("PYDANTIC_AI_NO_BANNER", "observability", "logfire"):
        assert banner not in done.stdout + done.stderr, done.stderr
