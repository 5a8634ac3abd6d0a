"""The compatibility matrix: one session per package and framework version.

Each adapter declares its matrix in its own ``pyproject.toml``::

    [tool.standard-tool.matrix]
    framework = "langchain-core"            # the distribution pinned per session
    test-requires = ["pytest-asyncio"]      # extra test dependencies for every session

    [tool.standard-tool.matrix.versions]    # version -> extra requirements of that session
    "0.3.86" = ["langchain-community==0.3.31"]
    "1.8.4" = []

and gets a session ``<package>-<version>`` that installs the core, the adapter and the
pinned framework together (so a wrong declared range fails at install) and runs its tests.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path

import nox
import tomllib

nox.options.default_venv_backend = "uv"
os.environ.setdefault("UV_PYTHON_DOWNLOADS", "never")  # use the interpreters on this machine

ROOT = Path(__file__).parent
PYTHON = "3.11"
TEST_REQUIRES = ["pytest>=8", "pytest-asyncio>=0.23", "jsonschema>=4.20"]
CORE = "packages/standard-tool"
TOY = "integration_tests/toy-plugin"


def _pytest(session: nox.Session, *paths: str) -> None:
    session.run("python", "-m", "pytest", *paths, *session.posargs)


@nox.session(python=PYTHON)
def core(session: nox.Session) -> None:
    """The core package, with the toy third-party plugin installed from its distribution."""
    session.install(*TEST_REQUIRES, "-e", CORE, "-e", TOY)
    _pytest(session, f"{CORE}/tests", "integration_tests/test_toy_contract.py")


def _interpreter(version: str) -> str:
    """A path to a working ``python<version>``, looking past pyenv shims; else the bare version."""
    candidates = [
        shutil.which(f"python{version}"),
        *sorted(glob.glob(f"/root/.pyenv/versions/{version}.*/bin/python{version}")),
    ]
    candidates += sorted(
        glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}.*/bin/python{version}"))
    )
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    return version


@nox.session(name="core-lowest", python=_interpreter("3.10"))
def core_lowest(session: nox.Session) -> None:
    """The core with the lowest versions its dependency ranges allow."""
    session.install(*TEST_REQUIRES)
    session.install("--resolution", "lowest-direct", "-e", CORE, "-e", TOY)
    _pytest(session, f"{CORE}/tests", "integration_tests/test_toy_contract.py")


def _adapter_session(
    package: Path, framework: str, version: str, extra: list[str], requires: list[str]
) -> None:
    short = package.name.removeprefix("standard-tool-")

    @nox.session(name=f"{short}-{version}", python=PYTHON)
    def run(session: nox.Session) -> None:
        session.install(
            *TEST_REQUIRES,
            *requires,
            *extra,
            "-e",
            CORE,
            "-e",
            str(package),
            f"{framework}=={version}",
        )
        _pytest(session, str(package / "tests"))

    run.__doc__ = f"{package.name} against {framework} {version}."


for _package in sorted((ROOT / "packages").glob("standard-tool-*")):
    _config = tomllib.loads((_package / "pyproject.toml").read_text())
    _matrix = _config.get("tool", {}).get("standard-tool", {}).get("matrix")
    if not _matrix:
        continue
    for _version, _extra in _matrix["versions"].items():
        _adapter_session(
            _package.relative_to(ROOT),
            _matrix["framework"],
            _version,
            list(_extra),
            list(_matrix.get("test-requires", [])),
        )


@nox.session(python=PYTHON)
def integration(session: nox.Session) -> None:
    """Cross-framework tests: every adapter installed together, newest frameworks."""
    packages = [
        str(p.relative_to(ROOT)) for p in sorted((ROOT / "packages").glob("standard-tool*"))
    ]
    editable = [arg for path in [*packages, TOY] for arg in ("-e", path)]
    requires = []
    for path in packages:
        matrix = (
            tomllib.loads((ROOT / path / "pyproject.toml").read_text())
            .get("tool", {})
            .get("standard-tool", {})
            .get("matrix", {})
        )
        requires += matrix.get("integration-requires", [])
    session.install(*TEST_REQUIRES, *requires, *editable)
    _pytest(session, "integration_tests")
