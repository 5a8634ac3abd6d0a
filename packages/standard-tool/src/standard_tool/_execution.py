"""How a :class:`~standard_tool.Tool` validates and runs: its checkers and its ``execute``.

A checker returns the validated value or raises :class:`ToolValidationError`. Input must be
JSON data whatever the schema (a model sends JSON); a raw JSON Schema holds output to that
too, and :func:`~standard_tool.call` checks that any output serializes to JSON. Each
checker tries a fast path first (a flat dict; for a raw schema, jsonschema-rs and the few
checks it leaves, see ``_plans``) and walks the whole value, naming every issue, only when
that fails.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from ._json import SCALARS, TOO_DEEP, json_issues, plain
from ._plans import Plan, compile_plan, has_references
from ._protocols import StandardSchema
from ._schema import JsonSchema, PydanticSchema, issues_from_pydantic
from .exceptions import ToolValidationError

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
    plan: Plan | None = None

    def check_slowly(value: Any) -> Any:
        issues = find_issues(value)  # the walk, then every issue
        if issues is not None:
            raise ToolValidationError(tool, target, issues)
        return value

    if has_references(schema.schema):  # jsonschema-rs may go as deep as the value: walk first

        def check_walked(value: Any) -> Any:
            nonlocal is_valid
            if plain(value):
                if is_valid is None:
                    is_valid = schema._validator.is_valid
                if is_valid(value):
                    return value
            return check_slowly(value)

        return check_walked

    def check_planned(value: Any) -> Any:  # jsonschema-rs first, then what it left unchecked
        nonlocal is_valid, plan
        if is_valid is None:
            is_valid, plan = schema._validator.is_valid, compile_plan(schema.schema)
        try:
            if is_valid(value) and (plan is None or plan(value, 0)):
                return value
        except ValueError:  # not JSON data where jsonschema-rs looked
            pass
        return check_slowly(value)

    return check_planned


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
                if type(key) is not str or (
                    kind not in SCALARS and (kind is not float or item - item)
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
) -> Callable[..., Any]:
    """A tool's ``execute``: validate the input, run the function, validate its result.

    A closure over what it needs, so a call costs little more than the checks themselves.
    """
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
