"""Inputs generated from a tool's input JSON Schema: bounded, and the same on every run.

hypothesis and hypothesis-jsonschema are imported on first use (``standard-tool[checks]``).
"""

from __future__ import annotations

import tempfile
import warnings
from collections.abc import Iterator
from typing import Any

from ..exceptions import InputGenerationError

__all__ = ["invalid_inputs", "sample_inputs"]

_WRONG = ([[None]], {"": [None]}, None, "")
"""Values put in a field's place, in order, until the schema refuses one."""
_EXTRA = "zz_unexpected"


def sample_inputs(schema: dict[str, Any], count: int = 5) -> list[Any]:
    """Up to ``count`` values valid for ``schema``, simplest first, the same on every run.

    Drawn by hypothesis-jsonschema with a derandomized Hypothesis run (no example database,
    no shrinking, no deadline), so the first value is the simplest the schema allows.
    Hypothesis keeps its files in a temporary folder, not in the current one, and nothing
    from an earlier run changes what is drawn.
    """
    from hypothesis.configuration import set_hypothesis_home_dir

    with tempfile.TemporaryDirectory(prefix="standard-tool-hypothesis-") as home:
        set_hypothesis_home_dir(home)
        try:
            return _draw(schema, count)
        finally:
            set_hypothesis_home_dir(None)


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


def invalid_inputs(schema: Any, valid: Any) -> Iterator[Any]:
    """Inputs ``schema`` refuses, each close to the ``valid`` one: a field of the wrong type,
    a required field missing, an unexpected field, then a value that is not an object."""
    import jsonschema_rs

    try:
        accepts = jsonschema_rs.validator_for(schema).is_valid
    except Exception:  # a schema the validator cannot build: nothing is derived from it
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
