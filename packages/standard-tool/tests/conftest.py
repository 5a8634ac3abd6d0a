from __future__ import annotations

from standard_tool.testing import clean_registry

plugin_manager = clean_registry
"""A fresh plugin manager from the installed entry points, installed for the test only."""

__all__ = ["clean_registry", "plugin_manager"]
