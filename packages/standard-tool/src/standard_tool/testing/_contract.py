"""The adapter contract as tests: an export part, an adopt part, and both together."""

from __future__ import annotations

import asyncio
import copy
import functools
import json
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any, ClassVar

import pytest

from .._protocols import NativeOutcome, Runtime, StandardTool
from ..checks._checks import (
    DIRECT,
    Probe,
    check_tool,
    definition_difference,
    expected_schema,
    failures,
    probe,
)
from ..exceptions import (
    ToolExecutionError,
    ToolValidationError,
    UnknownTargetError,
    UnsupportedObjectError,
)
from ..names import NameRule
from ..plugins._registry import adopt, convert, get_plugin_manager, runtime, targets
from ..run._call import acall, call
from ..schema._schema import jsonable
from ..tools._tool import tool
from ._samples import INVALID_CALLS, SECRET, VALID_CALLS, _add, sample_tools

__all__ = [
    "AdapterContract",
    "AdoptContract",
    "ExportContract",
    "NativeOutcome",
    "outcome_from_json_text",
]

SCHEMA_TOOLS = ("add", "greet", "search", "whoami", "ping", "plan", "catalog.lookup")
"""The sample tools whose input schema every target must show as it is."""
RENAMED = "add numbers.v2"
"""A tool name with a space and a dot: no provider accepts it as it is."""
NOT_OBJECTS: tuple[Any, ...] = ([], [["a", 1]], "", None, 5)
"""Arguments that are no JSON object, as a model may send them: each is refused."""
TEXTS = (' {"method": "GET"}\n', "42\n", "plain text")
"""Text results that look like JSON, or end in a newline: the model reads each as text."""


def _echo(text: str) -> str:
    """Give the text back.

    Args:
        text: What to give back.
    """
    return text


def outcome_from_json_text(text: str, is_error: bool) -> NativeOutcome:
    """A :class:`NativeOutcome` from a framework's text result (JSON if it parses)."""
    return NativeOutcome.from_json_text(text, is_error=is_error)


def _no_leak(text: str) -> None:
    assert "Traceback (most recent call last)" not in text, text
    assert SECRET not in text, text


@functools.cache
def _probe(name: str) -> Probe:
    """The direct calls of the sample tool ``name`` that the checks compare with (made once)."""
    return probe(sample_tools()[name])


class _ContractRuntime:
    """An export contract's own methods as a :class:`Runtime`, for
    :func:`standard_tool.checks.check_tool`: a subclass that overrides ``to_native``,
    ``native_schema``, ``call_native`` or ``from_native`` is checked through what it
    overrides."""

    def __init__(self, contract: ExportContract) -> None:
        self._contract = contract
        registered = contract.runtime()
        self.dialect = getattr(registered, "dialect", False) if registered else False
        self.prechecks = bool(getattr(registered, "prechecks", False))
        """As the registered runtime says: its framework refuses some calls itself."""
        self.normalisation: str = getattr(registered, "normalisation", "")
        """As the registered runtime says: what its framework makes of a result."""
        self._normalise = getattr(registered, "normalise", None)

    def native(self, tool: StandardTool) -> Any:
        return self._contract.to_native(tool)

    def declaration(self, native: Any) -> dict[str, Any]:
        registered = self._contract.runtime()
        return {} if registered is None else registered.declaration(native)

    def input_schema(self, native: Any) -> dict[str, Any]:
        return self._contract.native_schema(native)

    def call(self, native: Any, arguments: Any, context: Any = None) -> NativeOutcome:
        return self._contract.call_native(native, arguments, context)

    def normalise(self, value: Any) -> Any:
        return value if self._normalise is None else self._normalise(value)

    def adopted(self, native: Any) -> AbstractContextManager[StandardTool]:
        if isinstance(self._contract, AdoptContract):
            return nullcontext(self._contract.from_native(native))
        registered = self._contract.runtime()
        return registered.adopted(native) if registered else nullcontext(adopt(native))


class _Target:
    target: ClassVar[str]
    """The adapter's target name."""
    distribution: ClassVar[str]
    """The framework's distribution name, as ``targets()`` reports it."""

    def context(self) -> dict[str, Any]:
        """A per-call context; it holds :data:`SECRET`."""
        return {"token": SECRET}

    def runtime(self) -> Runtime | None:
        """The framework's runtime the adapter registers, if any."""
        return runtime(self.target)

    def to_native(self, tool: StandardTool) -> Any:
        """The framework's object for ``tool`` (default: the runtime's ``native(tool)``,
        else ``convert(tool, to=target)``)."""
        registered = self.runtime()
        return convert(tool, to=self.target) if registered is None else registered.native(tool)

    def test_target_is_registered(self) -> None:
        info = {t.name: t for t in targets()}
        assert self.target in info, f"{self.target!r} not in {sorted(info)}"
        assert info[self.target].distribution == self.distribution
        assert info[self.target].version


class ExportContract(_Target):
    """What every target promises for standard tools converted to it.

    An adapter that registers a :class:`~standard_tool.adapters.Runtime` is tested through
    it; otherwise implement :meth:`native_schema` and :meth:`call_native`. Set
    :attr:`name_rule` when the target restricts names. ``call_native`` must go through the
    framework's own runtime (an agent, a tool node, a client session) and return what
    reaches the model: arguments that are no JSON object refused with the direct call's
    error, and a text result's text as the model reads it (the runtime's ``normalise``).
    """

    name_rule: ClassVar[NameRule | None] = None
    """The names the target accepts, when it restricts them."""

    def native_schema(self, native: Any) -> dict[str, Any]:
        """The input JSON Schema the framework shows a model for ``native`` (default: the
        runtime's ``input_schema``)."""
        registered = self.runtime()
        if registered is None:
            raise NotImplementedError("no runtime registered: implement native_schema")
        return registered.input_schema(native)

    def call_native(self, native: Any, arguments: Any, context: Mapping[str, Any]) -> NativeOutcome:
        """Run ``native`` through the framework's runtime as a model's tool call would
        (default: the runtime's ``call``); arguments that are no JSON object are refused as a
        direct call refuses them."""
        registered = self.runtime()
        if registered is None:
            raise NotImplementedError("no runtime registered: implement call_native")
        return registered.call(native, arguments, context)

    def contract_runtime(self) -> Runtime:
        """This contract's methods as the target's :class:`Runtime`, for the shared checks."""
        return _ContractRuntime(self)

    def native_name(self, native: Any) -> str:
        """The tool name the framework shows a model for ``native``."""
        name: str = native.name
        return name

    def deep_copy(self, native: Any) -> Any:
        """``copy.deepcopy`` of an exported object, as frameworks do with their tools."""
        return copy.deepcopy(native)

    @pytest.mark.parametrize("name", sorted(set(sample_tools()) - {"explode"}))
    def test_sample_tool_passes_every_check(self, name: str) -> None:
        """The checks of ``standard-tool check`` and ``pytest-standard-tool``
        (:func:`standard_tool.checks.check_tool`), through this contract's methods."""
        results = check_tool(
            sample_tools()[name],
            [self.target],
            runtimes={self.target: self.contract_runtime()},
            probed=_probe(name),
        )
        assert not failures(results), "\n".join(map(str, failures(results)))
        passed = {r.check for r in results if r.status == "pass"}
        own_dialect = getattr(self.contract_runtime(), "dialect", False) is True  # no schema check
        assert passed >= ({"convert", "call"} if own_dialect else {"convert", "schema", "call"})

    def test_a_tool_that_never_runs_fails_its_call_check_as_directly(self) -> None:
        """A tool no input runs (``explode`` raises on every one) has no call to compare:
        ``call`` fails here with the direct call's reason, and nothing else fails."""
        results = check_tool(
            sample_tools()["explode"],
            [DIRECT, self.target],
            runtimes={self.target: self.contract_runtime()},
            probed=_probe("explode"),
        )
        direct, here = [r for r in results if r.check == "call"]
        assert (direct.status, here.status) == ("fail", "fail")
        assert here.reason == direct.reason and "no input ran" in here.reason
        assert [r for r in failures(results) if r.check != "call"] == []

    @pytest.mark.parametrize("name", SCHEMA_TOOLS)
    def test_model_sees_the_input_schema(self, name: str) -> None:
        original = sample_tools()[name]
        native = self.to_native(original)
        expected = expected_schema(self.contract_runtime(), native, original)
        if expected is None:
            pytest.skip("a model is shown the target's own dialect of the schema")
        assert self.native_schema(native) == expected

    @pytest.mark.parametrize("name", sorted(VALID_CALLS))
    def test_native_runtime_returns_the_result(self, name: str) -> None:
        arguments, expected = VALID_CALLS[name]
        outcome = self.call_native(self.to_native(sample_tools()[name]), arguments, self.context())
        assert outcome.error is None, outcome.error
        assert outcome.value == expected

    @pytest.mark.parametrize("name", sorted(INVALID_CALLS))
    def test_native_runtime_reports_invalid_input(self, name: str) -> None:
        arguments, field = INVALID_CALLS[name]
        outcome = self.call_native(self.to_native(sample_tools()[name]), arguments, self.context())
        assert outcome.error is not None, f"accepted {arguments!r}: {outcome.value!r}"
        assert name in outcome.error and field in outcome.error, outcome.error
        _no_leak(outcome.error)

    @pytest.mark.parametrize("name", ["add", RENAMED])
    @pytest.mark.parametrize("arguments", NOT_OBJECTS, ids=json.dumps)
    def test_native_runtime_refuses_arguments_that_are_no_object(
        self, arguments: Any, name: str
    ) -> None:
        """Refused before the tool runs (``[["a", 1]]`` is not ``{"a": 1}``), with the
        direct call's own error, under the tool's own name (not the one a target gave it)."""
        original = tool(_add, name=name)
        with pytest.raises(ToolValidationError) as direct:
            call(original, arguments, self.context())
        outcome = self.call_native(self.to_native(original), arguments, self.context())
        assert (outcome.error, outcome.value) == (str(direct.value), None)

    @pytest.mark.parametrize("text", TEXTS, ids=json.dumps)
    def test_native_runtime_gives_the_text_the_model_reads(self, text: str) -> None:
        """A text result is read as text, not as the JSON it holds (``text``), as the
        framework hands it to the model (the runtime's ``normalise``)."""
        outcome = self.call_native(self.to_native(tool(_echo)), {"text": text}, self.context())
        assert outcome.error is None, outcome.error
        normalise = getattr(self.contract_runtime(), "normalise", None)  # optional
        assert outcome.text == (text if normalise is None else normalise(text))

    def test_native_runtime_rejects_extra_fields(self) -> None:
        arguments = {"query": "lamp", "unexpected": 1}
        outcome = self.call_native(
            self.to_native(sample_tools()["search"]), arguments, self.context()
        )
        assert outcome.error is not None and "unexpected" in outcome.error, outcome

    def test_native_runtime_reports_tool_failure(self) -> None:
        outcome = self.call_native(
            self.to_native(sample_tools()["explode"]), {"reason": "on purpose"}, self.context()
        )
        assert outcome.error is not None
        assert "exploded: on purpose" in outcome.error and "explode" in outcome.error
        _no_leak(outcome.error)

    def test_exported_tool_deep_copies(self) -> None:
        arguments, expected = VALID_CALLS["greet"]
        copied = self.deep_copy(self.to_native(sample_tools()["greet"]))
        outcome = self.call_native(copied, arguments, self.context())
        assert (outcome.error, outcome.value) == (None, expected)

    def test_a_name_the_target_refuses_is_made_valid(self) -> None:
        native = self.to_native(tool(_add, name=RENAMED))
        name = self.native_name(native)
        if self.name_rule is not None:
            assert name != RENAMED and self.name_rule.accepts(name), name
        assert self.call_native(native, {"a": 1}, self.context()).value == 2

    def test_runtime_declaration_is_json_data(self) -> None:
        registered = self.runtime()
        if registered is None:
            pytest.skip("the adapter registers no runtime")
        assert isinstance(registered, Runtime)
        declaration = registered.declaration(self.to_native(sample_tools()["search"]))
        assert isinstance(declaration, dict)
        text = json.dumps(declaration)
        assert "search" in text and json.loads(text) == declaration

    def test_unknown_target_lists_installed(self) -> None:
        with pytest.raises(UnknownTargetError) as raised:
            convert(sample_tools()["add"], to="no-such-target")
        assert self.target in raised.value.installed


class AdoptContract(_Target):
    """What every adapter promises for framework objects adopted as standard tools.

    :meth:`native` makes the framework's object for a sample tool (default: by exporting
    it); implement :meth:`foreign_object` when ``object()`` is not a good foreign object.
    """

    def native(self, name: str) -> Any:
        """The framework's own object for the sample tool ``name``."""
        return self.to_native(sample_tools()[name])

    def from_native(self, native: Any) -> StandardTool:
        """``native`` as a standard tool (default: ``adopt(native)``)."""
        return adopt(native)

    def foreign_object(self) -> Any:
        """An object of some other kind that this adapter must refuse."""
        return object()

    @pytest.mark.parametrize("name", sorted(VALID_CALLS))
    def test_adopted_tool_calls_sync_and_async(self, name: str) -> None:
        arguments, expected = VALID_CALLS[name]
        back = self.from_native(self.native(name))
        assert jsonable(call(back, arguments, self.context())) == expected

        async def inside_a_loop() -> tuple[Any, Any]:
            # sync call() inside a running loop, then acall()
            return call(back, arguments, self.context()), await acall(
                back, arguments, self.context()
            )

        from_sync, from_async = asyncio.run(inside_a_loop())
        assert jsonable(from_sync) == expected and jsonable(from_async) == expected

    @pytest.mark.parametrize("name", sorted(INVALID_CALLS))
    def test_adopted_tool_raises_typed_validation_error(self, name: str) -> None:
        arguments, field = INVALID_CALLS[name]
        back = self.from_native(self.native(name))
        with pytest.raises(ToolValidationError) as raised:
            call(back, arguments, self.context())
        assert raised.value.tool == name and raised.value.target == "input"
        assert any(field in location for location in raised.value.fields), raised.value

    def test_adopted_tool_raises_typed_execution_error(self) -> None:
        back = self.from_native(self.native("explode"))
        with pytest.raises(ToolExecutionError) as raised:
            call(back, {"reason": "on purpose"}, self.context())
        assert raised.value.tool == "explode" and "exploded: on purpose" in raised.value.message
        assert str(raised.value) == f"Tool 'explode' failed: {raised.value.message}"
        _no_leak(str(raised.value))

    def test_adopted_tool_deep_copies(self) -> None:
        arguments, expected = VALID_CALLS["add"]
        back = copy.deepcopy(self.from_native(self.native("add")))
        assert jsonable(call(back, arguments, self.context())) == expected

    def test_foreign_object_is_refused(self) -> None:
        foreign = self.foreign_object()
        hook = get_plugin_manager().hook.standard_tool_adopt
        impls = [i for i in hook.get_hookimpls() if i.plugin_name == self.target]
        assert impls, f"no adopt hook registered under {self.target!r}"
        assert all(impl.function(obj=foreign) is None for impl in impls)
        with pytest.raises(UnsupportedObjectError):
            adopt(foreign)


class AdapterContract(ExportContract, AdoptContract):
    """Both directions, and the round trips between them: ``from_x(to_x(tool))`` keeps the
    name, title, description, meta and both schemas
    (:func:`standard_tool.checks.definition_difference`)."""

    @pytest.mark.parametrize("name", sorted(sample_tools()))
    def test_round_trip_keeps_the_definition(self, name: str) -> None:
        original = sample_tools()[name]
        back = self.from_native(self.to_native(original))
        assert definition_difference(original, back) == ""

    @pytest.mark.parametrize("name", ["add", "whoami"])
    def test_runtime_adopts_what_it_made(self, name: str) -> None:
        registered = self.runtime()
        if registered is None:
            pytest.skip("the adapter registers no runtime")
        original = sample_tools()[name]
        with registered.adopted(registered.native(original)) as back:
            assert definition_difference(original, back) == ""
            if name in VALID_CALLS:
                arguments, expected = VALID_CALLS[name]
                assert jsonable(call(back, arguments, self.context())) == expected

    def test_round_trip_restores_a_renamed_tool(self) -> None:
        back = self.from_native(self.to_native(tool(_add, name=RENAMED)))
        assert back.name == RENAMED
        assert call(back, {"a": 1}, self.context()) == 2
