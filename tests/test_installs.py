"""Every install line of every Markdown file is in an ``sh`` block that the ``install-blocks``
session runs as written (``.ci/wheels.py``), in a fresh copy of the repository, into the venv the
block makes; a block that fails, makes no venv or installs nothing of this repository fails the run."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheels() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_wheels", ROOT / ".ci" / "wheels.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def repository(folder: Path, readme: str) -> Path:
    """A git repository (files not committed: a clone's files are the tracked and new ones)."""
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    (folder / "README.md").write_text(readme)
    return folder


def commands(text: str) -> list[str]:
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    return [line for line in lines if line]


def test_every_install_line_is_in_an_sh_block_the_wheels_session_runs(wheels: ModuleType) -> None:
    blocks, problems = wheels.install_blocks(ROOT)
    assert problems == []
    assert {block.file for block in blocks} >= {
        "README.md",
        "packages/pytest-standard-tool/README.md",
        "packages/standard-tool-cli/README.md",
    }


def test_every_install_block_makes_its_venv_and_installs_from_the_clone(
    wheels: ModuleType,
) -> None:
    """Nothing is on PyPI: every package of this repository is named by its folder, the core's
    beside the others, into a venv the block makes first."""
    blocks, _ = wheels.install_blocks(ROOT)
    for block in blocks:
        lines = commands(block.text)
        assert re.match(r"(python3? -m venv|uv venv|uv sync)\b", lines[0]), block
        for line in lines:
            words = line.split()
            assert not set(words) & set(wheels.PACKAGES), f"{block}: {line}"
            if any(word.startswith("./packages/") for word in words):
                assert "./packages/standard-tool" in words, f"{block}: {line}"


def test_an_install_line_outside_an_sh_block_is_reported(
    wheels: ModuleType, tmp_path: Path
) -> None:
    readme = (
        "Install: `pip install thing`.\n\n"
        "```console\n$ uv pip install thing\n```\n\n"
        "```sh\npython3 -m venv .venv\n.venv/bin/pip install ./thing\n```\n\n"
        "```sh\nuv run thing\n```\n"
    )
    blocks, problems = wheels.install_blocks(repository(tmp_path / "repo", readme))
    assert [(block.file, block.line) for block in blocks] == [("README.md", 7)]
    assert [problem.split(": ")[0] for problem in problems] == ["README.md:1", "README.md:4"]


@pytest.mark.parametrize(
    ("block", "error"),
    [
        pytest.param(
            "python3 -m venv --without-pip .venv\n"
            "uv pip install --offline --no-index --python .venv/bin/python no-such-package\n",
            "the install block failed",
            id="failing",
        ),
        pytest.param(
            "uv pip install --help > /dev/null\n", "makes 0 venvs in the copy", id="no-venv"
        ),
        pytest.param(
            "python3 -m venv --without-pip .venv  # and pip install nothing\n",
            "installs nothing of this repository",
            id="nothing-installed",
        ),
    ],
)
def test_an_install_block_that_does_not_install_fails_the_run(
    wheels: ModuleType, tmp_path: Path, block: str, error: str
) -> None:
    uv = shutil.which("uv")
    assert uv, "uv is needed on PATH"
    root = repository(tmp_path / "repo", f"# Install\n\n```sh\n{block}```\n")
    (found,), problems = wheels.install_blocks(root)
    assert problems == []
    (tmp_path / "work").mkdir()
    with pytest.raises(SystemExit, match=re.escape(f"README.md:3: {error}")):
        wheels.run_block(wheels.Workspace(tmp_path / "work", uv), found, root=root)


def test_a_block_does_not_see_the_venv_it_runs_from(
    wheels: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What nox sets for a session's venv (uv would install there) is not in a block's
    environment; the block's own tools come first on PATH."""
    for name in ("VIRTUAL_ENV", "CONDA_PREFIX", "UV_PYTHON", "UV_PROJECT_ENVIRONMENT"):
        monkeypatch.setenv(name, str(tmp_path / "session"))
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "cache"))
    env = wheels.block_environment(tmp_path / "tools")
    assert not {"VIRTUAL_ENV", "CONDA_PREFIX", "UV_PYTHON", "UV_PROJECT_ENVIRONMENT"} & set(env)
    assert env["UV_CACHE_DIR"] == str(tmp_path / "cache")
    assert env["PATH"].split(":")[0] == str(tmp_path / "tools")


def test_the_command_and_the_plugin_run_through_the_direct_call_and_one_framework(
    wheels: ModuleType,
) -> None:
    core = ["anthropic", "gemini", "hf", "openai", "standard"]
    assert wheels.through(core) == ["standard"]
    assert wheels.through(sorted([*core, "mcp", "langchain"])) == ["standard", "langchain"]
