"""The public names are exactly what ``__all__`` says."""

import standard_tool

FIXED = {
    "StandardTool",
    "Tool",
    "tool",
    "call",
    "acall",
    "with_formatted_output",
    "ToolValidationError",
    "input_json_schema",
    "output_json_schema",
    "convert",
    "adopt",
    "targets",
}


def test_all_is_sorted_and_exported() -> None:
    assert standard_tool.__all__ == sorted(standard_tool.__all__)
    exported = {name for name in dir(standard_tool) if not name.startswith("_")}
    modules = {
        "adapters",
        "checks",
        "dialects",
        "exceptions",
        "hookspecs",
        "names",
        "providers",
        "registry",
        "testing",
    }
    assert exported - modules == set(standard_tool.__all__)


def test_the_fixed_names_are_public() -> None:
    assert FIXED <= set(standard_tool.__all__)
    for name in FIXED:
        assert getattr(standard_tool, name).__module__.startswith("standard_tool")
