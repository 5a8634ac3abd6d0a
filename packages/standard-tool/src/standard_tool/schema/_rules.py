"""jsonschema-rs errors as issues that name the field and the rule, never the offending value.

jsonschema-rs's own ``error.message`` quotes the instance (``"sk-..." is not of type
"integer"``); each error ``kind`` is described here from the schema's constraint alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from .._text import clip
from ..exceptions import Issue, PathItem

__all__ = ["issues_of"]

_MAX_SHOWN = 120
"""Longest constraint (a pattern, an enum's options) quoted in a message."""


def _shown(value: Any) -> str:
    """A value from the schema as JSON text, shortened."""
    try:
        return clip(json.dumps(value, ensure_ascii=False, sort_keys=True), _MAX_SHOWN)
    except (TypeError, ValueError):
        return clip(str(value), _MAX_SHOWN)


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _count(limit: Any, noun: str, plural: str | None = None) -> str:
    return f"{limit} {noun if limit == 1 else plural or noun + 's'}"


_TYPE_ORDER = ("integer", "number", "string", "boolean", "array", "object", "null")


def _type_rank(name: str) -> int:
    return _TYPE_ORDER.index(name) if name in _TYPE_ORDER else len(_TYPE_ORDER)


def _types(kind: Any) -> str:
    names = sorted((str(name) for name in kind.types), key=_type_rank)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


_MESSAGES: dict[str, Callable[[Any], str]] = {
    "Type": lambda k: f"must be of type {_types(k)}",
    "Constant": lambda k: f"must be {_shown(k.expected_value)}",
    "Enum": lambda k: (
        "must be one of " + clip(", ".join(_shown(option) for option in k.options), _MAX_SHOWN)
    ),
    "Minimum": lambda k: f"must be at least {_number(k.limit)}",
    "Maximum": lambda k: f"must be at most {_number(k.limit)}",
    "ExclusiveMinimum": lambda k: f"must be greater than {_number(k.limit)}",
    "ExclusiveMaximum": lambda k: f"must be less than {_number(k.limit)}",
    "MultipleOf": lambda k: f"must be a multiple of {_number(k.multiple_of)}",
    "MinLength": lambda k: f"must have at least {_count(k.limit, 'character')}",
    "MaxLength": lambda k: f"must have at most {_count(k.limit, 'character')}",
    "Pattern": lambda k: f"must match the pattern {clip(str(k.pattern), _MAX_SHOWN)!r}",
    "Format": lambda k: f"must be a valid {k.format}",
    "MinItems": lambda k: f"must have at least {_count(k.limit, 'item')}",
    "MaxItems": lambda k: f"must have at most {_count(k.limit, 'item')}",
    "AdditionalItems": lambda k: f"must have at most {_count(k.limit, 'item')}",
    "UniqueItems": lambda k: "must not contain duplicate items",
    "Contains": lambda k: "must contain an item that matches the schema under 'contains'",
    "UnevaluatedItems": lambda k: "has items that no schema allows",
    "MinProperties": lambda k: f"must have at least {_count(k.limit, 'property', 'properties')}",
    "MaxProperties": lambda k: f"must have at most {_count(k.limit, 'property', 'properties')}",
    "PropertyNames": lambda k: "has a property name that breaks the rule under 'propertyNames'",
    "Not": lambda k: "must not match the schema under 'not'",
    "AnyOf": lambda k: "must match at least one schema under 'anyOf'",
    "OneOfNotValid": lambda k: "must match exactly one schema under 'oneOf' (it matches none)",
    "OneOfMultipleValid": lambda k: (
        "must match exactly one schema under 'oneOf' (it matches more than one)"
    ),
    "FalseSchema": lambda k: "is not allowed",
    "ContentEncoding": lambda k: f"must be {k.content_encoding}-encoded",
    "ContentMediaType": lambda k: f"must be valid {k.content_media_type}",
    "FromUtf8": lambda k: "must be valid UTF-8 once decoded",
    "BacktrackLimitExceeded": lambda k: "cannot be checked against its pattern (too complex)",
    "RegexEngineFailure": lambda k: "cannot be checked against its pattern",
    "Referencing": lambda k: "cannot be checked: the schema has a reference that does not resolve",
    "Custom": lambda k: f"breaks the rule of the {k.keyword!r} keyword",
}

_EXTRA = "Extra inputs are not permitted"


def issues_of(error: Any) -> Iterator[Issue]:
    """The issues of one jsonschema-rs error, each with the path of the field concerned."""
    path: tuple[PathItem, ...] = tuple(error.instance_path)
    kind = error.kind
    name = type(kind).__name__
    if name == "Required":
        yield Issue("Field required", (*path, kind.property))
    elif name in ("AdditionalProperties", "UnevaluatedProperties"):
        for key in kind.unexpected:
            yield Issue(_EXTRA, (*path, key))
    elif name == "FalseSchema" and list(error.schema_path)[-1:] == ["additionalProperties"]:
        yield Issue("has a property that is not permitted", path)  # jsonschema-rs names no key
    else:
        describe = _MESSAGES.get(name)
        try:
            message = describe(kind) if describe is not None else _unknown(error)
        except Exception:  # a kind whose fields changed in another jsonschema-rs version
            message = _unknown(error)
        yield Issue(message, path)


def _unknown(error: Any) -> str:
    """A kind this module does not know: name its keyword, never the value."""
    keyword = next(
        (part for part in reversed(list(error.schema_path)) if isinstance(part, str)), ""
    )
    return f"breaks the rule of the {keyword!r} keyword" if keyword else "does not match the schema"
