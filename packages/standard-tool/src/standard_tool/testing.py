"""The adapter contract as tests: every adapter's test suite subclasses :class:`AdapterContract`.

Subclass it in a test module, set :attr:`~AdapterContract.target`, and implement the few
methods that reach the framework's own runtime::

    class TestLangChainContract(AdapterContract):
        target = "langchain"

        def native_schema(self, native): ...
        def call_native(self, native, arguments, context=None): ...
        def foreign_object(self): ...

pytest collects the ``test_*`` methods. ``call_native`` must go through the framework's own
runtime (an agent, a tool node, a client session) and return what reaches the model: a
:class:`NativeOutcome` with the result as JSON data, or the error text.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel, Field

from ._call import acall, call
from ._json_schemas import input_json_schema, output_json_schema
from ._protocols import StandardTool
from ._registry import adopt, convert, targets
from ._schema import jsonable
from ._tool import Tool, tool
from .exceptions import ToolExecutionError, ToolValidationError, UnsupportedObjectError

__all__ = ["INVALID_CALLS", "SECRET", "VALID_CALLS", "AdapterContract", "NativeOutcome", "outcome_from_json_text", "sample_tools"]

SECRET = "s3cr3t-context-token"
"""A value placed in every per-call context; it must never reach a model."""


@dataclass(frozen=True)
class NativeOutcome:
    """What the framework's runtime hands the model for one call."""

    value: Any = None
    """The result, as JSON data (``None`` on error)."""
    error: str | None = None
    """The error text the model sees, or ``None`` on success."""


class Address(BaseModel):
    street: str
    city: str = Field(description="City name.")
    zip_code: str | None = None


class Person(BaseModel):
    name: str = Field(min_length=1)
    tags: list[str] = []
    address: Address | None = None


def _add(a: int, b: int = 1) -> int:
    """Add two integers.

    Args:
        a: The first addend.
        b: The second addend.
    """
    return a + b


async def _greet(person: Person, shout: bool = False) -> str:
    """Greet a person by name.

    Args:
        person: Who to greet.
        shout: Whether to shout.
    """
    await asyncio.sleep(0)
    text = f"Hello, {person.name}" + (f" from {person.address.city}" if person.address else "")
    return text.upper() if shout else text


def _explode(reason: str) -> str:
    """Fail on purpose.

    Args:
        reason: Why it fails.
    """
    raise RuntimeError(f"exploded: {reason}")


def _whoami(label: str, context: Any = None) -> dict[str, Any]:
    """Say whether a per-call context arrived, without revealing it.

    Args:
        label: Echoed back.
    """
    return {"label": label, "has_context": context is not None}


_SCHEMA_TOOL_INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "description": "What to look for."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 5},
        "filters": {
            "anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}],
            "description": "Optional filter.",
        },
        "mode": {"enum": ["fast", "deep"]},
    },
    "required": ["query"],
    "additionalProperties": False,
    "$defs": {
        "Filter": {
            "type": "object",
            "properties": {"field": {"type": "string"}, "equals": {"type": ["string", "number"]}},
            "required": ["field", "equals"],
            "additionalProperties": False,
        }
    },
}
_SCHEMA_TOOL_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {"hits": {"type": "array", "items": {"type": "string"}}, "total": {"type": "integer"}},
    "required": ["hits", "total"],
}


def _search(input: dict[str, Any]) -> dict[str, Any]:
    limit = input.get("limit", 5)
    hits = [f"{input['query']}-{i}" for i in range(min(limit, 3))]
    return {"hits": hits, "total": len(hits)}


def sample_tools() -> dict[str, StandardTool]:
    """Fresh sample tools covering the shapes an adapter must carry, by name."""
    return {
        "add": tool(_add, name="add"),
        "greet": tool(_greet, name="greet", title="Greeter", meta={"read_only": True, "category": "social"}),
        "search": Tool(
            name="search",
            title="Search",
            description="Search the catalogue.",
            input_schema=_SCHEMA_TOOL_INPUT,
            output_schema=_SCHEMA_TOOL_OUTPUT,
            execute=_search,
            meta={"destructive": False, "idempotent": True},
        ),
        "explode": tool(_explode, name="explode"),
        "whoami": tool(_whoami, name="whoami"),
    }


# A valid call, and its expected result as JSON data, for each sample tool.
VALID_CALLS: dict[str, tuple[dict[str, Any], Any]] = {
    "add": ({"a": 2, "b": 3}, 5),
    "greet": (
        {"person": {"name": "Ada", "address": {"street": "1 Loop", "city": "Paris"}}},
        "Hello, Ada from Paris",
    ),
    "search": ({"query": "lamp", "limit": 2}, {"hits": ["lamp-0", "lamp-1"], "total": 2}),
    "whoami": ({"label": "x"}, {"label": "x", "has_context": True}),
}
# An invalid call and a field the error must name, for each sample tool with input.
INVALID_CALLS: dict[str, tuple[Any, str]] = {
    "add": ({"a": "two"}, "a"),
    "greet": ({"person": {"name": ""}}, "name"),
    "search": ({"query": "lamp", "limit": 500}, "limit"),
}


def _no_leak(text: str) -> None:
    assert "Traceback (most recent call last)" not in text, text
    assert SECRET not in text, text


class AdapterContract:
    """What every adapter promises (``shared/ADAPTERS.md``), as tests to subclass."""

    target: ClassVar[str]
    """The adapter's target name."""
    distribution: ClassVar[str]
    """The framework's distribution name, as ``targets()`` reports it."""
    round_trip_fields: ClassVar[tuple[str, ...]] = ("name", "title", "description", "meta")
    """Fields ``from_x(to_x(tool))`` must keep (adapters keep all of them unless a target
    cannot carry one, which the subclass then documents by overriding this)."""

    # -- to implement -------------------------------------------------------------------

    def native_schema(self, native: Any) -> dict[str, Any]:
        """The input JSON Schema the framework shows a model for ``native``."""
        raise NotImplementedError

    def call_native(
        self, native: Any, arguments: Mapping[str, Any], context: Mapping[str, Any]
    ) -> NativeOutcome:
        """Run ``native`` through the framework's runtime as a model's tool call would."""
        raise NotImplementedError

    def foreign_object(self) -> Any:
        """An object of some other kind that this adapter must refuse."""
        return object()

    def context(self) -> dict[str, Any]:
        """A per-call context; it holds :data:`SECRET`."""
        return {"token": SECRET}

    # -- helpers ------------------------------------------------------------------------

    def to_native(self, tool: StandardTool) -> Any:
        return convert(tool, to=self.target)

    def from_native(self, native: Any) -> StandardTool:
        return adopt(native)

    # -- the contract -------------------------------------------------------------------

    def test_target_is_registered(self) -> None:
        info = {t.name: t for t in targets()}
        assert self.target in info, f"{self.target!r} not in {sorted(info)}"
        assert info[self.target].distribution == self.distribution
        assert info[self.target].version

    @pytest.mark.parametrize("name", ["add", "greet", "search", "whoami"])
    def test_model_sees_the_input_schema(self, name: str) -> None:
        original = sample_tools()[name]
        assert self.native_schema(self.to_native(original)) == input_json_schema(original)

    @pytest.mark.parametrize("name", ["add", "greet", "search", "explode", "whoami"])
    def test_round_trip_keeps_the_definition(self, name: str) -> None:
        original = sample_tools()[name]
        back = self.from_native(self.to_native(original))
        for field in self.round_trip_fields:
            want, got = getattr(original, field, None), getattr(back, field, None)
            if field == "meta":
                want, got = dict(want or {}), dict(got or {})
            assert got == want, f"{field}: {got!r} != {want!r}"
        assert input_json_schema(back) == input_json_schema(original)
        assert output_json_schema(back) == output_json_schema(original)

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

    def test_native_runtime_rejects_extra_fields(self) -> None:
        arguments = {"query": "lamp", "unexpected": 1}
        outcome = self.call_native(self.to_native(sample_tools()["search"]), arguments, self.context())
        assert outcome.error is not None and "unexpected" in outcome.error, outcome

    def test_native_runtime_reports_tool_failure(self) -> None:
        outcome = self.call_native(
            self.to_native(sample_tools()["explode"]), {"reason": "on purpose"}, self.context()
        )
        assert outcome.error is not None
        assert "exploded: on purpose" in outcome.error and "explode" in outcome.error
        _no_leak(outcome.error)

    @pytest.mark.parametrize("name", sorted(VALID_CALLS))
    def test_adopted_tool_calls_sync_and_async(self, name: str) -> None:
        arguments, expected = VALID_CALLS[name]
        back = self.from_native(self.to_native(sample_tools()[name]))
        assert jsonable(call(back, arguments, self.context())) == expected

        async def inside_a_loop() -> tuple[Any, Any]:
            # sync call() inside a running loop, then acall()
            return call(back, arguments, self.context()), await acall(back, arguments, self.context())

        from_sync, from_async = asyncio.run(inside_a_loop())
        assert jsonable(from_sync) == expected and jsonable(from_async) == expected

    @pytest.mark.parametrize("name", sorted(INVALID_CALLS))
    def test_adopted_tool_raises_typed_validation_error(self, name: str) -> None:
        arguments, field = INVALID_CALLS[name]
        back = self.from_native(self.to_native(sample_tools()[name]))
        with pytest.raises(ToolValidationError) as raised:
            call(back, arguments, self.context())
        assert raised.value.tool == name and raised.value.target == "input"
        assert any(field in location for location in raised.value.fields), raised.value

    def test_adopted_tool_raises_typed_execution_error(self) -> None:
        back = self.from_native(self.to_native(sample_tools()["explode"]))
        with pytest.raises(ToolExecutionError) as raised:
            call(back, {"reason": "on purpose"}, self.context())
        assert raised.value.tool == "explode" and "exploded: on purpose" in str(raised.value)
        _no_leak(str(raised.value))

    def test_foreign_object_is_refused(self) -> None:
        from ._registry import get_plugin_manager

        foreign = self.foreign_object()
        hook = get_plugin_manager().hook.standard_tool_adopt
        impls = [i for i in hook.get_hookimpls() if i.plugin_name == self.target]
        assert impls, f"no adopt hook registered under {self.target!r}"
        assert all(impl.function(obj=foreign) is None for impl in impls)
        with pytest.raises(UnsupportedObjectError):
            adopt(foreign)

    def test_unknown_target_lists_installed(self) -> None:
        from .exceptions import UnknownTargetError

        with pytest.raises(UnknownTargetError) as raised:
            convert(sample_tools()["add"], to="no-such-target")
        assert self.target in raised.value.installed


def outcome_from_json_text(text: str, is_error: bool) -> NativeOutcome:
    """A :class:`NativeOutcome` from a framework's text result (JSON if it parses)."""
    if is_error:
        return NativeOutcome(error=text)
    try:
        return NativeOutcome(value=json.loads(text))
    except (TypeError, ValueError):
        return NativeOutcome(value=text)
