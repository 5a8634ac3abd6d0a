"""Write a tool once, use it in every agent framework."""

from ._protocols import JsonSchemaTarget, Result, StandardSchema, StandardTool, TargetInfo
from .exceptions import (
    Issue,
    StandardToolError,
    ToolExecutionError,
    ToolTimeoutError,
    ToolValidationError,
    UnknownTargetError,
    UnsupportedObjectError,
    UnsupportedToolError,
    UsageError,
)
from .registry import adopt, convert, targets
from .run._call import acall, background_loop, blocked_loop, call, run_sync
from .run._report import (
    LOG_LEVELS,
    LogLevel,
    Reporter,
    current_reporter,
    report_log,
    report_progress,
    reporting,
)
from .schema._schema import JsonSchema, PydanticSchema, as_schema, jsonable
from .tools._formatted import with_formatted_output
from .tools._json_schemas import input_json_schema, output_json_schema
from .tools._tool import Tool, tool

__all__ = [
    "Issue",
    "JsonSchema",
    "JsonSchemaTarget",
    "LOG_LEVELS",
    "LogLevel",
    "PydanticSchema",
    "Reporter",
    "Result",
    "StandardSchema",
    "StandardTool",
    "StandardToolError",
    "TargetInfo",
    "Tool",
    "ToolExecutionError",
    "ToolTimeoutError",
    "ToolValidationError",
    "UnknownTargetError",
    "UnsupportedObjectError",
    "UnsupportedToolError",
    "UsageError",
    "acall",
    "adopt",
    "as_schema",
    "background_loop",
    "blocked_loop",
    "call",
    "convert",
    "current_reporter",
    "input_json_schema",
    "jsonable",
    "output_json_schema",
    "report_log",
    "report_progress",
    "reporting",
    "run_sync",
    "targets",
    "tool",
    "with_formatted_output",
]
