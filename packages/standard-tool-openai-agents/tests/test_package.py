"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestOpenAIAgentsPackage(PackageContract):
    package = "standard_tool_openai_agents"
    target = "openai-agents"
    frameworks = ("agents", "openai")
