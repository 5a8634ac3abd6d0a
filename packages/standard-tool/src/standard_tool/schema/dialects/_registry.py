"""The dialects a schema converts to, by name: the drafts', the providers' and registered ones."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...exceptions import UsageError
from ._drafts import To07, To2020, ToOpenAPI, detect_dialect
from ._providers import PROVIDER_DIALECTS as PROVIDERS
from ._walk import Change, Dialect

__all__ = [
    "BUILTIN_DIALECTS",
    "PROVIDER_DIALECTS",
    "convert_schema",
    "dialects",
    "register_dialect",
]

PROVIDER_DIALECTS = ("openai", "openai-strict", "anthropic", "gemini", "gemini-json-schema", "hf")
"""The model providers' dialects (``standard_tool.providers`` renders tools in them)."""
BUILTIN_DIALECTS = ("draft-2020-12", "draft-07", "openapi-3.0", *PROVIDER_DIALECTS)
_REGISTERED: dict[str, type[Dialect]] = {}


def register_dialect(name: str, dialect: type[Dialect]) -> None:
    """Make ``dialect`` a target of :func:`convert_schema` (and of ``json_schema(target=name)``)."""
    if name in BUILTIN_DIALECTS:
        raise UsageError(f"{name!r} is a built-in dialect and cannot be replaced")
    if not (isinstance(dialect, type) and issubclass(dialect, Dialect)):
        raise UsageError(f"a dialect is a Dialect subclass, not {dialect!r}")
    _REGISTERED[name] = dialect


def dialects() -> list[str]:
    """The names of every dialect a schema can be converted to."""
    return [*BUILTIN_DIALECTS, *sorted(_REGISTERED)]


def convert_schema(
    schema: Mapping[str, Any] | bool, target: str, record: list[Change] | None = None
) -> dict[str, Any] | bool:
    """A new copy of ``schema`` in the ``target`` dialect; raises SchemaNotExpressibleError.

    With ``record`` (a list), each :class:`Change` the dialect's steps make is appended to it,
    a refusal last; its pointers point into ``schema`` (a draft-07 schema: into its draft
    2020-12 form)."""
    if target not in BUILTIN_DIALECTS and target not in _REGISTERED:
        raise UsageError(f"unknown schema dialect {target!r}; use one of {dialects()}")
    if not isinstance(schema, (Mapping, bool)):
        raise UsageError(f"a JSON Schema is a mapping or a boolean, not {type(schema).__name__}")
    source = detect_dialect(schema)
    walk = _REGISTERED.get(target)
    if target in PROVIDER_DIALECTS:
        walk = PROVIDERS[target]
    if walk is not None:
        if source != "draft-2020-12":
            schema = To2020("draft-2020-12", schema).run()
    else:
        walk = {
            ("draft-2020-12", "draft-07"): To07,
            ("draft-07", "draft-2020-12"): To2020,
        }.get((source, target), ToOpenAPI if target == "openapi-3.0" else Dialect)
    dialect = walk(target, schema)
    if record is not None:
        dialect.record = record
    converted: dict[str, Any] | bool = dialect.run()
    return converted
