"""Inputs generated from a tool's input JSON Schema: bounded, and the same on every run."""

from __future__ import annotations

import tempfile
import warnings
from typing import Any

from ._errors import one_line

__all__ = ["GenerationError", "sample_inputs"]


class GenerationError(Exception):
    """No input could be generated from a schema."""


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
        raise GenerationError(
            f"no input can be generated from the schema: {type(error).__name__}: "
            f"{one_line(str(error))[:200]}"
        ) from error
    if not drawn:
        raise GenerationError("no input can be generated from the schema")
    return drawn[:count]
