"""The documentation site's "Write an adapter" guide is the toy plugin, word for word."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "how-to" / "write-an-adapter.md").read_text()
TOY = ROOT / "integration_tests" / "toy-plugin"


def _section() -> str:
    return GUIDE


def test_the_guide_shows_the_toy_plugin_modules() -> None:
    for module in ("_plugin.py", "_convert.py", "_runtime.py"):
        source = (TOY / "src" / "standard_tool_toy" / module).read_text().rstrip()
        assert f"```python\n{source}\n```" in _section(), module


def test_the_guide_shows_the_toy_entry_point_and_contract() -> None:
    pyproject = (TOY / "pyproject.toml").read_text()
    entry = '[project.entry-points.standard_tool]\ntoy = "standard_tool_toy._plugin:adapter"'
    assert entry in pyproject and f"```toml\n{entry}\n```" in _section()
    contract = (ROOT / "integration_tests" / "test_toy_contract.py").read_text()
    shown = contract[contract.index("from standard_tool.names") :].rstrip()
    assert f"```python\n{shown}\n```" in _section()
