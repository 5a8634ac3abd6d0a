"""pytester runs pytest on test files written for each test, in a subprocess."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


def pytest_configure(config: pytest.Config) -> None:
    # Deprecation warnings LlamaIndex's own code raises on newer pydantic and workflows
    # releases (including pydantic's, from the inspect.getmembers walk of an agent's members)
    for module in ("llama_index", "workflows", "inspect"):
        config.addinivalue_line("filterwarnings", f"ignore::DeprecationWarning:{module}")
