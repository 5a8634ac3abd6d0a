"""Lint every package: ruff check, ruff format --check, mypy --strict, and the core's import
graph; counts per package.

Run by the ``lint`` session (``uvx nox -s lint``), in a venv holding every package (editable),
the newest framework of each adapter, the test dependencies and the lint tools. Every check runs
even after one fails, then a table gives the error count of each (package, check) and the exit
status is 1 if any count is not zero.

ruff checks everything. ``mypy --strict`` checks every package's source, the core's tests,
the toy plugin, the benchmarks, the examples and the repository's own scripts
(``MYPY_UNITS``); the adapters' tests and the integration tests are not yet type-checked.
mypy runs once per unit, so that the test folders' ``conftest`` modules do not collide, with
its cache in the user's cache folder (:func:`mypy_cache`).

``lint-imports`` (import-linter, configured in the root ``pyproject.toml``) checks the core's
import graph: its folders import one way (schema at the bottom, then running a tool, the tool,
plugins, and providers/checks/testing on top) and no module is part of an import circle. Each
broken contract counts as one error of the ``core`` unit.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

UNITS: dict[str, list[str]] = {
    "core": ["packages/standard-tool/src"],
    "core tests": ["packages/standard-tool/tests"],
    "cli": ["packages/standard-tool-cli/src"],
    "cli tests": ["packages/standard-tool-cli/tests"],
    "pytest plugin": ["packages/pytest-standard-tool/src"],
    "pytest plugin tests": ["packages/pytest-standard-tool/tests"],
    "core provider tests": ["packages/standard-tool/provider_tests"],
    "core boundary tests": ["packages/standard-tool/boundary_tests"],
    "agent-framework": ["packages/standard-tool-agent-framework/src"],
    "agent-framework tests": ["packages/standard-tool-agent-framework/tests"],
    "agno": ["packages/standard-tool-agno/src"],
    "agno tests": ["packages/standard-tool-agno/tests"],
    "google-adk": ["packages/standard-tool-google-adk/src"],
    "google-adk tests": ["packages/standard-tool-google-adk/tests"],
    "haystack": ["packages/standard-tool-haystack/src"],
    "haystack tests": ["packages/standard-tool-haystack/tests"],
    "langchain": ["packages/standard-tool-langchain/src"],
    "langchain tests": ["packages/standard-tool-langchain/tests"],
    "llama-index": ["packages/standard-tool-llama-index/src"],
    "llama-index tests": ["packages/standard-tool-llama-index/tests"],
    "mcp": ["packages/standard-tool-mcp/src"],
    "mcp tests": ["packages/standard-tool-mcp/tests"],
    "mcp conformance": ["packages/standard-tool-mcp/conformance"],
    "openai-agents": ["packages/standard-tool-openai-agents/src"],
    "openai-agents tests": ["packages/standard-tool-openai-agents/tests"],
    "pydantic-ai": ["packages/standard-tool-pydantic-ai/src"],
    "pydantic-ai tests": ["packages/standard-tool-pydantic-ai/tests"],
    "smolagents": ["packages/standard-tool-smolagents/src"],
    "smolagents tests": ["packages/standard-tool-smolagents/tests"],
    "toy plugin": ["integration_tests/toy-plugin/src"],
    "integration tests": ["integration_tests"],
    "benchmarks": ["benchmarks"],
    "examples": ["examples"],
    "repository": ["noxfile.py", ".ci", "tests"],
}
"""Each unit and its paths; for ruff, a file belongs to the unit with the longest matching path."""

MYPY_UNITS = (
    "core",
    "cli",
    "pytest plugin",
    "pytest plugin tests",
    "core tests",
    "core boundary tests",
    "agent-framework",
    "agno",
    "google-adk",
    "haystack",
    "langchain",
    "llama-index",
    "mcp",
    "openai-agents",
    "pydantic-ai",
    "smolagents",
    "toy plugin",
    "benchmarks",
    "examples",
    "repository",
)
"""The units ``mypy --strict`` checks."""
MYPY_EXCLUDE = {"integration tests": "^integration_tests/toy-plugin/"}


def unit_of(path: str) -> str:
    if path.endswith(".md"):
        return "docs"  # when ruff is asked to format the Python blocks of Markdown files
    matches = [
        (len(prefix), unit)
        for unit, prefixes in UNITS.items()
        for prefix in prefixes
        if path == prefix or path.startswith(prefix.rstrip("/") + "/")
    ]
    return max(matches)[1] if matches else "other"


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    print("$", " ".join(command), flush=True)
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    print(out.stdout + out.stderr, end="", flush=True)
    return out


def ruff(counts: dict[tuple[str, str], int]) -> None:
    checks = {
        "ruff check": ["check", "--output-format=concise", "."],
        "ruff format": ["format", "--check", "--output-format=concise", "."],
    }
    for check, args in checks.items():
        out = run([sys.executable, "-m", "ruff", *args])
        for line in out.stdout.splitlines():
            if match := re.match(r"^(\S+?):\d+:\d+: ", line):
                unit = unit_of(match.group(1))
                counts[unit, check] = counts.get((unit, check), 0) + 1
        if out.returncode and not any(key[1] == check for key in counts):
            counts["(ruff failed)", check] = 1


def mypy_cache() -> list[str]:
    """``--cache-dir`` in the user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``), kept
    between runs as uv's cache is: a fresh clone's run checks again only the modules whose text
    (or whose dependencies' text) differs, which mypy finds by their hashes. None (mypy's own
    ``.mypy_cache``) when that folder cannot be written."""
    try:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        folder = Path(base) / "standard-tool" / "mypy"
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # no home folder, or one that cannot be written
        return []
    return ["--cache-dir", str(folder)] if os.access(folder, os.W_OK | os.X_OK) else []


def mypy(counts: dict[tuple[str, str], int]) -> None:
    cache = mypy_cache()
    for unit, paths in UNITS.items():
        if unit not in MYPY_UNITS:
            continue
        exclude = ["--exclude", MYPY_EXCLUDE[unit]] if unit in MYPY_EXCLUDE else []
        out = run([sys.executable, "-m", "mypy", "--strict", *cache, *exclude, *paths])
        errors = sum(1 for line in out.stdout.splitlines() if re.match(r"^\S+:\d+: error: ", line))
        if out.returncode and not errors:
            errors = 1  # mypy failed without reporting errors (a crash, a bad option)
        counts[unit, "mypy --strict"] = errors


def imports(counts: dict[tuple[str, str], int]) -> None:
    out = run([str(Path(sys.executable).with_name("lint-imports"))])
    broken = sum(1 for line in out.stdout.splitlines() if line.rstrip().endswith(" BROKEN"))
    counts["core", "import graph"] = broken or (1 if out.returncode else 0)


def main() -> int:
    counts: dict[tuple[str, str], int] = {}
    ruff(counts)
    mypy(counts)
    imports(counts)
    checks = ["ruff check", "ruff format", "mypy --strict", "import graph"]
    units = [*UNITS, *sorted({unit for unit, _ in counts} - set(UNITS))]
    width = max(len(unit) for unit in units)
    print("\n" + " " * width + "".join(f"  {check:>13}" for check in checks))
    for unit in units:
        row = "".join(f"  {counts.get((unit, check), 0):>13}" for check in checks)
        print(f"{unit:<{width}}{row}")
    total = sum(counts.values())
    print(f"\nlint: {total} error(s)" if total else "\nlint: clean")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
