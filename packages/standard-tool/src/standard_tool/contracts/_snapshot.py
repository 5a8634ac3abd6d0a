"""Snapshots: every tool of a source with its description, schemas and digests, sorted and
stable across runs, written as diff-friendly JSON (``tools.lock.json``)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._text import clip
from ..exceptions import UsageError
from ..plugins._metadata import adopt_each
from ..schema._canonical import digest
from ..schema._json import json_issues
from ._digest import declaration

__all__ = ["FORMAT", "dump_snapshot", "load_snapshot", "snapshot"]

FORMAT = "standard-tool-snapshot/1"
"""The ``format`` of a snapshot document."""

_KEYS = ("name", "title", "description", "input_schema", "output_schema", "meta")


def entry(found: dict[str, Any]) -> dict[str, Any]:
    """A tool's snapshot entry: its declaration and the digests of the whole and its parts."""
    output = found["output_schema"]
    return {
        **found,
        "digests": {
            "tool": digest(found),
            "description": digest(found["description"]),
            "input": digest(found["input_schema"]),
            "output": None if output is None else digest(output),
        },
    }


def snapshot(tools: Any) -> dict[str, Any]:
    """A snapshot of ``tools`` (anything ``st.adopt_tools`` takes): ``{"format": FORMAT,
    "tools": [entry, ...]}``, one entry per tool sorted by name, each with ``name``, ``title``,
    ``description``, ``input_schema``, ``output_schema``, ``meta`` and ``digests`` (``tool``,
    ``description``, ``input``, ``output``). Two tools of one name are refused."""
    entries = sorted((entry(declaration(tool)) for tool in adopt_each(tools)), key=_name)
    for before, after in zip(entries, entries[1:], strict=False):
        if before["name"] == after["name"]:
            raise UsageError(
                f"two tools are named {clip(before['name'])!r}; a snapshot names each once"
            )
    return {"format": FORMAT, "tools": entries}


def dump_snapshot(data: Mapping[str, Any]) -> str:
    """The text of a snapshot file: sorted keys, two-space indents, a final newline; the same
    tools always give the same text."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def load_snapshot(source: str | os.PathLike[str] | Mapping[str, Any]) -> dict[str, Any]:
    """A snapshot read back from a file path, or checked when given as data; a document that is
    not a snapshot is a :class:`~standard_tool.exceptions.UsageError` saying what is wrong.
    The digests are computed again from the declarations, never trusted from the file."""
    if isinstance(source, Mapping):
        data: Any = source
        where = "the snapshot"
    else:
        where = f"snapshot file {clip(os.fspath(source))!r}"
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, UnicodeError, ValueError) as error:
            raise UsageError(f"{where} cannot be read as JSON: {type(error).__name__}") from None
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise UsageError(f"{where} is not a snapshot (its format is not {FORMAT!r})")
    tools = data.get("tools")
    if not isinstance(tools, list):
        raise UsageError(f"{where} has no list of tools")
    entries = []
    for index, item in enumerate(tools):
        if not isinstance(item, Mapping) or not all(key in item for key in _KEYS):
            raise UsageError(f"{where}: tool {index} lacks one of {list(_KEYS)}")
        if not isinstance(item["name"], str) or not isinstance(item["input_schema"], Mapping):
            raise UsageError(f"{where}: tool {index} has no name or no input schema object")
        found = {key: item[key] for key in _KEYS}
        issues = json_issues(found)
        if issues is not None:
            raise UsageError(f"{where}: tool {index} holds what is not JSON data: {issues[0]}")
        entries.append(entry(found))
    return {"format": FORMAT, "tools": sorted(entries, key=_name)}


def _name(item: Mapping[str, Any]) -> str:
    return str(item["name"])
