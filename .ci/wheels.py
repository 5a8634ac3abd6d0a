"""Every package builds as a wheel and installs from it: alone with uv, all together with pip.

Run by the ``wheels`` and ``install-blocks`` sessions. In a temporary folder:

1. ``uv build --all-packages --no-sources`` builds an sdist and a wheel of every package (the
   wheel from the sdist); each wheel's metadata must name no local path.
2. For each package, a fresh venv gets that package's wheel and the core's wheel, nothing else
   from this repository (the frameworks come from the package index), by ``uv pip install`` of
   the two files: the package's declared dependencies are enough. Then one more venv gets every
   package by ``pip install --no-compile --find-links <wheels> <name>...``: pip's resolver
   takes every wheel's metadata, and every package works beside the others.
3. Every ``sh`` block of every Markdown file that installs (``pip install``, ``uv pip install``,
   ``uv sync``...) runs as written, with bash, in a fresh copy of the repository's files (what a
   clone holds), with neither this session's venv nor ``VIRTUAL_ENV`` in its environment: the
   block makes the venv itself (``python3 -m venv .venv``, ``uv venv``, ``uv sync``) and installs
   into it. An install line outside an ``sh`` block (which nothing would run) fails the run; so
   does a block that makes no venv in the copy, or installs nothing of this repository. A block
   whose text another block has (a package's README and its page of the documentation site)
   runs once.

After each install: ``pip check``; every package of this repository installed imports; nothing
installed is editable or a folder of this repository (except after ``uv sync``, which installs
the workspace editable, from the copy); the targets listed by ``standard_tool.targets()`` are
exactly the ones installed; and a smoke script converts a tool to each installed target and calls
the result. Where the command line is installed, ``standard-tool targets`` lists those targets,
and ``call`` and ``check`` run (``check`` through the direct call and the first framework's
target, :func:`through`); where the pytest plugin is, pytest runs its tests through the same two.

``python .ci/wheels.py --markdown`` runs only the Markdown install blocks (the
``install-blocks`` session), ``--packages`` only the wheels (the ``wheels`` session).
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
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {
    "pytest-standard-tool": "packages/pytest-standard-tool",
    "standard-tool": "packages/standard-tool",
    "standard-tool-agent-framework": "packages/standard-tool-agent-framework",
    "standard-tool-agno": "packages/standard-tool-agno",
    "standard-tool-cli": "packages/standard-tool-cli",
    "standard-tool-google-adk": "packages/standard-tool-google-adk",
    "standard-tool-haystack": "packages/standard-tool-haystack",
    "standard-tool-langchain": "packages/standard-tool-langchain",
    "standard-tool-llama-index": "packages/standard-tool-llama-index",
    "standard-tool-mcp": "packages/standard-tool-mcp",
    "standard-tool-openai-agents": "packages/standard-tool-openai-agents",
    "standard-tool-pydantic-ai": "packages/standard-tool-pydantic-ai",
    "standard-tool-smolagents": "packages/standard-tool-smolagents",
    "standard-tool-toy": "integration_tests/toy-plugin",
}
TARGETS: dict[str, tuple[str, ...]] = {
    "pytest-standard-tool": (),
    "standard-tool": ("standard", "openai", "anthropic", "gemini", "hf"),
    "standard-tool-agent-framework": ("agent-framework",),
    "standard-tool-agno": ("agno",),
    "standard-tool-cli": (),
    "standard-tool-google-adk": ("google-adk",),
    "standard-tool-haystack": ("haystack",),
    "standard-tool-langchain": ("langchain",),
    "standard-tool-llama-index": ("llama-index",),
    "standard-tool-mcp": ("mcp",),
    "standard-tool-openai-agents": ("openai-agents",),
    "standard-tool-pydantic-ai": ("pydantic-ai",),
    "standard-tool-smolagents": ("smolagents",),
    "standard-tool-toy": ("toy",),
}

SMOKE = r"""
import importlib, importlib.metadata, json, pathlib, sys
import standard_tool as st

root, expected, mode = pathlib.Path(sys.argv[1]).resolve(), set(sys.argv[2].split(",")), sys.argv[3]
sources = [root / "packages", root / "integration_tests"]  # the packages' folders
for module in sys.argv[4].split(","):
    importlib.import_module(module)
for dist in importlib.metadata.distributions():
    if mode == "editable":
        break
    name = dist.metadata["Name"]
    direct = json.loads(dist.read_text("direct_url.json") or "{}")
    assert not direct.get("dir_info", {}).get("editable"), f"{name} is installed editable"
    if mode == "wheels":
        assert "dir_info" not in direct, f"{name} is installed from a folder: {direct}"
    for file in dist.files or []:
        if file.name.endswith(".pth"):
            text = pathlib.Path(str(file.locate())).read_text()
            assert not any(str(s) in text for s in sources), f"{file} puts the repository on sys.path"
inside = pathlib.Path(st.__file__).resolve().is_relative_to(sources[0])
assert inside == (mode == "editable"), (st.__file__, mode)
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
if "openai-agents" in expected:
    import asyncio

    from standard_tool_openai_agents import tool_context

    native = st.convert(add, to="openai-agents")
    assert native.params_json_schema["required"] == ["a", "b"] and native.strict_json_schema
    context = tool_context(None, name="add", arguments="{}")
    assert asyncio.run(native.on_invoke_tool(context, '{"a": 2, "b": null}')) == "3"
    assert st.call(st.adopt(native), {"a": 1}) == 2
if "pydantic-ai" in expected:
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    native = st.convert(add, to="pydantic-ai")
    assert native.tool_def.parameters_json_schema == st.input_json_schema(add)
    result = Agent(TestModel(call_tools=["add"]), tools=[native]).run_sync("go")
    assert '"add":' in result.output, result.output
    assert st.call(st.adopt(native), {"a": 1}) == 2
if "smolagents" in expected:
    native = st.convert(add, to="smolagents")
    assert native(2, b=3) == 5 and native.inputs["a"]["type"] == "integer"
    assert st.call(st.adopt(native), {"a": 1}) == 2
if "agent-framework" in expected:
    import asyncio

    native = st.convert(add, to="agent-framework")
    assert native.parameters() == st.input_json_schema(add)
    [content] = asyncio.run(native.invoke(arguments={"a": 2, "b": 3}, tool_call_id="c1"))
    assert content.text == "5"
    assert st.call(st.adopt(native), {"a": 1}) == 2
if "google-adk" in expected:
    import asyncio

    from standard_tool_google_adk import tool_context

    native = st.convert(add, to="google-adk")
    assert native._get_declaration().parameters_json_schema == st.input_json_schema(add)
    assert asyncio.run(native.run_async(args={"a": 2, "b": 3}, tool_context=tool_context())) == 5
    assert st.call(st.adopt(native), {"a": 1}) == 2
if "haystack" in expected:
    native = st.convert(add, to="haystack")
    assert native.parameters == st.input_json_schema(add) and native.invoke(a=2, b=3) == 5
    assert st.call(st.adopt(native), {"a": 1}) == 2
if "agno" in expected:
    from agno.tools.function import FunctionCall

    native = st.convert(add, to="agno")
    assert native.parameters == st.input_json_schema(add)
    outcome = FunctionCall(function=native, arguments={"a": 2, "b": 3}).execute()
    assert (outcome.status, outcome.result) == ("success", "5"), outcome  # the text read
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
    start = time.monotonic()
    out = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True)
    print(out.stdout + out.stderr, end="", flush=True)
    print(f"  ({time.monotonic() - start:.1f} s)", flush=True)
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

    def check(self, venv: Path, names: list[str], mode: str = "wheels", root: Path = ROOT) -> None:
        """Check what ``venv`` holds: ``names`` and the core, installed from wheels, from a
        folder (``clone``) or editable from the folder ``root`` (``editable``)."""
        python = venv / "bin" / "python"
        run(self.uv, "pip", "check", "--python", python, cwd=self.tmp)
        installed = {"standard-tool", *names}
        targets = ",".join(sorted(t for name in installed for t in TARGETS[name]))
        modules = ",".join(sorted(name.replace("-", "_") for name in installed))
        smoke = self.tmp / "smoke.py"
        smoke.write_text(SMOKE)
        run(python, "-I", smoke, root, targets, mode, modules, cwd=self.tmp)
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
        chosen = through(targets)
        options = [arg for target in chosen for arg in ("--target", target)]
        report = json.loads(run(script, "check", f"{tools}:add", *options, "--json", cwd=self.tmp))
        assert report["passed"] is True and report["targets"] == chosen, report

    def plugin(self, venv: Path, targets: list[str]) -> None:
        """pytest finds the installed plugin by its entry point and runs a test per target it
        is given."""
        (self.tmp / "cli_tools.py").write_text(CLI_TOOLS)
        (self.tmp / "test_plugin_tools.py").write_text(PLUGIN_TESTS)
        python = venv / "bin" / "python"
        chosen = through(targets)
        options = [arg for target in chosen for arg in ("--standard-tool-target", target)]
        pytest: list[str | Path] = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        out = run(*pytest, *options, "test_plugin_tools.py", cwd=self.tmp)
        assert f"{len(chosen)} passed" in out and "standard-tool conformance" in out, out


def through(targets: list[str]) -> list[str]:
    """The targets an installed command's ``check`` and the installed plugin's tests go through:
    the direct call and the first framework's. The smoke script has converted the tool to every
    installed target and called it, and ``standard-tool targets`` listed them all; these runs
    show that the command and the plugin reach an adapter through its entry point."""
    frameworks = [target for target in targets if target not in TARGETS["standard-tool"]]
    return ["standard", *frameworks[:1]]


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


INSTALLS = re.compile(
    r"\b(?:pip3? install|uv pip install|uv sync|uv add|uv tool install|pipx install)\b"
)
"""What an install line holds."""
SH_BLOCK = re.compile(r"^```sh\n(.*?)^```\n?", re.M | re.S)
LEFT_OUT = (
    "CONDA_PREFIX",
    "PYTHONHOME",
    "PYTHONPATH",
    "UV_PROJECT_ENVIRONMENT",
    "UV_PYTHON",
    "UV_SYSTEM_PYTHON",
    "VIRTUAL_ENV",
)
"""Variables of the caller's environment a block does not see (they name this session's venv)."""


@dataclass(frozen=True)
class Block:
    """An ``sh`` block of a Markdown file: where it is, and its text."""

    file: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


def tracked(root: Path) -> list[str]:
    """The files of the repository at ``root`` a clone holds (tracked, and new ones not ignored)."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return sorted(name for name in set(out.stdout.split("\0")) if (root / name).is_file())


def install_blocks(root: Path = ROOT) -> tuple[list[Block], list[str]]:
    """The ``sh`` blocks of every Markdown file that install, and the install lines outside an
    ``sh`` block (in a sentence, or a ``console`` block), which nothing runs."""
    blocks: list[Block] = []
    problems: list[str] = []
    for name in tracked(root):
        if not name.endswith(".md"):
            continue
        text = (root / name).read_text()
        for match in SH_BLOCK.finditer(text):
            block = Block(name, text.count("\n", 0, match.start()) + 1, match.group(1))
            if INSTALLS.search(block.text):
                blocks.append(block)
        rest = SH_BLOCK.sub(lambda m: "\n" * m.group(0).count("\n"), text)
        for number, line in enumerate(rest.splitlines(), 1):
            if INSTALLS.search(line):
                problems.append(f"{name}:{number}: an install line outside an sh block: {line}")
    return blocks, problems


def copy_repository(root: Path, to: Path) -> Path:
    """A fresh copy of the files of the repository at ``root`` (what a clone holds)."""
    for name in tracked(root):
        (to / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, to / name)
    return to


def block_environment(tools: Path) -> dict[str, str]:
    """The caller's environment without this session's venv, with ``tools`` (uv) on PATH."""
    env = {key: value for key, value in os.environ.items() if key not in LEFT_OUT}
    env = {key: value for key, value in env.items() if not key.startswith("NOX_")}
    venv = Path(sys.prefix, "bin") if sys.prefix != sys.base_prefix else None
    path = [entry for entry in env.get("PATH", "").split(os.pathsep) if entry]
    path = [entry for entry in path if venv is None or Path(entry) != venv]
    env["PATH"] = os.pathsep.join([str(tools), *path])
    return env


OURS = """
import importlib.metadata, json, sys
names = set(sys.argv[1].split(","))
found = {}
for dist in importlib.metadata.distributions():
    if dist.metadata["Name"] in names:
        direct = json.loads(dist.read_text("direct_url.json") or "{}")
        found[dist.metadata["Name"]] = bool(direct.get("dir_info", {}).get("editable"))
print(json.dumps(found))
"""
"""Run in a block's venv: which packages of this repository it holds, and whether editable."""


def run_block(ws: Workspace, block: Block, root: Path = ROOT) -> None:
    """Run ``block`` as written in a fresh copy of ``root``, then check the venv it made."""
    ws.count += 1
    clone = copy_repository(root, ws.tmp / f"clone-{ws.count}")
    tools = ws.tmp / f"tools-{ws.count}"
    tools.mkdir()
    (tools / "uv").symlink_to(ws.uv)
    print(f"$ # {block}, in a fresh copy of the repository\n{block.text}", end="", flush=True)
    start = time.monotonic()
    out = subprocess.run(
        ["bash", "-e", "-u", "-o", "pipefail", "-c", block.text],
        cwd=clone,
        env=block_environment(tools),
        capture_output=True,
        text=True,
        timeout=900,
    )
    print(out.stdout + out.stderr, end="", flush=True)
    if out.returncode:
        raise SystemExit(f"{block}: the install block failed ({out.returncode})")
    venvs = sorted(config.parent for config in clone.glob("*/pyvenv.cfg"))
    if len(venvs) != 1:
        raise SystemExit(f"{block}: makes {len(venvs)} venvs in the copy, not one: {venvs}")
    python = venvs[0] / "bin" / "python"
    found: dict[str, bool] = json.loads(
        run(python, "-I", "-c", OURS, ",".join(PACKAGES), cwd=ws.tmp)
    )
    if not found:
        raise SystemExit(f"{block}: installs nothing of this repository")
    editable = set(found.values())
    if editable == {True, False}:
        raise SystemExit(f"{block}: installs some packages editable and some not: {found}")
    mode = "editable" if editable == {True} else "clone"
    ws.check(venvs[0], sorted(found), mode=mode, root=clone)
    print(f"{block}: ok in {time.monotonic() - start:.0f} s", flush=True)


def main(argv: list[str]) -> int:
    uv = shutil.which("uv") or sys.exit("uv not found")
    blocks, problems = install_blocks()
    if problems:
        raise SystemExit("\n".join(problems))
    with tempfile.TemporaryDirectory(prefix="standard-tool-wheels-") as name:
        tmp = Path(name)
        ws = Workspace(tmp, uv)
        if argv not in ([], ["--markdown"], ["--packages"]):
            raise SystemExit(f"usage: {sys.argv[0]} [--markdown | --packages]")
        if argv != ["--packages"]:
            first: dict[str, Block] = {}
            for block in blocks:
                if block.text in first:  # the same commands in the same files: the same result
                    print(f"{block}: the same block as {first[block.text]}, which ran", flush=True)
                    continue
                first[block.text] = block
                run_block(ws, block)
            names = ", ".join(map(str, first.values()))
            print(f"markdown: {len(blocks)} install blocks, {len(first)} different, ran: {names}")
        if argv == ["--markdown"]:
            return 0
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
        every = sorted(PACKAGES)
        venv = ws.venv("pip-every-package", pip=True)
        # --no-compile: the checks below compile what they import; pip would compile everything
        python = venv / "bin" / "python"
        pip: list[str | Path] = [python, "-m", "pip", "install", "--quiet", "--no-compile"]
        binary = f"--only-binary={','.join(every)}"
        run(*pip, "--find-links", wheels["standard-tool"].parent, binary, *every, cwd=tmp)
        ws.check(venv, every)
    print(f"wheels: {len(PACKAGES)} packages built, each installed alone (uv), all together (pip)")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("UV_PYTHON_DOWNLOADS", "never")
    sys.exit(main(sys.argv[1:]))
