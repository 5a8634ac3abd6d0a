"""The public names, the entry point, and cheap discovery."""

from __future__ import annotations

from standard_tool.testing import PackageContract


class TestGoogleAdkPackage(PackageContract):
    package = "standard_tool_google_adk"
    target = "google-adk"
    frameworks = ("google.adk", "google.genai")
