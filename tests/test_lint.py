"""``.ci/lint.py``: where mypy keeps its cache between runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def lint() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lint", ROOT / ".ci" / "lint.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mypy_keeps_its_cache_in_the_users_cache_folder(
    lint: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "cache" / "standard-tool" / "mypy"
    assert lint.mypy_cache() == ["--cache-dir", str(folder)]
    assert folder.is_dir()
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert lint.mypy_cache() == ["--cache-dir", str(tmp_path / "home/.cache/standard-tool/mypy")]


def test_mypy_keeps_its_own_cache_when_the_cache_folder_is_a_file(
    lint: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    assert lint.mypy_cache() == []


def test_mypy_keeps_its_own_cache_when_there_is_no_home_folder(
    lint: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", no_home)
    assert lint.mypy_cache() == []
