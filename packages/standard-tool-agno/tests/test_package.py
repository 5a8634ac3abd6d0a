"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestAgnoPackage(PackageContract):
    package = "standard_tool_agno"
    target = "agno"
    frameworks = ("agno",)
