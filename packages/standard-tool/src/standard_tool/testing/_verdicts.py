"""One verdict per input: a tool accepts or refuses a call alike, directly and through every
installed framework's runtime."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..checks._checks import DIRECT, installed_targets, outcomes
from ..exceptions import ToolValidationError
from ..plugins._registry import runtime
from ..run._call import call

__all__ = ["assert_same_verdict"]


def assert_same_verdict(
    tool: Any,
    arguments: Any,
    refused: str | None = None,
    *,
    context: Any = None,
    targets: Sequence[str] | None = None,
) -> Any:
    """Assert that ``tool`` gives one verdict on ``arguments`` directly and through each of
    ``targets`` with a runtime (default: every installed one): run everywhere (``refused``
    ``None``), or refused everywhere with a :class:`ToolValidationError` naming the tool and
    a field whose path holds ``refused``, the error a model is told naming the field and the
    tool (a runtime with ``prechecks`` refuses in its framework's words, which name the field
    only) and quoting no argument. Returns the direct call's result (``None`` when refused)."""
    try:
        value, fields = call(tool, arguments, context), None
    except ToolValidationError as error:
        assert error.tool == tool.name and error.target == "input", error
        value, fields = None, error.fields
    assert (fields is None) == (refused is None), (arguments, fields)
    if refused is not None:
        assert fields is not None and any(refused in str(path) for path in fields), fields
    chosen = [t for t in installed_targets() if t != DIRECT] if targets is None else targets
    quoted = [str(v) for v in arguments.values()] if isinstance(arguments, Mapping) else []
    for target, outcome in outcomes(tool, arguments, chosen, context=context).items():
        assert (outcome.error is None) == (refused is None), (target, arguments, outcome)
        if refused is None or outcome.error is None:
            continue
        assert refused in outcome.error, (target, outcome.error)
        if not getattr(runtime(target), "prechecks", False):
            assert f"'{tool.name}'" in outcome.error, (target, outcome.error)
            for text in quoted:
                assert text not in outcome.error.replace(refused, ""), (target, text)
    return value
