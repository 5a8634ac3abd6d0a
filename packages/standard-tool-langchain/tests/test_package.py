"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestLangChainPackage(PackageContract):
    package = "standard_tool_langchain"
    target = "langchain"
    frameworks = ("langchain_core", "langchain", "langgraph", "langsmith")
