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
from ..run._accepted import raised
from ..run._call import Accepting, _check_output as check_result
from ..schema._json import (
    BUDGET,
    MAX_INT,
    MIN_INT,
    SCALARS,
    TOO_DEEP,
    broken,
    json_issues,
    plain,
    plain_container,
)
from ..schema._schema import JsonSchema, PydanticSchema, issues_from_pydantic

__all__ = [
    "Checker",
    "checked_executor",
    "checker",
    "exact_output",
    "executor",
    "keywords_validator",
    "read_checker",
    "split_execute",
]

Checker = Callable[[Any], Any]
_SCALAR_TYPES = (int, float, str, bool)
"""Types pydantic validates a value of exactly that type to the value itself."""
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


def read_checker(schema: StandardSchema) -> Checker:
    """The quick input check of a value known to be JSON data (read from JSON text so, see
    :func:`~._json.read_object`): the schema alone, no walk first. It returns the accepted
    value, or raises (whatever the schema raises): the tool's checker then says why."""
    if isinstance(schema, PydanticSchema):
        validate_python: Checker = schema.validator.validate_python
        return validate_python
    if isinstance(schema, JsonSchema):
        is_valid: Callable[[Any], bool] | None = None  # compiled on first use

        def check_json_schema_read(value: Any) -> Any:
            nonlocal is_valid
            if is_valid is None:
                is_valid = schema._validator.is_valid
            if is_valid(value):
                return value
            raise ValueError("refused")  # the checker says why

        return check_json_schema_read
    validate = schema.validate

    def check_read(value: Any) -> Any:
        result = validate(value)
        if result.issues is not None:
            raise ValueError("refused")  # the checker says why
        return result.value

    return check_read


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


def exact_output(schema: StandardSchema | None) -> type | None:
    """The type whose values an output checker of ``schema`` returns as they are, unchecked
    (a pydantic ``int``, ``float``, ``str`` or ``bool``), or ``None``."""
    if isinstance(schema, PydanticSchema) and schema.type in _SCALAR_TYPES:
        kind: type = schema.type
        return kind
    return None


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

    exact = exact_output(schema) if target == "output" else None
    if exact is not None:

        def check_scalar(value: Any) -> Any:  # the value pydantic would return
            return value if type(value) is exact else check_pydantic(value)

        return check_scalar
    if target == "output":  # a validated Python value: call() checks that it serializes to JSON
        return check_pydantic

    low, high = MIN_INT, MAX_INT  # read from the closure, faster than globals

    def check_pydantic_input(value: Any) -> Any:
        if type(value) is dict:
            for key, item in value.items():
                kind = type(item)
                if (
                    type(key) is not str
                    or (not key.isascii() and broken(key))
                    or (
                        (kind is str and not item.isascii() and broken(item))
                        or (kind is int and not low < item < high)
                        if kind in SCALARS
                        else kind is not float or item - item
                    )
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


def split_execute(
    tool: Any,
    function: Callable[..., Any],
    input_schema: StandardSchema,
    check_input: Checker,
    output_schema: StandardSchema | None,
    check_output: Checker | None,
    takes_context: bool,
    to_arguments: Callable[[Any], tuple[tuple[Any, ...], dict[str, Any]]] | None,
    is_async: bool,
    *,
    keywords: bool,
) -> Accepting:
    """``execute`` of ``tool`` in two halves (see :class:`~standard_tool.run._call.Accepting`).

    ``keywords``: the function takes each field of its arguments model as a keyword; the
    accepted value is then the dict of those fields, which a value read from JSON text is
    validated to directly (:func:`keywords_validator`), without building the model."""
    run = checked_executor(
        tool,
        function,
        check_output,
        takes_context,
        to_arguments,
        is_async,
        keywords=keywords,
        exact_output=exact_output(output_schema),
    )
    if not keywords or not isinstance(input_schema, PydanticSchema):
        return Accepting(check_input, read_checker(input_schema), run, is_async)

    def check_keywords(value: Any) -> Any:
        return check_input(value).__dict__

    read = keywords_validator(input_schema)
    if read is None:
        validate_python = input_schema.validator.validate_python

        def read_keywords(value: Any) -> Any:
            return validate_python(value).__dict__

        read = read_keywords
    return Accepting(check_keywords, read, run, is_async)


def keywords_validator(schema: PydanticSchema) -> Checker | None:
    """A validator of a value for the arguments model ``schema`` straight to the dict of its
    fields (what the model's ``__dict__`` would hold), several times faster than building
    the model: pydantic-core's ``typed-dict`` schema made of the model's own field schemas,
    extra keys forbidden. ``None`` for a model that is not a plain one (its own
    ``__init__``, validators around it, computed fields...); it only ever accepts what the
    model accepts, and a refusal is said by the model's checker."""
    from pydantic_core import SchemaValidator

    model = getattr(schema.type, "__pydantic_core_schema__", None)
    if not isinstance(model, dict):
        return None
    definitions = None
    if model.get("type") == "definitions":
        definitions, model = model.get("definitions"), model.get("schema")
    if (
        not isinstance(model, dict)
        or model.get("type") != "model"
        or model.get("custom_init")
        or model.get("root_model")
        or model.get("post_init")
        or (model.get("config") or {}).get("extra_fields_behavior") != "forbid"
    ):
        return None
    inner = model.get("schema")
    if (
        not isinstance(inner, dict)
        or inner.get("type") != "model-fields"
        or inner.get("computed_fields")
        or inner.get("extras_schema")
        or inner.get("extras_keys_schema")
    ):
        return None
    fields = {}
    for name, field in inner["fields"].items():
        if field.get("type") != "model-field" or field.get("frozen"):
            return None
        fields[name] = {
            "type": "typed-dict-field",
            "schema": field["schema"],
            "required": field["schema"].get("type") != "default",
            **{key: field[key] for key in ("validation_alias", "metadata") if key in field},
        }
    typed: dict[str, Any] = {
        "type": "typed-dict",
        "fields": fields,
        "extra_behavior": "forbid",
        "config": model.get("config"),
    }
    if definitions is not None:
        typed = {"type": "definitions", "schema": typed, "definitions": definitions}
    try:
        validate_python: Checker = SchemaValidator(typed).validate_python
    except Exception:  # a schema pydantic-core does not take so: the model's check serves
        return None
    return validate_python


def checked_executor(
    tool: Any,
    function: Callable[..., Any],
    check_output: Checker | None,
    takes_context: bool,
    to_arguments: Callable[[Any], tuple[tuple[Any, ...], dict[str, Any]]] | None,
    is_async: bool,
    *,
    keywords: bool = False,
    exact_output: type | None = None,
) -> Callable[..., Any]:
    """``execute`` of ``tool`` without its input check: runs the function on a value the
    tool's input checker has just returned (its accepted input) and validates the result as
    ``execute`` does; what adapters that check the input in their framework's validation
    step call, so that a call is checked once (``run._accepted``). ``keywords``: the
    function takes each field of the validated model as a keyword argument, and the value
    is the dict of those (see :func:`split_execute`). ``exact_output``: a result of that exact type is what
    ``check_output`` returns for it (see ``_SCALAR_TYPES``), and is not passed to it.

    An async one is also the whole :func:`~standard_tool.acall` of an accepted input with no
    time limit, in one coroutine: the result held to JSON data, anything raised a typed
    error as ``acall`` makes it (``raised``)."""
    if is_async:
        low, high = MIN_INT, MAX_INT  # read from the closure, faster than globals

        async def run_async(value: Any, context: Any = None) -> Any:
            try:
                if keywords:
                    if takes_context:
                        result = await function(**value, context=context)
                    else:
                        result = await function(**value)
                elif to_arguments is None:
                    result = await (function(value, context) if takes_context else function(value))
                else:
                    args, kwargs = to_arguments(value)
                    if takes_context:
                        kwargs["context"] = context
                    result = await function(*args, **kwargs)
                kind = type(result)
                if check_output is not None and kind is not exact_output:
                    result = check_output(result)
                    kind = type(result)
                if (
                    kind not in SCALARS
                    or (kind is str and not result.isascii())
                    or (kind is int and not low < result < high)
                ):
                    check_result(tool, result)
                return result
            except BaseException as exc:
                error = raised(tool, exc, context)
                if error is None:
                    raise
                raise error from error.__cause__

        return run_async

    if keywords:

        def run_keywords(value: Any, context: Any = None) -> Any:
            if takes_context:
                result = function(**value, context=context)
            else:
                result = function(**value)
            return result if check_output is None else check_output(result)

        return run_keywords

    if to_arguments is None:

        def run(value: Any, context: Any = None) -> Any:
            result = function(value, context) if takes_context else function(value)
            return result if check_output is None else check_output(result)

        return run

    def run_function(value: Any, context: Any = None) -> Any:
        args, kwargs = to_arguments(value)
        if takes_context:
            kwargs["context"] = context
        result = function(*args, **kwargs)
        return result if check_output is None else check_output(result)

    return run_function


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
    low, high = MIN_INT, MAX_INT  # read from the closure, faster than globals

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
                        if kind is str:
                            if not item.isascii() and broken(item):
                                break
                        elif kind is int and not low < item < high:
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
