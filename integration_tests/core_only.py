"""The core alone: no framework is installed or importable, and the core works without one.

Collected only when named on pytest's command line (its name does not start with ``test_``),
as the core sessions name it: the other sessions install frameworks.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import standard_tool as st
from standard_tool.exceptions import UnknownTargetError
from standard_tool.testing import VALID_CALLS, sample_tools

ROOT = Path(__file__).resolve().parents[1]
FRAMEWORK_MODULES = (
    "langchain_core",
    "langchain",
    "langgraph",
    "llama_index",
    "mcp",
    "agents",
    "pydantic_ai",
    "smolagents",
    "google.adk",
    "agent_framework",
    "haystack",
    "agno",
)
ADAPTERS = sorted(
    package
    for package in (ROOT / "packages").glob("standard-tool-*")
    if "[tool.standard-tool.matrix]" in (package / "pyproject.toml").read_text()
)
"""The adapter packages: those that declare a framework matrix (the command line has none)."""


def _framework(package: Path) -> str:
    """The framework distribution an adapter's matrix pins (``[tool.standard-tool.matrix]``)."""
    text = (package / "pyproject.toml").read_text()
    match = re.search(r'^\[tool\.standard-tool\.matrix\]\nframework = "([^"]+)"', text, re.M)
    assert match, package
    return match.group(1)


def test_every_adapter_is_known() -> None:
    assert len(ADAPTERS) >= 4
    assert {_framework(p) for p in ADAPTERS} >= {"langchain-core", "mcp", "pydantic-ai-slim"}


@pytest.mark.parametrize("package", ADAPTERS, ids=lambda p: p.name)
def test_no_adapter_and_no_framework_is_installed(package: Path) -> None:
    for name in (package.name, _framework(package)):
        with pytest.raises(importlib.metadata.PackageNotFoundError):
            importlib.metadata.distribution(name)


@pytest.mark.parametrize("module", FRAMEWORK_MODULES)
def test_no_framework_is_importable(module: str) -> None:
    try:  # a dotted name (google.adk) whose parent is missing raises
        assert importlib.util.find_spec(module) is None
    except ModuleNotFoundError:
        pass
    with pytest.raises(ImportError):
        __import__(module)


def test_only_the_core_and_the_toy_plugin_are_targets() -> None:
    names = sorted(info.name for info in st.targets())
    assert names == ["anthropic", "gemini", "hf", "openai", "standard", "toy"]  # core's and toy's
    with pytest.raises(UnknownTargetError) as raised:
        st.convert(sample_tools()["add"], to="langchain")
    assert "langchain" not in raised.value.installed


@pytest.mark.parametrize("name", sorted(VALID_CALLS))
def test_every_sample_tool_runs_without_a_framework(name: str) -> None:
    arguments, expected = VALID_CALLS[name]
    tool = st.adopt(st.convert(sample_tools()[name], to="standard"))
    assert st.jsonable(st.call(tool, arguments, {"token": "t"})) == expected


def test_importing_the_core_imports_no_framework() -> None:
    code = "import json, sys, standard_tool; standard_tool.targets(); print(json.dumps(list(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {name.split(".")[0] for name in json.loads(out.stdout)}
    assert not loaded & set(FRAMEWORK_MODULES)
