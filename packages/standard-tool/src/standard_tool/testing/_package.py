"""The checks every adapter package repeats: its public names and cheap discovery."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from typing import ClassVar

from ..plugins._registry import get_plugin_manager

__all__ = ["PackageContract"]


class PackageContract:
    """An adapter package's public face: ``__all__`` is sorted and exactly its public names,
    its entry point is named after its target, and discovering it imports no framework."""

    package: ClassVar[str]
    """The adapter's import name, e.g. ``standard_tool_langchain``."""
    target: ClassVar[str]
    """The adapter's target name (and entry-point name)."""
    frameworks: ClassVar[tuple[str, ...]]
    """Modules of its framework (top-level names, or any module), which discovery must not
    import, nor any module below them."""

    def test_all_is_sorted_and_exactly_the_public_names(self) -> None:
        module = importlib.import_module(self.package)
        names = list(module.__all__)
        assert names == sorted(names)
        public = {name for name in dir(module) if not name.startswith("_")}
        assert public == set(names), sorted(public ^ set(names))
        for name in names:
            assert getattr(module, name) is not None, name

    def test_entry_point_is_named_after_the_target(self) -> None:
        manager = get_plugin_manager()
        assert manager.has_plugin(self.target)
        owner, info = manager.target_owners()[self.target]
        assert owner == self.target and info.name == self.target

    def test_discovery_and_refusal_import_no_framework(self) -> None:
        code = textwrap.dedent(
            f"""
            import sys
            import standard_tool as st
            import {self.package}
            assert {self.target!r} in [t.name for t in st.targets()]
            try:
                st.adopt(object())
            except st.UnsupportedObjectError:
                pass
            frameworks = {self.frameworks!r}
            print(sorted(m for m in sys.modules if m.startswith(frameworks) and (
                m in frameworks or m.startswith(tuple(f + "." for f in frameworks)))))
            """
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "[]", out.stdout
