"""Tool contracts over time: what a tool promised (its digests and snapshots), what changed
between two versions of it (a breaking-change diff), and where its schema leaves the core of
JSON Schema that every provider and framework reads alike (a portability lint)."""

from ._diff import Diff, diff_tools
from ._digest import declaration, schema_digest, tool_digest
from ._finding import Finding
from ._lint import LINT_RULES, LLAMA_INDEX_DESCRIPTION, NAME_RULES, lint_tool, lint_tools
from ._pin import Pin
from ._rules import DIFF_RULES
from ._snapshot import FORMAT, dump_snapshot, load_snapshot, snapshot

__all__ = [
    "DIFF_RULES",
    "FORMAT",
    "Diff",
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
]
