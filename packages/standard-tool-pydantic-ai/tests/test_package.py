"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestPydanticAIPackage(PackageContract):
    package = "standard_tool_pydantic_ai"
    target = "pydantic-ai"
    frameworks = ("pydantic_ai", "pydantic_graph", "logfire_api")
