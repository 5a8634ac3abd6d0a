"""PydanticAI's first-run banner is for a user's own first agent run: the runtime's scripted
runs neither show it nor use it up."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import sys

from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel

import standard_tool as st
from standard_tool.registry import runtime
from standard_tool.testing import sample_tools

native = st.convert(sample_tools()["add"], to="pydantic-ai")
print(runtime("pydantic-ai").call(native, {"a": 1}).value, file=sys.stderr, flush=True)
print("own run", file=sys.stderr, flush=True)
Agent(TestModel()).run_sync("hi")
"""


def test_the_banner_waits_for_the_users_own_agent_run() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_VERSION")}
    env.pop("PYDANTIC_AI_NO_BANNER", None)
    env["CLAUDECODE"] = "1"  # a coding agent reads stderr: PydanticAI shows it the banner
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    runtime_part, _, own_part = done.stderr.partition("own run")
    assert runtime_part.strip() == "2"
    import pydantic_ai

    if hasattr(pydantic_ai, "BANNER_ENABLED"):  # releases with a banner
        assert own_part.count("PYDANTIC_AI_NO_BANNER") == 1, own_part
