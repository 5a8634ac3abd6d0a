"""pytester runs pytest on test files written for each test, in this process (each framework
imported once, below); a run that registers the ``broken`` adapter, or that imports the
frameworks under its own warning filters, runs in a subprocess. ``inline`` (this folder, on
``sys.path``) runs pytest in this process for the test modules."""

from __future__ import annotations

import contextlib
import importlib
import sys
import warnings
from pathlib import Path

import pytest

from standard_tool import targets
from standard_tool.registry import runtime

pytest_plugins = ["pytester"]
sys.path.insert(0, str(Path(__file__).parent))

with warnings.catch_warnings():
    # llama-index-core 0.12/0.13 declare a field pydantic 2.12+ warns about, once, at import
    # (here rather than inside the first check that reaches its runtime)
    warnings.simplefilter("ignore")
    with contextlib.suppress(ImportError):
        importlib.import_module("llama_index.core.tools")
    # every installed runtime loaded (its framework imported) before any test: pytester drops
    # the modules a test imports when it ends, and a framework imported inside one (a test
    # asking a runtime what it shows) would leave a second copy of the modules it shares with
    # another (openai-agents imports parts of mcp)
    for info in targets():
        runtime(info.name)


def pytest_configure(config: pytest.Config) -> None:
    # Deprecation warnings LlamaIndex's own code raises on newer pydantic and workflows
    # releases (including pydantic's, from the inspect.getmembers walk of an agent's members)
    for module in ("llama_index", "workflows", "inspect"):
        config.addinivalue_line("filterwarnings", f"ignore::DeprecationWarning:{module}")
