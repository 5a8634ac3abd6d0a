"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestAgentFrameworkPackage(PackageContract):
    package = "standard_tool_agent_framework"
    target = "agent-framework"
    frameworks = ("agent_framework",)
