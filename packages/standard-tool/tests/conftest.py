from __future__ import annotations

from collections.abc import Iterator

import pluggy
import pytest

from standard_tool._registry import make_plugin_manager, set_plugin_manager


@pytest.fixture
def plugin_manager() -> Iterator[pluggy.PluginManager]:
    """A fresh plugin manager from the installed entry points, installed for the test only."""
    manager = make_plugin_manager()
    old = set_plugin_manager(manager)
    try:
        yield manager
    finally:
        set_plugin_manager(old)
