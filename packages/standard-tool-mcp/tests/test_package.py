"""The package's public face and its plugin registration."""

from __future__ import annotations

import subprocess
import sys

import standard_tool_mcp


def test_public_names_are_exactly_all() -> None:
    assert standard_tool_mcp.__all__ == sorted(
        standard_tool_mcp.__all__, key=lambda n: (not n.isupper(), n)
    )
    for name in standard_tool_mcp.__all__:
        assert getattr(standard_tool_mcp, name) is not None
    public = {name for name in dir(standard_tool_mcp) if not name.startswith("_")}
    assert public == set(standard_tool_mcp.__all__)


def test_discovering_the_plugin_does_not_import_mcp() -> None:
    code = (
        "import sys, standard_tool as st; st.targets(); "
        "from standard_tool._registry import get_plugin_manager; "
        "assert get_plugin_manager().has_plugin('mcp'); "
        "assert st._registry.get_plugin_manager().hook.standard_tool_adopt(obj=(1, 2)) is None; "
        "print('mcp' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_adopt_takes_a_descriptor_and_session_pair() -> None:
    import mcp.types as types

    from standard_tool import adopt
    from standard_tool_mcp import MCPTool

    class Session:
        async def call_tool(self, *args: object, **kwargs: object) -> None: ...

    descriptor = types.Tool.model_validate({"name": "t", "inputSchema": {"type": "object"}})
    assert isinstance(adopt((descriptor, Session())), MCPTool)
