"""The plugin registry: discovery, skipping broken plugins, allow/deny lists, convert/adopt/targets."""

from __future__ import annotations

import contextlib
import inspect
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from types import SimpleNamespace
from typing import Any

import pluggy
import pytest

import standard_tool as st
from standard_tool.adapters import Adapter, NativeOutcome, Runtime
from standard_tool.exceptions import (
    ConversionError,
    PluginError,
    UnknownTargetError,
    UnsupportedObjectError,
)
from standard_tool.hookspecs import TargetInfo, hookimpl
from standard_tool.registry import (
    ALLOW_ENV,
    DISABLE_ENV,
    PluginConflictWarning,
    PluginHookWarning,
    PluginLoadWarning,
    PluginSettingsWarning,
    isolated_registry,
    make_plugin_manager,
)


def _entry(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group="standard_tool")


BUILTIN = _entry("standard", "standard_tool.plugins._builtin")


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


CORE_TARGETS = ("anthropic", "gemini", "hf", "openai", "standard")
"""The core's own targets, sorted: its tool itself, and the model providers' envelopes."""


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


def test_allow_list_and_disable_list(plugin_files: Any) -> None:
    plugin_files(other=ECHO_MODULE)
    plugins = [BUILTIN, _entry("other", "other:Echo")]
    only = make_plugin_manager(plugins, env={ALLOW_ENV: "other"})
    assert sorted(name for name, _ in only.list_name_plugin()) == ["other", "standard"]
    none = make_plugin_manager(plugins, env={ALLOW_ENV: ""})
    assert [name for name, _ in none.list_name_plugin()] == ["standard"]
    disabled = make_plugin_manager(plugins, env={DISABLE_ENV: "other"})
    assert [name for name, _ in disabled.list_name_plugin()] == ["standard"]


def test_disabled_broken_plugin_is_never_imported() -> None:
    manager = make_plugin_manager(
        [_entry("broken", "no_such_module_here:x")], env={DISABLE_ENV: "broken"}
    )
    assert [name for name, _ in manager.list_name_plugin()] == ["standard"]


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


class EchoKit:
    """A collection of echo tools, as a framework's toolkit."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def __iter__(self) -> Any:
        return iter(self.names)


class EchoRuntime:
    """The echo framework's runtime: its objects are dicts, run by name."""

    def native(self, tool: Any) -> Any:
        return {"echo": tool.name, "tool": tool}

    def declaration(self, native: Any) -> dict[str, Any]:
        return {"name": native["echo"]}

    def input_schema(self, native: Any) -> dict[str, Any]:
        return st.input_json_schema(native["tool"])

    def call(self, native: Any, arguments: Any, context: Any = None) -> NativeOutcome:
        try:
            return NativeOutcome(value=st.call(native["tool"], arguments, context))
        except st.StandardToolError as error:
            return NativeOutcome(error=str(error))

    def adopted(self, native: Any) -> Any:
        return contextlib.nullcontext(native["tool"])


class EchoWithKits(Echo):
    @hookimpl
    def standard_tool_adopt_tools(self, obj: Any) -> Any:
        if isinstance(obj, EchoKit):
            return [st.adopt(EchoNative(name)) for name in obj.names]
        return None

    @hookimpl
    def standard_tool_runtime(self, target: str) -> Any:
        return EchoRuntime() if target == "echo" else None


def test_standard_tool_adopt_tools(plugin_manager: pluggy.PluginManager) -> None:
    """adopt_tools() takes a tool, an adapter's collection, or lists of either."""
    with pytest.raises(UnsupportedObjectError):
        st.registry.adopt_tools(EchoKit("a"))
    plugin_manager.register(EchoWithKits(), name="echo")
    (one,) = st.registry.adopt_tools(EchoNative("one"))
    assert one.name == "one"
    tools = st.registry.adopt_tools([EchoKit("a", "b"), (EchoNative("c"),), one])
    assert [tool.name for tool in tools] == ["a", "b", "c", "one"] and tools[3] is one
    assert st.registry.adopt_tools([]) == []
    with pytest.raises(UnsupportedObjectError):
        st.registry.adopt_tools({"not": "a tool"})


def test_standard_tool_runtime(plugin_manager: pluggy.PluginManager) -> None:
    """runtime() asks only the target's owner; None when it has none; unknown targets raise."""
    assert st.registry.runtime("standard") is None
    with pytest.raises(UnknownTargetError):
        st.registry.runtime("echo")
    plugin_manager.register(EchoWithKits(), name="echo")
    found = st.registry.runtime("echo")
    assert isinstance(found, Runtime)

    @st.tool
    def double(x: int) -> int:
        """Double."""
        return 2 * x

    native = found.native(double)
    assert found.declaration(native) == {"name": "double"}
    assert found.call(native, {"x": 4}) == NativeOutcome(value=8)
    assert "x" in (found.call(native, {"x": "four"}).error or "")
    with found.adopted(native) as back:
        assert back is double


def test_an_adapter_declares_its_runtime_and_collections() -> None:
    """Adapter(runtime=..., adopt_tools=..., collections=...) answers the two hooks lazily."""
    adapter = Adapter(
        target="kit",
        distribution="kit-framework",
        adopt_tools="builtins:list",
        collections=(f"{__name__}:EchoKit",),
        runtime=f"{__name__}:ECHO_RUNTIME",
    )
    assert adapter.standard_tool_runtime(target="kit") is ECHO_RUNTIME
    assert adapter.standard_tool_runtime(target="other") is None
    assert adapter.standard_tool_adopt_tools(obj=[1]) is None  # not a collection it owns
    kit = EchoKit()
    assert adapter.owns_collection(kit) and adapter.standard_tool_adopt_tools(obj=kit) == []
    assert Adapter("bare", "bare").standard_tool_runtime(target="bare") is None


ECHO_RUNTIME = EchoRuntime()


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
        st.convert(st.tool(lambda: None, description="Nothing."), to="nowhere")
    assert "'standard'" in str(raised.value) and "nowhere" in str(raised.value)
    assert isinstance(raised.value, PluginError)


def test_foreign_object_error_lists_installed(plugin_manager: pluggy.PluginManager) -> None:
    with pytest.raises(
        UnsupportedObjectError, match=r"builtins\.object.*installed targets: .*'standard'"
    ):
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
    code = (
        "import sys, standard_tool; print('pydantic.main' in sys.modules, 'asyncio' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_every_hook_is_documented_and_tested() -> None:
    from pathlib import Path

    from standard_tool import hookspecs

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    this_file = Path(__file__).read_text()
    hooks = [name for name in dir(hookspecs) if name.startswith("standard_tool_")]
    assert hooks == [
        "standard_tool_adopt",
        "standard_tool_adopt_tools",
        "standard_tool_export",
        "standard_tool_runtime",
        "standard_tool_targets",
    ]
    for name in hooks:
        assert getattr(hookspecs, name).__doc__, f"{name} has no docstring"
        assert f"`{name}(" in readme, f"{name} is not in the README"
        assert f"def test_{name}(" in this_file, f"{name} has no test named after it"


def test_lazy_exports_load_names_on_first_use(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "lazy_adapter_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from standard_tool.adapters import lazy_exports\n"
        "if TYPE_CHECKING:\n"
        "    from ._heavy import heavy_name as heavy_name\n"
        "    from ._heavy import Other as Other\n"
        "__all__, __getattr__, __dir__ = lazy_exports(__name__)\n"
    )
    (package / "_heavy.py").write_text("heavy_name = 'loaded'\nOther = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    module = importlib.import_module("lazy_adapter_pkg")
    assert "lazy_adapter_pkg._heavy" not in sys.modules
    assert module.__all__ == ["Other", "heavy_name"]
    assert "heavy_name" in dir(module)
    assert module.heavy_name == "loaded" and "lazy_adapter_pkg._heavy" in sys.modules
    with pytest.raises(AttributeError, match="no attribute 'other'"):
        module.other  # noqa: B018


# -- hostile plugins ------------------------------------------------------------------------

ECHO_MODULE = f"""
{textwrap.dedent(inspect.getsource(Echo))}
"""


@dataclass
class FakeEntryPoint:
    """An entry point of a named distribution (``importlib.metadata`` sets ``dist`` itself)."""

    name: str
    value: str
    distribution: str

    @property
    def dist(self) -> Any:
        return SimpleNamespace(name=self.distribution)

    def load(self) -> Any:
        return _entry(self.name, self.value).load()


@pytest.fixture
def plugin_files(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Write plugin modules (``name=source``) into an importable folder."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(**modules: str) -> None:
        for name, source in modules.items():
            header = "from typing import Any\nimport standard_tool as st\n"
            header += "from standard_tool.hookspecs import TargetInfo, hookimpl\n"
            (tmp_path / f"{name}.py").write_text(header + textwrap.dedent(source))
            sys.modules.pop(name, None)

    return write


def test_a_plugin_raising_system_exit_on_import_is_skipped(plugin_files: Any) -> None:
    plugin_files(exits="raise SystemExit(2)\n", other=ECHO_MODULE)
    with pytest.warns(PluginLoadWarning, match="'exits'.*SystemExit"):
        manager = make_plugin_manager(
            [BUILTIN, _entry("exits", "exits"), _entry("other", "other:Echo")], env={}
        )
    assert sorted(name for name, _ in manager.list_name_plugin()) == ["other", "standard"]


def test_a_plugin_whose_hooks_raise_is_skipped_and_named(plugin_files: Any) -> None:
    plugin_files(
        bad="""
        @hookimpl
        def standard_tool_adopt(obj: Any) -> Any:
            raise RuntimeError("adopt is broken")

        @hookimpl
        def standard_tool_targets() -> Any:
            raise KeyError("targets are broken")
        """
    )
    with isolated_registry([BUILTIN, _entry("bad", "bad")], env={}):

        def shout(text: str) -> str:
            """Shout."""
            return text.upper()

        with pytest.warns(PluginHookWarning, match="'bad'.*standard_tool_adopt.*adopt is broken"):
            adopted = st.adopt(shout)
        assert st.call(adopted, {"text": "a"}) == "A"
        with pytest.warns(PluginHookWarning, match="'bad'.*standard_tool_targets"):
            assert [info.name for info in st.targets()] == [*CORE_TARGETS]


def test_an_export_hook_that_raises_is_a_conversion_error_naming_the_plugin(
    plugin_files: Any,
) -> None:
    plugin_files(
        brittle="""
        @hookimpl
        def standard_tool_targets() -> Any:
            return [TargetInfo("brittle", "brittle-fw", "1")]

        @hookimpl
        def standard_tool_export(tool: Any, target: str) -> Any:
            raise SystemExit("no")
        """
    )
    with isolated_registry([BUILTIN, _entry("brittle", "brittle")], env={}):
        with pytest.raises(ConversionError, match="'brittle'.*SystemExit") as raised:
            st.convert(st.tool(lambda: None, name="n", description="d"), to="brittle")
        assert isinstance(raised.value.__cause__, SystemExit)


def test_a_name_claimed_twice_warns_naming_both_and_keeps_the_project_adapter(
    plugin_files: Any,
) -> None:
    plugin_files(
        impostor="""
        @hookimpl
        def standard_tool_targets() -> Any:
            return [TargetInfo("langchain", "impostor-fw", "6.6.6")]

        @hookimpl
        def standard_tool_export(tool: Any, target: str) -> Any:
            return "hijacked" if target == "langchain" else None
        """,
        honest="""
        @hookimpl
        def standard_tool_targets() -> Any:
            return [TargetInfo("langchain", "langchain-core", "1.0")]

        @hookimpl
        def standard_tool_export(tool: Any, target: str) -> Any:
            return "honest" if target == "langchain" else None
        """,
    )
    entries = [
        BUILTIN,
        FakeEntryPoint("langchain", "honest", "standard-tool-langchain"),
        FakeEntryPoint("langchain", "impostor", "evil-dist"),
    ]
    with pytest.warns(PluginConflictWarning, match="standard-tool-langchain.*evil-dist"):
        manager = make_plugin_manager(entries, env={})  # type: ignore[arg-type]
    assert manager.origins["langchain"] == "standard-tool-langchain"
    # under two entry-point names, the target itself is claimed twice
    entries = [
        BUILTIN,
        FakeEntryPoint("impostor", "impostor", "evil-dist"),
        FakeEntryPoint("langchain", "honest", "standard-tool-langchain"),
    ]
    with isolated_registry(entries, env={}):  # type: ignore[arg-type]
        with pytest.warns(
            PluginConflictWarning, match="'langchain'.*evil-dist.*standard-tool-langchain"
        ):
            assert (
                st.convert(st.tool(lambda: None, name="n", description="d"), to="langchain")
                == "honest"
            )


def test_unknown_names_in_the_variables_warn_and_the_core_target_stays(plugin_files: Any) -> None:
    with pytest.warns(PluginSettingsWarning, match="STANDARD_TOOL_PLUGINS names 'langchian'"):
        manager = make_plugin_manager([BUILTIN], env={ALLOW_ENV: "langchian"})
    assert [name for name, _ in manager.list_name_plugin()] == ["standard"]
    with pytest.warns(PluginSettingsWarning, match="STANDARD_TOOL_DISABLED_PLUGINS names 'nope'"):
        make_plugin_manager([BUILTIN], env={DISABLE_ENV: "nope"})


def test_an_unknown_project_target_names_the_package_to_install() -> None:
    with isolated_registry([BUILTIN], env={}):
        with pytest.raises(UnknownTargetError, match="install 'standard-tool-mcp'") as raised:
            st.convert(st.tool(lambda: None, name="n", description="d"), to="mcp")
    assert raised.value.provider == "standard-tool-mcp"
