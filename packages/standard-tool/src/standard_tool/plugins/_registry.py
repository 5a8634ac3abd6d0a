"""The plugin registry (its public names are ``standard_tool.registry``)."""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .._probe import attribute, is_instance
from .._protocols import Runtime, StandardTool, TargetInfo
from ..exceptions import (
    ConversionError,
    PluginError,
    StandardToolError,
    UnknownTargetError,
    UnsupportedObjectError,
)

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = [
    "ALLOW_ENV",
    "BUILTIN",
    "DISABLE_ENV",
    "ENTRY_POINT_GROUP",
    "KNOWN_PROVIDERS",
    "PluginConflictWarning",
    "PluginHookWarning",
    "PluginLoadWarning",
    "PluginManager",
    "PluginSettingsWarning",
    "PluginWarning",
    "adopt",
    "adopt_tools",
    "convert",
    "get_plugin_manager",
    "isolated_registry",
    "make_plugin_manager",
    "runtime",
    "set_plugin_manager",
    "targets",
]

ENTRY_POINT_GROUP = "standard_tool"
"""The entry-point group, pluggy project name and import name: one name everywhere."""
ALLOW_ENV = "STANDARD_TOOL_PLUGINS"
"""Comma-separated entry-point names: when set, only these plugins load (empty: none)."""
DISABLE_ENV = "STANDARD_TOOL_DISABLED_PLUGINS"
"""Comma-separated entry-point names that never load."""
BUILTIN = "standard"
"""The core's own plugin (target ``standard``); it always loads, whatever the variables say."""
KNOWN_PROVIDERS: Mapping[str, str] = {
    "langchain": "standard-tool-langchain",
    "llama-index": "standard-tool-llama-index",
    "mcp": "standard-tool-mcp",
    "openai-agents": "standard-tool-openai-agents",
    "pydantic-ai": "standard-tool-pydantic-ai",
    "smolagents": "standard-tool-smolagents",
    **dict.fromkeys(("openai", "anthropic", "gemini", "hf"), "standard-tool"),
}
"""The distribution that provides each of the project's own targets: it wins a name clash."""


class PluginWarning(UserWarning):
    """Base of the warnings about plugins; none of them stops the other plugins."""


class PluginLoadWarning(PluginWarning):
    """A plugin failed to load and was skipped."""


class PluginHookWarning(PluginWarning):
    """A plugin's hook raised; its answer was skipped and the other plugins were asked."""


class PluginConflictWarning(PluginWarning):
    """Two plugins claim the same entry-point or target name; one of them is used."""


class PluginSettingsWarning(PluginWarning):
    """:data:`ALLOW_ENV` or :data:`DISABLE_ENV` names a plugin that is not installed."""


class PluginManager:
    """The project's plugin manager: a ``pluggy.PluginManager`` that also knows which plugin
    owns each target, and calls each hook implementation on its own.

    Every attribute of pluggy's manager (``hook``, ``has_plugin``, ``list_name_plugin``...)
    is available here; ``pluggy`` is imported only when a manager is made.
    """

    def __init__(self) -> None:
        import pluggy

        from . import _hookspecs as hookspecs

        self.pluggy = pluggy.PluginManager(ENTRY_POINT_GROUP)
        self.pluggy.add_hookspecs(hookspecs)
        self.origins: dict[str, str] = {}
        """Plugin name -> the distribution it came from (``"?"`` when unknown)."""
        self._targets: dict[str, tuple[str, TargetInfo]] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pluggy, name)

    def register(self, plugin: object, name: str | None = None) -> str | None:
        """Register ``plugin`` (an object or module of ``@hookimpl`` functions) as ``name``."""
        self._targets = None
        return self.pluggy.register(plugin, name)

    def unregister(self, plugin: object | None = None, name: str | None = None) -> Any:
        self._targets = None
        return self.pluggy.unregister(plugin, name)

    def call_each(
        self,
        hook: str,
        *,
        only: str | None = None,
        failure: Callable[[str, BaseException], StandardToolError] | None = None,
        **kwargs: Any,
    ) -> Iterator[tuple[str, Any]]:
        """``(plugin name, answer)`` for each implementation of ``hook``, in pluggy's order.

        ``only`` asks one plugin. An implementation that raises one of the project's errors
        stops the call (that is its answer); one that raises anything else raises
        ``failure(plugin, exc)``, or without ``failure`` is skipped with a
        :class:`PluginHookWarning`.
        """
        for impl in reversed(getattr(self.pluggy.hook, hook).get_hookimpls()):
            if only is not None and impl.plugin_name != only:
                continue
            try:
                answer = impl.function(*[kwargs[arg] for arg in impl.argnames])
            except StandardToolError:
                raise
            except (Exception, SystemExit) as exc:
                if failure is not None:
                    raise failure(impl.plugin_name, exc) from exc
                _warn(
                    PluginHookWarning,
                    f"{self.describe(impl.plugin_name)} raised in {hook}: {_error_text(exc)}",
                )
                continue
            yield impl.plugin_name, answer

    def target_owners(self) -> dict[str, tuple[str, TargetInfo]]:
        """Target name -> (the plugin that provides it, its :class:`TargetInfo`)."""
        owners = self._targets
        if owners is None:
            owners = {}
            for plugin, infos in self.call_each("standard_tool_targets"):
                for info in _target_infos(infos, self.describe(plugin)):
                    owners[info.name] = self._claim(owners.get(info.name), (plugin, info))
            self._targets = owners
        return owners

    def _claim(
        self, held: tuple[str, TargetInfo] | None, new: tuple[str, TargetInfo]
    ) -> tuple[str, TargetInfo]:
        if held is None:
            return new
        target = new[1].name
        keep = new if self.origins.get(new[0]) == KNOWN_PROVIDERS.get(target) else held
        _warn(
            PluginConflictWarning,
            f"target {target!r} is claimed by {self.describe(held[0])} and by "
            f"{self.describe(new[0])}; {self.describe(keep[0])} is used",
        )
        return keep

    def describe(self, plugin: str) -> str:
        """``plugin 'name' (distribution)``, for messages."""
        return f"plugin {plugin!r} ({self.origins.get(plugin, '?')})"


def _warn(category: type[PluginWarning], message: str) -> None:
    warnings.warn(f"standard-tool {message}", category, stacklevel=3)


def _error_text(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = ""
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__


def _target_infos(infos: Any, plugin: str) -> list[TargetInfo]:
    if isinstance(infos, TargetInfo):
        infos = [infos]
    try:
        found = list(infos or ())
    except TypeError:
        found = [None]
    good = [info for info in found if isinstance(info, TargetInfo)]
    if len(good) != len(found):
        _warn(PluginHookWarning, f"{plugin} described a target that is not a TargetInfo")
    return good


def _names(value: str) -> set[str]:
    return {part.strip() for part in value.split(",") if part.strip()}


def _distribution(entry_point: EntryPoint) -> str:
    dist = getattr(entry_point, "dist", None)
    return getattr(dist, "name", None) or "?"


def make_plugin_manager(
    plugins: Iterable[EntryPoint] | None = None, env: Mapping[str, str] | None = None
) -> PluginManager:
    """A plugin manager with the hookspecs and the plugins the entry points name.

    ``plugins`` defaults to the installed ``standard_tool`` entry points, ``env`` to
    ``os.environ`` (read for :data:`ALLOW_ENV` and :data:`DISABLE_ENV`). A plugin that fails
    to import (raising anything, ``SystemExit`` included) is skipped with a
    :class:`PluginLoadWarning` naming it; two entry points with one name keep the project's
    own distribution (else the first) with a :class:`PluginConflictWarning`; a name in the
    variables that no entry point has gives a :class:`PluginSettingsWarning`.
    """
    from importlib.metadata import entry_points

    env = os.environ if env is None else env
    found = list(entry_points(group=ENTRY_POINT_GROUP) if plugins is None else plugins)
    allowed = _names(env[ALLOW_ENV]) if ALLOW_ENV in env else None
    disabled = _names(env.get(DISABLE_ENV, ""))
    known = {entry_point.name for entry_point in found}
    for variable, names in ((ALLOW_ENV, allowed or set()), (DISABLE_ENV, disabled)):
        unknown = sorted(names - known)
        if unknown:
            _warn(
                PluginSettingsWarning,
                f"{variable} names {', '.join(map(repr, unknown))}, which no installed plugin "
                f"has; installed: {', '.join(map(repr, sorted(known))) or 'none'}",
            )
    chosen: dict[str, EntryPoint] = {}
    for entry_point in found:
        name = entry_point.name
        if name != BUILTIN and (name in disabled or (allowed is not None and name not in allowed)):
            continue
        held = chosen.get(name)
        if held is None:
            chosen[name] = entry_point
        elif held.value != entry_point.value:
            own = KNOWN_PROVIDERS.get(name)
            keep = entry_point if _distribution(entry_point) == own else held
            _warn(
                PluginConflictWarning,
                f"plugin name {name!r} is claimed by {_distribution(held)} ({held.value}) and "
                f"by {_distribution(entry_point)} ({entry_point.value}); "
                f"{_distribution(keep)} is used",
            )
            chosen[name] = keep
    manager = PluginManager()
    for name, entry_point in chosen.items():
        manager.origins[name] = _distribution(entry_point)
        try:
            manager.register(entry_point.load(), name=name)
        except (Exception, SystemExit) as exc:
            _warn(
                PluginLoadWarning,
                f"plugin {name!r} ({entry_point.value}) was skipped: {_error_text(exc)}",
            )
    if not manager.has_plugin(BUILTIN):
        from . import _builtin

        manager.origins[BUILTIN] = "standard-tool"
        manager.register(_builtin, name=BUILTIN)
    return manager


_lock = threading.Lock()
_manager: PluginManager | None = None


def get_plugin_manager() -> PluginManager:
    """The process-wide plugin manager, made on first use."""
    global _manager
    if _manager is None:
        with _lock:
            if _manager is None:
                _manager = make_plugin_manager()
    return _manager


def set_plugin_manager(manager: PluginManager | None) -> PluginManager | None:
    """Replace the process-wide plugin manager (``None``: rediscover on next use); return the old one."""
    global _manager
    with _lock:
        old, _manager = _manager, manager
    return old


@contextmanager
def isolated_registry(
    plugins: Iterable[EntryPoint] | None = None, env: Mapping[str, str] | None = None
) -> Iterator[PluginManager]:
    """A fresh plugin manager (see :func:`make_plugin_manager`), process-wide inside the block.

    Plugins registered on it inside the block are gone afterwards; the previous manager is
    restored. ``standard_tool.testing.clean_registry`` is the same as a pytest fixture.
    """
    manager = make_plugin_manager(plugins, env)
    old = set_plugin_manager(manager)
    try:
        yield manager
    finally:
        set_plugin_manager(old)


def _owners() -> dict[str, tuple[str, TargetInfo]]:
    return get_plugin_manager().target_owners()


def targets() -> list[TargetInfo]:
    """The installed targets, sorted by name, with their frameworks' versions."""
    return sorted((info for _, info in _owners().values()), key=lambda info: info.name)


def _installed() -> str:
    return ", ".join(repr(name) for name in sorted(_owners())) or "none"


def is_standard_tool(obj: Any) -> bool:
    """Whether ``obj`` conforms: a string ``name``, a ``description`` and a callable ``execute``.

    ``title``, ``input_schema``, ``output_schema`` and ``meta`` may be absent and then read
    as ``None``, ``None``, ``None`` and ``{}``. An object whose attributes raise (anything,
    ``SystemExit`` included) does not conform.
    """
    return (
        is_instance(attribute(obj, "name"), str)
        and is_instance(attribute(obj, "description"), str)
        and callable(attribute(obj, "execute"))
    )


def adopt(obj: Any) -> StandardTool:
    """Return ``obj`` as a standard tool: itself if it conforms, else through its framework's adapter."""
    if is_standard_tool(obj):
        return obj  # type: ignore[no-any-return]
    answers = get_plugin_manager().call_each("standard_tool_adopt", obj=obj)
    tool = next((tool for _, tool in answers if tool is not None), None)
    if tool is None:
        kind = f"{type(obj).__module__}.{type(obj).__qualname__}"
        raise UnsupportedObjectError(
            f"no installed adapter can adopt {kind}; installed targets: {_installed()}"
        )
    return tool  # type: ignore[no-any-return]


def adopt_tools(obj: Any) -> list[StandardTool]:
    """Every tool ``obj`` holds, as standard tools.

    ``obj`` is one tool (anything :func:`adopt` takes), a collection an adapter adopts as a
    whole (a LangChain toolkit, a PydanticAI toolset, a LlamaIndex tool spec...), or a list
    or tuple of either.
    """
    if is_standard_tool(obj):
        return [obj]
    answers = get_plugin_manager().call_each("standard_tool_adopt_tools", obj=obj)
    tools = next((tools for _, tools in answers if tools is not None), None)
    if tools is not None:
        return list(tools)
    if is_instance(obj, (list, tuple)):
        held: list[StandardTool] = []
        for index, item in enumerate(obj):
            try:
                held += adopt_tools(item)
            except UnsupportedObjectError as error:
                within = is_instance(item, (list, tuple))  # the error names the element in it
                raise _not_adoptable(obj, index, item, error, within) from error
        return held
    return [adopt(obj)]


def _not_adoptable(
    several: Any, index: int, item: Any, error: UnsupportedObjectError, within: bool = False
) -> UnsupportedObjectError:
    """``error`` (``item`` is not adoptable) said of element ``index`` of ``several``;
    ``within``: ``error`` is about an element of ``item``, which it names."""
    where = f"element {index} of the {type(several).__name__}"
    if within:
        return UnsupportedObjectError(f"{where}: {error}")
    kind = type(item).__name__
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    return UnsupportedObjectError(f"{where} ({article} {kind}) is not a tool: {error}")


def runtime(target: str) -> Runtime | None:
    """The :class:`~standard_tool.adapters.Runtime` of an installed target's framework, or ``None``
    when its adapter has none (an export-only target).

    Raises :class:`UnknownTargetError` when no installed adapter provides ``target``.
    """
    owner = _owners().get(target)
    if owner is None:
        raise UnknownTargetError(target, sorted(_owners()), KNOWN_PROVIDERS.get(target))
    answers = get_plugin_manager().call_each("standard_tool_runtime", only=owner[0], target=target)
    return next((answer for _, answer in answers if answer is not None), None)


def convert(obj: Any, to: str, **options: Any) -> Any:
    """Convert a standard tool, or any object an adapter can adopt, to the target ``to``.

    Only the plugin that lists ``to`` among its targets is asked.
    """
    tool = adopt(obj)
    owner = _owners().get(to)
    if owner is None:
        raise UnknownTargetError(to, sorted(_owners()), KNOWN_PROVIDERS.get(to))

    def failure(plugin: str, exc: BaseException) -> ConversionError:
        return ConversionError(
            f"the adapter for target {to!r} (plugin {plugin!r}) failed to convert tool "
            f"{tool.name!r}: {_error_text(exc)}"
        )

    answers = get_plugin_manager().call_each(
        "standard_tool_export",
        only=owner[0],
        failure=failure,
        tool=tool,
        target=to,
        options=options,
    )
    for _, result in answers:
        if result is not None:
            return result
    raise PluginError(f"the adapter for target {to!r} returned nothing for {tool.name!r}")
