"""The documentation site: how its API reference reads the packages, and a built site's check.

Run by the ``docs`` session (``uvx nox -s docs``) after ``mkdocs build --strict``::

    python .ci/docs.py SITE

checks that every name each public module exports (its ``__all__``, imported) has its entry
in the API reference and that no docstring's Sphinx role is left as written; then serves the
built site on 127.0.0.1 (a free port, in a thread), opens its front page and the core's API
reference in Debian's Chromium (``/usr/bin/chromium``, driven headless by Playwright; never a
downloaded browser), checks that each page rendered (its title, the navigation, no missing
page, no script error) and that the search index names the core's ``Gate``, then saves a
screenshot of each page into ``SITE/screenshots/`` and prints their paths.

``mkdocs.yml`` also names this file as a griffe extension (:class:`PackageDocstrings`), which
mkdocstrings loads to read the packages' docstrings as the site shows them.
"""

from __future__ import annotations

import ast
import functools
import html
import http.server
import importlib
import json
import re
import sys
import threading
from pathlib import Path
from typing import Any

import griffe

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PAGES = (
    ("", "front-page.png", "h1#standard-tool"),
    ("reference/api/standard-tool/", "api-reference.png", "[id='standard_tool.boundary.Gate']"),
)
"""Each page checked: its path in the site, its screenshot's name, and an element it must show
(a CSS selector): the front page's title, the reference's entry of the core's gate."""
SEARCHED = "Gate"
"""A name the search index must hold: the core's gate (``standard_tool.boundary.Gate``)."""

ROLE = re.compile(r":(?:py:)?(?:func|meth|class|attr|data|mod|exc|obj):`(~?)\.?([^`]+)`")
"""A Sphinx cross-reference (``:func:`name```, ``:class:`~pkg.Name```) in a docstring."""
LITERAL = re.compile(r"(\S)::$|^\s*::$", flags=re.MULTILINE)
"""A paragraph ending in ``::``, which in reStructuredText introduces the indented block below."""


class PackageDocstrings(griffe.Extension):
    """Reads the packages as their users see them, for mkdocstrings.

    - An adapter package's names load on first use (``standard_tool.adapters.lazy_exports``):
      its ``__all__`` is the relative imports of its ``if TYPE_CHECKING:`` block, which this
      extension reads the same way, so that the reference shows them.
    - Docstrings cross-reference in Sphinx's roles (``:func:`call```): each becomes a link to
      the object's entry when the site shows one, and its name in code otherwise. A
      paragraph ending in ``::`` ends in ``:`` (its indented block is code in Markdown too).
    """

    def on_module_members(self, *, mod: griffe.Module, **kwargs: Any) -> None:
        """Give a module whose ``__all__`` is made by ``lazy_exports`` its exported names."""
        if mod.filepath is None or isinstance(mod.filepath, list):
            return
        names = lazy_names(mod.filepath.read_text(encoding="utf-8"))
        if names is not None:
            exports: list[str | griffe.ExprName] = list(names)
            mod.exports = exports

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the Sphinx roles of every docstring of the package."""
        for obj in walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = markdown(obj.docstring.value, obj)


def lazy_names(source: str) -> list[str] | None:
    """The names ``lazy_exports`` gives a module of this source, or ``None`` for a module whose
    ``__all__`` is not made by it."""
    body = ast.parse(source).body
    if not any(
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "lazy_exports"
        for node in body
    ):
        return None
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.If) and ast.unparse(node.test) in {
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        }:
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.level:
                    names.update(alias.asname or alias.name for alias in statement.names)
    return sorted(names)


def walk(obj: griffe.Object) -> list[griffe.Object]:
    """``obj`` and everything defined in it (not what it imports), depth first."""
    out = [obj]
    for member in obj.members.values():
        if not member.is_alias and isinstance(member, griffe.Object):
            out += walk(member)
    return out


def markdown(text: str, owner: griffe.Object) -> str:
    """A docstring's text with its Sphinx roles made links (or code) and ``::`` made ``:``."""

    def link(match: re.Match[str]) -> str:
        short, written = match.groups()
        name = re.sub(r"\s+", "", written)  # a name may be broken across lines
        shown = name.rsplit(".", 1)[-1] if short else name
        target = resolve(name, owner)
        return (
            f'<autoref identifier="{html.escape(target)}" optional>'
            f"<code>{html.escape(shown)}</code></autoref>"
        )

    text = ROLE.sub(link, text)
    return LITERAL.sub(lambda match: f"{match.group(1)}:" if match.group(1) else "", text)


def resolve(name: str, owner: griffe.Object) -> str:
    """The path of the object ``name`` names in a docstring of ``owner``: looked up from
    ``owner`` outwards (its class, module, package), else taken as a full path. An imported
    name resolves to where it is defined, which the site's entry of every public re-export
    of it answers to."""
    first, *rest = name.split(".")
    scope: griffe.Object | None = owner if owner.kind.value in {"module", "class"} else owner.parent
    found: Any = None
    while scope is not None and found is None:
        found = scope.members.get(first)
        scope = scope.parent
    if found is None:
        return name
    try:
        for part in rest:
            found = found.members[part]
        path: str = found.canonical_path
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return name
    return path


def check_reference(site: Path) -> None:
    """Every name each public module exports has its entry in the built API reference, and no
    Sphinx role is left unrendered anywhere in the site."""
    for page in sorted((ROOT / "docs" / "reference" / "api").glob("*.md")):
        built = site / "reference" / "api" / page.stem / "index.html"
        text = built.read_text(encoding="utf-8")
        for module in re.findall(r"^::: ([\w.]+)\s*$", page.read_text(encoding="utf-8"), re.M):
            names = getattr(importlib.import_module(module), "__all__", [])
            missing = [name for name in names if f'id="{module}.{name}"' not in text]
            if missing:
                raise SystemExit(f"{built} has no entry for {module}.{missing[0]}")
    for built in sorted(site.rglob("*.html")):
        left = re.search(
            r":(?:func|meth|class|attr|data|mod|exc|obj):<code>", built.read_text("utf-8")
        )
        if left:
            raise SystemExit(f"{built} shows a Sphinx role as written: {left.group(0)}")


def check(site: Path) -> list[Path]:
    """Open the built site's pages in Chromium, check them, and save their screenshots."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise SystemExit(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)"
        )
    index = site / "search" / "search_index.json"
    if not index.is_file():
        raise SystemExit(f"{index} is missing: the site has no search index")
    entries = json.loads(index.read_text(encoding="utf-8"))["docs"]
    if not any(SEARCHED in entry["title"] for entry in entries):
        raise SystemExit(f"the search index of {site} names no {SEARCHED!r}")
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}/"
    shots = site / "screenshots"
    shots.mkdir(exist_ok=True)
    saved = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                for path, name, element in PAGES:
                    page = browser.new_page(viewport={"width": 1280, "height": 900})
                    errors: list[object] = []
                    page.on("pageerror", functools.partial(list.append, errors))
                    response = page.goto(origin + path, wait_until="load")
                    where = f"the page {path or '/'} of {site}"
                    if response is None or response.status != 200:
                        status = response.status if response else "no answer"
                        raise SystemExit(f"{where} answered {status}, not 200")
                    if "standard-tool" not in page.title():
                        raise SystemExit(f"{where} has the title {page.title()!r}")
                    if page.locator("nav.md-nav--primary").count() == 0:
                        raise SystemExit(f"{where} shows no navigation")
                    if page.locator(element).count() == 0:
                        raise SystemExit(f"{where} shows no {element}")
                    if errors:
                        raise SystemExit(f"{where} raised a script error: {errors[0]}")
                    saved.append(shots / name)
                    page.screenshot(path=str(shots / name))
                    page.close()
            finally:
                browser.close()
    finally:
        server.shutdown()
    return saved


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Log nothing: the check says what failed."""


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: python {argv[0]} SITE", file=sys.stderr)
        return 2
    check_reference(Path(argv[1]))
    for path in check(Path(argv[1])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
