"""Strict mode's ``null`` for an absent optional property, turned back into "absent" before
the tool runs: a tool never receives ``null`` for a field that does not allow it."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from .._protocols import StandardTool
from ..schema.dialects._provider import admits_null
from ..schema.dialects._walk import MISSING, lookup
from ..tools._json_schemas import input_json_schema

__all__ = ["null_undo"]


def null_undo(tool: StandardTool) -> Callable[[Any], Any] | None:
    """What turns strict mode's ``null`` back into "absent" for ``tool``, or ``None`` when
    no optional property of its schema refuses ``null``."""
    return _Undo.of(input_json_schema(tool))


class _Undo:
    """Strict mode's ``null`` for an absent property, removed along the tool's own schema.

    In a union, each branch is tried on a copy, and the first whose result it accepts wins
    (a branch's own validator, compiled on first use); none: the value is left as it came,
    and the tool's validation says what is wrong.
    """

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.validators: dict[str, Callable[[Any], bool]] = {}

    @classmethod
    def of(cls, root: dict[str, Any]) -> _Undo | None:
        undo = cls(root)
        if not any(undo.strippable(node) for node in _schemas(root)):
            return None
        return undo

    def __call__(self, value: Any) -> Any:
        return self.strip(value, self.root, 0)

    def resolve(self, ref: Any) -> Any:
        """What a local ``$ref`` names (the dialects' own lookup), or ``{}``."""
        if not isinstance(ref, str) or not ref.startswith("#"):
            return {}
        node = lookup(self.root, ref[1:])
        return {} if node is MISSING else node

    def strippable(self, node: Any) -> list[str]:
        """The optional properties of an object schema that refuse ``null``."""
        properties = node.get("properties") if isinstance(node, Mapping) else None
        if not isinstance(properties, Mapping):
            return []
        required = node.get("required") or ()
        return [
            name
            for name, sub in properties.items()
            if name not in required and not admits_null(sub, self.resolve)
        ]

    def strip(self, value: Any, schema: Any, depth: int) -> Any:
        """``value`` with each ``null`` strict mode put for an absent property removed."""
        if depth > 64 or not isinstance(schema, Mapping) or not isinstance(value, (dict, list)):
            return value
        if "$ref" in schema:
            value = self.strip(value, self.resolve(schema["$ref"]), depth + 1)
        for branch in schema.get("allOf") or ():
            value = self.strip(value, branch, depth + 1)
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if isinstance(branches, list):
                value = self.union(value, branches, depth)
        if isinstance(value, dict):
            properties = schema.get("properties")
            if isinstance(properties, Mapping):
                for name in self.strippable(schema):
                    if name in value and value[name] is None:
                        del value[name]
                for name, sub in properties.items():
                    if name in value:
                        value[name] = self.strip(value[name], sub, depth + 1)
        else:
            items = schema.get("items")
            if isinstance(items, Mapping):
                for i, item in enumerate(value):
                    value[i] = self.strip(item, items, depth + 1)
        return value

    def union(self, value: Any, branches: list[Any], depth: int) -> Any:
        for branch in _expanded(branches, self.resolve, 0):
            candidate = self.strip(copy.deepcopy(value), branch, depth + 1)
            if self.accepts(branch, candidate):
                return candidate
        return value

    def accepts(self, branch: Mapping[str, Any], value: Any) -> bool:
        key = json.dumps(branch, sort_keys=True, default=str)
        check = self.validators.get(key)
        if check is None:
            import jsonschema_rs

            document = {**branch, "$defs": self.root.get("$defs", {})}
            try:
                check = jsonschema_rs.validator_for(document).is_valid
            except Exception:  # a branch that does not compile alone: never chosen
                check = _never
            self.validators[key] = check
        try:
            return bool(check(value))
        except ValueError:
            return False


def _never(value: Any) -> bool:
    return False


def _schemas(root: Any) -> Iterable[Any]:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _expanded(
    branches: list[Any], resolve: Callable[[Any], Any], depth: int
) -> Iterator[Mapping[str, Any]]:
    """The schemas of a union, through references and nested unions."""
    for branch in branches:
        if depth > 16 or not isinstance(branch, Mapping):
            continue
        if "$ref" in branch:
            target = resolve(branch["$ref"])
            branch = {**target, **branch} if isinstance(target, Mapping) else {}
            branch.pop("$ref", None)
        yield branch
        for key in ("anyOf", "oneOf"):
            if isinstance(branch.get(key), list):
                yield from _expanded(branch[key], resolve, depth + 1)
