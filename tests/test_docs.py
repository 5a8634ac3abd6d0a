"""The documentation site's sources agree with each other and with the packages: every page is
in the navigation and every page of the navigation exists, every public module has its
reference, and every included file is there.

Read from the files only (the ``docs`` session builds the site with ``mkdocs build --strict``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CONFIG = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
API = DOCS / "reference" / "api"
UNDOCUMENTED = {"standard_tool_cli"}
"""Packages with no API reference: the command line's reference is its own page (``cli.md``)."""


def nav() -> list[str]:
    """The pages ``mkdocs.yml``'s ``nav`` names, in order (``- Title: page.md`` or ``- page.md``)."""
    match = re.search(r"^nav:\n((?:[ \t]+.*\n?|\n)*)", CONFIG, re.M)
    assert match, "mkdocs.yml has no nav"
    return re.findall(r"^\s*- (?:[^\n]*?: )?(\S+\.md)\s*$", match.group(1), re.M)


def public_modules() -> set[str]:
    """The importable modules of every package whose dotted name has no ``_`` segment."""
    out = set()
    for source in sorted(ROOT.glob("packages/*/src")):
        for path in source.rglob("*.py"):
            parts = list(path.relative_to(source).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            if parts and not any(part.startswith("_") for part in parts):
                out.add(".".join(parts))
    return {name for name in out if name.split(".")[0] not in UNDOCUMENTED}


def referenced() -> dict[str, list[str]]:
    """The modules each API page renders (its ``::: module`` lines), by page."""
    return {
        page.name: re.findall(r"^::: ([\w.]+)\s*$", page.read_text(encoding="utf-8"), re.M)
        for page in sorted(API.glob("*.md"))
    }


def test_the_nav_names_pages() -> None:
    pages = nav()
    assert "index.md" in pages and "reference/api/standard-tool.md" in pages
    assert len(pages) == len(set(pages)), "a page is twice in the nav"


def test_every_page_is_in_the_nav() -> None:
    pages = {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}
    assert sorted(pages - set(nav())) == []


def test_every_page_of_the_nav_exists() -> None:
    assert [page for page in nav() if not (DOCS / page).is_file()] == []


def test_every_public_module_has_its_reference() -> None:
    modules = public_modules()
    assert {"standard_tool", "standard_tool.boundary", "pytest_standard_tool"} <= modules
    named = [module for names in referenced().values() for module in names]
    assert sorted(modules - set(named)) == [], "a public module no page of docs/reference/api shows"
    assert sorted(set(named) - modules) == [], "a page shows a module that is not public"
    assert len(named) == len(set(named)), "a module is shown twice"


def test_each_package_has_its_page() -> None:
    pages = referenced()
    for source in sorted(ROOT.glob("packages/*/src")):
        package = source.parent.name
        (top,) = [path.name for path in source.iterdir() if (path / "__init__.py").is_file()]
        if top in UNDOCUMENTED:
            continue
        assert top in pages.get(f"{package}.md", []), f"{package}.md does not show {top}"


def test_every_included_file_and_section_exists() -> None:
    includes = [
        (page, name)
        for page in sorted(DOCS.rglob("*.md"))
        for name in re.findall(r'^--8<-- "([^"]+)"\s*$', page.read_text(encoding="utf-8"), re.M)
    ]
    assert includes, "no page includes a file"
    for page, name in includes:
        path, _, selection = name.partition(":")
        assert (ROOT / path).is_file(), f"{page.relative_to(ROOT)} includes {path}, missing"
        if selection and not selection.split(":")[0].isdigit():
            marker = f"--8<-- [start:{selection}]"
            assert marker in (ROOT / path).read_text(encoding="utf-8"), (
                f"{page.relative_to(ROOT)} includes the section {selection} of {path}, which "
                f"has no {marker!r}"
            )
