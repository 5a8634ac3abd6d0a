"""The test command: tox.ini mirrors the noxfile, and a missing interpreter fails the run."""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from nox.project import load_toml

ROOT = Path(__file__).resolve().parents[1]


def test_tox_ini_is_the_one_the_noxfile_writes(noxfile: ModuleType) -> None:
    assert (ROOT / "tox.ini").read_text() == noxfile.tox_ini(), "run `uvx nox -s tox-ini`"


def test_tox_ini_holds_every_session(noxfile: ModuleType) -> None:
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "tox.ini")
    names = [env.name for env in noxfile.ENVS]
    assert config["tox"]["env_list"].split() == names
    for env in noxfile.ENVS:
        section = config[f"testenv:{env.name}"]
        assert section["base_python"] == f"python{env.python}"
        assert section["commands_pre"].split("\n")[1:] == [
            "uv pip install " + " ".join(args) for args in env.installs()
        ]


def test_each_adapter_version_installs_with_its_framework_pinned(noxfile: ModuleType) -> None:
    envs = {env.name: env for env in noxfile.ENVS}
    adapters = [
        package
        for package in sorted((ROOT / "packages").glob("standard-tool-*"))
        if "matrix"
        in load_toml(package / "pyproject.toml").get("tool", {}).get("standard-tool", {})
    ]
    assert len(adapters) >= 4
    for package in adapters:
        matrix = load_toml(package / "pyproject.toml")["tool"]["standard-tool"]["matrix"]
        short = package.name.removeprefix("standard-tool-")
        for version, extra in matrix["versions"].items():
            (install,) = envs[f"{short}-{version}"].installs()  # one resolution: ranges are checked
            assert f"{matrix['framework']}=={version}" in install
            assert set(extra) <= set(install)
            assert install[-4:] == [
                "-e",
                "packages/standard-tool",
                "-e",
                f"packages/{package.name}",
            ]


def test_the_command_line_has_its_session_with_every_adapter(noxfile: ModuleType) -> None:
    envs = {env.name: env for env in noxfile.ENVS}
    (install,) = envs["cli"].installs()
    assert "mcp-server-time" in install
    for package in sorted((ROOT / "packages").glob("standard-tool*")):
        assert f"packages/{package.name}" in install
    assert envs["cli"].commands == (
        (
            "python",
            "-m",
            "pytest",
            "packages/standard-tool-cli/tests",
            "--durations=10",
            "{posargs}",
        ),
    )
    for name in ("lint", "integration"):
        assert "packages/standard-tool-cli" in envs[name].installs()[0]


def test_the_noxfile_names_no_path_outside_the_repository() -> None:
    source = (ROOT / "noxfile.py").read_text()
    assert not re.findall(r"""["'](?:/|~/|[A-Za-z]:\\)\w[^"']*""", source)


@pytest.fixture(autouse=True)
def _interpreters_looked_for_anew(noxfile: ModuleType) -> Iterator[None]:
    """The noxfile looks for each interpreter once: each test here looks in its own
    environment."""
    noxfile.interpreter.cache_clear()
    yield
    noxfile.interpreter.cache_clear()


def test_interpreters_are_found_or_left_to_nox(noxfile: ModuleType) -> None:
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    found = noxfile.interpreter(version)
    out = subprocess.run(
        [found, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True
    )
    assert out.stdout.strip() == str(sys.version_info[:2])
    assert noxfile.interpreter("3.99") == "3.99"


def test_a_missing_interpreter_fails_the_run(tmp_path: Path) -> None:
    env = {
        key: value for key, value in os.environ.items() if key not in {"CI", "NOX_CURRENT_SESSION"}
    }
    command = [sys.executable, "-m", "nox", "--noxfile", str(ROOT / "noxfile.py")]
    command += ["--envdir", str(tmp_path), "--force-python", "3.99", "--sessions", "core-only"]
    out = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode != 0, out.stderr
    assert re.search(r"interpreter 3\.99 not found", out.stderr, re.I), out.stderr
    assert "skipped" not in out.stderr.lower()


def test_a_session_that_runs_no_test_fails(tmp_path: Path) -> None:
    """pytest's exit status 5 ("no tests ran") fails the session, and so the run."""
    env = {key: value for key, value in os.environ.items() if key != "NOX_CURRENT_SESSION"}
    command = [sys.executable, "-m", "nox", "--noxfile", str(ROOT / "noxfile.py")]
    command += [
        "--envdir",
        str(tmp_path),
        "--sessions",
        "repo",
        "--",
        "-k",
        "no_test_has_this_name",
    ]
    out = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode != 0, out.stderr
    assert "failed with exit code 5" in out.stderr, out.stderr


def _pyenv_install(root: Path, version: str) -> Path:
    """A pyenv-style install of this interpreter, ``<root>/versions/<X.Y.Z>/bin/pythonX.Y``."""
    folder = root / "versions" / f"{version}.{sys.version_info[2]}" / "bin"
    folder.mkdir(parents=True)
    python = folder / f"python{version}"
    python.symlink_to(Path(sys.executable).resolve())
    return python


def test_a_pyenv_interpreter_is_found_without_pyenv_on_path(
    noxfile: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neither on PATH nor selected by pyenv's shims, a Python in ``$PYENV_ROOT/versions`` is
    found (``uv python find`` does not look there)."""
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    python = _pyenv_install(tmp_path / "pyenv", version)
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert noxfile.interpreter(version) == str(python)


def test_a_pyenv_interpreter_is_found_in_the_default_pyenv_root(
    noxfile: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    python = _pyenv_install(tmp_path / "home" / ".pyenv", version)
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("PYENV_ROOT", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert noxfile.interpreter(version) == str(python)
    assert noxfile.interpreter("3.99") == "3.99"
