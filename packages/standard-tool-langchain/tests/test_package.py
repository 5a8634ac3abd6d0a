"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

import subprocess
import sys

import standard_tool_langchain


def test_exported_members_are_all() -> None:
    public = {name for name in dir(standard_tool_langchain) if not name.startswith("_")}
    assert public == set(standard_tool_langchain.__all__)
    for name in standard_tool_langchain.__all__:
        assert getattr(standard_tool_langchain, name) is not None
    assert standard_tool_langchain.__all__ == sorted(standard_tool_langchain.__all__)


def test_discovery_and_refusal_do_not_import_langchain() -> None:
    code = (
        "import sys, standard_tool as st\n"
        "from standard_tool_langchain import _hooks\n"
        "assert _hooks.standard_tool_adopt(obj=object()) is None\n"
        "assert 'langchain' in [t.name for t in st.targets()]\n"
        "try:\n    st.adopt(object())\nexcept st.UnsupportedObjectError:\n    pass\n"
        "assert not [m for m in sys.modules if m.startswith('langchain')], 'imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
