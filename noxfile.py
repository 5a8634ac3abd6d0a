"""The test command, ``uvx nox``: every session below runs by default.

- ``lint``: ruff (check and format) over everything, ``mypy --strict`` over every package,
  and the core's import graph (``lint-imports``: its parts import one way, no import circles).
- ``repo``: the repository's own checks (``tests/``): tox.ini, the README, the CI script.
- ``wheels``: every package built once as a wheel, installed alone with uv, then all together
  with pip (``.ci/wheels.py --packages``).
- ``docs``: the documentation site built by ``mkdocs build --strict`` (``mkdocs.yml``; the API
  reference from every package's docstrings, the command line's from its click commands), then
  opened in Debian's Chromium (``.ci/docs.py``): each public name has its entry, and screenshots
  of the front page and the API reference are saved in the built site's ``screenshots/``.
- ``install-blocks``: every ``sh`` block of every Markdown file that installs, run as written in
  a fresh copy of the repository (``.ci/wheels.py --markdown``).
- ``core-only`` / ``core-lowest``: the core and the toy third-party plugin, with no framework
  installed (``integration_tests/core_only.py`` checks that none is importable), newest and
  lowest dependency versions.
- ``providers``: the core's provider envelopes (``standard_tool.providers``) against the
  providers' own SDK types, and property tests generating inputs from each schema.
- ``boundary``: the execution boundary with the core's ``redis``, ``cedar``, ``otel`` and
  ``inbox`` extras; its Redis store against a real ``redis-server`` (which must be installed:
  the session fails without it) started on 127.0.0.1 for the run; the approvals inbox in
  Debian's Chromium (``/usr/bin/chromium``, which must be installed likewise) through
  Playwright.
- ``<adapter>-<version>``: one session per adapter and framework version. Each adapter declares
  its matrix in its own ``pyproject.toml``::

      [tool.standard-tool.matrix]
      framework = "langchain-core"            # the distribution pinned per session
      test-requires = ["pytest-asyncio"]      # extra test dependencies for every session
      integration-requires = []               # what the integration session adds for it

      [tool.standard-tool.matrix.versions]    # version -> extra requirements of that session
      "0.3.86" = ["langchain-community==0.3.31"]
      "1.8.3" = []

  The session installs the core, the adapter and the pinned framework in one resolution, so a
  wrong declared range fails at install.
- ``<adapter>-conformance``: for an adapter with a ``conformance/`` folder, the framework's
  official conformance suite (the MCP one runs on Node 22, installed from npm).
- ``cli``: the ``standard-tool`` command (``packages/standard-tool-cli``, no framework matrix
  of its own) with every adapter and the newest frameworks, driven as a console script.
- ``pytest-plugin``: the ``pytest-standard-tool`` plugin (``packages/pytest-standard-tool``)
  with every adapter and the newest frameworks, run by pytest on test files (pytester).
- ``lowest``: every package installed together with ``--resolution lowest-direct`` (each
  framework at its declared lower bound), on the oldest Python: each adapter's own tests, and
  the pytest plugin's.
- ``integration``: every adapter together with the newest frameworks; also runs every Python
  block of every Markdown file, and guarded tools under load over MCP: two servers sharing a
  real ``redis-server`` (which must be installed: the test fails without it), three clients.
- ``real-tools``: a corpus of tools no one here wrote (``integration_tests/real_tools/``:
  LangChain community and experimental, LlamaIndex tool specs, smolagents, PydanticAI, the
  OpenAI Agents SDK's sandbox tools, the reference MCP servers), each through every installed
  target with every adapter and the newest frameworks; offline (a server on 127.0.0.1, temporary
  files). ``mcp-server-sqlite`` runs on mcp 1.x only: the session makes it a venv of its own.

``nox -s matrix`` (not run by default) runs the matrix cells (the sessions with
``Env.versions_of``: the core, adapter and lowest sessions), each writing a pytest JUnit report
and the versions its venv holds, then writes ``COMPATIBILITY.md`` from those reports.

Each session is an ``Env`` (what to install, what to run); ``tox.ini`` is written from the same
list by ``nox -s tox-ini``, and the ``repo`` session fails when the committed file differs.
``COMPATIBILITY.md`` ends with the tools of the ``real-tools`` corpus, written from
``integration_tests/real_tools/corpus.py`` (read with ``ast``, not imported).

Interpreters are never downloaded: a session whose Python is not installed fails (it is not
skipped). ``--download-python auto`` lets nox ask uv for one. An installed one is found on PATH,
by ``uv python find``, by ``pyenv prefix``, or in pyenv's ``versions`` folder (``$PYENV_ROOT``,
else ``~/.pyenv``), where a shim that selects another version hides it from the others.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nox
import nox.project
from packaging.requirements import Requirement
from packaging.version import Version

nox.needs_version = ">=2025.5.1"
nox.options.default_venv_backend = "uv"
nox.options.error_on_missing_interpreters = True
nox.options.download_python = "never"
os.environ.setdefault("UV_PYTHON_DOWNLOADS", "never")

ROOT = Path(__file__).resolve().parent
PYTHON = "3.11"
LOWEST_PYTHON = "3.10"
CORE = "packages/standard-tool"
CLI = "packages/standard-tool-cli"
PLUGIN = "packages/pytest-standard-tool"
CLI_TEST_REQUIRES = ("mcp-server-time",)
"""A real MCP server from PyPI that the command's tests start over stdio."""
TOY = "integration_tests/toy-plugin"
TEST_REQUIRES = (
    "pytest>=8",
    "pytest-asyncio>=0.23",
    "jsonschema>=4.20",
    "hypothesis>=6.100,<6.170.10",
    "hypothesis-jsonschema>=0.23.1",
)
"""hypothesis-jsonschema (``standard-tool[checks]``) generates inputs for the contract's checks;
hypothesis 6.170.10 removed an internal that hypothesis-jsonschema 0.23.1 (the newest) uses."""
LOWEST_TEST_REQUIRES = ("pytest>=8,<9", *TEST_REQUIRES[1:])
"""For the lowest sessions: pytest 9 needs pluggy 1.6, above the core's lower bound (1.5)."""
LINT_REQUIRES = (
    "ruff==0.17.6",
    "mypy==2.4.1",
    "import-linter==2.17",
    "types-jsonschema",
    "nox>=2025.5.1",
    "pytest-examples>=0.0.18",
)
PROVIDER_REQUIRES = (
    "openai==3.60.0",
    "anthropic==2.16.0",
    "google-genai==3.6.1",
    "hypothesis==6.170.5",  # hypothesis-jsonschema 0.23.1 breaks on 6.170.10 and later
    "hypothesis-jsonschema==0.23.1",
)
"""What the ``providers`` session adds: the SDKs whose types must accept the declarations."""
BOUNDARY_CORE = f"{CORE}[redis,cedar,otel,inbox]"
"""The core as the ``boundary`` session installs it: with the extras of its Redis store, Cedar
policies, OpenTelemetry audit and approvals inbox."""
INBOX_REQUIRES = ("uvicorn>=0.30", "httpx2>=2.0")
"""What serves the approvals inbox in the tests (uvicorn) and asks it (httpx2, which Starlette's
test client uses too)."""
BROWSER_REQUIRES = ("playwright>=1.45",)
"""Playwright drives Debian's Chromium (``/usr/bin/chromium``, never a downloaded browser) in
the approvals inbox's browser test."""
BOUNDARY_LINT_REQUIRES = (
    "redis>=5",
    "cedarpy>=4.12,<5",
    "opentelemetry-api>=1.20",
    "opentelemetry-sdk>=1.20",
    "starlette>=0.37",
    *INBOX_REQUIRES,
    *BROWSER_REQUIRES,
)
"""What the ``lint`` session adds for ``mypy`` on the boundary's tests."""
DOCS_REQUIRES = tuple(
    str(Requirement(line)).split(";")[0]  # the session's Python is one the markers admit
    for line in nox.project.load_toml(ROOT / "pyproject.toml")["dependency-groups"]["docs"]
)
"""What builds the documentation site: the workspace's ``docs`` group (``uv run --group docs
mkdocs serve``), ruff among them (mkdocstrings formats the signatures with it)."""
POSARGS = "{posargs}"
"""Stands for the arguments after ``--`` (nox) or ``--`` (tox) in a command."""
INTEGRATION_REQUIRES = (
    "pytest-examples>=0.0.18",
    "cedarpy>=4.12,<5",
    "redis>=5",
    "starlette>=0.37",
    *INBOX_REQUIRES,
)
"""cedarpy: the worked example of the execution boundary (``examples/crm.py``) runs a Cedar
policy in every framework. redis: the load test of guarded tools served over MCP
(``integration_tests/test_mcp_load.py``) shares its gate's records in a real ``redis-server``
(which must be installed, as for the ``boundary`` session). starlette and httpx2: the example's
held call is decided in the approvals inbox."""
REAL_TOOLS = "integration_tests/real_tools"
"""The corpus of real third-party tools, run by the ``real-tools`` session only (the
``integration`` session's conftest leaves the folder out)."""
CORPUS = ROOT / REAL_TOOLS / "corpus.py"
REAL_TOOLS_REQUIRES = (
    "langchain-experimental==0.4.2",
    "llama-index-tools-requests==0.7.0",
    "llama-index-tools-code-interpreter==0.6.0",
    "llama-index-tools-wikipedia==0.6.0",
    "llama-index-tools-duckduckgo==0.6.0",
    "smolagents[toolkit]",
    "wikipedia-api==0.10.0",
    "pydantic-ai-slim[duckduckgo,tavily]",
    "mcp-server-time==2026.10.19",
    "mcp-server-git==2026.10.19",
    "mcp-server-fetch==2026.10.24",
    "uv>=0.5",
)
"""What the ``real-tools`` session adds to the newest frameworks (whose pins come with them:
langchain-community, llama-index-tools-database, and the versions of smolagents and
pydantic-ai-slim whose extras are named here): the newest release of each tool package that
resolves with them. ``uv`` makes the venv of :data:`MCP1_SERVERS`."""
MCP1_SERVERS = ("mcp-server-sqlite==2025.4.25", "mcp[cli]==1.30.0")
"""Installed in a venv of their own: ``mcp-server-sqlite`` declares ``mcp>=1.6`` but registers
handlers that mcp 2 removed, so it starts on mcp 1.x only, which the session's adapters do not
share."""
ENV_DIR = "{env_dir}"
"""Stands for the session's own venv folder in a command or a variable (nox: the session's
virtualenv; tox: its ``{env_dir}``)."""
MCP1_VENV = ("STANDARD_TOOL_MCP1_VENV", f"{ENV_DIR}/tmp/mcp-1")
"""The variable naming the venv of :data:`MCP1_SERVERS` to the tests, and its folder."""
CORE_DEPENDENCIES = ("pydantic", "pluggy", "jsonschema-rs")
FRAMEWORK_MODULES = (
    "agent_framework",
    "agents",
    "agno",
    "google.adk",
    "haystack",
    "langchain_core",
    "llama_index",
    "mcp",
    "pydantic_ai",
    "smolagents",
)
"""The import names of the frameworks; the core-only sessions have none of them."""
REPORTS = "STANDARD_TOOL_MATRIX_REPORTS"
"""Set by ``nox -s matrix``: the folder where each cell writes its reports."""
COMPATIBILITY = ROOT / "COMPATIBILITY.md"


@dataclass(frozen=True)
class Env:
    """One test environment: a nox session, and the tox environment of the same name."""

    name: str
    doc: str
    python: str = PYTHON
    requires: tuple[str, ...] = ()
    """Installed from the package index, in one resolution with ``local``."""
    local: tuple[str, ...] = ()
    """Packages of this repository, installed editable."""
    lowest: bool = False
    """Install ``local`` with the lowest versions their dependency ranges allow, first (the test
    tools installed after them do not lower or raise what they share, such as pluggy)."""
    commands: tuple[tuple[str, ...], ...] = ()
    versions_of: tuple[str, ...] = ()
    """The distributions whose installed versions ``COMPATIBILITY.md`` shows; a session with
    any is a cell of the compatibility matrix."""
    ranges: tuple[str, ...] = ()
    """The declared ranges of those distributions (dependency specifiers), for the table."""
    variables: tuple[tuple[str, str], ...] = ()
    """Environment variables the commands run with (values may name :data:`ENV_DIR`)."""

    def installs(self) -> list[list[str]]:
        """The ``uv pip install`` argument lists, in order."""
        editable = [arg for path in self.local for arg in ("-e", path)]
        if not self.lowest:
            return [[*self.requires, *editable]]
        return [["--resolution", "lowest-direct", *editable], list(self.requires)]


def adapters() -> list[tuple[str, dict[str, Any]]]:
    """``(path, matrix)`` of every adapter package, from its ``[tool.standard-tool.matrix]``."""
    out = []
    for package in sorted((ROOT / "packages").glob("standard-tool-*")):
        config = nox.project.load_toml(package / "pyproject.toml")
        matrix = config.get("tool", {}).get("standard-tool", {}).get("matrix")
        if matrix:
            out.append((package.relative_to(ROOT).as_posix(), matrix))
    return out


def _pytest(*paths: str) -> tuple[str, ...]:
    """pytest on ``paths``, listing the ten slowest tests at the end (a session's time, as the
    test command prints it, then says where it goes)."""
    return ("python", "-m", "pytest", *paths, "--durations=10", POSARGS)


def declared(path: str, distribution: str) -> str:
    """The requirement on ``distribution`` in the dependencies of the package at ``path``."""
    config = nox.project.load_toml(ROOT / path / "pyproject.toml")
    lines: list[str] = config["project"]["dependencies"]
    for line in lines:
        if Requirement(line).name == distribution:
            return line
    raise LookupError(f"{path} does not depend on {distribution}")


def _newest(matrix: dict[str, Any]) -> list[str]:
    """The framework pin and extras of an adapter's newest matrix version."""
    version = max(matrix["versions"], key=Version)  # "0.12.52.post1" is a version too
    return [f"{matrix['framework']}=={version}", *matrix["versions"][version]]


CORE_TESTS = (
    f"{CORE}/tests",
    "integration_tests/test_toy_contract.py",
    "integration_tests/core_only.py",
)
"""What the core sessions run: the core's tests, the toy plugin's contract, and the check that
no framework is importable there (a file pytest collects only when named, as here)."""
LOWEST_IGNORE = {
    "packages/standard-tool-langchain": (
        "--ignore=packages/standard-tool-langchain/tests/test_community.py",
    ),
}
"""Test modules the ``lowest`` session leaves out: they need a third-party tool package whose
newest release needs a framework newer than the lower bound (langchain-community and its
langchain need langchain-core 0.3.72+). The oldest adapter session runs them, pinned."""


def envs() -> list[Env]:
    """Every session, in the order ``uvx nox`` runs them."""
    packages = [CORE, *(path for path, _ in adapters())]
    newest = [req for _, matrix in adapters() for req in _newest(matrix)]
    test_requires = [req for _, matrix in adapters() for req in matrix.get("test-requires", [])]
    core_ranges = tuple(declared(CORE, name) for name in CORE_DEPENDENCIES)
    out = [
        Env(
            "lint",
            "ruff check and ruff format --check over everything, mypy --strict over every package, "
            "the core's import graph (one-way layers, no import circles).",
            requires=(
                *LINT_REQUIRES,
                *BOUNDARY_LINT_REQUIRES,
                *TEST_REQUIRES,
                *test_requires,
                *newest,
            ),
            local=(*packages, CLI, PLUGIN, TOY),
            commands=(("python", ".ci/lint.py", POSARGS),),
        ),
        Env(
            "repo",
            "The repository's own checks: tox.ini, README claims, the CI script, interpreters.",
            requires=(*TEST_REQUIRES, "nox>=2025.5.1", "uv>=0.5"),
            commands=(_pytest("tests"),),
        ),
        Env(
            "wheels",
            "Every package built once as a wheel, installed alone (uv) and all together (pip) "
            "in fresh venvs, and used.",
            requires=("uv>=0.5",),
            commands=(("python", ".ci/wheels.py", "--packages", POSARGS),),
        ),
        Env(
            "docs",
            "The documentation site: mkdocs build --strict (the API reference of every package "
            "from its docstrings, the command line's from its click commands), then the built "
            "site opened in Chromium (.ci/docs.py): checked, and screenshots saved.",
            requires=(*DOCS_REQUIRES, *BROWSER_REQUIRES),
            local=(*packages, CLI, PLUGIN),
            commands=(
                ("mkdocs", "build", "--strict", "--site-dir", f"{ENV_DIR}/site"),
                ("python", ".ci/docs.py", f"{ENV_DIR}/site"),
            ),
            variables=(("NO_MKDOCS_2_WARNING", "1"),),
        ),
        Env(
            "install-blocks",
            "Every install block of every Markdown file, run as written in a fresh copy of the "
            "repository, and what it installed used.",
            requires=("uv>=0.5",),
            commands=(("python", ".ci/wheels.py", "--markdown", POSARGS),),
        ),
        Env(
            "core-only",
            "The core alone with the newest dependencies, no framework installed; the toy plugin.",
            requires=TEST_REQUIRES,
            local=(CORE, TOY),
            commands=(_pytest(*CORE_TESTS),),
            versions_of=CORE_DEPENDENCIES,
            ranges=core_ranges,
        ),
        Env(
            "core-lowest",
            "The core with the lowest versions its ranges allow, on the oldest Python.",
            python=LOWEST_PYTHON,
            requires=LOWEST_TEST_REQUIRES,
            local=(CORE, TOY),
            lowest=True,
            commands=(_pytest(*CORE_TESTS),),
            versions_of=CORE_DEPENDENCIES,
            ranges=core_ranges,
        ),
        Env(
            "providers",
            "The provider envelopes against the OpenAI, Anthropic and Gemini SDK types; "
            "property tests.",
            requires=(*TEST_REQUIRES, *PROVIDER_REQUIRES),
            local=(CORE,),
            commands=(_pytest(f"{CORE}/provider_tests"),),
        ),
        Env(
            "boundary",
            "The execution boundary with the core's redis, cedar and otel extras: the Redis "
            "store on a real redis-server (installed; started on 127.0.0.1 for the run).",
            requires=(
                *TEST_REQUIRES,
                "opentelemetry-sdk>=1.20",
                *INBOX_REQUIRES,
                *BROWSER_REQUIRES,
            ),
            local=(BOUNDARY_CORE,),
            commands=(_pytest(f"{CORE}/boundary_tests"),),
        ),
    ]
    for path, matrix in adapters():
        short = path.rsplit("/", 1)[-1].removeprefix("standard-tool-")
        for version, extra in matrix["versions"].items():
            out.append(
                Env(
                    f"{short}-{version}",
                    f"{path.rsplit('/', 1)[-1]} against {matrix['framework']} {version}.",
                    requires=(
                        *TEST_REQUIRES,
                        *matrix.get("test-requires", []),
                        *extra,
                        f"{matrix['framework']}=={version}",
                    ),
                    local=(CORE, path),
                    commands=(_pytest(f"{path}/tests"),),
                    versions_of=(matrix["framework"],),
                    ranges=(declared(path, matrix["framework"]),),
                )
            )
    frameworks = [matrix["framework"] for _, matrix in adapters()]
    out.append(
        Env(
            "lowest",
            "Every package together, each dependency at the lowest version its range allows "
            "(uv's lowest-direct resolution), on the oldest Python: each adapter's own tests.",
            python=LOWEST_PYTHON,
            requires=(*LOWEST_TEST_REQUIRES, *test_requires),
            local=(*packages, PLUGIN),
            lowest=True,
            commands=(
                *(_pytest(f"{path}/tests", *LOWEST_IGNORE.get(path, ())) for path, _ in adapters()),
                _pytest(f"{PLUGIN}/tests"),
            ),
            versions_of=(*frameworks, *CORE_DEPENDENCIES),
            ranges=(
                *(declared(path, matrix["framework"]) for path, matrix in adapters()),
                *core_ranges,
            ),
        )
    )
    for path, matrix in adapters():
        if (ROOT / path / "conformance").is_dir():
            short = path.rsplit("/", 1)[-1].removeprefix("standard-tool-")
            out.append(
                Env(
                    f"{short}-conformance",
                    f"The official conformance suite against {path.rsplit('/', 1)[-1]}, "
                    "newest framework (needs npm).",
                    requires=(*TEST_REQUIRES, *matrix.get("test-requires", []), *_newest(matrix)),
                    local=(CORE, path),
                    commands=(_pytest(f"{path}/conformance"),),
                )
            )
    out.append(
        Env(
            "cli",
            "The standard-tool command, with every adapter and the newest frameworks.",
            requires=(
                *TEST_REQUIRES,
                *test_requires,
                *CLI_TEST_REQUIRES,
                "starlette>=0.37",
                *INBOX_REQUIRES,
                *newest,
            ),
            local=(*packages, CLI, TOY),
            commands=(_pytest(f"{CLI}/tests"),),
        )
    )
    out.append(
        Env(
            "pytest-plugin",
            "The pytest-standard-tool plugin, with every adapter and the newest frameworks.",
            requires=(*TEST_REQUIRES, *test_requires, *newest),
            local=(*packages, PLUGIN, TOY),
            commands=(_pytest(f"{PLUGIN}/tests"),),
        )
    )
    integration = [
        req for _, matrix in adapters() for req in matrix.get("integration-requires", [])
    ]
    out.append(
        Env(
            "integration",
            "Every adapter together, newest frameworks; every Python block of every README.",
            requires=(*TEST_REQUIRES, *INTEGRATION_REQUIRES, *integration),
            local=(*packages, CLI, PLUGIN, TOY),
            commands=(_pytest("integration_tests"),),
        )
    )
    out.append(
        Env(
            "real-tools",
            "Real third-party tools (LangChain, LlamaIndex, smolagents, PydanticAI, OpenAI "
            "Agents SDK, reference MCP servers) through every target; newest frameworks.",
            requires=(*TEST_REQUIRES, *test_requires, *newest, *REAL_TOOLS_REQUIRES),
            local=(*packages, CLI),
            commands=(
                ("python", f"{REAL_TOOLS}/server_venv.py", MCP1_VENV[1], *MCP1_SERVERS),
                _pytest(REAL_TOOLS),
            ),
            variables=(MCP1_VENV,),
        )
    )
    return out


def _runs(python: str, version: str) -> bool:
    """Whether ``python`` starts and is Python ``version`` (a pyenv shim may do neither)."""
    code = "import sys; print('%d.%d' % sys.version_info[:2])"
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and out.stdout.strip() == version


def _output(*command: str) -> str | None:
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def _candidates(version: str) -> Iterator[str | None]:
    yield shutil.which(f"python{version}")
    if uv := shutil.which("uv"):
        yield _output(uv, "python", "find", "--no-project", version)
    if pyenv := shutil.which("pyenv"):
        prefix = _output(pyenv, "prefix", version)
        yield str(Path(prefix, "bin", f"python{version}")) if prefix else None
    yield from _pyenv_versions(version)


def _pyenv_versions(version: str) -> Iterator[str]:
    """pyenv's installs of ``version`` (``$PYENV_ROOT/versions/<version>*``, else
    ``~/.pyenv/versions``), newest first: found whether or not pyenv or a shim is on PATH."""
    roots = [os.environ.get("PYENV_ROOT"), str(Path.home() / ".pyenv")]
    for root in dict.fromkeys(root for root in roots if root):
        found = [
            python
            for python in Path(root, "versions").glob(f"{version}*/bin/python{version}")
            if python.parents[1].name == version or python.parents[1].name.startswith(f"{version}.")
        ]
        newest = sorted(
            found, key=lambda p: [int(n) for n in re.findall(r"\d+", p.parents[1].name)]
        )
        yield from (str(python) for python in reversed(newest))


@functools.cache
def interpreter(version: str) -> str:
    """An installed ``python<version>``: on PATH, found by uv, or installed by pyenv (asked,
    or found in its ``versions`` folder); looked for once per version.

    Else the bare version, which nox looks for itself and, not finding it, fails the session.
    """
    return next((c for c in _candidates(version) if c and _runs(c, version)), version)


VERSIONS = """
import importlib.metadata, importlib.util, json, platform, sys
def version(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None
def importable(module):
    try:  # a dotted name whose parent is missing raises
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False
names, modules = sys.argv[2].split(","), sys.argv[3].split(",")
json.dump({
    "python": platform.python_version(),
    "versions": {name: version(name) for name in names},
    "importable": [m for m in modules if importable(m)],
}, open(sys.argv[1], "w"))
"""
"""Run in a cell's venv: its Python, the versions of ``versions_of``, which frameworks import."""


def _session(env: Env) -> None:
    def run(session: nox.Session) -> None:
        for install in env.installs():
            session.install(*install)
        reports = os.environ.get(REPORTS) if env.versions_of else None
        if reports:
            folder = Path(reports, env.name)
            folder.mkdir(parents=True, exist_ok=True)
            names, modules = ",".join(env.versions_of), ",".join(FRAMEWORK_MODULES)
            versions = str(folder / "versions.json")
            session.run("python", "-c", VERSIONS, versions, names, modules, silent=True)
        where = str(session.virtualenv.location)
        variables = {name: value.replace(ENV_DIR, where) for name, value in env.variables}
        for index, command in enumerate(env.commands):
            args = [
                arg.replace(ENV_DIR, where)
                for part in command
                for arg in (session.posargs if part == POSARGS else [part])
            ]
            if reports and command[:3] == ("python", "-m", "pytest"):
                args.append(f"--junitxml={Path(reports, env.name, f'junit-{index}.xml')}")
            session.run(*args, env=variables)

    run.__doc__ = env.doc
    nox.session(name=env.name, python=interpreter(env.python))(run)


ENVS = envs()
for _env in ENVS:
    _session(_env)


def tox_ini() -> str:
    """tox.ini, written from ``ENVS``: the same environment names, pins and commands."""
    lines = [
        "# Written by `uvx nox -s tox-ini` from noxfile.py (the source of truth); do not edit.",
        "# The same environments as nox: `uvx --with tox-uv tox -e core` (or any name below).",
        "[tox]",
        "requires = tox-uv>=1",
        "env_list =",
        *(f"    {env.name}" for env in ENVS),
        "",
        "[testenv]",
        "package = skip",
        "allowlist_externals = uv",
        "pass_env = CI, UV_*, SSL_CERT_FILE, SSL_CERT_DIR",
        "set_env =",
        "    UV_PYTHON_DOWNLOADS = never",
    ]
    for env in ENVS:
        lines += ["", f"# {env.doc}", f"[testenv:{env.name}]", f"base_python = python{env.python}"]
        lines += ["commands_pre ="]
        lines += [f"    uv pip install {' '.join(install)}" for install in env.installs()]
        if env.variables:
            lines += ["set_env =", "    {[testenv]set_env}"]
            lines += [f"    {name} = {value}" for name, value in env.variables]
        lines += ["commands ="]
        lines += [f"    {' '.join(command)}" for command in env.commands]
    return "\n".join(lines) + "\n"


@nox.session(name="tox-ini", default=False, python=False)
def write_tox_ini(session: nox.Session) -> None:
    """Write tox.ini from the sessions above."""
    (ROOT / "tox.ini").write_text(tox_ini())
    session.log("wrote tox.ini")


@nox.session(name="matrix", default=False, python=False)
def matrix(session: nox.Session) -> None:
    """Run every matrix cell (a fresh nox run), then write COMPATIBILITY.md from their reports."""
    cells = [env.name for env in ENVS if env.versions_of]
    reports = ROOT / ".nox" / "matrix-reports"
    shutil.rmtree(reports, ignore_errors=True)
    reports.mkdir(parents=True)
    command = [sys.executable, "-m", "nox", "--noxfile", str(ROOT / "noxfile.py")]
    command += ["--sessions", *cells]
    if session.posargs:
        command += ["--", *session.posargs]
    status = subprocess.run(command, env={**os.environ, REPORTS: str(reports)}).returncode
    COMPATIBILITY.write_text(compatibility(reports))
    session.log(f"wrote {COMPATIBILITY.name}")
    if status:
        session.error(f"a matrix cell failed (exit status {status}); see {COMPATIBILITY.name}")


def counts(folder: Path) -> dict[str, int]:
    """Passed, skipped and failed tests of every JUnit report in ``folder``."""
    total = {"passed": 0, "skipped": 0, "failed": 0}
    for report in sorted(folder.glob("junit-*.xml")):
        for suite in ElementTree.parse(report).getroot().iter("testsuite"):
            tests, skipped = int(suite.get("tests", 0)), int(suite.get("skipped", 0))
            failed = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
            total["passed"] += tests - skipped - failed
            total["skipped"] += skipped
            total["failed"] += failed
    return total


def compatibility(reports: Path) -> str:
    """COMPATIBILITY.md, from the reports the cells of ``nox -s matrix`` wrote."""
    lines = [
        "# Compatibility",
        "",
        "Written by `uvx nox -s matrix` from what each session's own venv and pytest reported;",
        "do not edit. Each row is a session of `noxfile.py`: the declared range of each",
        "distribution (the dependency specifier in its package's `pyproject.toml`), the version",
        "installed, the Python, the frameworks importable there, and the test counts (skipped",
        "includes expected failures). `tests/test_compatibility.py` checks this file against the",
        "declared ranges and the sessions.",
        "",
        "| session | Python | declared | installed | frameworks importable "
        "| passed | skipped | failed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for env in ENVS:
        if not env.versions_of:
            continue
        folder = reports / env.name
        try:
            found = json.loads((folder / "versions.json").read_text())
        except (OSError, ValueError):
            found = {"python": "?", "versions": {}, "importable": ["?"]}
        installed = ", ".join(
            f"{name} {found['versions'].get(name) or 'missing'}" for name in env.versions_of
        )
        importable = ", ".join(found["importable"]) or "none"
        number = counts(folder)
        lines.append(
            f"| `{env.name}` | {found['python']} | {', '.join(f'`{r}`' for r in env.ranges)} "
            f"| {installed} | {importable} "
            f"| {number['passed']} | {number['skipped']} | {number['failed']} |"
        )
    return "\n".join(lines) + "\n\n" + real_tools_section()


def corpus() -> list[dict[str, Any]]:
    """The sources of the real-tools corpus: ``SOURCES`` in ``corpus.py``, read as a literal."""
    for node in ast.parse(CORPUS.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "SOURCES" for target in node.targets
        ):
            return list(ast.literal_eval(node.value))
    raise LookupError(f"{CORPUS.relative_to(ROOT)} has no SOURCES")


def real_tools_section() -> str:
    """The section of ``COMPATIBILITY.md`` that names each tool of the real-tools corpus, with
    the distribution its code comes from as the ``real-tools`` session pins it."""
    (env,) = [env for env in ENVS if env.name == "real-tools"]
    pins: dict[str, str] = {}
    for text in (*env.requires, *MCP1_SERVERS):
        requirement = Requirement(text)
        if requirement.specifier and requirement.name not in pins:
            pins[requirement.name] = f"{requirement.name}{requirement.specifier}"
    sources = corpus()
    count = sum(len(source["tools"]) for source in sources)
    called = sum(len(source["tools"]) for source in sources if source["reaches"])
    lines = [
        "## Real third-party tools",
        "",
        "Written by `uvx nox -s matrix` from the corpus' one list of tools,",
        f"`{CORPUS.relative_to(ROOT).as_posix()}`; do not edit. The `real-tools` session runs",
        f"each of these {count} tools, which no one here wrote, through every installed target",
        "(`standard_tool.checks.check_tool`: convert, schema, round trip, call, refuse), and",
        "checks that every target accepts and refuses the inputs the direct call accepts and",
        f"refuses. {called} are called, on this machine only; the other {count - called} need the",
        "network: they are converted and checked, never called.",
        "",
        "| source | distribution | made by | tools | a call reaches |",
        "|---|---|---|---|---|",
    ]
    for source in sources:
        names = source["distribution"].split(", ")
        distributions = ", ".join(f"`{pins[name]}`" for name in names)
        tools = ", ".join(f"`{tool['name']}`" for tool in source["tools"])
        reaches = source["reaches"] or "nothing: not called (needs the network)"
        lines.append(
            f"| {source['source']} | {distributions} | {source['made']} | {tools} | {reaches} |"
        )
    return "\n".join(lines) + "\n"
