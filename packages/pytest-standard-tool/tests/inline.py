"""pytest run by pytester on the files a test wrote, in this process."""

from __future__ import annotations

import pytest

__all__ = ["run_inline"]


def run_inline(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """``pytest ARGS...`` in pytester's folder, in this process (each framework imported once,
    by ``conftest``), with pytest-asyncio's loop scope set as the repository sets it: the run
    shows no warning of the folder's missing configuration."""
    return pytester.runpytest("-o", "asyncio_default_fixture_loop_scope=function", *args)
