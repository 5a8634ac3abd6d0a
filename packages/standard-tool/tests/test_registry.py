"""The plugin registry: discovery, skipping broken plugins, allow/deny lists, convert/adopt/targets."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.metadata import EntryPoint
from typing import Any

import pluggy
import pytest

import standard_tool as st
from standard_tool._registry import ALLOW_ENV, DISABLE_ENV, PluginLoadWarning, make_plugin_manager
from standard_tool.exceptions import PluginError, UnknownTargetError, UnsupportedObjectError
from standard_tool.hookspecs import TargetInfo, hookimpl


def _entry(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group="standard_tool")


BUILTIN = _entry("standard", "standard_tool._builtin")


class Echo:
    """A plugin object: target ``echo`` exports a tool as a dict; adopts ``EchoNative``."""

    @hookimpl
    def standard_tool_targets(self) -> list[TargetInfo]:
        return [TargetInfo("echo", "echo-framework", "9.9")]

    @hookimpl
    def standard_tool_export(self, tool: Any, target: str, options: dict[str, Any]) -> Any:
        return {"echo": tool.name, **options} if target == "echo" else None

    @hookimpl
    def standard_tool_adopt(self, obj: Any) -> Any:
        if isinstance(obj, EchoNative):
            return st.Tool(name=obj.name, description="echo", execute=lambda input: input)
        return None


class EchoNative:
    def __init__(self, name: str) -> None:
        self.name = name


def test_standard_tool_targets(plugin_manager: pluggy.PluginManager) -> None:
    """The built-in target is described through the same entry points as third parties."""
    names = {info.name: info for info in st.targets()}
    assert names["standard"].distribution == "standard-tool" and names["standard"].version


def test_broken_plugin_is_skipped_with_a_warning() -> None:
    with pytest.warns(PluginLoadWarning, match="'broken'.*ModuleNotFoundError"):
        manager = make_plugin_manager([BUILTIN, _entry("broken", "no_such_module_here:x")], env={})
    assert manager.has_plugin("standard") and not manager.has_plugin("broken")


def test_allow_list_and_disable_list() -> None:
    plugins = [BUILTIN, _entry("other", "standard_tool._builtin")]
    only = make_plugin_manager(plugins, env={ALLOW_ENV: "other"})
    assert [name for name, _ in only.list_name_plugin()] == ["other"]
    none = make_plugin_manager(plugins, env={ALLOW_ENV: ""})
    assert none.list_name_plugin() == []
    disabled = make_plugin_manager(plugins, env={DISABLE_ENV: "standard, other"})
    assert disabled.list_name_plugin() == []


def test_disabled_broken_plugin_is_never_imported() -> None:
    manager = make_plugin_manager([_entry("broken", "no_such_module_here:x")], env={DISABLE_ENV: "broken"})
    assert manager.list_name_plugin() == []


def test_standard_tool_export(plugin_manager: pluggy.PluginManager) -> None:
    """convert() reaches a plugin's export hook with the options, targets() lists it."""
    plugin_manager.register(Echo(), name="echo")
    assert "echo" in [info.name for info in st.targets()]

    @st.tool
    def ping() -> str:
        """Ping."""
        return "pong"

    assert st.convert(ping, to="echo", flavour="x") == {"echo": "ping", "flavour": "x"}
    assert st.convert(ping, to="standard") is ping


def test_standard_tool_adopt(plugin_manager: pluggy.PluginManager) -> None:
    """adopt() asks every plugin; the owner answers, the others return None."""
    plugin_manager.register(Echo(), name="echo")
    adopted = st.adopt(EchoNative("native"))
    assert adopted.name == "native" and st.call(adopted, {"k": 1}) == {"k": 1}
    assert st.convert(EchoNative("n2"), to="echo") == {"echo": "n2"}
    assert Echo().standard_tool_adopt(obj=object()) is None


def test_adopt_returns_conforming_tools_unchanged_and_wraps_functions(
    plugin_manager: pluggy.PluginManager,
) -> None:
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    adopted = st.adopt(shout)
    assert adopted.name == "shout" and st.call(adopted, {"text": "a"}) == "A"
    assert st.adopt(adopted) is adopted


def test_unknown_target_lists_installed(plugin_manager: pluggy.PluginManager) -> None:
    with pytest.raises(UnknownTargetError) as raised:
        st.convert(st.tool(lambda: None), to="nowhere")
    assert "'standard'" in str(raised.value) and "nowhere" in str(raised.value)
    assert isinstance(raised.value, PluginError)


def test_foreign_object_error_lists_installed(plugin_manager: pluggy.PluginManager) -> None:
    with pytest.raises(UnsupportedObjectError, match=r"builtins\.object.*installed targets: .*'standard'"):
        st.adopt(object())


def test_import_and_discovery_import_no_framework() -> None:
    code = textwrap.dedent(
        """
        import sys
        import standard_tool as st
        st.targets()
        loaded = sorted({m.split('.')[0] for m in sys.modules})
        heavy = [m for m in loaded if m in {'langchain_core', 'langchain', 'pydantic_ai', 'llama_index', 'mcp', 'openai', 'anthropic'}]
        print(heavy)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_import_standard_tool_does_not_import_pydantic_models() -> None:
    code = "import sys, standard_tool; print('pydantic.main' in sys.modules, 'asyncio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_every_hook_is_documented_and_tested() -> None:
    from pathlib import Path

    from standard_tool import hookspecs

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    this_file = Path(__file__).read_text()
    hooks = [name for name in dir(hookspecs) if name.startswith("standard_tool_")]
    assert hooks == ["standard_tool_adopt", "standard_tool_export", "standard_tool_targets"]
    for name in hooks:
        assert getattr(hookspecs, name).__doc__, f"{name} has no docstring"
        assert f"`{name}(" in readme, f"{name} is not in the README"
        assert f"def test_{name}(" in this_file, f"{name} has no test named after it"


def test_lazy_exports_load_names_on_first_use(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "lazy_adapter_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from standard_tool.hookspecs import lazy_exports\n"
        "__all__ = ['heavy_name']\n"
        "__getattr__, __dir__ = lazy_exports(__name__, {'heavy_name': '._heavy'})\n"
    )
    (package / "_heavy.py").write_text("heavy_name = 'loaded'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    module = importlib.import_module("lazy_adapter_pkg")
    assert "lazy_adapter_pkg._heavy" not in sys.modules
    assert "heavy_name" in dir(module)
    assert module.heavy_name == "loaded" and "lazy_adapter_pkg._heavy" in sys.modules
    with pytest.raises(AttributeError, match="no attribute 'other'"):
        module.other  # noqa: B018
