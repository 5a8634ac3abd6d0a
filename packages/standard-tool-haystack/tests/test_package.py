"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestHaystackPackage(PackageContract):
    package = "standard_tool_haystack"
    target = "haystack"
    frameworks = ("haystack",)
