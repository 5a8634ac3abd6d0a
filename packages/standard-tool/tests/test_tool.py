"""Tools built from functions and from explicit fields: schemas, validation, execution."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field, computed_field
from typing_extensions import TypedDict

import standard_tool as st
from standard_tool import Tool, ToolValidationError, input_json_schema, output_json_schema, tool
from standard_tool.exceptions import UsageError


class Point(BaseModel):
    x: int
    y: int = 0


def test_function_tool_schema_and_docstring() -> None:
    @tool
    def move(point: Point, steps: Annotated[int, Field(ge=1)] = 1, context: Any = None) -> Point:
        """Move a point.

        Longer explanation.

        Args:
            point: Where to start.
            steps: How far to go.
        """
        return Point(x=point.x + steps, y=point.y)

    assert move.name == "move"
    assert move.description == "Move a point.\n\nLonger explanation."
    assert input_json_schema(move) == {
        "type": "object",
        "properties": {
            "point": {"$ref": "#/$defs/Point", "description": "Where to start."},
            "steps": {
                "type": "integer",
                "minimum": 1,
                "default": 1,
                "description": "How far to go.",
            },
        },
        "required": ["point"],
        "additionalProperties": False,
        "$defs": {
            "Point": {
                "type": "object",
                "title": "Point",
                "properties": {"x": {"type": "integer"}, "y": {"type": "integer", "default": 0}},
                "required": ["x"],
            }
        },
    }
    assert output_json_schema(move) == input_json_schema(move)["$defs"]["Point"]
    assert move.execute({"point": {"x": 1}, "steps": 2}) == Point(x=3, y=0)


@pytest.mark.parametrize(
    "style",
    [
        '"""Sum.\n\n    Args:\n        a: First.\n        b: Second.\n    """',
        '"""Sum.\n\n    Parameters\n    ----------\n    a : int\n        First.\n    b : int\n        Second.\n    """',
        '"""Sum.\n\n    :param a: First.\n    :param b: Second.\n    """',
    ],
    ids=["google", "numpy", "sphinx"],
)
def test_docstring_styles(style: str) -> None:
    namespace: dict[str, Any] = {}
    exec(f"def total(a: int, b: int) -> int:\n    {style}\n    return a + b", namespace)
    schema = input_json_schema(tool(namespace["total"]))
    assert tool(namespace["total"]).description == "Sum."
    assert schema["properties"]["a"]["description"] == "First."
    assert schema["properties"]["b"]["description"] == "Second."


def test_decorator_options_and_plain_call() -> None:
    @tool(name="renamed", title="Nice title", description="Custom.", meta={"destructive": True})
    def f(a: int) -> int:
        """F."""
        return a * 2

    assert (f.name, f.title, f.description, dict(f.meta)) == (
        "renamed",
        "Nice title",
        "Custom.",
        {"destructive": True},
    )
    assert f(4) == 8  # still a function
    with pytest.raises(TypeError):
        f.meta["x"] = 1  # type: ignore[index]


def test_context_is_passed_not_validated_not_in_schema() -> None:
    seen = []

    @tool
    def f(a: int, context: Any) -> int:
        """F."""
        seen.append(context)
        return a

    marker = object()
    assert "context" not in input_json_schema(f)["properties"]
    assert f.execute({"a": 1}, marker) == 1 and seen == [marker]
    with pytest.raises(ToolValidationError):
        f.execute({"a": 1, "context": "x"})


@pytest.mark.parametrize(
    ("value", "fields"),
    [
        ("not a dict", ("<root>",)),
        ([1, 2], ("<root>",)),
        (None, ("<root>",)),
        ({"a": "x", "b": 1}, ("a",)),
        ({"a": 1}, ("b",)),
        ({"a": 1, "b": 2, "c": 3}, ("c",)),
        ({"a": [1], "b": {}}, ("a", "b")),
    ],
    ids=["str", "list", "none", "wrong-type", "missing", "extra", "two-wrong"],
)
def test_invalid_input_names_tool_and_fields(value: Any, fields: tuple[str, ...]) -> None:
    calls = []

    @tool
    def add(a: int, b: int) -> int:
        """Add."""
        calls.append((a, b))
        return a + b

    with pytest.raises(ToolValidationError) as raised:
        add.execute(value)
    error = raised.value
    assert (error.tool, error.target, error.fields) == ("add", "input", fields)
    assert "add" in str(error) and all(field in str(error) for field in fields)
    assert calls == []  # the function never ran


def test_invalid_output_raises_output_error() -> None:
    @tool
    def bad() -> int:
        """Bad."""
        return "not a number"  # type: ignore[return-value]

    with pytest.raises(ToolValidationError) as raised:
        bad.execute({})
    assert raised.value.target == "output" and raised.value.tool == "bad"


def test_function_that_raises_propagates_from_execute() -> None:
    @tool
    def boom() -> None:
        """Boom."""
        raise KeyError("missing thing")

    with pytest.raises(KeyError):
        boom.execute({})


def test_async_function_tool() -> None:
    @tool
    async def double(n: int) -> int:
        """Double."""
        await asyncio.sleep(0)
        return n * 2

    assert inspect.iscoroutinefunction(double.execute)
    assert asyncio.run(double.execute({"n": 4})) == 8
    with pytest.raises(ToolValidationError):
        asyncio.run(double.execute({"n": "four"}))


def test_argument_names_pydantic_reserves() -> None:
    @tool
    def f(json: str, schema: int, model_config: bool = False) -> str:
        """F."""
        return f"{json}-{schema}-{model_config}"

    assert set(input_json_schema(f)["properties"]) == {"json", "schema", "model_config"}
    assert f.execute({"json": "j", "schema": 2}) == "j-2-False"
    with pytest.raises(ToolValidationError) as raised:
        f.execute({"json": "j"})
    assert raised.value.fields == ("schema",)


def test_positional_only_parameters() -> None:
    @tool
    def f(a: int, /, b: int) -> int:
        """F."""
        return a - b

    assert f.execute({"a": 5, "b": 2}) == 3


@pytest.mark.parametrize(
    "source", ["def f(*args: int) -> int: ...", "def f(**kw: int) -> int: ..."]
)
def test_variadic_parameters_are_refused(source: str) -> None:
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    with pytest.raises(UsageError, match="variadic"):
        tool(namespace["f"])


def test_explicit_tool_with_raw_schema() -> None:
    received = []

    def run(input: dict[str, Any], context: Any = None) -> dict[str, Any]:
        received.append((input, context))
        return {"n": input["n"] + 1}

    t = Tool(
        name="inc",
        description="Increment.",
        input_schema={
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
        },
        output_schema={
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
        },
        execute=run,
    )
    assert t.execute({"n": 1}, "ctx") == {"n": 2} and received == [({"n": 1}, "ctx")]
    with pytest.raises(ToolValidationError, match="n"):
        t.execute({"n": "1"})  # JSON Schema: no coercion
    assert output_json_schema(t) == {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "required": ["n"],
    }


def test_explicit_tool_without_input_schema() -> None:
    t = Tool(name="ping", description="Ping.", execute=lambda input: "pong")
    assert input_json_schema(t) == {"type": "object", "properties": {}}
    assert t.execute({}) == "pong"
    with pytest.raises(ToolValidationError):
        t.execute("not an object")


def test_explicit_tool_output_checked() -> None:
    t = Tool(name="t", description="d", output_schema=int, execute=lambda input: "x")
    with pytest.raises(ToolValidationError) as raised:
        t.execute({})
    assert raised.value.target == "output"


@pytest.mark.parametrize("name", ["", "   ", 3, "tab\tname", "x" * 300])
def test_bad_names_are_refused(name: Any) -> None:
    with pytest.raises(UsageError):
        Tool(name=name, description="d", execute=lambda input: None)


def test_input_and_output_schemas_differ_for_transforming_types() -> None:
    class Money(BaseModel):
        cents: int

        @computed_field  # type: ignore[prop-decorator]
        @property
        def euros(self) -> float:
            return self.cents / 100

    @tool
    def pay(amount: Money) -> Money:
        """Pay."""
        return amount

    assert "euros" not in input_json_schema(pay)["$defs"]["Money"]["properties"]
    output = output_json_schema(pay)
    assert output is not None and "euros" in output["properties"]
    assert pay.execute({"amount": {"cents": 250}}).euros == 2.5
    assert st.jsonable(pay.execute({"amount": {"cents": 250}})) == {"cents": 250, "euros": 2.5}


def test_typed_dict_and_dataclass_arguments() -> None:
    class Options(TypedDict):
        verbose: bool

    @dataclasses.dataclass
    class Box:
        size: int

    @tool
    def f(options: Options, box: Box) -> int:
        """F."""
        return box.size if options["verbose"] else 0

    assert f.execute({"options": {"verbose": True}, "box": {"size": 3}}) == 3


def test_standard_tool_protocol_accepts_plain_objects() -> None:
    from types import SimpleNamespace

    ns = SimpleNamespace(
        name="n",
        title=None,
        description="d",
        input_schema=None,
        output_schema=None,
        meta={},
        execute=lambda input, context=None: 1,
    )
    assert isinstance(ns, st.StandardTool)
    assert isinstance(tool(lambda: 1, description="One."), st.StandardTool)
    assert isinstance(Tool(name="x", description="d", execute=lambda i: i), st.StandardTool)


def test_async_callable_object_as_execute() -> None:
    class Runner:
        async def __call__(self, input: Any, context: Any = None) -> Any:
            return input["v"]

    t = Tool(name="obj", description="d", input_schema={"type": "object"}, execute=Runner())
    assert inspect.iscoroutinefunction(t.execute)
    assert st.call(t, {"v": 1}) == 1


def test_any_or_missing_return_declares_no_output_schema() -> None:
    def untyped(a: int):  # type: ignore[no-untyped-def]
        """Untyped."""
        return a

    def anything(a: int) -> Any:
        """Anything."""
        return a

    assert tool(untyped).output_schema is None and tool(anything).output_schema is None
    assert output_json_schema(tool(anything)) is None
    with pytest.warns(UserWarning, match="no type for its parameter 'a'"):
        untyped_lambda = tool(lambda a: None, description="Nothing.")
    assert output_json_schema(untyped_lambda) is None


def test_output_errors_read_as_output() -> None:
    class Point(BaseModel):
        x: int

    @tool
    def count() -> int:
        """Count."""
        return "many"  # type: ignore[return-value]

    @tool
    def where() -> Point:
        """Where."""
        return {"x": "far"}  # type: ignore[return-value]

    with pytest.raises(ToolValidationError) as raised:
        count.execute({})
    assert str(raised.value) == (
        "Invalid output for tool 'count' (1 issue):\n"
        "  - <root>: Output should be a valid integer, unable to parse string as an integer"
    )
    with pytest.raises(ToolValidationError) as raised:
        where.execute({})
    assert "x: Output should be a valid integer" in str(raised.value)
    assert "Input should" not in str(raised.value) and "far" not in str(raised.value)


def test_input_errors_still_read_as_input() -> None:
    @tool
    def count(n: int) -> int:
        """Count."""
        return n

    with pytest.raises(ToolValidationError, match="n: Input should be a valid integer"):
        count.execute({"n": "many"})


def test_docstring_args_naming_no_parameter_warn() -> None:
    def search(query: str, limit: int = 10) -> list[str]:
        """Search.

        Args:
            query: What to look for.
            limt: How many results.
            offset: Where to start.
        """
        return []

    with pytest.warns(UserWarning) as record:
        made = tool(search)
    messages = [str(warning.message) for warning in record]
    assert messages == [
        "tool 'search': the docstring describes 'limt', 'offset', which are not parameters"
    ]
    assert record[0].filename == __file__
    assert made.input_schema is not None


def test_a_function_with_untyped_parameters_or_no_docstring_warns_naming_what_is_missing() -> None:
    def bare(x, y: int, z=3, context=None):  # type: ignore[no-untyped-def]
        return x

    with pytest.warns(UserWarning) as record:
        made = tool(bare)
    assert [str(warning.message) for warning in record] == [
        "tool 'bare': function 'bare' has no type for its parameters 'x', 'z' (the model is "
        "told any value will do) and no docstring (the tool has no description): annotate "
        "them, and write a docstring or pass description="
    ]
    assert record[0].filename == __file__
    assert made.description == ""

    def typed(n: int) -> int:
        return n

    with pytest.warns(UserWarning) as record:
        st.adopt(typed)  # a function adopted as it is, too
    assert [str(warning.message) for warning in record] == [
        "tool 'typed': function 'typed' has no docstring (the tool has no description): "
        "write a docstring or pass description="
    ]
    assert record[0].filename == __file__

    def documented(n):  # type: ignore[no-untyped-def]
        """Documented."""
        return n

    with pytest.warns(UserWarning, match=r"parameter 'n' \(the model") as record:
        tool(documented, name="d")
    assert "docstring" not in str(record[0].message)


def test_a_typed_and_described_function_does_not_warn() -> None:
    def typed(n: int, context: Any = None) -> int:
        return n

    def nothing() -> None:
        """Do nothing."""

    assert tool(typed, description="Given here.").description == "Given here."
    assert tool(nothing).description == "Do nothing."
    assert st.Tool(name="t", description="", execute=lambda input: input).description == ""


def test_docstring_describing_context_or_every_parameter_does_not_warn() -> None:
    import warnings

    def f(a: int, context: Any = None) -> int:
        """F.

        Args:
            a: A.
            context: The per-call context.
        """
        return a

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tool(f)


def test_a_description_given_in_annotated_is_kept_beside_docstring_ones() -> None:
    @st.tool
    def pay(
        account: Annotated[str, Field(description="The account to debit.")],
        cents: Annotated[int, Field(ge=1, description="Overridden by the docstring.")] = 1,
    ) -> str:
        """Pay.

        Args:
            cents: How much, in cents.
        """
        return account

    properties = st.input_json_schema(pay)["properties"]
    assert properties["account"] == {"description": "The account to debit.", "type": "string"}
    assert properties["cents"]["description"] == "How much, in cents."
    assert properties["cents"]["minimum"] == 1
