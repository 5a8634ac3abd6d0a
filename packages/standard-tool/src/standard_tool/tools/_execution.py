"""How a :class:`~standard_tool.Tool` validates and runs: its checkers and its ``execute``.

A checker returns the validated value or raises :class:`ToolValidationError`. Input must be
JSON data whatever the schema (a model sends JSON); a raw JSON Schema holds output to that
too, and :func:`~standard_tool.call` checks that any output serializes to JSON.

Each checker tries a fast path first and walks the whole value, naming every issue, only
when that fails. For a raw JSON Schema the fast path is :func:`~._json.plain` (exact JSON
types at every depth) and then jsonschema-rs's ``is_valid``. The walk cannot be left to
jsonschema-rs: where a schema types a value, jsonschema-rs refuses a set, bytes or an
object, but it reads an enum member as its value and a ``Decimal`` as a number, and it
does not look where the schema does not (extra properties, untyped positions). Walking
first also bounds the depth jsonschema-rs goes to, whatever ``$ref`` the schema has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from .._protocols import StandardSchema
from ..exceptions import ToolValidationError
from ..schema._json import BUDGET, SCALARS, TOO_DEEP, broken, json_issues, plain, plain_container
from ..schema._schema import JsonSchema, PydanticSchema, issues_from_pydantic

__all__ = ["Checker", "checker", "executor"]

Checker = Callable[[Any], Any]
Target = Literal["input", "output"]


def checker(schema: StandardSchema, tool: str, target: Target) -> Checker:
    """The checker of ``tool``'s ``target`` against ``schema``."""
    if isinstance(schema, JsonSchema):
        return _json_schema_checker(schema, tool, target)
    if isinstance(schema, PydanticSchema):
        return _pydantic_checker(schema, tool, target)
    validate = schema.validate

    def check(value: Any) -> Any:
        if target == "input":
            issues = json_issues(value)
            if issues is not None:
                raise ToolValidationError(tool, target, issues)
        result = validate(value)
        if result.issues is not None:
            raise ToolValidationError(tool, target, result.issues)
        return result.value

    return check


def _json_schema_checker(schema: JsonSchema, tool: str, target: Target) -> Checker:
    find_issues = schema.issues
    is_valid: Callable[[Any], bool] | None = None  # compiled on first use

    def check_json_schema(value: Any) -> Any:
        nonlocal is_valid
        if plain(value):
            if is_valid is None:
                is_valid = schema._validator.is_valid
            try:
                if is_valid(value):
                    return value
            except ValueError:  # not expected after the walk: the full check says why
                pass
        issues = find_issues(value)  # the walk again, naming every issue, then the schema
        if issues is not None:
            raise ToolValidationError(tool, target, issues)
        return value

    return check_json_schema


def _pydantic_checker(schema: PydanticSchema, tool: str, target: Target) -> Checker:
    from pydantic import ValidationError

    validate_python = schema.validator.validate_python

    def check_pydantic(value: Any) -> Any:
        try:
            return validate_python(value)
        except ValidationError as exc:
            raise ToolValidationError(tool, target, issues_from_pydantic(exc, target)) from None
        except RecursionError:
            raise ToolValidationError(tool, target, TOO_DEEP) from None

    if target == "output":  # a validated Python value: call() checks that it serializes to JSON
        return check_pydantic

    def check_pydantic_input(value: Any) -> Any:
        if type(value) is dict:
            for key, item in value.items():
                kind = type(item)
                if (
                    type(key) is not str
                    or (kind not in SCALARS and (kind is not float or item - item))
                    or (not key.isascii() and broken(key))
                    or (kind is str and not item.isascii() and broken(item))
                ):
                    break
            else:
                return check_pydantic(value)
        issues = json_issues(value)
        if issues is not None:
            raise ToolValidationError(tool, target, issues)
        return check_pydantic(value)

    return check_pydantic_input


def executor(
    function: Callable[..., Any],
    check_input: Checker,
    check_output: Checker | None,
    takes_context: bool,
    to_arguments: Callable[[Any], tuple[tuple[Any, ...], dict[str, Any]]] | None,
    is_async: bool,
    input_schema: StandardSchema | None = None,
) -> Callable[..., Any]:
    """A tool's ``execute``: validate the input, run the function, validate its result.

    A closure over what it needs, so a call costs little more than the checks themselves.
    For a raw JSON Schema input (``input_schema``) the input's fast path is inlined.
    """
    if isinstance(input_schema, JsonSchema) and to_arguments is None and not is_async:
        return _json_schema_executor(
            function, input_schema, check_input, check_output, takes_context
        )
    if to_arguments is None:
        if is_async:

            async def execute_async(input: Any, context: Any = None) -> Any:
                value = check_input(input)
                result = await (function(value, context) if takes_context else function(value))
                return result if check_output is None else check_output(result)

            return execute_async

        if check_output is None and takes_context:  # the common shapes, without branches

            def execute_with_context(input: Any, context: Any = None) -> Any:
                return function(check_input(input), context)

            return execute_with_context
        if check_output is None:

            def execute_plain(input: Any, context: Any = None) -> Any:
                return function(check_input(input))

            return execute_plain

        def execute(input: Any, context: Any = None) -> Any:
            value = check_input(input)
            result = function(value, context) if takes_context else function(value)
            return check_output(result)

        return execute

    def arguments(input: Any, context: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args, kwargs = to_arguments(check_input(input))
        if takes_context:
            kwargs["context"] = context
        return args, kwargs

    if is_async:

        async def execute_function_async(input: Any, context: Any = None) -> Any:
            args, kwargs = arguments(input, context)
            result = await function(*args, **kwargs)
            return result if check_output is None else check_output(result)

        return execute_function_async

    def execute_function(input: Any, context: Any = None) -> Any:
        args, kwargs = arguments(input, context)
        result = function(*args, **kwargs)
        return result if check_output is None else check_output(result)

    return execute_function


def _json_schema_executor(
    function: Callable[..., Any],
    schema: JsonSchema,
    check_input: Checker,
    check_output: Checker | None,
    takes_context: bool,
) -> Callable[..., Any]:
    """``execute`` of a sync tool with a raw JSON Schema input: the checker's fast path
    (:func:`_json_schema_checker`) inline, so a valid input costs one frame less."""
    is_valid: Callable[[Any], bool] | None = None  # compiled on first use

    def execute_json(input: Any, context: Any = None) -> Any:
        nonlocal is_valid
        valid = False
        if type(input) is dict:  # plain(input), its top level inline
            budget = BUDGET - 1
            try:
                for key, item in input.items():
                    if type(key) is not str or (not key.isascii() and broken(key)):
                        break
                    kind = type(item)
                    if kind in SCALARS:
                        if kind is str and not item.isascii() and broken(item):
                            break
                        continue
                    if kind is float:
                        if item - item:
                            break
                    elif kind is dict or kind is list:
                        budget = plain_container(item, 1, budget)
                        if budget < 0:
                            break
                    else:
                        break
                else:
                    valid = True
            except RecursionError:
                pass
        else:
            valid = plain(input)
        if valid:
            if is_valid is None:
                is_valid = schema._validator.is_valid
            try:
                valid = is_valid(input)
            except ValueError:
                pass
        value = input if valid else check_input(input)  # which names the issues
        result = function(value, context) if takes_context else function(value)
        return result if check_output is None else check_output(result)

    return execute_json
