"""Shared helpers: smolagents agent runs driven by the package's scripted model."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # smolagents' own modules warn about what they import (huggingface_hub, PIL) on some
    # versions; the tools' and the adapter's warnings still fail the run
    for module in ("smolagents", "huggingface_hub"):
        config.addinivalue_line("filterwarnings", f"ignore::DeprecationWarning:{module}")
