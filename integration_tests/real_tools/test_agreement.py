"""Every target accepts and refuses what the direct call does, for every tool of the corpus
that is called.

Each tool gets its corpus input (valid), the same with one field of the wrong JSON type
(``"0"`` and ``true`` for an integer; ``0`` and ``true`` for a string; ``"x"`` and ``true``
otherwise), the same with its first required field missing, and ``[]`` (not an object).
Directly (``st.call``) and through each target's own runtime
(``standard_tool.registry.runtime(target).call``), each input is either accepted (a result)
or refused (an error); every target must give the direct call's verdict. A target that cannot
run the tool at all says why (``UnsupportedToolError``, as the checks take it); what it said is
listed at the end of the run.
"""

from __future__ import annotations

from typing import Any

import pytest
from corpus import SOURCES
from sources import FAILED, SKIPPED, WARNINGS, Places, iter_entries, tool_of

import standard_tool as st
from standard_tool.checks import CONTEXT, DIRECT, installed_targets
from standard_tool.exceptions import UnsupportedToolError
from standard_tool.registry import runtime

pytestmark = [pytest.mark.filterwarnings(warning) for warning in WARNINGS]
CALLED = [
    pytest.param(source, entry, id=f"{source['key']}/{entry['name']}")
    for source, entry in iter_entries(SOURCES)
    if source["reaches"] is not None
]


def _types(schema: dict[str, Any]) -> set[str]:
    kind = schema.get("type")
    found = {kind} if isinstance(kind, str) else set(kind or ())
    for branch in schema.get("anyOf", ()):
        found |= _types(branch)
    return found


def inputs(schema: dict[str, Any], valid: dict[str, Any]) -> dict[str, Any]:
    """The inputs a tool is given, by what they are (see the module's docstring)."""
    out: dict[str, Any] = {"valid": valid}
    properties = schema.get("properties", {})
    required = [name for name in schema.get("required", ()) if name in valid]
    fields = [*required, *(name for name in valid if name not in required)]
    if fields:
        numeric = [f for f in fields if _types(properties.get(f, {})) & {"integer", "number"}]
        field = (numeric or fields)[0]
        kinds = _types(properties.get(field, {}))
        if kinds & {"integer", "number"}:
            wrong: tuple[Any, ...] = ("0", True)
        elif "string" in kinds:
            wrong = (0, True)
        else:
            wrong = ("x", True)
        for value in wrong:
            out[f"{field}={value!r}"] = {**valid, field: value}
    if required:
        out[f"{required[0]} missing"] = {k: v for k, v in valid.items() if k != required[0]}
    out["[]"] = []
    return out


def direct_verdict(tool: st.StandardTool, value: Any) -> str:
    try:
        st.call(tool, value, dict(CONTEXT), timeout=60)
    except st.StandardToolError as error:
        return f"refused ({str(error).splitlines()[0][:160]})"
    return "accepted"


def target_verdict(target: str, native: Any, value: Any) -> str:
    registered = runtime(target)
    assert registered is not None, target
    outcome = registered.call(native, value, dict(CONTEXT))
    if outcome.error is None:
        return "accepted"
    return f"refused ({outcome.error.splitlines()[0][:160]})"


@pytest.mark.parametrize(("source", "entry"), CALLED)
def test_every_target_refuses_what_the_direct_call_refuses(
    source: dict[str, Any], entry: dict[str, Any], places: Places, request: pytest.FixtureRequest
) -> None:
    tool = tool_of(source, entry, places)
    targets = [t for t in installed_targets() if t != DIRECT and runtime(t) is not None]
    assert len(targets) >= 6, targets
    disagreements: list[str] = []
    unsupported: dict[str, str] = {}
    natives = {}
    for target in targets:
        try:
            natives[target] = runtime(target).native(tool)  # type: ignore[union-attr]
        except Exception as error:  # the check test says why; here no verdict can be had
            disagreements.append(f"{target}: not converted: {type(error).__name__}: {error}")
    cases = inputs(st.input_json_schema(tool), places.substitute(entry["input"]))
    for label, value in cases.items():
        direct = direct_verdict(tool, value)
        if label == "valid":
            assert direct == "accepted", direct
        for target in natives:
            try:
                got = target_verdict(target, natives[target], value)
            except UnsupportedToolError as error:  # the target cannot run this tool at all
                unsupported[target] = str(error)
                continue
            except Exception as error:
                got = f"raised {type(error).__name__}: {error}"
            if got.split(" ", 1)[0] != direct.split(" ", 1)[0]:
                disagreements.append(f"{label}: directly {direct}; {target} {got}")
    if unsupported:
        SKIPPED[request.node.name] = [f"{t}: {reason}" for t, reason in unsupported.items()]
    if disagreements:
        FAILED[request.node.name] = disagreements
    assert not disagreements, "\n".join(disagreements)
    assert len(unsupported) < len(natives), unsupported
