"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestSmolagentsPackage(PackageContract):
    package = "standard_tool_smolagents"
    target = "smolagents"
    frameworks = ("smolagents",)
