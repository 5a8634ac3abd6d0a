"""An adapter's plugin declared once, and an adapter package's names loaded on first use."""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from .._probe import holds, is_instance
from .._protocols import Runtime, StandardTool, TargetInfo
from ._hookspecs import hookimpl

__all__ = ["Adapter", "lazy_exports"]


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


@dataclass(frozen=True)
class Adapter:
    """An adapter's plugin: its hook implementations, declared once.

    Name an instance in the ``standard_tool`` entry-point group. Functions are named as
    ``"module:function"`` strings and imported on first use, so discovering the adapter
    imports no framework::

        adapter = Adapter(
            target="langchain",
            distribution="langchain-core",
            export="standard_tool_langchain._export:to_langchain",
            adopt="standard_tool_langchain._adopt:from_langchain",
            native=("langchain_core.tools.base:BaseTool",),
            adopt_tools="standard_tool_langchain._adopt:from_langchain_tools",
            collections=("langchain_core.tools.base:BaseToolkit",),
            runtime="standard_tool_langchain._runtime:runtime",
        )

    An export-only target leaves out ``adopt`` and ``adopt_tools`` (and ``runtime`` when
    nothing runs its objects as a framework would). An adapter whose objects are not instances of a class overrides :meth:`owns`.
    """

    target: str
    """The name passed to ``convert(..., to=target)``."""
    distribution: str
    """The framework's distribution, whose installed version ``targets()`` reports."""
    export: str | None = None
    """``"module:function"`` taking ``(tool, **options)`` and returning the native object."""
    adopt: str | None = None
    """``"module:function"`` taking a native object and returning a standard tool."""
    native: tuple[str, ...] = ()
    """``"module:Class"`` of the objects ``adopt`` takes; only modules already imported are
    consulted (an object of a framework that was never imported cannot exist)."""
    adopt_tools: str | None = None
    """``"module:function"`` taking a collection (toolkit, toolset, tool spec) and returning
    its tools as standard tools."""
    collections: tuple[str, ...] = ()
    """``"module:Class"`` of the collections ``adopt_tools`` takes (checked like ``native``)."""
    runtime: str | None = None
    """``"module:object"``: the framework's :class:`~standard_tool.adapters.Runtime` (the object
    itself, not a class), which runs this adapter's objects as the framework does."""

    def owns(self, obj: Any) -> bool:
        """Whether ``obj`` is one of this adapter's native objects (cheap; imports nothing)."""
        return _is_instance(obj, self.native)

    def owns_collection(self, obj: Any) -> bool:
        """Whether ``obj`` is one of the collections ``adopt_tools`` takes (cheap)."""
        return _is_instance(obj, self.collections)

    @hookimpl
    def standard_tool_targets(self) -> list[TargetInfo]:
        return [TargetInfo.installed(self.target, self.distribution)]

    @hookimpl
    def standard_tool_export(self, tool: StandardTool, target: str, options: dict[str, Any]) -> Any:
        if target != self.target or self.export is None:
            return None
        return _load(self.export)(tool, **options)

    @hookimpl
    def standard_tool_adopt(self, obj: Any) -> StandardTool | None:
        if self.adopt is None or not holds(self.owns, obj):  # an object that raises: not ours
            return None
        tool: StandardTool = _load(self.adopt)(obj)
        return tool

    @hookimpl
    def standard_tool_adopt_tools(self, obj: Any) -> list[StandardTool] | None:
        if self.adopt_tools is None or not holds(self.owns_collection, obj):
            return None
        return list(_load(self.adopt_tools)(obj))

    @hookimpl
    def standard_tool_runtime(self, target: str) -> Runtime | None:
        if target != self.target or self.runtime is None:
            return None
        runtime: Runtime = _load(self.runtime)
        return runtime


def _is_instance(obj: Any, paths: tuple[str, ...]) -> bool:
    """Whether ``obj`` is an instance of one of the ``"module:Class"`` classes, looked up only
    in modules already imported."""
    for path in paths:
        module_name, _, name = path.partition(":")
        module = sys.modules.get(module_name)
        kind = getattr(module, name, None) if module is not None else None
        if isinstance(kind, type) and is_instance(obj, kind):
            return True
    return False


def _type_checking(test: ast.expr) -> bool:
    name = (
        test.id
        if isinstance(test, ast.Name)
        else test.attr
        if isinstance(test, ast.Attribute)
        else ""
    )
    return name.lstrip("_") == "TYPE_CHECKING"


def lazy_exports(
    package: str,
) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``__all__``, ``__getattr__`` and ``__dir__`` for a package whose names load on first use.

    The names are written once, as the relative imports of the package's
    ``if TYPE_CHECKING:`` block (which type checkers read), and imported from there on
    first use, so discovering an adapter does not import its framework::

        from typing import TYPE_CHECKING

        from standard_tool.adapters import lazy_exports

        if TYPE_CHECKING:
            from ._export import to_x as to_x

        __all__, __getattr__, __dir__ = lazy_exports(__name__)
    """
    module = sys.modules[package]
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    homes: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.level:
                    home = "." * statement.level + (statement.module or "")
                    homes.update({alias.asname or alias.name: home for alias in statement.names})
    namespace = module.__dict__

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace.get("__all__", ()), *homes})

    return sorted(homes), __getattr__, __dir__
