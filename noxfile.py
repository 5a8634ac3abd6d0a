"""The test command, ``uvx nox``: every session below runs by default.

- ``lint``: ruff (check and format) over everything, ``mypy --strict`` over every package.
- ``repo``: the repository's own checks (``tests/``): tox.ini, the README, the CI script.
- ``wheels``: every package built as a wheel and installed alone, with uv and with pip.
- ``core`` / ``core-lowest``: the core and the toy third-party plugin, newest and lowest
  dependency versions.
- ``providers``: the core's provider envelopes (``standard_tool.providers``) against the
  providers' own SDK types, and property tests generating inputs from each schema.
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
- ``integration``: every adapter together with the newest frameworks; also runs every Python
  block of every Markdown file.

Each session is an ``Env`` (what to install, what to run); ``tox.ini`` is written from the same
list by ``nox -s tox-ini``, and the ``repo`` session fails when the committed file differs.

Interpreters are never downloaded: a session whose Python is not installed fails (it is not
skipped). ``--download-python auto`` lets nox ask uv for one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nox
import nox.project

nox.needs_version = ">=2025.5.1"
nox.options.default_venv_backend = "uv"
nox.options.error_on_missing_interpreters = True
nox.options.download_python = "never"
os.environ.setdefault("UV_PYTHON_DOWNLOADS", "never")

ROOT = Path(__file__).resolve().parent
PYTHON = "3.11"
LOWEST_PYTHON = "3.10"
CORE = "packages/standard-tool"
TOY = "integration_tests/toy-plugin"
TEST_REQUIRES = ("pytest>=8", "pytest-asyncio>=0.23", "jsonschema>=4.20")
LINT_REQUIRES = (
    "ruff==0.17.6",
    "mypy==2.4.1",
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
POSARGS = "{posargs}"
"""Stands for the arguments after ``--`` (nox) or ``--`` (tox) in a command."""


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
    """Install ``local`` with the lowest versions their dependency ranges allow."""
    commands: tuple[tuple[str, ...], ...] = ()

    def installs(self) -> list[list[str]]:
        """The ``uv pip install`` argument lists, in order."""
        editable = [arg for path in self.local for arg in ("-e", path)]
        if not self.lowest:
            return [[*self.requires, *editable]]
        return [list(self.requires), ["--resolution", "lowest-direct", *editable]]


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
    return ("python", "-m", "pytest", *paths, POSARGS)


def _newest(matrix: dict[str, Any]) -> list[str]:
    """The framework pin and extras of an adapter's newest matrix version."""
    version = max(matrix["versions"], key=lambda v: tuple(int(p) for p in v.split(".")))
    return [f"{matrix['framework']}=={version}", *matrix["versions"][version]]


def envs() -> list[Env]:
    """Every session, in the order ``uvx nox`` runs them."""
    packages = [CORE, *(path for path, _ in adapters())]
    newest = [req for _, matrix in adapters() for req in _newest(matrix)]
    test_requires = [req for _, matrix in adapters() for req in matrix.get("test-requires", [])]
    out = [
        Env(
            "lint",
            "ruff check and ruff format --check over everything, mypy --strict over every package.",
            requires=(*LINT_REQUIRES, *TEST_REQUIRES, *test_requires, *newest),
            local=(*packages, TOY),
            commands=(("python", ".ci/lint.py", POSARGS),),
        ),
        Env(
            "repo",
            "The repository's own checks: tox.ini, README claims, the CI script, interpreters.",
            requires=(*TEST_REQUIRES, "nox>=2025.5.1"),
            commands=(_pytest("tests"),),
        ),
        Env(
            "wheels",
            "Every package as a wheel, installed alone (uv and pip) in a fresh venv and used.",
            requires=("uv>=0.5",),
            commands=(("python", ".ci/wheels.py", POSARGS),),
        ),
        Env(
            "core",
            "The core with the newest dependencies, and the toy third-party plugin.",
            requires=TEST_REQUIRES,
            local=(CORE, TOY),
            commands=(_pytest(f"{CORE}/tests", "integration_tests/test_toy_contract.py"),),
        ),
        Env(
            "core-lowest",
            "The core with the lowest versions its ranges allow, on the oldest Python.",
            python=LOWEST_PYTHON,
            requires=TEST_REQUIRES,
            local=(CORE, TOY),
            lowest=True,
            commands=(_pytest(f"{CORE}/tests", "integration_tests/test_toy_contract.py"),),
        ),
        Env(
            "providers",
            "The provider envelopes against the OpenAI, Anthropic and Gemini SDK types; "
            "property tests.",
            requires=(*TEST_REQUIRES, *PROVIDER_REQUIRES),
            local=(CORE,),
            commands=(_pytest(f"{CORE}/provider_tests"),),
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
    integration = [
        req for _, matrix in adapters() for req in matrix.get("integration-requires", [])
    ]
    out.append(
        Env(
            "integration",
            "Every adapter together, newest frameworks; every Python block of every README.",
            requires=(*TEST_REQUIRES, "pytest-examples>=0.0.18", *integration),
            local=(*packages, TOY),
            commands=(_pytest("integration_tests"),),
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


def interpreter(version: str) -> str:
    """An installed ``python<version>``: on PATH, found by uv, or installed by pyenv.

    Else the bare version, which nox looks for itself and, not finding it, fails the session.
    """
    return next((c for c in _candidates(version) if c and _runs(c, version)), version)


def _session(env: Env) -> None:
    def run(session: nox.Session) -> None:
        for install in env.installs():
            session.install(*install)
        for command in env.commands:
            args = [
                arg for part in command for arg in (session.posargs if part == POSARGS else [part])
            ]
            session.run(*args)

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
        lines += ["commands ="]
        lines += [f"    {' '.join(command)}" for command in env.commands]
    return "\n".join(lines) + "\n"


@nox.session(name="tox-ini", default=False, python=False)
def write_tox_ini(session: nox.Session) -> None:
    """Write tox.ini from the sessions above."""
    (ROOT / "tox.ini").write_text(tox_ini())
    session.log("wrote tox.ini")
