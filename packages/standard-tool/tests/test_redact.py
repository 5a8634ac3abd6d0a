"""A failed call's model-facing message never quotes a value of the per-call context."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import pickle
from collections.abc import Iterator, Mapping
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, SecretStr

import standard_tool as st
from standard_tool.adapters import WrapperTool
from standard_tool.boundary import Decision, Gate
from standard_tool.exceptions import (
    Issue,
    StandardToolError,
    ToolExecutionError,
    ToolRefusedError,
    ToolValidationError,
    UsageError,
)
from standard_tool.providers import arun_tool_calls, run_tool_calls

TOKEN = "s3cr3t-7f2a9c"
MARKER = "[context value]"


@st.tool
def parse_token(label: str, context: Any = None) -> int:
    """Read the token as a number (which it is not)."""
    return int(context["token"])


@st.tool
async def aparse_token(label: str, context: Any = None) -> int:
    """Read the token as a number, asynchronously."""
    await asyncio.sleep(0)
    return int(context["token"])


@st.tool
def echo_context(label: str, context: Any = None) -> None:
    """Fail, quoting the context as its repr and as JSON."""
    raise ValueError(f"{label}: {context!r} / {json.dumps(context, default=repr)}")


def failure(tool: Any, context: Any, arguments: Any = None) -> StandardToolError:
    with pytest.raises(StandardToolError) as caught:
        st.call(tool, {"label": "x"} if arguments is None else arguments, context)
    return caught.value


def execution_failure(tool: Any, context: Any) -> ToolExecutionError:
    error = failure(tool, context)
    assert type(error) is ToolExecutionError, error
    return error


async def afailure(tool: Any, context: Any, arguments: Any = None) -> StandardToolError:
    with pytest.raises(StandardToolError) as caught:
        await st.acall(tool, {"label": "x"} if arguments is None else arguments, context)
    return caught.value


# -- the tool's own exception ----------------------------------------------------------------


@pytest.mark.parametrize("tool", [parse_token, aparse_token], ids=["sync", "async"])
def test_call_redacts_the_token_quoted_by_the_tool(tool: st.Tool) -> None:
    error = failure(tool, {"token": TOKEN})
    assert isinstance(error, ToolExecutionError)
    assert str(error) == (
        f"Tool {tool.name!r} failed: ValueError: invalid literal for int() with base 10: '{MARKER}'"
    )
    assert error.tool == tool.name and TOKEN not in error.message
    assert isinstance(error.__cause__, ValueError) and TOKEN in str(error.__cause__)


@pytest.mark.parametrize("tool", [parse_token, aparse_token], ids=["sync", "async"])
async def test_acall_redacts_the_token_quoted_by_the_tool(tool: st.Tool) -> None:
    error = await afailure(tool, {"token": TOKEN})
    assert isinstance(error, ToolExecutionError)
    assert TOKEN not in str(error) and MARKER in str(error)
    assert TOKEN in str(error.__cause__)


async def test_call_inside_a_running_loop_redacts_too() -> None:
    error = failure(aparse_token, {"token": TOKEN})
    assert TOKEN not in str(error) and MARKER in str(error)


def test_a_redacted_error_still_pickles() -> None:
    error = failure(parse_token, {"token": TOKEN})
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and TOKEN not in str(again)


def test_without_a_context_nothing_is_redacted() -> None:
    @st.tool
    def fail(reason: str) -> None:
        """Fail, quoting the reason."""
        raise ValueError(f"cannot: {reason}")

    error = failure(fail, None, {"reason": TOKEN})
    assert str(error) == f"Tool 'fail' failed: ValueError: cannot: {TOKEN}"


def test_values_deep_in_the_context_are_redacted() -> None:
    context = {"auth": [{"kind": "bearer", "token": TOKEN}], "ids": (1, "n0t-a-number")}
    error = failure(echo_context, context)
    text = str(error)
    assert TOKEN not in text and "n0t-a-number" not in text and "bearer" not in text
    assert "'auth'" in text and "'kind'" in text  # keys are names, not values


def test_repr_and_json_escaped_forms_are_redacted() -> None:
    secret = 'it\'s a "quoted"\nsecret \\ é'
    error = failure(echo_context, {"token": secret})
    text = str(error)
    assert repr(secret)[1:-1] in repr({"token": secret})  # the tool's text holds this form
    assert repr(secret)[1:-1] not in text and json.dumps(secret)[1:-1] not in text
    assert "quoted" not in text and text.count(MARKER) == 2


def test_short_strings_and_numbers_stay() -> None:
    context = {"lang": "en", "user": "bob", "port": 8080, "debug": True, "limit": 12345}
    error = failure(echo_context, context)
    text = str(error)
    assert MARKER not in text
    for shown in ("'en'", "'bob'", "8080", "True", "12345"):
        assert shown in text, (shown, text)


def test_long_numbers_are_redacted_as_whole_numbers() -> None:
    @st.tool
    def account(label: str, context: Any = None) -> None:
        """Fail, quoting an account number and longer numbers holding it."""
        number = context["account"]
        raise ValueError(f"no account {number}; ref 9{number}1; rate {context['rate']}")

    error = execution_failure(account, {"account": 12345678, "rate": 0.0421337})
    assert error.message == f"ValueError: no account {MARKER}; ref 9123456781; rate {MARKER}"


def test_bytes_are_redacted() -> None:
    @st.tool
    def read(label: str, context: Any = None) -> None:
        """Fail, quoting bytes."""
        raise ValueError(f"bad key {context['key']!r}")

    error = failure(read, {"key": b"\x00raw-key-bytes"})
    assert "raw-key-bytes" not in str(error) and MARKER in str(error)


# -- objects in the context ------------------------------------------------------------------


@dataclasses.dataclass
class Deps:
    api_key: str
    nested: Any = None


@dataclasses.dataclass(slots=True)
class Slotted:
    password: str
    __hidden: str = "hidden-value"


class Account(BaseModel):
    login: str
    key: SecretStr


def test_the_fields_of_data_objects_are_redacted() -> None:
    account = Account(login="ada-lovelace", key=SecretStr("pk-0123456789"))
    context = SimpleNamespace(deps=Deps("sk-live-abcdef", nested=Slotted("hunter22")), acct=account)

    @st.tool
    def leak(label: str, context: Any = None) -> None:
        """Fail, quoting fields."""
        deps, acct = context.deps, context.acct
        hidden = deps.nested._Slotted__hidden
        key = acct.key.get_secret_value()
        raise ValueError(f"{deps.api_key} {deps.nested.password} {hidden} {acct.login} {key}")

    error = execution_failure(leak, context)
    assert error.message == "ValueError: " + " ".join([MARKER] * 5)


def test_the_field_names_of_a_pydantic_model_stay() -> None:
    @st.tool
    def fail(label: str, context: Any = None) -> None:
        """Fail, naming fields."""
        raise ValueError(f"login and key are wrong for {context.login}")

    error = execution_failure(fail, Account(login="ada-lovelace", key=SecretStr("pk-0123456789")))
    assert error.message == f"ValueError: login and key are wrong for {MARKER}"


def test_other_objects_are_not_entered() -> None:
    class Request:
        def __init__(self) -> None:
            self.scheme = "http"
            self.encoding = "utf-8"

    module = ModuleType("settings")
    module.word = "visible"  # type: ignore[attr-defined]

    @st.tool
    def fail(label: str, context: Any = None) -> None:
        """Fail with words that are no context value."""
        raise ValueError("http://example.test: not utf-8, visible")

    error = execution_failure(fail, {"request": Request(), "module": module, "class": Deps})
    assert error.message == "ValueError: http://example.test: not utf-8, visible"


# -- hostile contexts ------------------------------------------------------------------------


class Hostile:
    """Every method it has raises."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __str__(self) -> str:
        raise RuntimeError("no str")

    def __repr__(self) -> str:
        return "Hostile()"

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError("no attributes")

    @property
    def __dict__(self) -> Any:  # type: ignore[override]
        raise RuntimeError("no dict")

    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        raise RuntimeError("no class")


class BrokenMapping(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("no items")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("no keys")

    def __len__(self) -> int:
        return 1

    def items(self) -> Any:
        raise RuntimeError("no items")

    def values(self) -> Any:
        raise RuntimeError("no values")


class StrangeText(str):
    def __str__(self) -> str:
        raise RuntimeError("no str")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    __hash__ = str.__hash__


class EndlessMapping(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        return TOKEN

    def __iter__(self) -> Iterator[str]:
        while True:
            yield "k"

    def __len__(self) -> int:
        return 10**9

    def values(self) -> Any:
        while True:
            yield TOKEN


@dataclasses.dataclass
class HostileData:
    """A data object whose attribute access and comparisons raise."""

    value: str

    def __getattribute__(self, name: str) -> Any:
        raise RuntimeError("no attributes")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    __hash__ = None  # type: ignore[assignment]


def cycle() -> dict[str, Any]:
    context: dict[str, Any] = {"token": TOKEN}
    context["self"] = context
    context["list"] = [context, [context]]
    return context


@pytest.mark.parametrize(
    "context",
    [
        cycle(),
        {"token": TOKEN, "hostile": Hostile(), "broken": BrokenMapping()},
        {"hostile": [Hostile()] * 5, "token": TOKEN},
        {"token": StrangeText(TOKEN)},
        {"big": 10**5000, "token": TOKEN},
        {"token": TOKEN, "endless": EndlessMapping()},
        {"data": HostileData(TOKEN)},
    ],
    ids=[
        "cycle",
        "hostile-objects",
        "hostile-list",
        "str-subclass",
        "huge-int",
        "endless",
        "hostile-data",
    ],
)
def test_hostile_contexts_never_raise_and_the_token_is_redacted(context: Any) -> None:
    @st.tool
    def parse_token(label: str, context: Any = None) -> int:
        """Read a number that is the token."""
        return int(TOKEN)

    error = failure(parse_token, context)
    assert type(error) is ToolExecutionError
    assert TOKEN not in str(error) and MARKER in str(error)


def test_a_huge_context_is_searched_within_bounds() -> None:
    context = {"token": TOKEN, "rows": [f"row-{i:06d}" for i in range(200_000)]}
    error = failure(parse_token, context)
    assert TOKEN not in str(error)


def test_a_context_deeper_than_the_bound_is_no_error() -> None:
    value: Any = TOKEN
    for _ in range(10_000):
        value = [value]
    error = failure(parse_token, {"deep": value, "token": TOKEN})
    assert isinstance(error, ToolExecutionError) and MARKER in str(error)


# -- what is never redacted ------------------------------------------------------------------


def test_a_context_value_inside_the_tool_name_keeps_the_name_readable() -> None:
    @st.tool
    def lookup_user(label: str, context: Any = None) -> None:
        """Fail, naming the tool and the role."""
        raise ValueError(f"lookup_user cannot act as user {context['role']}")

    error = failure(lookup_user, {"role": "user"})
    assert str(error) == (
        f"Tool 'lookup_user' failed: ValueError: lookup_user cannot act as {MARKER} {MARKER}"
    )


def test_a_secret_holding_the_tool_name_is_redacted_whole() -> None:
    @st.tool
    def lookup(label: str, context: Any = None) -> None:
        """Fail, quoting a secret that starts with the tool's name."""
        raise ValueError(f"bad key {context['key']}")

    error = execution_failure(lookup, {"key": "lookup-key-123"})
    assert error.message == f"ValueError: bad key {MARKER}"


def test_the_type_name_and_the_marker_stay_readable() -> None:
    @st.tool
    def nested_marker(label: str, context: Any = None) -> None:
        """Fail, with the marker and a context value that is part of it."""
        raise ValueError(f"{MARKER} and context value")

    error = execution_failure(nested_marker, {"a": "Value", "b": "context", "c": "value"})
    assert error.message == f"ValueError: {MARKER} and {MARKER} {MARKER}"


def test_a_refusal_keeps_the_request_id_the_caller_gave() -> None:
    """The request id is the caller's own, given back so that it can retry or have the call
    approved: it stays, while other context values in the refusal are redacted."""
    from standard_tool.boundary import Decision, Gate

    gate = Gate(policy=lambda request: Decision.deny("denied", f"not {request.context['token']}"))
    guarded = gate.guard(parse_token)
    with pytest.raises(ToolRefusedError) as refused:
        st.call(guarded, {"label": "x"}, {"request_id": "order-42", "token": TOKEN})
    assert json.loads(str(refused.value)) == {
        "code": "denied",
        "retryable": False,
        "message": f"not {MARKER}",
        "request_id": "order-42",
    }


def test_a_refusal_says_back_the_request_id_the_caller_gave() -> None:
    gate = Gate(policy=lambda request: Decision.deny("not_found", "Unknown customer."))
    guarded = gate.guard(parse_token)
    with pytest.raises(ToolRefusedError) as caught:
        st.call(guarded, {"label": "x"}, {"request_id": "call_42", "token": TOKEN})
    assert caught.value.payload == {
        "code": "not_found",
        "retryable": False,
        "message": "Unknown customer.",
        "request_id": "call_42",
    }
    assert json.loads(str(caught.value))["request_id"] == "call_42"


# -- the project's own errors raised inside a tool -------------------------------------------


@st.tool
def outer(label: str, context: Any = None) -> int:
    """Call ``parse_token`` with the token as its input, and no context."""
    result: int = st.call(inner, {"value": context["token"]})
    return result


@st.tool
def inner(value: str) -> int:
    """Read a number."""
    return int(value)


@pytest.mark.parametrize("runner", ["call", "acall"])
def test_a_nested_calls_error_is_redacted_and_keeps_its_type(runner: str) -> None:
    context = {"token": TOKEN}
    if runner == "call":
        error = failure(outer, context)
    else:
        error = asyncio.run(afailure(outer, context))
    assert type(error) is ToolExecutionError
    assert error.tool == "inner"  # the nested tool's own error, its fields kept
    assert str(error) == (
        f"Tool 'inner' failed: ValueError: invalid literal for int() with base 10: '{MARKER}'"
    )
    cause = error.__cause__
    assert isinstance(cause, ValueError) and TOKEN in str(cause)


def test_a_project_error_quoting_nothing_passes_through_itself() -> None:
    raised = UsageError("the label is wrong")

    @st.tool
    def misuse(label: str, context: Any = None) -> None:
        """Raise a project error."""
        raise raised

    assert failure(misuse, {"token": TOKEN}) is raised


def test_a_project_error_quoting_the_context_keeps_its_type() -> None:
    @st.tool
    def misuse(label: str, context: Any = None) -> None:
        """Raise a project error quoting the token."""
        raise UsageError(f"token {context['token']} is not allowed here")

    error = failure(misuse, {"token": TOKEN})
    assert type(error) is UsageError
    assert str(error) == f"token {MARKER} is not allowed here"
    assert isinstance(error.__cause__, UsageError) and TOKEN in str(error.__cause__)


def test_a_validation_error_quoting_the_context_keeps_its_fields() -> None:
    @st.tool
    def check(label: str, context: Any = None) -> None:
        """Raise a validation error quoting the token."""
        raise ToolValidationError(
            "check", "input", [Issue(f"{context['token']} is expired", ("label",))]
        )

    error = failure(check, {"token": TOKEN})
    assert isinstance(error, ToolValidationError)
    assert (error.tool, error.target, error.fields) == ("check", "input", ("label",))
    assert error.issues == (Issue(f"{MARKER} is expired", ("label",)),)


def test_an_error_that_cannot_be_copied_says_only_its_type() -> None:
    class Odd(StandardToolError):
        def __init__(self, token: str, extra: int) -> None:
            super().__init__(f"odd {token}")

    @st.tool
    def odd(label: str, context: Any = None) -> None:
        """Raise an error that does not rebuild from its args."""
        raise Odd(context["token"], 1)

    error = failure(odd, {"token": TOKEN})
    assert type(error) is ToolExecutionError
    assert str(error) == "Tool 'odd' failed: Odd (its message quotes the context)"
    assert isinstance(error.__cause__, Odd)


# -- every path of the core that makes model-facing text -------------------------------------


def test_run_tool_calls_answers_without_the_token() -> None:
    call = {
        "type": "function_call",
        "call_id": "c1",
        "name": "parse_token",
        "arguments": '{"label": "x"}',
    }
    for answers in (
        run_tool_calls([parse_token], [call], provider="openai", context={"token": TOKEN}),
        asyncio.run(
            arun_tool_calls([parse_token], [call], provider="openai", context={"token": TOKEN})
        ),
    ):
        output = answers[0]["output"]
        assert TOKEN not in output and MARKER in output and "parse_token" in output


def test_formatted_output_holds_no_token() -> None:
    formatted = st.with_formatted_output(parse_token)
    result = st.call(formatted, {"label": "x"}, {"token": TOKEN})
    assert TOKEN not in result["error"] and MARKER in result["error"]


def test_a_wrapper_that_handles_its_own_errors_gets_them_redacted() -> None:
    class Native:
        name = "native"
        description = "A framework's tool."

        def invoke(self, arguments: Any, token: str) -> Any:
            raise LookupError(f"no session for {token}")

    class Adopted(WrapperTool):
        def run(self, input: Any, context: Any) -> Any:
            return self.wrapped.invoke(input, context["token"])

        def translate(self, exc: Exception) -> Exception:
            return ToolExecutionError(self.name, str(exc))

        def handle(self, error: StandardToolError) -> Any:
            return {"failed": str(error)}

    result = st.call(Adopted(Native()), {}, {"token": TOKEN})
    assert result == {"failed": f"Tool 'native' failed: no session for {MARKER}"}


def test_a_refusal_keeps_its_request_id_and_loses_other_context_values() -> None:
    from standard_tool.exceptions import ToolRefusedError

    @st.tool
    def refuse(context: Any = None) -> None:
        """Refuse, quoting the token."""
        raise ToolRefusedError("refuse", "denied", f"no for {TOKEN}", context["request_id"])

    with pytest.raises(ToolRefusedError) as raised:
        st.call(refuse, {}, {"request_id": "order-0042", "token": TOKEN})
    assert raised.value.request_id == "order-0042"
    assert json.loads(str(raised.value)) == {
        "code": "denied",
        "retryable": False,
        "message": f"no for {MARKER}",
        "request_id": "order-0042",
    }


def test_a_refusal_keeps_its_code_and_the_callers_request_id() -> None:
    from standard_tool.exceptions import ToolRefusedError
    from standard_tool.run._redact import redact_error

    context = {"request_id": "req-000123", "mode": "denied", "token": "sk-redact-me-42"}
    error = ToolRefusedError("t", "denied", "No: sk-redact-me-42.", "req-000123")
    redacted = redact_error(error, context, "t")
    assert isinstance(redacted, ToolRefusedError)
    assert redacted.payload == {
        "code": "denied",
        "retryable": False,
        "message": "No: [context value].",
        "request_id": "req-000123",
    }
