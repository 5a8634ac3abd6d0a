"""What the README says about the test command and CI is what they do."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
CI = (ROOT / ".ci" / "run").read_text()


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match, f"README.md has no '## {title}' section"
    return match.group(1)


def commands(text: str) -> list[str]:
    """The commands of the ``sh`` blocks of ``text``, without comments."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
    lines = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line]


def test_the_compatibility_table_lists_every_session_in_order(noxfile: ModuleType) -> None:
    rows = re.findall(r"^\| `([^`]+)` \| ([\d.]+) \|", section("Compatibility"), re.M)
    assert rows == [(env.name, env.python) for env in noxfile.ENVS]


def test_ci_runs_the_quick_start_commands() -> None:
    quick_start = commands(section("Quick start"))
    assert quick_start == [
        "uv run standard-tool check examples/weather.py:TOOLS",
        "python3 .ci/sessions.py",
    ]
    ci_lines = [line.strip() for line in CI.splitlines()]
    for command in quick_start:
        assert command in ci_lines, f".ci/run does not run `{command}`"


def test_the_main_job_is_the_command_lines_check_on_the_examples(noxfile: ModuleType) -> None:
    """The quick start's first command is the ``standard-tool`` script of the workspace, which
    the ``cli`` session tests, on a SOURCE that exists."""
    command = commands(section("Quick start"))[0].split()
    assert command[:4] == ["uv", "run", "standard-tool", "check"]
    path, _, attribute = command[4].partition(":")
    assert (ROOT / path).is_file() and f"\n{attribute} = " in (ROOT / path).read_text()
    scripts = (ROOT / "packages/standard-tool-cli/pyproject.toml").read_text()
    assert 'standard-tool = "standard_tool_cli._app:main"' in scripts
    assert '"standard-tool-cli"' in (ROOT / "pyproject.toml").read_text()
    assert any(env.name == "cli" for env in noxfile.ENVS)


def test_ci_does_not_depend_on_the_callers_environment() -> None:
    assert "set -euo pipefail" in CI
    assert "export UV_SYSTEM_CERTS=1" in CI  # TLS without SSL_CERT_FILE
    assert "pip install" in CI and "uv" in CI  # installs uv when it is missing


def default_sessions() -> list[str]:
    """The sessions ``uvx nox`` runs (nox's own list of the default selection)."""
    command = [sys.executable, "-m", "nox", "--noxfile", str(ROOT / "noxfile.py"), "-l", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    return [row["session"] for row in json.loads(out.stdout)]


def test_the_readme_says_how_many_sessions_uvx_nox_runs(noxfile: ModuleType) -> None:
    sessions = default_sessions()
    assert sessions == [env.name for env in noxfile.ENVS]
    stated = re.findall(r"\b(\d+) sessions\b", README)
    assert stated, "README.md does not say how many sessions `uvx nox` runs"
    assert {int(number) for number in stated} == {len(sessions)}, stated


def test_the_quick_start_names_what_uvx_nox_needs(noxfile: ModuleType) -> None:
    """Every Python a session runs on, and npm with the Node version the conformance suite
    installs, are prerequisites of the quick start."""
    prerequisites = section("Quick start").split("```sh", 1)[0]
    for version in sorted({env.python for env in noxfile.ENVS}):
        assert f"Python {version}" in prerequisites, version
    assert "uv" in prerequisites
    conformance = [env for env in noxfile.ENVS if env.name.endswith("-conformance")]
    for env in conformance:
        folder = ROOT / "packages" / f"standard-tool-{env.name.removesuffix('-conformance')}"
        conftest = (folder / "conformance" / "conftest.py").read_text()
        (node,) = re.findall(r'^NODE = "node@(\d+)"$', conftest, re.M)
        assert f"`{env.name}`" in prerequisites and "npm" in prerequisites
        assert f"Node {node}" in prerequisites, node
