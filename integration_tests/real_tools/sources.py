"""How each source of the corpus (``corpus.SOURCES``) is made, with the frameworks' own API.

:func:`build` returns a source's tools adopted as standard tools, by name. Tools whose call
changes what the next call needs are wrapped in :class:`Restoring` (see ``corpus.py``).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Any

import standard_tool as st
from standard_tool.adapters import WrapperTool
from standard_tool.registry import adopt_tools

ANSWER = "Use the staging database."
"""What the person answers when a tool asks one (LangChain's ``human``, smolagents'
``user_input``)."""
SERVICE = {"service": {"name": "corpus", "ports": [80, 443]}}
"""The dict the JSON toolkit explores."""
GIT_DATE = "1704164645 +0000"
"""Every commit's date (2024-01-02 03:04:05 UTC, in git's own format, which GitPython reads
too): the fixture's and those the git server makes, so that hashes repeat."""
GIT_ENV = {
    "GIT_AUTHOR_DATE": GIT_DATE,
    "GIT_COMMITTER_DATE": GIT_DATE,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
WARNINGS = (
    "ignore::DeprecationWarning",
    "ignore::PendingDeprecationWarning",
    "ignore::FutureWarning",
    "ignore::UserWarning",
)
"""The warnings the corpus' tools give of themselves (a package being sunset, a shell tool
with no safeguards...), which are theirs to fix, not failures of these tests."""
SQLITE_SERVER = "STANDARD_TOOL_MCP1_VENV"
"""The environment variable naming the venv (with mcp 1.x) that holds ``mcp-server-sqlite``:
the ``real-tools`` session makes it and sets the variable."""


class Restoring(WrapperTool):
    """An adopted tool whose every call first makes again the state the call needs, then runs
    the real tool (its own validation and code), so that each call finds the same state."""

    def __init__(self, tool: st.StandardTool, restore: Callable[[], None]) -> None:
        super().__init__(tool)
        self.restore = restore

    def run(self, input: Any, context: Any) -> Any:
        self.restore()
        return super().run(input, context)

    async def arun(self, input: Any, context: Any) -> Any:
        await asyncio.to_thread(self.restore)
        return await super().arun(input, context)


# -- the fixtures' state ----------------------------------------------------------------


def make_folder(folder: Path) -> None:
    """``folder`` holding ``notes.txt`` ("hello") and nothing else."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("hello")


def make_database(path: Path) -> None:
    """A SQLite file with the table ``widgets`` holding ``bolt`` and ``nut``, and no other."""
    with sqlite3.connect(path) as connection:
        connection.executescript(
            "DROP TABLE IF EXISTS gadgets;"
            "CREATE TABLE IF NOT EXISTS widgets (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
            "DELETE FROM widgets;"
            "INSERT INTO widgets (id, name) VALUES (1, 'bolt'), (2, 'nut');"
        )
    connection.close()


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
        timeout=30,
    )


def make_repository(repo: Path) -> None:
    """A git repository: ``notes.txt`` committed on ``main`` ("Add notes"), a branch
    ``feature`` at that commit, then ``notes.txt`` changed and ``staged.txt`` staged."""
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.name", "Corpus")
    _git(repo, "config", "user.email", "corpus@example.invalid")
    (repo / "notes.txt").write_text("hello\n")
    _git(repo, "add", "notes.txt")
    _git(repo, "commit", "-q", "-m", "Add notes")
    _git(repo, "branch", "feature")
    (repo / "notes.txt").write_text("hello\nworld\n")
    (repo / "staged.txt").write_text("staged\n")
    _git(repo, "add", "staged.txt")


# -- what a test gives the builders --------------------------------------------------------


@dataclass
class Servers:
    """What the tests share, each started once for the whole run and closed with ``stack``:
    the MCP servers (over stdio) and the OpenAI Agents SDK's local sandbox session."""

    stack: ExitStack
    folder: Path
    opened: dict[str, dict[str, st.StandardTool]] = field(default_factory=dict)

    def tools(self, key: str) -> dict[str, st.StandardTool]:
        if key not in self.opened:
            from standard_tool_mcp import connect

            command, env = self._command(key)
            tools = self.stack.enter_context(connect(command, env=env, timeout=60))
            self.opened[key] = {tool.name: tool for tool in tools}
        return self.opened[key]

    def sandbox(self) -> dict[str, st.StandardTool]:
        """The OpenAI Agents SDK's sandbox tools, on one local session for the whole run."""
        if "sandbox" not in self.opened:
            self.opened["sandbox"] = _sandbox_tools(self.stack, self.folder / "workspace")
        return self.opened["sandbox"]

    @property
    def database(self) -> Path:
        """The SQLite file of the SQLite server."""
        return self.folder / "server.db"

    def _command(self, key: str) -> tuple[list[str], dict[str, str | None] | None]:
        if key == "mcp-time":
            return [sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC"], None
        if key == "mcp-git":
            return [sys.executable, "-m", "mcp_server_git"], dict(GIT_ENV)
        if key == "mcp-fetch":
            # no Node.js on its PATH: readabilipy's Python extractor, as where Node is not
            # installed (with it, readabilipy runs `npm install` into its own folder at the
            # first fetch, then starts node for every page)
            no_node = {"PATH": str(Path(sys.executable).parent)}
            return [sys.executable, "-m", "mcp_server_fetch", "--allow-private-ips"], no_node
        if key == "mcp-sqlite":
            make_database(self.database)
            return [str(sqlite_server()), "--db-path", str(self.database)], None
        raise LookupError(key)


def _png() -> bytes:
    """A PNG image of one green pixel."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x00\xff\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def _sandbox_tools(stack: ExitStack, workspace: Path) -> dict[str, st.StandardTool]:
    """``exec_command`` and ``view_image`` of a local sandbox session on ``workspace``
    (``notes.txt``, ``dot.png``). The shell capability's ``write_stdin`` needs the id of a
    process an earlier call left running, and the filesystem's ``apply_patch`` is a custom
    (grammar) tool, not a function tool: neither is in the corpus."""
    from agents.sandbox.capabilities.filesystem import Filesystem
    from agents.sandbox.capabilities.shell import Shell
    from agents.sandbox.manifest import Manifest
    from agents.sandbox.sandboxes.unix_local import UnixLocalSandboxClient

    make_folder(workspace)
    (workspace / "dot.png").write_bytes(_png())

    async def start() -> Any:
        session = await UnixLocalSandboxClient().create(manifest=Manifest(root=str(workspace)))
        await session.start()
        return session

    session = st.run_sync(start())
    stack.callback(lambda: st.run_sync(session.aclose()))
    natives = []
    for capability in (Shell(), Filesystem()):
        capability.bind(session)
        natives += capability.tools()
    by_name = {native.name: native for native in natives}
    return {name: st.adopt(by_name[name]) for name in ("exec_command", "view_image")}


def sqlite_server() -> Path:
    """``mcp-server-sqlite`` in the venv the ``real-tools`` session made for it: its newest
    release runs on mcp 1.x only (it registers handlers that mcp 2 removed)."""
    venv = os.environ.get(SQLITE_SERVER)
    assert venv, (
        f"{SQLITE_SERVER} is not set: run these tests with `uvx nox -s real-tools`, which "
        "makes the venv of mcp-server-sqlite and names it there"
    )
    scripts = "Scripts" if os.name == "nt" else "bin"
    path = Path(venv, scripts, "mcp-server-sqlite")
    assert path.exists(), f"{path} is missing: the real-tools session installs it"
    return path


@dataclass
class Places:
    """Where one test's tools work: the loopback server, a folder of the test's own, the
    MCP servers."""

    url: str
    folder: Path
    servers: Servers

    @property
    def repo(self) -> Path:
        return self.folder / "repo"

    def substitute(self, value: Any) -> Any:
        """``value`` with ``$url`` and ``$repo`` replaced in every string."""
        if isinstance(value, str):
            return Template(value).substitute(url=self.url, repo=str(self.repo))
        if isinstance(value, list):
            return [self.substitute(item) for item in value]
        if isinstance(value, dict):
            return {key: self.substitute(item) for key, item in value.items()}
        return value


# -- the builders ---------------------------------------------------------------------------


def build(key: str, places: Places, restores: set[str]) -> dict[str, st.StandardTool]:
    """The tools of source ``key``, adopted, by name; those named in ``restores`` wrapped in
    :class:`Restoring`."""
    tools, restore = BUILDERS[key](places)
    out = {tool.name: tool for tool in tools}
    assert len(out) == len(tools), f"{key}: two tools share a name"
    for name in restores:
        assert restore is not None, f"{key} has no state to restore"
        out[name] = Restoring(out[name], restore)
    return out


Built = tuple[list[st.StandardTool], Callable[[], None] | None]


def _langchain_files(places: Places) -> Built:
    from langchain_community.agent_toolkits import FileManagementToolkit

    root = places.folder / "files"
    make_folder(root)
    return adopt_tools(FileManagementToolkit(root_dir=str(root))), lambda: make_folder(root)


def _langchain_requests(places: Places) -> Built:
    from langchain_community.agent_toolkits.openapi.toolkit import RequestsToolkit
    from langchain_community.utilities.requests import TextRequestsWrapper

    toolkit = RequestsToolkit(
        requests_wrapper=TextRequestsWrapper(headers={}), allow_dangerous_requests=True
    )
    return adopt_tools(toolkit), None


def _langchain_json(places: Places) -> Built:
    from langchain_community.agent_toolkits import JsonToolkit
    from langchain_community.tools.json.tool import JsonSpec

    return adopt_tools(JsonToolkit(spec=JsonSpec(dict_=SERVICE))), None


def _database(places: Places) -> Path:
    path = places.folder / "widgets.db"
    make_database(path)
    return path


def _langchain_sql(places: Places) -> Built:
    from langchain_community.tools.sql_database.tool import (
        InfoSQLDatabaseTool,
        ListSQLDatabaseTool,
        QuerySQLDatabaseTool,
    )
    from langchain_community.utilities import SQLDatabase

    db = SQLDatabase.from_uri(f"sqlite:///{_database(places)}")
    natives = [QuerySQLDatabaseTool(db=db), InfoSQLDatabaseTool(db=db), ListSQLDatabaseTool(db=db)]
    return [st.adopt(native) for native in natives], None


def _langchain_misc(places: Places) -> Built:
    from langchain_community.tools import HumanInputRun, ShellTool, SleepTool

    natives = [SleepTool(), ShellTool(), HumanInputRun(input_func=lambda: ANSWER)]
    return [st.adopt(native) for native in natives], None


def _langchain_experimental(places: Places) -> Built:
    from langchain_experimental.tools import PythonAstREPLTool, PythonREPLTool

    return [st.adopt(PythonREPLTool()), st.adopt(PythonAstREPLTool())], None


def _llama_index_database(places: Places) -> Built:
    from llama_index.tools.database import DatabaseToolSpec

    return adopt_tools(DatabaseToolSpec(uri=f"sqlite:///{_database(places)}")), None


def _llama_index_requests(places: Places) -> Built:
    from llama_index.tools.requests import RequestsToolSpec

    return adopt_tools(RequestsToolSpec(timeout_seconds=10)), None


def _llama_index_code_interpreter(places: Places) -> Built:
    from llama_index.tools.code_interpreter import CodeInterpreterToolSpec

    return adopt_tools(CodeInterpreterToolSpec()), None


def _llama_index_search(places: Places) -> Built:
    from llama_index.tools.duckduckgo import DuckDuckGoSearchToolSpec
    from llama_index.tools.wikipedia import WikipediaToolSpec

    return [*adopt_tools(WikipediaToolSpec()), *adopt_tools(DuckDuckGoSearchToolSpec())], None


def _smolagents(places: Places) -> Built:
    from smolagents import FinalAnswerTool, PythonInterpreterTool, UserInputTool, VisitWebpageTool

    natives = [PythonInterpreterTool(), FinalAnswerTool(), UserInputTool(), VisitWebpageTool()]
    return [st.adopt(native) for native in natives], None


def _smolagents_search(places: Places) -> Built:
    from smolagents import DuckDuckGoSearchTool, WikipediaSearchTool

    return [st.adopt(DuckDuckGoSearchTool()), st.adopt(WikipediaSearchTool())], None


def _pydantic_ai_common(places: Places) -> Built:
    from pydantic_ai.common_tools.duckduckgo import duckduckgo_search_tool
    from pydantic_ai.common_tools.tavily import tavily_search_tool

    natives = [duckduckgo_search_tool(), tavily_search_tool(api_key="unused")]
    return [st.adopt(native) for native in natives], None


def _mcp(key: str) -> Callable[[Places], Built]:
    def built(places: Places) -> Built:
        return list(places.servers.tools(key).values()), None

    return built


def _mcp_git(places: Places) -> Built:
    make_repository(places.repo)
    tools = list(places.servers.tools("mcp-git").values())
    return tools, lambda: make_repository(places.repo)


def _mcp_sqlite(places: Places) -> Built:
    database = places.servers.database
    tools = list(places.servers.tools("mcp-sqlite").values())
    make_database(database)
    return tools, lambda: make_database(database)


def _openai_agents_sandbox(places: Places) -> Built:
    return list(places.servers.sandbox().values()), None


BUILDERS: dict[str, Callable[[Places], Built]] = {
    "langchain-files": _langchain_files,
    "langchain-requests": _langchain_requests,
    "langchain-json": _langchain_json,
    "langchain-sql": _langchain_sql,
    "langchain-misc": _langchain_misc,
    "langchain-experimental": _langchain_experimental,
    "llama-index-database": _llama_index_database,
    "llama-index-requests": _llama_index_requests,
    "llama-index-code-interpreter": _llama_index_code_interpreter,
    "llama-index-search": _llama_index_search,
    "smolagents": _smolagents,
    "smolagents-search": _smolagents_search,
    "pydantic-ai-common": _pydantic_ai_common,
    "openai-agents-sandbox": _openai_agents_sandbox,
    "mcp-time": _mcp("mcp-time"),
    "mcp-git": _mcp_git,
    "mcp-fetch": _mcp("mcp-fetch"),
    "mcp-sqlite": _mcp_sqlite,
}


def iter_entries(sources: Any) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """``(source, tool entry)`` for every tool of the corpus."""
    for source in sources:
        for entry in source["tools"]:
            yield source, entry


def tool_of(source: dict[str, Any], entry: dict[str, Any], places: Places) -> st.StandardTool:
    """The corpus entry's tool, adopted (and wrapped to restore its state, if it says so)."""
    restores = {tool["name"] for tool in source["tools"] if "restore" in tool}
    return build(source["key"], places, restores)[entry["name"]]


FAILED: dict[str, list[str]] = {}
"""What failed, by test id, for the summary at the end of the run."""
SKIPPED: dict[str, list[str]] = {}
"""The targets that could not run a tool, and why, by test id, for the same summary."""
