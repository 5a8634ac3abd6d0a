"""``standard_tool.checks``: the checks behind the contract, ``standard-tool check`` and
``pytest-standard-tool``, here through the core's own targets and the toy plugin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import standard_tool as st
from standard_tool.checks import (
    CHECKS,
    DESCRIPTIONS,
    DIRECT,
    CheckResult,
    bounded,
    check_tool,
    failures,
    first_difference,
    heading,
    installed_targets,
    invalid_inputs,
    legend,
    probe,
    sample_inputs,
    skipped,
    tally,
)
from standard_tool.exceptions import InputGenerationError, StepTimeoutError
from standard_tool.testing import sample_tools


class Loose:
    """A conforming tool that checks nothing: it accepts what its schema refuses."""

    name = "loose"
    description = "Echo the input, unchecked."
    input_schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "required": ["n"],
        "additionalProperties": False,
    }

    def execute(self, input: Any, context: Any = None) -> Any:
        return input


def test_the_direct_call_comes_first_then_every_installed_target() -> None:
    targets = installed_targets()
    assert targets[0] == DIRECT
    assert {"openai", "anthropic", "gemini", "hf", "toy"} <= set(targets)


@pytest.mark.parametrize("name", sorted(set(sample_tools()) - {"explode"}))  # never runs
def test_every_sample_tool_passes_through_the_toy_and_the_providers(name: str) -> None:
    providers = ["openai", "anthropic", "gemini", "hf"]
    results = check_tool(sample_tools()[name], ["standard", "toy", *providers])
    assert not failures(results), [str(r) for r in failures(results)]
    toy = [(r.check, r.status) for r in results if r.target == "toy"]
    assert toy == [(check, "pass") for check in CHECKS]
    for provider in providers:
        shown = {r.check: r.status for r in results if r.target == provider}
        assert shown == {
            "convert": "pass",
            "schema": "skip",  # the provider's own dialect of the schema
            "round trip": "skip",  # nothing adopts a declaration back
            "call": "pass",
            "refuse": "pass",
        }, provider


def test_a_tool_that_accepts_what_its_schema_refuses_fails_refuse() -> None:
    loose: Any = Loose()  # conforms at run time; its schema is a plain dict
    results = check_tool(loose, ["standard", "toy"])
    failed = {(r.target, r.check) for r in failures(results)}
    assert failed == {("standard", "refuse")}, [str(r) for r in results]
    (direct,) = [r for r in results if (r.target, r.check) == ("standard", "refuse")]
    assert direct.reason.startswith("it accepts an input its input schema refuses")


def test_a_call_that_differs_fails_naming_where() -> None:
    @st.tool
    def counter(step: int) -> dict[str, int]:
        """Count one step."""
        return {"at": step, "calls": 1}

    class Off:
        target = "off"

        def native(self, tool: Any) -> Any:
            return tool

        def declaration(self, native: Any) -> dict[str, Any]:
            return {}

        def input_schema(self, native: Any) -> dict[str, Any]:
            return st.input_json_schema(native)

        def call(self, native: Any, arguments: Any, context: Any = None) -> Any:
            from standard_tool.adapters import NativeOutcome

            try:
                value = st.jsonable(st.call(native, arguments, context))
            except st.StandardToolError as error:
                return NativeOutcome(error=str(error))
            return NativeOutcome(value={**value, "calls": 2})

        def adopted(self, native: Any) -> Any:
            from contextlib import nullcontext

            return nullcontext(native)

    results = check_tool(counter, ["off"], runtimes={"off": Off()})
    (failed,) = failures(results)
    assert (failed.check, failed.reason) == (
        "call",
        "its result differs from the direct call's: calls: directly 1, here 2",
    )


def test_an_unknown_target_fails_convert_naming_the_installed() -> None:
    results = check_tool(sample_tools()["add"], ["no-such-target"])
    assert [(r.check, r.status) for r in results] == [("convert", "fail")] + [
        (check, "skip") for check in CHECKS[1:]
    ]
    assert "'toy'" in results[0].reason


def test_the_probe_is_the_simplest_valid_input_and_a_refused_one() -> None:
    found = probe(sample_tools()["add"])
    schema = st.input_json_schema(sample_tools()["add"])
    assert found.outcome is not None and found.outcome.error is None
    assert jsonschema.Draft202012Validator(schema).is_valid(found.input)
    assert not jsonschema.Draft202012Validator(schema).is_valid(found.invalid)
    assert found.invalid_outcome is not None and "add" in (found.invalid_outcome.error or "")


@pytest.mark.parametrize("name", sorted(sample_tools()))
def test_invalid_inputs_are_refused_by_the_schema(name: str) -> None:
    schema = st.input_json_schema(sample_tools()[name])
    (valid,) = sample_inputs(schema, 1)
    derived = list(invalid_inputs(schema, valid))
    assert derived, name
    assert not any(jsonschema.Draft202012Validator(schema).is_valid(value) for value in derived)


def test_a_schema_that_admits_nothing_cannot_be_sampled() -> None:
    with pytest.raises(InputGenerationError, match="no input can be generated"):
        sample_inputs({"not": {}}, 3)


def test_bounded_gives_up_after_its_time_limit() -> None:
    release = threading.Event()
    with pytest.raises(StepTimeoutError, match="no answer within 0.1 s"):
        bounded(0.1, release.wait, 5)
    release.set()
    assert bounded(1, lambda x: x + 1, 1) == 2
    with pytest.raises(ZeroDivisionError):
        bounded(1, lambda: 1 / 0)


@pytest.mark.parametrize("raised", [SystemExit(3), KeyboardInterrupt()])
def test_a_runtime_that_raises_system_exit_fails_its_checks_only(raised: BaseException) -> None:
    from standard_tool.adapters import BaseRuntime

    class Exiting(BaseRuntime):
        target = "toy"

        def declaration(self, native: Any) -> dict[str, Any]:
            return {}

        def input_schema(self, native: Any) -> dict[str, Any]:
            raise raised

        def call(self, native: Any, arguments: Any, context: Any = None) -> Any:
            raise raised

    results = check_tool(sample_tools()["add"], ["toy"], runtimes={"toy": Exiting()})
    failed = {r.check: r.reason for r in failures(results)}
    name = type(raised).__name__
    assert failed == dict.fromkeys(["schema", "call", "refuse"], f"the step raised {name}")


def test_first_difference_says_where() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "a.1.b differs"
    assert first_difference({"a": 1}, {"a": 1, "z": 0}) == "z is added"
    assert first_difference({"a": 1}, {}) == "a is missing"
    assert first_difference([1], [1, 2]) == "the root has 2 items, not 1"
    assert first_difference(1, 1.0) == "the root differs"
    assert first_difference({"a": [1]}, {"a": [1]}) == ""


def test_a_table_of_results_counts_skips_as_skips_and_says_why() -> None:
    loose: Any = Loose()
    results = check_tool(loose, [DIRECT, "openai"])
    by_target = {t: [r for r in results if r.target == t] for t in (DIRECT, "openai")}
    assert tally(by_target[DIRECT]) == "FAIL 1, pass 1"  # it accepts what its schema refuses
    assert tally(by_target["openai"]) == "pass 3, skip 2"
    assert tally(by_target["openai"], "\n") == "pass 3\nskip 2"
    assert tally([]) == "-"
    assert skipped(results) == [
        f"skipped schema for openai: {by_target['openai'][1].reason}",
        f"skipped round trip for openai: {by_target['openai'][2].reason}",
    ]
    not_converted = [
        CheckResult("t", target, check, "skip", "not converted")
        for target in ("mcp", "hf")
        for check in CHECKS[1:]
    ]
    assert skipped(not_converted[::-1]) == [
        f"skipped {', '.join(CHECKS[1:])} for hf, mcp: not converted"
    ]


def test_the_legend_explains_every_check_and_word() -> None:
    assert set(DESCRIPTIONS) == set(CHECKS)
    assert heading(1, 2) == f"Checked 1 tool x 2 targets: {', '.join(CHECKS)}"
    text = "\n".join(legend([DIRECT, "openai"]))
    for check in CHECKS:
        assert f"  {check}" in text and DESCRIPTIONS[check] in text
    assert all(f"{word} N: " in text for word in ("pass", "skip", "FAIL"))
    assert f"{DIRECT}: the tool called directly" in text
    assert DIRECT not in "\n".join(legend(["openai"]))


class _Prechecked:
    """A runtime whose framework refuses every call itself, naming no tool."""

    target = "prechecked"

    def __init__(self, prechecks: bool) -> None:
        self.prechecks = prechecks

    def native(self, tool: Any) -> Any:
        return tool

    def declaration(self, native: Any) -> dict[str, Any]:
        return {}

    def input_schema(self, native: Any) -> dict[str, Any]:
        return st.input_json_schema(native)

    def call(self, native: Any, arguments: Any, context: Any = None) -> Any:
        from standard_tool.adapters import NativeOutcome

        try:
            return NativeOutcome(value=st.jsonable(st.call(native, arguments, context)))
        except st.ToolValidationError:
            return NativeOutcome(error="Argument a has the wrong type")

    def adopted(self, native: Any) -> Any:
        from contextlib import nullcontext

        return nullcontext(native)


@pytest.mark.parametrize("prechecks", [False, True])
def test_a_refusal_naming_no_tool_passes_only_where_the_framework_prechecks(
    prechecks: bool,
) -> None:
    results = check_tool(
        sample_tools()["add"], ["prechecked"], runtimes={"prechecked": _Prechecked(prechecks)}
    )
    (refuse,) = [r for r in results if r.check == "refuse"]
    if prechecks:
        assert (refuse.status, refuse.reason) == (
            "pass",
            "refused by the framework's own check, which names no tool",
        )
    else:
        assert (refuse.status, refuse.reason) == ("fail", "its error does not name the tool")


DRAW = """
import json, sys
from standard_tool.checks import sample_inputs

schema = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}
print(json.dumps(sample_inputs(schema, 5)))
"""


def test_hypothesis_keeps_its_tables_in_the_cache_folder_and_draws_alike(tmp_path: Path) -> None:
    """A process's draws leave Hypothesis's derived tables in the user's cache folder (not in
    the current one, and no example database); the next process, which reads them, draws the
    same inputs, and so does one whose cache folder cannot be written."""
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("PYTHONPATH", None)

    def draw() -> Any:
        env["XDG_CACHE_HOME"] = str(cache)
        out = subprocess.run(
            [sys.executable, "-c", DRAW], cwd=work, env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    first = draw()
    home = cache / "standard-tool" / "hypothesis"
    kept = {path.relative_to(home).parts[0] for path in home.rglob("*") if path.is_file()}
    assert "unicode_data" in kept and "examples" not in kept, kept
    assert list(work.iterdir()) == []
    assert draw() == first
    cache = tmp_path / "a-file"
    cache.write_text("")
    assert draw() == first
    assert len(first) == 5, first


def test_an_unwritable_cache_folder_draws_all_the_same_and_restores_hypothesis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hypothesis import configuration

    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # a file: no folder can be made in it
    mine = tmp_path / "mine"
    configuration.set_hypothesis_home_dir(mine)
    try:
        assert sample_inputs({"type": "integer", "minimum": 3}, 2)[0] == 3
        assert configuration.storage_directory().path == mine  # the caller's, as it was
    finally:
        configuration.set_hypothesis_home_dir(None)
    assert list(tmp_path.iterdir()) == [blocked]
