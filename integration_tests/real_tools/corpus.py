"""The corpus: tools that no one here wrote, from the frameworks' own packages and PyPI.

:data:`SOURCES` is the one list of them. The tests of this folder build each source's tools
(``sources.py``), check that they are exactly the ones listed, and run them; the noxfile
reads the same literal (``ast.literal_eval``, nothing imported) to write the "Real
third-party tools" section of ``COMPATIBILITY.md`` and to pin each distribution in the
``real-tools`` session. This module imports nothing, so that reading it needs no framework.

Each source has:

- ``key``: what ``sources.py`` builds it by;
- ``source``: what it is, in a few words;
- ``distribution``: the PyPI distribution the tools' code comes from (the ``real-tools``
  session pins it);
- ``made``: how the test makes the tools, as the framework's own API spells them (Markdown);
- ``reaches``: what a call touches: only ever this machine (a temporary folder, file or
  repository, a subprocess, a server on 127.0.0.1 that the tests start); ``None`` for tools
  that need the network, which are converted and their schemas checked, never called;
- ``tools``: each tool's ``name`` and, for those that are called:

  - ``input``: the input every call uses. Strings may name ``$url`` (the loopback HTTP
    server, no trailing slash) and ``$repo`` (the tool's own temporary git repository);
  - ``expect``: text that the direct call's result holds (in its JSON form), so that a run
    where the tool did nothing useful (an error returned as a string) fails;
  - ``restore`` (tools whose call changes what the next call needs): what is made again
    before each call. The test wraps the adopted tool in a ``WrapperTool`` whose ``run`` and
    ``arun`` restore that state and then call the real tool, so every call, direct or
    through a target, finds the same state and the tool's own code still runs;
  - ``varies`` (tools whose result holds something that changes from call to call): what,
    so that results are not compared between calls (the checks' "results vary" verdict).

The fixtures (``conftest.py``, ``sources.py``): a temporary folder holding ``notes.txt``
("hello") for the file tools; a SQLite file with a table ``widgets`` (rows ``bolt`` and
``nut``); a git repository per git tool (``notes.txt`` committed on ``main`` as "Add notes",
a branch ``feature``, ``notes.txt`` changed and ``staged.txt`` staged; every commit dated
alike, so hashes repeat); a sandbox workspace holding ``notes.txt`` and ``dot.png``; an HTTP
server on 127.0.0.1 (``/robots.txt`` allowing everything, ``/page`` an HTML page, ``/api/...``
JSON that echoes the request); a person who answers "Use the staging database." when a tool
asks one. Nothing else is reached: the tests refuse any other connection.

Left out: tools that cannot be made or adopted offline, among them the Agents SDK sandbox's
``write_stdin`` (it needs the id of a process an earlier call left running) and
``apply_patch`` (a custom grammar tool, not a function tool: no adapter adopts it), and
LangChain's SQL query checker (it calls a model).
"""

from __future__ import annotations

SOURCES = (
    {
        "key": "langchain-files",
        "source": "LangChain community: file management toolkit",
        "distribution": "langchain-community",
        "made": "`FileManagementToolkit(root_dir=<temporary folder>)`",
        "reaches": "a temporary folder",
        "tools": (
            {
                "name": "copy_file",
                "input": {"source_path": "notes.txt", "destination_path": "copy.txt"},
                "expect": "copied successfully",
            },
            {
                "name": "file_delete",
                "input": {"file_path": "notes.txt"},
                "expect": "deleted successfully",
                "restore": "notes.txt written again",
            },
            {
                "name": "file_search",
                "input": {"dir_path": ".", "pattern": "*.txt"},
                "expect": "notes.txt",
            },
            {
                "name": "move_file",
                "input": {"source_path": "notes.txt", "destination_path": "moved.txt"},
                "expect": "moved successfully",
                "restore": "moved.txt removed, notes.txt written again",
            },
            {"name": "read_file", "input": {"file_path": "notes.txt"}, "expect": "hello"},
            {
                "name": "write_file",
                "input": {"file_path": "out.txt", "text": "written", "append": False},
                "expect": "written successfully",
            },
            {"name": "list_directory", "input": {"dir_path": "."}, "expect": "notes.txt"},
        ),
    },
    {
        "key": "langchain-requests",
        "source": "LangChain community: requests toolkit",
        "distribution": "langchain-community",
        "made": "`RequestsToolkit(requests_wrapper=TextRequestsWrapper(headers={}), "
        "allow_dangerous_requests=True)`",
        "reaches": "an HTTP server on 127.0.0.1",
        "tools": (
            {
                "name": "requests_get",
                "input": {"url": "$url/api/items/7"},
                "expect": "GET /api/items/7",
            },
            {
                "name": "requests_post",
                "input": {"text": '{"url": "$url/api/items", "data": {"name": "washer"}}'},
                "expect": "POST /api/items",
            },
            {
                "name": "requests_patch",
                "input": {"text": '{"url": "$url/api/items/7", "data": {"name": "washer"}}'},
                "expect": "PATCH /api/items/7",
            },
            {
                "name": "requests_put",
                "input": {"text": '{"url": "$url/api/items/7", "data": {"name": "washer"}}'},
                "expect": "PUT /api/items/7",
            },
            {
                "name": "requests_delete",
                "input": {"url": "$url/api/items/7"},
                "expect": "DELETE /api/items/7",
            },
        ),
    },
    {
        "key": "langchain-json",
        "source": "LangChain community: JSON toolkit",
        "distribution": "langchain-community",
        "made": "`JsonToolkit(spec=JsonSpec(dict_=<a service description>))`",
        "reaches": "a dict in memory",
        "tools": (
            {
                "name": "json_spec_list_keys",
                "input": {"tool_input": 'data["service"]'},
                "expect": "ports",
            },
            {
                "name": "json_spec_get_value",
                "input": {"tool_input": 'data["service"]["ports"]'},
                "expect": "[80, 443]",
            },
        ),
    },
    {
        "key": "langchain-sql",
        "source": "LangChain community: SQL database tools",
        "distribution": "langchain-community",
        "made": "`QuerySQLDatabaseTool`, `InfoSQLDatabaseTool`, `ListSQLDatabaseTool` with "
        '`db=SQLDatabase.from_uri("sqlite:///<temporary file>")`',
        "reaches": "a temporary SQLite file",
        "tools": (
            {
                "name": "sql_db_query",
                "input": {"query": "SELECT name FROM widgets ORDER BY id"},
                "expect": "bolt",
            },
            {"name": "sql_db_schema", "input": {"table_names": "widgets"}, "expect": "CREATE"},
            {"name": "sql_db_list_tables", "input": {"tool_input": ""}, "expect": "widgets"},
        ),
    },
    {
        "key": "langchain-misc",
        "source": "LangChain community: sleep, shell and human tools",
        "distribution": "langchain-community",
        "made": "`SleepTool()`, `ShellTool()`, `HumanInputRun(input_func=<a person's answer>)`",
        "reaches": "this process, a shell subprocess",
        "tools": (
            {"name": "sleep", "input": {"sleep_time": 0}, "expect": "slept for 0 seconds"},
            {
                "name": "terminal",
                "input": {"commands": ["echo hello from the shell"]},
                "expect": "hello from the shell",
            },
            {
                "name": "human",
                "input": {"query": "Which database should I use?"},
                "expect": "the staging database",
            },
        ),
    },
    {
        "key": "langchain-experimental",
        "source": "LangChain experimental: Python REPL tools",
        "distribution": "langchain-experimental",
        "made": "`PythonREPLTool()`, `PythonAstREPLTool()`",
        "reaches": "this process",
        "tools": (
            {"name": "Python_REPL", "input": {"query": "print(6 * 7)"}, "expect": "42"},
            {"name": "python_repl_ast", "input": {"query": "x = 6\nx * 7"}, "expect": "42"},
        ),
    },
    {
        "key": "llama-index-database",
        "source": "LlamaIndex: database tool spec",
        "distribution": "llama-index-tools-database",
        "made": '`DatabaseToolSpec(uri="sqlite:///<temporary file>")`',
        "reaches": "a temporary SQLite file",
        "tools": (
            {
                "name": "load_data",
                "input": {"query": "SELECT name FROM widgets ORDER BY id"},
                "expect": "bolt",
            },
            {"name": "describe_tables", "input": {"tables": ["widgets"]}, "expect": "widgets"},
            {"name": "list_tables", "input": {}, "expect": "widgets"},
        ),
    },
    {
        "key": "llama-index-requests",
        "source": "LlamaIndex: requests tool spec",
        "distribution": "llama-index-tools-requests",
        "made": "`RequestsToolSpec(timeout_seconds=10)`",
        "reaches": "an HTTP server on 127.0.0.1",
        "tools": (
            {
                "name": "get_request",
                "input": {
                    "url_template": "$url/api/items/{id}",
                    "path_params": {"id": "7"},
                    "query_params": {"color": "red"},
                },
                "expect": "/api/items/7",
            },
            {
                "name": "post_request",
                "input": {
                    "url_template": "$url/api/items",
                    "path_params": {},
                    "query_params": {},
                    "body": {"name": "washer"},
                },
                "expect": "washer",
            },
            {
                "name": "patch_request",
                "input": {
                    "url_template": "$url/api/items/{id}",
                    "path_params": {"id": "7"},
                    "query_params": {},
                    "body": {"name": "washer"},
                },
                "expect": "PATCH",
            },
            {
                "name": "put_request",
                "input": {
                    "url_template": "$url/api/items/{id}",
                    "path_params": {"id": "7"},
                    "query_params": {},
                    "body": {"name": "washer"},
                },
                "expect": "PUT",
            },
            {
                "name": "delete_request",
                "input": {
                    "url_template": "$url/api/items/{id}",
                    "path_params": {"id": "7"},
                    "query_params": {},
                },
                "expect": "DELETE",
            },
        ),
    },
    {
        "key": "llama-index-code-interpreter",
        "source": "LlamaIndex: code interpreter tool spec",
        "distribution": "llama-index-tools-code-interpreter",
        "made": "`CodeInterpreterToolSpec()`",
        "reaches": "a Python subprocess",
        "tools": ({"name": "code_interpreter", "input": {"code": "print(6 * 7)"}, "expect": "42"},),
    },
    {
        "key": "llama-index-search",
        "source": "LlamaIndex: Wikipedia and DuckDuckGo tool specs",
        "distribution": "llama-index-tools-wikipedia, llama-index-tools-duckduckgo",
        "made": "`WikipediaToolSpec()`, `DuckDuckGoSearchToolSpec()`",
        "reaches": None,
        "tools": (
            {"name": "load_data"},
            {"name": "search_data"},
            {"name": "duckduckgo_instant_search"},
            {"name": "duckduckgo_full_search"},
        ),
    },
    {
        "key": "smolagents",
        "source": "smolagents: default tools",
        "distribution": "smolagents",
        "made": "`PythonInterpreterTool()`, `FinalAnswerTool()`, `UserInputTool()` (a person's "
        "answer in place of the terminal), `VisitWebpageTool()`",
        "reaches": "this process, an HTTP server on 127.0.0.1",
        "tools": (
            {"name": "python_interpreter", "input": {"code": "6 * 7"}, "expect": "42"},
            {"name": "final_answer", "input": {"answer": "done"}, "expect": "done"},
            {
                "name": "user_input",
                "input": {"question": "Which database should I use?"},
                "expect": "the staging database",
            },
            {"name": "visit_webpage", "input": {"url": "$url/page"}, "expect": "Corpus page"},
        ),
    },
    {
        "key": "smolagents-search",
        "source": "smolagents: search tools",
        "distribution": "smolagents",
        "made": "`DuckDuckGoSearchTool()`, `WikipediaSearchTool()`",
        "reaches": None,
        "tools": ({"name": "web_search"}, {"name": "wikipedia_search"}),
    },
    {
        "key": "pydantic-ai-common",
        "source": "PydanticAI: common tools",
        "distribution": "pydantic-ai-slim",
        "made": '`duckduckgo_search_tool()`, `tavily_search_tool(api_key="unused")`',
        "reaches": None,
        "tools": ({"name": "duckduckgo_search"}, {"name": "tavily_search"}),
    },
    {
        "key": "openai-agents-sandbox",
        "source": "OpenAI Agents SDK: sandbox shell and filesystem tools",
        "distribution": "openai-agents",
        "made": "`Shell()` and `Filesystem()` capabilities bound to a `UnixLocalSandboxClient` "
        "session on a temporary workspace",
        "reaches": "a temporary workspace, a shell subprocess",
        "tools": (
            {
                "name": "exec_command",
                "input": {"cmd": "cat notes.txt", "login": False},
                "expect": "hello",
                "varies": "a chunk id and the wall time",
            },
            {"name": "view_image", "input": {"path": "dot.png"}, "expect": "data:image/png"},
        ),
    },
    {
        "key": "mcp-time",
        "source": "MCP reference server: time",
        "distribution": "mcp-server-time",
        "made": "`python -m mcp_server_time --local-timezone UTC` over stdio",
        "reaches": "a server subprocess",
        "tools": (
            {
                "name": "get_current_time",
                "input": {"timezone": "Europe/Paris"},
                "expect": "Europe/Paris",
                "varies": "the current time",
            },
            {
                "name": "convert_time",
                "input": {
                    "source_timezone": "UTC",
                    "time": "12:00",
                    "target_timezone": "Asia/Tokyo",
                },
                "expect": "+9.0h",
            },
        ),
    },
    {
        "key": "mcp-git",
        "source": "MCP reference server: git",
        "distribution": "mcp-server-git",
        "made": "`python -m mcp_server_git` over stdio; a temporary repository per tool",
        "reaches": "a server subprocess, a temporary git repository",
        "tools": (
            {"name": "git_status", "input": {"repo_path": "$repo"}, "expect": "notes.txt"},
            {"name": "git_diff_unstaged", "input": {"repo_path": "$repo"}, "expect": "+world"},
            {"name": "git_diff_staged", "input": {"repo_path": "$repo"}, "expect": "+staged"},
            {
                "name": "git_diff",
                "input": {"repo_path": "$repo", "target": "feature"},
                "expect": "staged.txt",
            },
            {
                "name": "git_commit",
                "input": {"repo_path": "$repo", "message": "Add staged.txt"},
                "expect": "committed successfully",
                "restore": "the repository made again",
            },
            {
                "name": "git_add",
                "input": {"repo_path": "$repo", "files": ["notes.txt"]},
                "expect": "staged successfully",
                "restore": "the repository made again",
            },
            {
                "name": "git_reset",
                "input": {"repo_path": "$repo"},
                "expect": "reset",
                "restore": "the repository made again",
            },
            {
                "name": "git_log",
                "input": {"repo_path": "$repo", "max_count": 5},
                "expect": "Add notes",
            },
            {
                "name": "git_create_branch",
                "input": {"repo_path": "$repo", "branch_name": "topic"},
                "expect": "topic",
                "restore": "the repository made again",
            },
            {
                "name": "git_checkout",
                "input": {"repo_path": "$repo", "branch_name": "feature"},
                "expect": "feature",
                "restore": "the repository made again",
            },
            {
                "name": "git_show",
                "input": {"repo_path": "$repo", "revision": "HEAD"},
                "expect": "Add notes",
            },
            {
                "name": "git_branch",
                "input": {"repo_path": "$repo", "branch_type": "local"},
                "expect": "feature",
            },
        ),
    },
    {
        "key": "mcp-fetch",
        "source": "MCP reference server: fetch",
        "distribution": "mcp-server-fetch",
        "made": "`python -m mcp_server_fetch --allow-private-ips` over stdio (robots.txt read), "
        "with no Node.js on its PATH (readabilipy's Python extractor)",
        "reaches": "a server subprocess, an HTTP server on 127.0.0.1",
        "tools": (
            {
                "name": "fetch",
                "input": {"url": "$url/page", "max_length": 2000},
                "expect": "served on the loopback",
            },
        ),
    },
    {
        "key": "mcp-sqlite",
        "source": "MCP reference server: SQLite",
        "distribution": "mcp-server-sqlite",
        "made": "`mcp-server-sqlite --db-path <temporary file>` over stdio, from a venv of "
        "its own with mcp 1.x",
        "reaches": "a server subprocess, a temporary SQLite file",
        "tools": (
            {
                "name": "read_query",
                "input": {"query": "SELECT name FROM widgets ORDER BY id"},
                "expect": "bolt",
            },
            {
                "name": "write_query",
                "input": {"query": "INSERT INTO widgets (name) VALUES ('washer')"},
                "expect": "affected_rows",
                "restore": "the widgets table's rows written again",
            },
            {
                "name": "create_table",
                "input": {"query": "CREATE TABLE gadgets (id INTEGER PRIMARY KEY, name TEXT)"},
                "expect": "created successfully",
                "restore": "the gadgets table dropped",
            },
            {"name": "list_tables", "input": {}, "expect": "widgets"},
            {"name": "describe_table", "input": {"table_name": "widgets"}, "expect": "name"},
            {
                "name": "append_insight",
                "input": {"insight": "Bolts outnumber nuts."},
                "expect": "Insight added",
            },
        ),
    },
)
"""Every source of the corpus, each with its tools (see the module's docstring)."""
