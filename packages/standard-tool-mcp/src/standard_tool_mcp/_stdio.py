"""The stdio client transport: a server subprocess whose exit status and stderr stay known.

The SDK's own ``stdio_client`` hides the process, so a server that exits before answering
surfaces only as a closed connection. This transport keeps the process: its exit status and
the last lines of its stderr name the cause when connecting fails or the server dies. The
server's stderr is still forwarded (to ``sys.stderr`` by default). Shutdown follows the MCP
lifecycle (close stdin, wait, terminate the process group, kill it), every wait bounded.
"""

from __future__ import annotations

import codecs
import collections
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, TextIO

import anyio
import anyio.abc
from anyio.streams.text import TextReceiveStream

from . import _compat

__all__ = [
    "CERTIFICATE_VARIABLES",
    "LineReader",
    "LineTooLong",
    "ServerProcess",
    "child_environment",
    "stdio_transport",
]

_logger = logging.getLogger("standard_tool_mcp")

GRACE = 2.0
"""Seconds a server may take to exit after its stdin closes, before it is terminated."""
_FAILED_GRACE = 0.2
"""The same when the session failed: a server that did not connect is not waited for."""
_TERM_GRACE = 2.0
"""Seconds between terminating the process group and killing it."""
_POLL = 0.01
MAX_LINE = 64 * 1024 * 1024
"""Characters of one JSON-RPC message from a stdio server, at most: a longer one closes the
session."""
CERTIFICATE_VARIABLES = (
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "NODE_EXTRA_CA_CERTS",
    "GIT_SSL_CAINFO",
    "NIX_SSL_CERT_FILE",
)
"""Where certificate stores are, passed to every stdio server (besides the SDK's safe list)."""
_STDERR_LINES = 20
_WITHHELD_NAMES = 40
_LINE_CHARS = 500


class LineTooLong(ValueError):
    """A server's message is longer than the transport takes in."""


class LineReader:
    """The lines of a stream of text chunks, each at most ``limit`` characters long.

    A line is kept as the list of its pieces until it ends, and joined once: reading takes
    time linear in the text, however many chunks a long line arrives in.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._pieces: list[str] = []
        self._size = 0

    def feed(self, chunk: str) -> list[str]:
        """The lines that ``chunk`` completes; raises ``LineTooLong`` past the limit."""
        lines: list[str] = []
        start = 0
        while (end := chunk.find("\n", start)) != -1:
            self._add(chunk[start:end])
            lines.append("".join(self._pieces))
            self._pieces, self._size = [], 0
            start = end + 1
        if start < len(chunk):
            self._add(chunk[start:])
        return lines

    def _add(self, piece: str) -> None:
        self._size += len(piece)
        if self._size > self.limit:
            raise LineTooLong(
                f"a message from the server is longer than the limit of {self.limit:,} characters"
            )
        self._pieces.append(piece)


class ServerProcess:
    """A running server subprocess: what it said on stderr lately, and how it ended."""

    def __init__(
        self, process: anyio.abc.Process, command: str, withheld: Sequence[str] = ()
    ) -> None:
        self.process = process
        self.command = command
        self.withheld = list(withheld)
        """The names of this process's environment variables the server was not given."""
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self.stderr_done = anyio.Event()
        self.stdout_done = anyio.Event()
        self.eof = False
        """Whether the server closed its stdout (exiting, usually)."""
        self.stopped = False
        """Whether the process still ran when the transport closed (and so was stopped)."""
        self.failure: str | None = None
        """Why the transport ended the session while the server ran (a message too long)."""

    @property
    def returncode(self) -> int | None:
        """The exit status, or ``None`` while the process runs."""
        return self.process.returncode

    async def settle(self, seconds: float) -> int | None:
        """Wait up to ``seconds`` for the process to exit and its stderr to end."""
        with anyio.move_on_after(seconds):
            while self.process.returncode is None:
                await anyio.sleep(_POLL)
            await self.stderr_done.wait()
        return self.process.returncode

    def describe(self) -> str:
        """How the process ended (or that it runs), and its last lines on stderr."""
        code = self.returncode
        if code is None:
            state = "the server process is still running"
        elif self.stopped:
            state = "the server process was running"
        elif code < 0:
            state = f"the server process was killed by signal {-code}"
        else:
            state = f"the server process exited with status {code}"
        if not self.stderr_tail:
            return f"{state}, and wrote nothing on stderr"
        lines = "\n".join(f"  {line}" for line in self.stderr_tail)
        return f"{state}; its last lines on stderr:\n{lines}"

    def environment_note(self) -> str:
        """What the server was not given of this process's environment (names only)."""
        if not self.withheld:
            return ""
        names = ", ".join(self.withheld[:_WITHHELD_NAMES])
        if len(self.withheld) > _WITHHELD_NAMES:
            names += f" and {len(self.withheld) - _WITHHELD_NAMES} more"
        return (
            f"{len(self.withheld)} of this process's environment variables were not passed to "
            f"the server ({names}): pass one through with env={{NAME: None}}, or give its value"
        )


def child_environment(env: Mapping[str, str | None] | None) -> dict[str, str]:
    """A stdio server's environment: the SDK's safe list (``PATH``, ``HOME``...) and the
    certificate variables, from this process; then ``env``, where a ``None`` value passes the
    variable of that name through from this process (if it has one)."""
    from mcp.client.stdio import get_default_environment

    child = get_default_environment()
    child.update({name: os.environ[name] for name in CERTIFICATE_VARIABLES if name in os.environ})
    for name, value in (env or {}).items():
        if value is not None:
            child[name] = value
        elif name in os.environ:
            child[name] = os.environ[name]
    return child


def _executable(command: str) -> str:
    if sys.platform == "win32":  # pragma: no cover
        from mcp.os.win32.utilities import get_windows_executable_command

        return get_windows_executable_command(command)
    return command


@asynccontextmanager
async def stdio_transport(
    command: str,
    args: Sequence[str],
    *,
    env: Mapping[str, str | None] | None = None,
    cwd: str | Path | None = None,
    encoding: str = "utf-8",
    errors: str = "strict",
    errlog: TextIO | None = None,
    on_exit: Callable[[ServerProcess], None] | None = None,
) -> AsyncIterator[tuple[Any, Any, ServerProcess]]:
    """Start ``command`` and yield the session's read and write streams, and the process.

    ``env`` is as for :func:`child_environment`. Raises ``OSError`` when the command cannot
    be started. ``on_exit`` is called once the
    server's stdout ends (it exited, or closed it) while the transport is open.
    """
    from mcp.shared.message import SessionMessage

    environment = child_environment(env)
    process = await anyio.open_process(
        [_executable(command), *args],
        env=environment,
        cwd=cwd,
        start_new_session=sys.platform != "win32",
    )
    server = ServerProcess(process, command, sorted(set(os.environ) - set(environment)))
    incoming_writer, incoming = anyio.create_memory_object_stream[Any](0)
    outgoing, outgoing_reader = anyio.create_memory_object_stream[SessionMessage](0)
    closing = False

    async def read_stdout() -> None:
        assert process.stdout is not None
        ended = False  # by the server (not by a cancellation)
        try:
            async with incoming_writer:
                lines = LineReader(MAX_LINE)
                async for chunk in TextReceiveStream(process.stdout, encoding, errors):
                    for line in lines.feed(chunk):
                        if line.strip():
                            await incoming_writer.send(_compat.parse_message(line))
                server.eof = ended = True
        except LineTooLong as exc:  # the session ends, failing the calls that wait for it
            server.failure = str(exc)
            ended = True
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError, ValueError):
            ended = True  # the session is gone or the pipe broke: the stream closes either way
        finally:
            server.stdout_done.set()
            if ended and not closing and on_exit is not None:
                on_exit(server)

    async def write_stdin() -> None:
        assert process.stdin is not None
        try:
            async with outgoing_reader:
                async for message in outgoing_reader:
                    line = _compat.dump_message(message.message) + "\n"
                    await process.stdin.send(line.encode(encoding, errors))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await incoming_writer.aclose()  # the server cannot hear us: end the session

    async def read_stderr() -> None:
        assert process.stderr is not None
        buffer = b""
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        try:
            async for chunk in process.stderr:
                sink = errlog if errlog is not None else sys.stderr
                _forward(sink, decoder.decode(chunk))
                *lines, buffer = (buffer + chunk).split(b"\n")
                for line in lines:
                    _remember(server, line)
                if len(buffer) > 64 * _LINE_CHARS:
                    _remember(server, buffer)
                    buffer = b""
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass
        finally:
            if buffer:
                _remember(server, buffer)
            server.stderr_done.set()

    failed = False
    async with anyio.create_task_group() as group:
        group.start_soon(read_stdout)
        group.start_soon(write_stdin)
        group.start_soon(read_stderr)
        try:
            yield incoming, outgoing, server
        except BaseException:
            failed = True
            raise
        finally:
            closing = True
            with anyio.CancelScope(shield=True):
                await _shutdown(server, outgoing, _FAILED_GRACE if failed else GRACE)
                group.cancel_scope.cancel()
                for stream in (incoming, outgoing, incoming_writer, outgoing_reader):
                    await stream.aclose()


def _forward(sink: TextIO, text: str) -> None:
    if not text:
        return
    try:
        sink.write(text)
        sink.flush()
    except (OSError, ValueError):  # a closed or broken stderr of ours
        pass


def _remember(server: ServerProcess, line: bytes) -> None:
    text = line.decode(errors="replace").rstrip()
    if text:
        server.stderr_tail.append(text[:_LINE_CHARS])


async def _shutdown(server: ServerProcess, outgoing: Any, grace: float) -> None:
    """Close stdin, give the server ``grace`` seconds to exit, then end its process group."""
    process = server.process
    server.stopped = process.returncode is None and not server.eof
    outgoing.close()
    assert process.stdin is not None
    with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.stdin.aclose()
    if await server.settle(grace) is None or _group_alive(process):
        await _terminate(process)
    await server.settle(0.5)  # the last stderr lines
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                await pipe.aclose()
    with suppress(Exception), anyio.move_on_after(1):
        await process.aclose()


def _group_alive(process: anyio.abc.Process) -> bool:
    if sys.platform == "win32":  # pragma: no cover
        return process.returncode is None
    try:
        os.killpg(process.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover
        pass
    return True


async def _terminate(process: anyio.abc.Process) -> None:
    """Terminate the server and its children, then kill whatever is left."""
    if sys.platform == "win32":  # pragma: no cover
        with suppress(ProcessLookupError):
            process.kill()
        return
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)
    with anyio.move_on_after(_TERM_GRACE):
        while _group_alive(process):
            _ = process.returncode
            await anyio.sleep(_POLL)
        return
    _logger.warning("MCP server process %d did not stop when asked; killing it", process.pid)
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
