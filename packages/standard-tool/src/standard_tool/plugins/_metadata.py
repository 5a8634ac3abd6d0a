"""What a framework has no slot for travels in its metadata, under one key; lists of tools
are exported under a target's name rule."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .._probe import is_instance
from .._protocols import StandardTool
from ..exceptions import StandardToolError, UnsupportedObjectError
from ..names import NameMap, NameRule, check_name, sanitize_name
from ..tools._json_schemas import output_json_schema
from ._registry import _not_adoptable, adopt, is_standard_tool

__all__ = [
    "METADATA_KEY",
    "Stored",
    "adopt_each",
    "as_tools",
    "export_tools",
    "is_one",
    "pack_metadata",
    "to_export",
    "unpack_metadata",
]

METADATA_KEY = "standard_tool"
"""The key, in a framework's metadata, of what its tool object has no slot for."""
_FIELDS = ("title", "output_schema", "meta")
_SEVERAL = (list, tuple, set, frozenset, Iterator)
"""What is several tools without asking the adapters (no framework's tool is one of these)."""
T = TypeVar("T")


def pack_metadata(
    tool: StandardTool, *, name: str | None = None, slots: Collection[str] = ()
) -> dict[str, Any]:
    """The ``standard_tool`` entry for ``tool``: title, output JSON Schema and meta, except
    those in ``slots`` (the framework's own fields), and the original name when the tool is
    exported under another ``name``. :func:`unpack_metadata` reads it back."""
    entry: dict[str, Any] = {}
    if name is not None and name != tool.name:
        entry["name"] = tool.name
    if "title" not in slots:
        entry["title"] = getattr(tool, "title", None)
    if "output_schema" not in slots:
        entry["output_schema"] = output_json_schema(tool)
    if "meta" not in slots:
        entry["meta"] = dict(getattr(tool, "meta", None) or {})
    return entry


@dataclass(frozen=True)
class Stored:
    """What a ``standard_tool`` metadata entry carried back; absent or malformed parts are
    ``None`` (``meta``: empty)."""

    name: str | None = None
    title: str | None = None
    output_schema: dict[str, Any] | bool | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def fields(self) -> dict[str, Any]:
        """The tool fields it restores, for ``WrapperTool(wrapped, **stored.fields())``."""
        restored = {"title": self.title, "output_schema": self.output_schema, "meta": self.meta}
        return restored if self.name is None else {"name": self.name, **restored}


def unpack_metadata(metadata: Any) -> Stored:
    """The ``standard_tool`` entry of a framework's ``metadata`` mapping (or the entry itself).

    Foreign metadata is untrusted: anything that is not of the expected type is ignored.
    """
    entry = metadata.get(METADATA_KEY, metadata) if isinstance(metadata, Mapping) else None
    if not isinstance(entry, Mapping):
        return Stored()
    name, title = entry.get("name"), entry.get("title")
    output, meta = entry.get("output_schema"), entry.get("meta")
    return Stored(
        name=name if isinstance(name, str) and name else None,
        title=title if isinstance(title, str) else None,
        output_schema=output if isinstance(output, (dict, bool)) else None,
        meta=dict(meta) if isinstance(meta, Mapping) else {},
    )


def as_tools(tools: Any) -> list[Any]:
    """One tool or several: a standard tool, a function or anything an installed adapter
    adopts is one, iterable or not (a LangChain tool is a pydantic model, which iterates over
    its fields); a list, tuple, set, iterator or other iterable is several."""
    return [tools] if is_one(tools) else list(tools)


def is_one(tools: Any) -> bool:
    """Whether ``tools`` is one tool, not several (see :func:`as_tools`); the adapters are
    asked only about an iterable that is no plain collection."""
    if is_standard_tool(tools) or is_instance(tools, (str, bytes, Mapping)) or callable(tools):
        return True
    if not is_instance(tools, Iterable):
        return True
    if is_instance(tools, _SEVERAL):
        return False
    try:
        adopt(tools)
    except UnsupportedObjectError:
        return False
    except StandardToolError:  # an adapter owns it, and says what is wrong with it
        pass
    return True


def to_export(tool: Any, name: str | None, rule: NameRule) -> tuple[StandardTool, str]:
    """What an adapter's ``to_x(tool, name=...)`` exports: ``tool`` adopted (anything
    ``adopt`` takes), and the name the target shows it under, ``name`` checked against
    ``rule``, else the tool's name made valid for it."""
    standard = adopt(tool)
    return standard, check_name(name, rule) if name is not None else sanitize_name(
        standard.name, rule
    )


def export_tools(tools: Any, export: Callable[[StandardTool, str], T], rule: NameRule) -> list[T]:
    """``export(tool, name)`` for one tool or each of several (anything ``adopt`` takes), each
    under a name ``rule`` accepts (sanitized where needed).

    Two tools whose names, or sanitized names, collide raise ``ToolNameError``; a renamed
    tool records its original name (:func:`pack_metadata`) so adopting it restores the name.
    """
    names = NameMap(rule)
    return [export(tool, names.add(tool.name)) for tool in adopt_each(tools)]


def adopt_each(tools: Any) -> list[StandardTool]:
    """Each tool of one tool or several (see :func:`as_tools`) adopted; an element that no
    adapter adopts is named by its index."""
    if is_one(tools):
        return [adopt(tools)]
    adopted = []
    for index, item in enumerate(tools):
        try:
            adopted.append(adopt(item))
        except UnsupportedObjectError as error:
            raise _not_adoptable(tools, index, item, error) from error
    return adopted
