"""Inputs generated from a tool's input JSON Schema: bounded, and the same on every run.

The values a schema gives (``examples``, ``default``, ``const``, ``enum``) come first, then
hypothesis-jsonschema's draws. hypothesis and hypothesis-jsonschema are imported on first use
(``standard-tool[checks]``).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..exceptions import InputGenerationError
from ..schema.dialects._walk import lookup

__all__ = ["example_inputs", "invalid_inputs", "sample_inputs"]

_WRONG = ([[None]], {"": [None]}, None, "")
"""Values put in a field's place, in order, until the schema refuses one."""
_EXTRA = "zz_unexpected"
_REFS = 16
"""Local ``$ref`` hops followed, at most, to find the values a subschema gives."""
_DEPTH = 8
"""Object levels below the root where the values a subschema gives are put in place."""


def sample_inputs(schema: dict[str, Any], count: int = 5) -> list[Any]:
    """Up to ``count`` values valid for ``schema``, the same on every run: first those built
    from the values the schema gives (:func:`example_inputs`), then hypothesis-jsonschema's
    draws, simplest first.

    The draws come from a derandomized Hypothesis run (no example database, no shrinking, no
    deadline), so the first is the simplest the schema allows, and nothing from an earlier run
    changes what is drawn. Hypothesis keeps its files in ``standard-tool/hypothesis`` in the
    user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``), or a temporary folder where
    that cannot be written; never in the current folder.
    """
    try:
        drawn = _drawn(schema, count)
    except InputGenerationError:
        given = example_inputs(schema, None, count)
        if given:
            return given
        raise
    found: dict[str, Any] = {}
    for value in [*example_inputs(schema, drawn[0], count), *drawn]:
        found.setdefault(json.dumps(value, sort_keys=True), value)
    return list(found.values())[:count]


def _hypothesis_home() -> Path | None:
    """The folder where Hypothesis keeps its files while inputs are drawn, or ``None`` when
    it cannot be written.

    It holds only tables Hypothesis derives, each the same whenever it is derived again (the
    characters a codec encodes, the constants of a source file, by its hash); no example
    database. Kept from one process to the next, they spare each new process the seconds it
    takes to derive them."""
    try:
        cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        home = Path(cache) / "standard-tool" / "hypothesis"
        home.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # no home folder, or one that cannot be written
        return None
    return home if os.access(home, os.W_OK | os.X_OK) else None


def _drawn(schema: dict[str, Any], count: int) -> list[Any]:
    from hypothesis import configuration

    previous = getattr(configuration, "__hypothesis_home_directory", None)
    with contextlib.ExitStack() as stack:
        home = _hypothesis_home() or stack.enter_context(
            tempfile.TemporaryDirectory(prefix="standard-tool-hypothesis-")
        )
        configuration.set_hypothesis_home_dir(home)
        try:
            return _draw(schema, count)
        finally:
            configuration.set_hypothesis_home_dir(previous)


def _draw(schema: dict[str, Any], count: int) -> list[Any]:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis.errors import HypothesisException
    from hypothesis_jsonschema import from_schema

    drawn: list[Any] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # hypothesis' notes on unusual schemas
            strategy = from_schema(schema)

            @settings(
                database=None,
                derandomize=True,
                max_examples=count,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
                deadline=None,
            )
            @given(strategy)
            def collect(value: Any) -> None:
                drawn.append(value)

            collect()
    except (HypothesisException, ValueError, TypeError, KeyError, RecursionError) as error:
        if drawn:
            return drawn[:count]
        raise InputGenerationError(
            f"no input can be generated from the schema: {type(error).__name__}: "
            f"{' '.join(str(error).split())[:200]}"
        ) from error
    if not drawn:
        raise InputGenerationError("no input can be generated from the schema")
    return drawn[:count]


def example_inputs(schema: Any, base: Any = None, count: int = 5) -> list[Any]:
    """Up to ``count`` inputs made of the values ``schema`` gives, each valid for it: the
    root's own (``examples``, ``default``, ``const``, ``enum``), then ``base`` (a value drawn
    from the schema; ``None``: an empty object) with each property, nested ones and those
    behind a local ``$ref`` included, taking the values its subschema gives: the first input
    the first of each, the next the second where there is one, and so on."""
    accepts = _validity(schema)
    if accepts is None or not isinstance(schema, dict):
        return []
    candidates = list(_given(schema))
    width = _width(schema, schema, 0)
    candidates += [_placed(schema, schema, base, index, 0) for index in range(min(width, count))]
    found: dict[str, Any] = {}
    for candidate in candidates:
        key = json.dumps(candidate, sort_keys=True)
        if key not in found and _accepted(accepts, candidate):
            found[key] = candidate
    return list(found.values())[:count]


def _validity(schema: Any) -> Callable[[Any], bool] | None:
    import jsonschema_rs

    try:
        accepts: Callable[[Any], bool] = jsonschema_rs.validator_for(schema).is_valid
    except Exception:  # a schema the validator cannot build
        return None
    return accepts


def _accepted(accepts: Callable[[Any], bool], value: Any) -> bool:
    try:
        return accepts(value)
    except Exception:
        return False


def _given(node: Any) -> list[Any]:
    """The values a subschema gives, in order: its ``examples``, ``default``, ``const``, then
    ``enum``."""
    if not isinstance(node, dict):
        return []
    values: list[Any] = []
    if isinstance(node.get("examples"), list):
        values += node["examples"]
    for keyword in ("default", "const"):
        if keyword in node:
            values.append(node[keyword])
    if isinstance(node.get("enum"), list):
        values += node["enum"]
    unique: dict[str, Any] = {}
    for value in values:
        try:
            unique.setdefault(json.dumps(value, sort_keys=True), value)
        except (TypeError, ValueError):  # not JSON data
            continue
    return list(unique.values())


def _resolved(root: Any, node: Any) -> Any:
    """``node`` with a local ``$ref`` (``#/...``) followed, its own keywords kept beside the
    target's; any other reference, or a loop, leaves it as it is."""
    for _ in range(_REFS):
        reference = node.get("$ref") if isinstance(node, dict) else None
        if not isinstance(reference, str) or not reference.startswith("#"):
            return node
        target = lookup(root, reference[1:])
        if not isinstance(target, dict):  # nothing there (MISSING), or no object of keywords
            return node
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _properties(node: Any) -> dict[str, Any]:
    properties = node.get("properties") if isinstance(node, dict) else None
    return properties if isinstance(properties, dict) else {}


def _width(root: Any, node: Any, level: int) -> int:
    """How many inputs the values given below ``node`` make: the longest list of them."""
    node = _resolved(root, node)
    given = _given(node) if level else []
    if given or level > _DEPTH:
        return len(given)
    return max((_width(root, sub, level + 1) for sub in _properties(node).values()), default=0)


def _placed(root: Any, node: Any, value: Any, index: int, level: int) -> Any:
    """``value`` with the ``index``-th value each subschema gives put in its place (its
    first where it gives fewer)."""
    node = _resolved(root, node)
    given = _given(node) if level else []
    if given:
        return given[index] if index < len(given) else given[0]
    if level > _DEPTH or not (value is None or isinstance(value, dict)):
        return value
    placed = dict(value or {})
    for key, sub in _properties(node).items():
        if _width(root, sub, level + 1):
            placed[key] = _placed(root, sub, placed.get(key), index, level + 1)
    return placed


def invalid_inputs(schema: Any, valid: Any) -> Iterator[Any]:
    """Inputs ``schema`` refuses, each close to the ``valid`` one: a field of the wrong type,
    a required field missing, an unexpected field, then a value that is not an object."""
    accepts = _validity(schema)
    if accepts is None:
        return
    candidates: list[Any] = []
    if isinstance(valid, dict):
        for key in sorted(valid):
            candidates += [{**valid, key: wrong} for wrong in _WRONG]
        required = schema.get("required", []) if isinstance(schema, dict) else []
        candidates += [{k: v for k, v in valid.items() if k != key} for key in required[:1]]
        candidates.append({**valid, _EXTRA: 1})
    candidates += [[], "", None]
    for candidate in candidates:
        try:
            refused = not accepts(candidate)
        except Exception:
            continue
        if refused:
            yield candidate
