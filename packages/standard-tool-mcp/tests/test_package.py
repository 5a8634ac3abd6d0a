"""The package's public face and its plugin registration."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestMCPPackage(PackageContract):
    package = "standard_tool_mcp"
    target = "mcp"
    frameworks = ("mcp", "starlette", "uvicorn", "httpx", "httpx2")


def test_adopt_takes_a_descriptor_and_session_pair() -> None:
    import mcp.types as types

    from standard_tool import adopt
    from standard_tool_mcp import MCPTool

    class Session:
        async def call_tool(self, *args: object, **kwargs: object) -> None: ...

    descriptor = types.Tool.model_validate({"name": "t", "inputSchema": {"type": "object"}})
    assert isinstance(adopt((descriptor, Session())), MCPTool)
