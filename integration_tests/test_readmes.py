"""Every Python block of every Markdown file in the repository runs, and prints what it says.

pytest-examples finds the blocks (fences whose language starts with ``py``), so a new block is
tested without being listed anywhere. A ``print(...)`` followed by ``#> output`` lines is
checked against what the block really prints; ``pytest integration_tests/test_readmes.py
--update-examples`` rewrites those lines. Blocks run in this session's environment, where every
adapter is installed, with the repository root as the working directory and first on
``sys.path`` (as ``python`` run there has it), so ``examples`` is importable.
"""

from __future__ import annotations

import asyncio
import os
import traceback
import warnings
from pathlib import Path

import pytest
from pytest_examples import CodeExample, EvalExample, find_examples

ROOT = Path(__file__).resolve().parents[1]
SKIP = {"node_modules", "build", "dist", "json-schema-test-suite"}


def markdown_files() -> list[Path]:
    """Every ``*.md`` file of the repository, outside hidden and generated folders."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIP]
        found += [Path(folder, name) for name in files if name.endswith(".md")]
    return sorted(found)


FILES = markdown_files()
EXAMPLES = [example for path in FILES for example in find_examples(path)]


def test_every_readme_is_searched() -> None:
    readmes = {
        "README.md",
        "packages/standard-tool/README.md",
        "packages/standard-tool-agent-framework/README.md",
        "packages/standard-tool-agno/README.md",
        "packages/standard-tool-cli/README.md",
        "packages/standard-tool-google-adk/README.md",
        "packages/standard-tool-haystack/README.md",
        "packages/standard-tool-langchain/README.md",
        "packages/standard-tool-llama-index/README.md",
        "packages/standard-tool-mcp/README.md",
        "packages/standard-tool-openai-agents/README.md",
        "packages/standard-tool-pydantic-ai/README.md",
        "packages/standard-tool-smolagents/README.md",
        "packages/pytest-standard-tool/README.md",
        "integration_tests/toy-plugin/README.md",
        "benchmarks/README.md",
    }
    assert readmes <= {path.relative_to(ROOT).as_posix() for path in FILES}
    with_python = {example.path.relative_to(ROOT).as_posix() for example in EXAMPLES}
    assert {
        "README.md",
        "packages/standard-tool/README.md",
        "packages/standard-tool-agent-framework/README.md",
        "packages/standard-tool-agno/README.md",
        "packages/standard-tool-cli/README.md",
        "packages/standard-tool-google-adk/README.md",
        "packages/standard-tool-haystack/README.md",
        "packages/standard-tool-langchain/README.md",
        "packages/standard-tool-llama-index/README.md",
        "packages/standard-tool-mcp/README.md",
        "packages/standard-tool-openai-agents/README.md",
        "packages/standard-tool-pydantic-ai/README.md",
        "packages/standard-tool-smolagents/README.md",
        "packages/pytest-standard-tool/README.md",
    } <= with_python


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=lambda e: f"{e.path.relative_to(ROOT)}:{e.start_line}"
)
def test_python_block(
    example: CodeExample, eval_example: EvalExample, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))
    eval_example.set_config(line_length=100)
    try:
        try:
            if eval_example.update_examples:
                eval_example.run_print_update(example)
            else:
                eval_example.run_print_check(example)
        finally:
            _close_the_loop_left_set()
    except Exception as error:
        message = f"{example.path.relative_to(ROOT)}:{example.start_line}: {_describe(error)}"
    else:
        return
    pytest.fail(message, pytrace=False)  # outside `except`, so that the error is not its context


def _close_the_loop_left_set() -> None:
    """Close the event loop a block left set on this thread, as PydanticAI's ``run_sync`` does
    (it keeps one for the next call): left open, it would warn when collected, in a later test."""
    policy = asyncio.get_event_loop_policy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            loop = policy.get_event_loop()
        except RuntimeError:  # none set
            return
    if not loop.is_running():
        loop.close()
        policy.set_event_loop(None)


def _describe(error: Exception) -> str:
    """The error and its traceback, which pytest-examples maps onto the Markdown file's lines.

    Formatted here: pytest's own report of that synthetic traceback crashes on some Python
    versions (``RuntimeError: generator raised StopIteration`` in ``traceback.extract_tb``).
    """
    try:
        return "".join(traceback.format_exception(error))
    except RuntimeError:
        frames, tb = [], error.__traceback__
        while tb is not None:
            frames.append(f"  {tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}")
            tb = tb.tb_next
        return "\n".join([f"{type(error).__name__}: {error}", *frames])
