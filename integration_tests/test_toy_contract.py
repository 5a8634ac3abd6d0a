"""The adapter contract, run against a toy third-party plugin installed as a real distribution."""

from __future__ import annotations

from standard_tool.names import OPENAI_NAMES
from standard_tool.testing import AdapterContract, PackageContract


class TestToyContract(AdapterContract):
    target = "toy"
    distribution = "standard-tool-toy"
    name_rule = OPENAI_NAMES


class TestToyPackage(PackageContract):
    package = "standard_tool_toy"
    target = "toy"
    frameworks = ("standard_tool_toy._toy",)
