"""LlamaIndex's own warnings stay inside the runtime; a tool's own warnings still surface.

The tests set their own warning filters over the suite's, as a tool author's
``-W error::DeprecationWarning`` or ``filterwarnings = error`` would.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import standard_tool as st
from standard_tool.registry import runtime
from standard_tool.testing import sample_tools


def noisy(a: int) -> int:
    """Warn, then answer."""
    warnings.warn("noisy is deprecated", DeprecationWarning, stacklevel=1)
    return a


def test_a_run_records_only_the_tools_own_warnings() -> None:
    llama_index = runtime("llama-index")
    native = st.convert(st.tool(noisy), to="llama-index")
    before = list(warnings.filters)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        outcome = llama_index.call(native, {"a": 3})
    assert outcome.value == 3, outcome
    assert [(w.category, str(w.message)) for w in seen] == [
        (DeprecationWarning, "noisy is deprecated")
    ]
    assert warnings.filters == before


def test_warnings_as_errors_do_not_fail_a_run_but_fail_a_tool_that_warns() -> None:
    llama_index = runtime("llama-index")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = llama_index.call(st.convert(sample_tools()["add"], to="llama-index"), {"a": 1})
        loud = llama_index.call(st.convert(st.tool(noisy), to="llama-index"), {"a": 3})
    assert quiet.value == 2, quiet
    assert loud.error is not None and "DeprecationWarning" in loud.error


def test_converting_first_imports_llama_index_without_its_warnings() -> None:
    """LlamaIndex 0.12/0.13 warn when imported on newer pydantic releases."""
    code = (
        "import standard_tool as st\n"
        "from standard_tool.testing import sample_tools\n"
        "st.convert(sample_tools()['add'], to='llama-index')\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_filters_are_installed_once_for_overlapping_runs() -> None:
    from standard_tool_llama_index._quiet import RUN_NOISE, framework_warnings_ignored

    before = list(warnings.filters)
    with framework_warnings_ignored(RUN_NOISE):
        inside = list(warnings.filters)
        with framework_warnings_ignored(RUN_NOISE):
            assert warnings.filters == inside
        assert warnings.filters == inside
    assert len(inside) == len(before) + 1
    assert warnings.filters == before
