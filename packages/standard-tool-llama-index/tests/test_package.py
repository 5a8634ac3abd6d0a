"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestLlamaIndexPackage(PackageContract):
    package = "standard_tool_llama_index"
    target = "llama-index"
    frameworks = ("llama_index", "workflows")
