"""The public names of every public module, pinned: a name that moves inside the package
stays where users import it from."""

import importlib
import types

import pytest

import standard_tool

PUBLIC: dict[str, list[str]] = {
    "standard_tool": [
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
    ],
    "standard_tool.registry": [
        "ALLOW_ENV",
        "BUILTIN",
        "DISABLE_ENV",
        "ENTRY_POINT_GROUP",
        "KNOWN_PROVIDERS",
        "PluginConflictWarning",
        "PluginHookWarning",
        "PluginLoadWarning",
        "PluginManager",
        "PluginSettingsWarning",
        "PluginWarning",
        "adopt",
        "adopt_tools",
        "convert",
        "get_plugin_manager",
        "isolated_registry",
        "make_plugin_manager",
        "runtime",
        "set_plugin_manager",
        "targets",
    ],
    "standard_tool.providers": [
        "FORMATS",
        "NAME_RULES",
        "PROVIDERS",
        "ParsedCompletion",
        "ToolCall",
        "arun_tool_calls",
        "null_undo",
        "openai_strict_problem",
        "parse_tool_calls",
        "read_tool_calls",
        "run_tool_calls",
        "strict_arguments",
        "to_anthropic",
        "to_gemini",
        "to_hf",
        "to_openai",
    ],
    "standard_tool.checks": [
        "CHECKS",
        "CONTEXT",
        "CheckResult",
        "DESCRIPTIONS",
        "DIRECT",
        "Probe",
        "Status",
        "bounded",
        "check_tool",
        "definition_difference",
        "expected_schema",
        "failed",
        "failures",
        "first_difference",
        "heading",
        "installed_targets",
        "invalid_inputs",
        "legend",
        "one_line",
        "outcomes",
        "probe",
        "running_threads",
        "sample_inputs",
        "skipped",
        "tally",
    ],
    "standard_tool.names": [
        "ANTHROPIC_NAMES",
        "GEMINI_NAMES",
        "HF_NAMES",
        "MCP_NAMES",
        "NameMap",
        "NameRule",
        "OPENAI_NAMES",
        "check_name",
        "sanitize_name",
    ],
    "standard_tool.exceptions": [
        "ConversionError",
        "InputGenerationError",
        "Issue",
        "ModelOutputError",
        "NotJsonError",
        "PinMismatchError",
        "PluginError",
        "REFUSAL_CODES",
        "SchemaNotExpressibleError",
        "ServerError",
        "StandardToolError",
        "StepTimeoutError",
        "StoreError",
        "ToolExecutionError",
        "ToolNameError",
        "ToolRefusedError",
        "ToolTimeoutError",
        "ToolValidationError",
        "UnknownTargetError",
        "UnsupportedObjectError",
        "UnsupportedToolError",
        "UsageError",
    ],
    "standard_tool.adapters": [
        "Accepted",
        "Adapter",
        "BaseRuntime",
        "LARGE_NUMBER",
        "METADATA_KEY",
        "NativeOutcome",
        "Runtime",
        "Stored",
        "WrapperTool",
        "acall_accepted",
        "accepting",
        "accepting_json",
        "adopt_each",
        "as_tools",
        "call_accepted",
        "export_tools",
        "issues_from_pydantic",
        "keyword_functions",
        "lazy_exports",
        "non_object_refusal",
        "pack_metadata",
        "unpack_metadata",
    ],
    "standard_tool.hookspecs": [
        "NativeOutcome",
        "Runtime",
        "TargetInfo",
        "hookimpl",
        "hookspec",
    ],
    "standard_tool.contracts": [
        "DIFF_RULES",
        "Diff",
        "FORMAT",
        "Finding",
        "LINT_RULES",
        "LLAMA_INDEX_DESCRIPTION",
        "NAME_RULES",
        "Pin",
        "declaration",
        "diff_tools",
        "dump_snapshot",
        "lint_tool",
        "lint_tools",
        "load_snapshot",
        "schema_digest",
        "snapshot",
        "tool_digest",
    ],
    "standard_tool.dialects": [
        "ACTIONS",
        "BUILTIN_DIALECTS",
        "Change",
        "Dialect",
        "convert_schema",
        "detect_dialect",
        "dialects",
        "register_dialect",
    ],
    "standard_tool.boundary": [
        "Approval",
        "AuditEvent",
        "Budget",
        "CallRequest",
        "CedarPolicy",
        "Decision",
        "Gate",
        "GuardedTool",
        "JsonlAudit",
        "LoggingAudit",
        "MemoryStore",
        "OpenTelemetryAudit",
        "Receipt",
        "RedisStore",
        "SqliteStore",
        "Store",
        "call_digest",
        "guarded_of",
        "identity_of",
        "legible",
        "record_key",
        "report_effect",
        "with_request_id",
    ],
    "standard_tool.testing": [
        "AdapterContract",
        "AdoptContract",
        "ExportContract",
        "GuardedShop",
        "INVALID_CALLS",
        "LONG_NOTE",
        "NativeOutcome",
        "PackageContract",
        "RecordingReporter",
        "SECRET",
        "SharedStoreContract",
        "StoreContract",
        "VALID_CALLS",
        "assert_same_verdict",
        "clean_registry",
        "outcome_from_json_text",
        "sample_tools",
        "within",
    ],
}
"""Each public module and its ``__all__``."""

SUBPACKAGES = {
    "boundary",
    "checks",
    "contracts",
    "plugins",
    "providers",
    "run",
    "schema",
    "testing",
    "tools",
}
"""The package's folders (``boundary``, ``checks``, ``contracts``, ``providers`` and ``testing``
are public as well)."""


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_a_public_module_exports_exactly_its_pinned_names(module: str) -> None:
    imported = importlib.import_module(module)
    assert sorted(imported.__all__) == PUBLIC[module]  # unchanged, without repeats
    missing = [name for name in imported.__all__ if not hasattr(imported, name)]
    assert missing == []


def test_the_top_level_exports_nothing_beyond_all_but_its_modules() -> None:
    exported = {name for name in dir(standard_tool) if not name.startswith("_")}
    modules = {
        name for name in exported if isinstance(getattr(standard_tool, name), types.ModuleType)
    }
    assert modules <= SUBPACKAGES | {
        "adapters",
        "dialects",
        "exceptions",
        "hookspecs",
        "names",
        "registry",
    }
    assert exported - modules == set(standard_tool.__all__)


def test_the_core_names_are_public() -> None:
    for name in (
        "StandardTool", "Tool", "tool", "call", "acall", "with_formatted_output",
        "ToolValidationError", "input_json_schema", "output_json_schema", "convert", "adopt",
        "targets",
    ):  # fmt: skip
        assert getattr(standard_tool, name).__module__.startswith("standard_tool")


def test_importing_the_package_gives_the_modules_it_always_gave() -> None:
    import subprocess
    import sys

    script = "import standard_tool as st; print(st.registry.__name__, st.exceptions.__name__)"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.stdout.split() == ["standard_tool.registry", "standard_tool.exceptions"], out.stderr
