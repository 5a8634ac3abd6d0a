"""Every package builds as a wheel and installs alone, from wheels, with uv and with pip.

Run by the ``wheels`` session (``uvx nox -s wheels``). In a temporary folder:

1. ``uv build --all-packages --no-sources`` builds an sdist and a wheel of every package (the
   wheel from the sdist); each wheel's metadata must name no local path.
2. For each package, a fresh venv gets that package's wheel and the core's wheel, nothing else
   from this repository (the frameworks come from the package index), by ``uv pip install`` of
   the two files, then by ``pip install --find-links <wheels> <name>``.
3. The README's "Install" commands run as written (from the repository root) in fresh venvs.

After each install: ``pip check``; nothing installed is editable or a folder of this repository;
the targets listed by ``standard_tool.targets()`` are exactly the ones installed; and a smoke
script converts a tool to each installed target and calls the result.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {
    "pytest-standard-tool": "packages/pytest-standard-tool",
    "standard-tool": "packages/standard-tool",
    "standard-tool-cli": "packages/standard-tool-cli",
    "standard-tool-langchain": "packages/standard-tool-langchain",
    "standard-tool-llama-index": "packages/standard-tool-llama-index",
    "standard-tool-mcp": "packages/standard-tool-mcp",
    "standard-tool-pydantic-ai": "packages/standard-tool-pydantic-ai",
    "standard-tool-toy": "integration_tests/toy-plugin",
}
TARGETS: dict[str, tuple[str, ...]] = {
    "pytest-standard-tool": (),
    "standard-tool": ("standard", "openai", "anthropic", "gemini", "hf"),
    "standard-tool-cli": (),
    "standard-tool-langchain": ("langchain",),
    "standard-tool-llama-index": ("llama-index",),
    "standard-tool-mcp": ("mcp",),
    "standard-tool-pydantic-ai": ("pydantic-ai",),
    "standard-tool-toy": ("toy",),
}

SMOKE = r"""
import importlib.metadata, json, pathlib, sys
import standard_tool as st

root, expected, mode = pathlib.Path(sys.argv[1]).resolve(), set(sys.argv[2].split(",")), sys.argv[3]
for dist in importlib.metadata.distributions():
    name = dist.metadata["Name"]
    direct = json.loads(dist.read_text("direct_url.json") or "{}")
    assert not direct.get("dir_info", {}).get("editable"), f"{name} is installed editable"
    if mode == "wheels":
        assert "dir_info" not in direct, f"{name} is installed from a folder: {direct}"
    for file in dist.files or []:
        if file.name.endswith(".pth"):
            text = pathlib.Path(str(file.locate())).read_text()
            assert str(root) not in text, f"{file} puts the repository on sys.path"
assert not pathlib.Path(st.__file__).resolve().is_relative_to(root), st.__file__
assert {t.name for t in st.targets()} == expected, (st.targets(), expected)


@st.tool
def add(a: int, b: int = 1) -> int:
    '''Add two integers.'''
    return a + b


assert st.call(add, {"a": 2}) == 3
declared = st.convert(add, to="openai", api="chat")
assert declared["function"]["name"] == "add" and declared["function"]["strict"] is True
from standard_tool.providers import run_tool_calls

call = {"type": "function_call", "call_id": "c1", "name": "add", "arguments": '{"a": 2}'}
assert run_tool_calls([add], [call], provider="openai")[0]["output"] == "3"
if "langchain" in expected:
    native = st.convert(add, to="langchain")
    assert native.invoke({"a": 2, "b": 3}) == 5
    message = native.invoke({"type": "tool_call", "name": "add", "args": {"a": 2}, "id": "c1"})
    assert (message.content, message.artifact) == ("3", 3)
    assert st.call(st.adopt(native), {"a": 1}) == 2
if "llama-index" in expected:
    from llama_index.core.tools.calling import call_tool

    native = st.convert(add, to="llama-index")
    output = call_tool(native, {"a": 2, "b": 3})
    assert (output.content, output.raw_output, output.is_error) == ("5", 5, False)
    assert call_tool(native, {"a": "x"}).is_error
    assert st.call(st.adopt(native), {"a": 1}) == 2
if "mcp" in expected:
    from standard_tool_mcp import connect, to_mcp_server

    assert st.convert(add, to="mcp").name == "add"
    with connect(to_mcp_server([add])) as tools:
        assert st.call(tools[0], {"a": 40, "b": 2}) == 42
if "pydantic-ai" in expected:
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    native = st.convert(add, to="pydantic-ai")
    assert native.tool_def.parameters_json_schema == st.input_json_schema(add)
    result = Agent(TestModel(call_tools=["add"]), tools=[native]).run_sync("go")
    assert '"add":' in result.output, result.output
    assert st.call(st.adopt(native), {"a": 1}) == 2
if "toy" in expected:
    assert st.call(st.adopt(st.convert(add, to="toy")), {"a": 2}) == 3
print("smoke:", ", ".join(sorted(expected)), "ok")
"""


CLI_TOOLS = """
import standard_tool as st


@st.tool
def add(a: int, b: int = 1) -> int:
    '''Add two integers.'''
    return a + b
"""
"""A tool file the installed command loads."""

PLUGIN_TESTS = """
import pytest

from cli_tools import add


@pytest.mark.standard_tools(add)
def test_conforms(conformance):
    conformance.check()
"""
"""A test file the installed pytest plugin runs."""


def run(*command: str | Path, cwd: Path | None = None) -> str:
    print("$", shlex.join(str(part) for part in command), flush=True)
    out = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True)
    print(out.stdout + out.stderr, end="", flush=True)
    if out.returncode:
        raise SystemExit(f"failed ({out.returncode}): {shlex.join(str(p) for p in command)}")
    return out.stdout


class Workspace:
    def __init__(self, tmp: Path, uv: str) -> None:
        self.tmp, self.uv, self.count = tmp, uv, 0

    def venv(self, label: str, *, pip: bool = False) -> Path:
        """A fresh venv (with pip when asked) on the interpreter running this script."""
        self.count += 1
        path = self.tmp / f"venv-{self.count}-{label}"
        seed = ["--seed"] if pip else []
        run(self.uv, "venv", "--quiet", *seed, "--python", sys.executable, path, cwd=self.tmp)
        return path

    def check(self, venv: Path, names: list[str], mode: str = "wheels") -> None:
        python = venv / "bin" / "python"
        run(self.uv, "pip", "check", "--python", python, cwd=self.tmp)
        installed = {"standard-tool", *names}
        targets = ",".join(sorted(t for name in installed for t in TARGETS[name]))
        smoke = self.tmp / "smoke.py"
        smoke.write_text(SMOKE)
        run(python, "-I", smoke, ROOT, targets, mode, cwd=self.tmp)
        if "standard-tool-cli" in installed:
            self.command(venv, sorted(targets.split(",")))
        if "pytest-standard-tool" in installed:
            self.plugin(venv, sorted(targets.split(",")))

    def command(self, venv: Path, targets: list[str]) -> None:
        """The ``standard-tool`` script of an installed ``standard-tool-cli`` runs its commands."""
        tools = self.tmp / "cli_tools.py"
        tools.write_text(CLI_TOOLS)
        script = venv / "bin" / "standard-tool"
        listed = json.loads(run(script, "targets", "--json", cwd=self.tmp))
        assert [row["target"] for row in listed["targets"]] == targets, listed
        out = run(script, "call", f"{tools}:add", "add", "--input", '{"a": 2}', cwd=self.tmp)
        assert json.loads(out) == 3, out
        report = json.loads(run(script, "check", f"{tools}:add", "--json", cwd=self.tmp))
        assert report["passed"] is True, report

    def plugin(self, venv: Path, targets: list[str]) -> None:
        """pytest finds the installed plugin by its entry point and runs a test per target."""
        (self.tmp / "cli_tools.py").write_text(CLI_TOOLS)
        (self.tmp / "test_plugin_tools.py").write_text(PLUGIN_TESTS)
        python = venv / "bin" / "python"
        out = run(
            python,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "test_plugin_tools.py",
            cwd=self.tmp,
        )
        assert f"{len(targets)} passed" in out and "standard-tool conformance" in out, out


def build(tmp: Path, uv: str) -> dict[str, Path]:
    dist = tmp / "dist"
    run(uv, "build", "--all-packages", "--no-sources", "--out-dir", dist, cwd=ROOT)
    wheels = {}
    for name in PACKAGES:
        stem = name.replace("-", "_")
        (wheel,) = dist.glob(f"{stem}-*-py3-none-any.whl")
        assert len(list(dist.glob(f"{stem}-*.tar.gz"))) == 1, f"no sdist of {name}"
        with zipfile.ZipFile(wheel) as archive:
            (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
            requires = [
                line
                for line in archive.read(metadata).decode().splitlines()
                if line.startswith("Requires-Dist:")
            ]
        local = [line for line in requires if "@" in line or "file:" in line]
        assert not local, f"{wheel.name} requires local paths: {local}"
        wheels[name] = wheel
    return wheels


def readme_installs() -> list[str]:
    """The commands of the README's "Install" section (its ``sh`` blocks), comments removed."""
    text = (ROOT / "README.md").read_text()
    section = re.search(r"^## Install\n(.*?)(?=^## )", text, re.M | re.S)
    assert section, "README.md has no '## Install' section"
    blocks = re.findall(r"^```sh\n(.*?)^```", section.group(1), re.M | re.S)
    commands = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    commands = [c for c in commands if c]
    assert commands, "README.md's Install section has no command"
    return commands


def readme_install(ws: Workspace, command: str) -> None:
    """Run one README install command as written, into a fresh venv, then check it."""
    words = shlex.split(command)
    names = [name for name, path in PACKAGES.items() if f"./{path}" in words]
    if words[:2] == ["pip", "install"]:
        venv = ws.venv("readme-pip", pip=True)
        run(venv / "bin" / "python", "-m", *words, cwd=ROOT)
    elif words[:3] == ["uv", "pip", "install"]:
        venv = ws.venv("readme-uv")
        run(ws.uv, *words[1:], "--python", venv / "bin" / "python", cwd=ROOT)
    else:
        raise SystemExit(f"README install command not understood: {command}")
    ws.check(venv, names, mode="clone")


def main() -> int:
    uv = shutil.which("uv") or sys.exit("uv not found")
    with tempfile.TemporaryDirectory(prefix="standard-tool-wheels-") as name:
        tmp = Path(name)
        ws = Workspace(tmp, uv)
        wheels = build(tmp, uv)
        for package in PACKAGES:
            files = sorted({wheels["standard-tool"], wheels[package]})
            venv = ws.venv(f"uv-{package}")
            run(
                uv,
                "pip",
                "install",
                "--no-sources",
                "--python",
                venv / "bin" / "python",
                *files,
                cwd=tmp,
            )
            ws.check(venv, [package])

            venv = ws.venv(f"pip-{package}", pip=True)
            binary = f"--only-binary={','.join(sorted({'standard-tool', package}))}"
            pip: list[str | Path] = [venv / "bin" / "python", "-m", "pip", "install", "--quiet"]
            run(*pip, "--find-links", wheels[package].parent, binary, package, cwd=tmp)
            ws.check(venv, [package])
        for command in readme_installs():
            readme_install(ws, command)
    print(
        f"wheels: {len(PACKAGES)} packages built and installed alone (uv, pip); README installs ok"
    )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("UV_PYTHON_DOWNLOADS", "never")
    sys.exit(main())
