"""``python -m formtools serve`` (or another command) started by fork from a warm interpreter
instead of from scratch.

Why: most of a ``serve`` start is Python importing the MCP SDK (about 1.2 s of CPU of 1.3 s), and
the MCP tests start a server per test; any other command's start is mostly Python importing
formtools (about 0.15 s of CPU), and the command-line tests start dozens. A *fork server* (one per pytest worker and environment)
imports :mod:`formtools.cli` and :mod:`formtools.mcp` once; each start is then a fork of it that
runs ``formtools``' ``__main__`` exactly as ``python -m formtools`` does, with the client's own
standard input, output and error, arguments, environment and working directory.

The process the client starts is a tiny *launcher* (this file run with ``python -I -S``: no
site, a few stdlib imports): it hands its file descriptors 0, 1 and 2 and its argv, environment
and working directory to the fork server over a Unix socket (``SCM_RIGHTS``), lets go of them,
forwards SIGTERM and SIGINT to the forked server, and ends as the server ended: its exit code,
or death by the same signal. If the launcher dies (the SDK's ``stdio_client`` SIGKILLs a server
that outlives its grace period), the fork server SIGKILLs the forked server; if the pytest worker
dies, the fork server's standard input ends and it kills them all and exits.

What the client talks to is the real ``formtools serve`` code over its real transport (stdio
pipes, or HTTP on a port), so a test asserts the same things as over a plain subprocess. A forked
server differs from a plain one only in what a test of process-level behaviour could see: its pid
is not the launcher's (nor its session), it shares the fork server's hash seed, its CPU affinity and
resource limits are the fork server's, and the modules were imported before the command line was
read. Tests that send signals, time the start, look at the process tree or at what is imported
therefore start the command as a plain subprocess; tests of what a command answers (its exit
code, its output, the files it writes) may use :func:`formtools_command`.

Each forked server is made as ``python -m`` makes one: a fresh ``__main__`` module, ``sys.argv``, ``sys.path[0]`` the working directory, standard
streams built anew over the client's descriptors (as CPython builds them: unbuffered under
``PYTHONUNBUFFERED``, else block-buffered output unless a terminal, line-buffered error), signal dispositions as a fresh interpreter has them, its own session.

A fork server refuses to start if warming up wrote anything (a warning at import would otherwise
be printed where no client sees it) or left a thread running (forking a threaded process is
unsafe), and refuses a start (one line, exit 2) whose ``PYTHON*``, ``LANG`` or ``LC_*`` variables
are not its own: the interpreter read them as it started (UTF-8 mode, the locale, the standard
streams' encoding). Use :func:`formtools_command` or :func:`serve_command`.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

#: the signals a launcher passes on to its server, as a supervisor's or a terminal's would reach it
FORWARDED = (signal.SIGTERM, signal.SIGINT)
#: what warming a fork server up imports: everything ``serve`` needs before it reads a page
WARM_UP = ("formtools.cli", "formtools.mcp")
#: variables an interpreter reads as it starts (PYTHON*; LANG and LC_* set UTF-8 mode, the
#: locale and the standard streams' encoding): a fork cannot honour other values
_READ_AT_START = ("PYTHON", "LANG", "LC_")
_MAX_REQUEST = 1 << 20  # argv, environment and working directory of one start, as JSON
_START_TIME_LIMIT = 120  # seconds a fork server may take to warm up


def formtools_command(env: dict[str, str]) -> list[str]:
    """The command line that runs ``python -m formtools`` (a command and its arguments follow
    it) through this process's fork server for ``env``, started on first use. Give ``env`` to
    the process too: a fork server warms up in the environment its servers run in, since what an
    import reads from it (``PYTHONPATH``, ``PYTHONWARNINGS``) is read once, there."""
    return [sys.executable, "-I", "-S", __file__, "launch", _fork_server(env), "-m", "formtools"]


def serve_command(env: dict[str, str]) -> list[str]:
    """:func:`formtools_command` for ``formtools serve`` (its arguments follow)."""
    return [*formtools_command(env), "serve"]


_running: dict[tuple[tuple[str, str], ...], str] = {}  # environment -> its fork server's socket


def _fork_server(env: dict[str, str]) -> str:
    """The socket of this process's fork server for ``env``, started (and warmed up) if need be.
    Its standard input is a pipe this process holds: it ends when this process does, and so
    does the fork server with every server it forked."""
    import atexit
    import select
    import subprocess
    import tempfile

    key = tuple(sorted(env.items()))
    if key not in _running:
        path = os.path.join(tempfile.mkdtemp(prefix="forkserve-"), "socket")
        process = subprocess.Popen(
            [sys.executable, __file__, "serve", path],
            env=env, cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )
        assert process.stdout is not None
        # a warm-up that hangs must not hang the test before its own time limits apply
        started, _, _ = select.select([process.stdout], [], [], _START_TIME_LIMIT)
        said = process.stdout.readline() if started else b"(no answer in %d s) " % _START_TIME_LIMIT
        if said != b"ready\n":
            process.kill()
            raise RuntimeError(f"the fork server did not start: {(said + process.stdout.read()).decode(errors='replace')}")
        atexit.register(_stop, process, path)
        _running[key] = path
    return _running[key]


def _stop(process: subprocess.Popen[bytes], path: str) -> None:
    """End a fork server (and the servers it forked) and reap it: its CPU, and theirs, is then
    counted in this process's children's, as a plain server's is. Its socket goes too."""
    import shutil

    assert process.stdin is not None
    process.stdin.close()
    process.wait(60)
    shutil.rmtree(os.path.dirname(path), ignore_errors=True)


# --- the fork server ------------------------------------------------------------------------


def _serve_forks(path: str) -> None:
    """Warm up, say ``ready`` and fork a server per launcher that connects to ``path``, until
    standard input ends. A forked server returns from here only by raising (its exit)."""
    import contextlib
    import gc
    import importlib
    import io
    import select

    sys.path[0] = os.getcwd()  # as `python -m` has it
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured), contextlib.redirect_stdout(captured):
        for module in WARM_UP:
            importlib.import_module(module)
    threads = os.listdir("/proc/self/task")
    if captured.getvalue() or len(threads) != 1:
        sys.stdout.write(f"warming up wrote {captured.getvalue()!r} and left {len(threads)} thread(s)\n")
        sys.exit(1)
    gc.collect()
    gc.freeze()  # what the forks inherit stays out of their collections: no copy on write for them
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    listener.listen(64)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    poller = select.poll()
    poller.register(0, select.POLLIN)
    poller.register(listener, select.POLLIN)
    launchers: dict[int, socket.socket] = {}  # connection fd -> its launcher's connection
    forked: dict[int, int] = {}  # connection fd -> the pid of its server
    exits: dict[int, int] = {}  # pidfd -> connection fd
    while True:
        for fd, _ in poller.poll():
            if fd == 0:  # the pytest worker is gone, or done
                for pid in forked.values():
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                return
            if fd == listener.fileno():
                connection, _ = listener.accept()
                launchers[connection.fileno()] = connection
                poller.register(connection, select.POLLIN)
            elif fd in exits:  # a server ended: its launcher ends the same way
                connection_fd = exits.pop(fd)
                poller.unregister(fd)
                os.close(fd)
                _, status = os.waitpid(forked.pop(connection_fd), 0)
                connection = launchers.pop(connection_fd)
                with contextlib.suppress(KeyError):  # (unregistered if the launcher died first)
                    poller.unregister(connection)
                with contextlib.suppress(OSError):
                    connection.send(b"exit %d" % status)
                connection.close()
            elif fd in launchers:
                connection = launchers[fd]
                message, fds, _, _ = socket.recv_fds(connection, _MAX_REQUEST, 3)
                if fd not in forked and len(fds) == 3:
                    pid = os.fork()
                    if pid == 0:
                        _become_server(message, fds, [listener, *launchers.values()], list(exits))
                    for received in fds:
                        os.close(received)
                    forked[fd] = pid
                    pidfd = os.pidfd_open(pid)
                    exits[pidfd] = fd
                    poller.register(pidfd, select.POLLIN)
                elif message.startswith(b"signal ") and fd in forked:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(forked[fd], int(message.split()[1]))
                elif not message:  # the launcher died: so does its server
                    poller.unregister(connection)
                    if fd in forked:  # (its exit closes the connection)
                        os.kill(forked[fd], signal.SIGKILL)
                    else:
                        connection.close()
                        del launchers[fd]


def _become_server(request: bytes, fds: list[int], sockets: list[socket.socket], pidfds: list[int]) -> None:
    """In a fork: let go of the fork server's descriptors, take the launcher's, and run
    ``python -m <module> <args>`` as a fresh interpreter would; its exit leaves from here."""
    import io
    import json
    import runpy
    import types

    for held in sockets:
        os.close(held.detach())
    for pidfd in pidfds:
        os.close(pidfd)
    for number, received in enumerate(fds):
        os.dup2(received, number)
        os.close(received)
    started = json.loads(request)
    differ = sorted(
        name for name in {*started["env"], *os.environ}
        if name.startswith(_READ_AT_START) and started["env"].get(name) != os.environ.get(name)
    )
    if differ:  # read as this interpreter started: a fork cannot honour them
        os.write(2, f"forkserve: {', '.join(differ)} differ from the fork server's: give formtools_command the same environment\n".encode())
        os._exit(2)
    os.setsid()
    os.chdir(started["cwd"])
    os.environ.clear()
    os.environ.update(started["env"])
    for number in FORWARDED:  # as the launcher found them (an ignored signal stays ignored)
        handler = signal.SIG_IGN if number in started["ignored"] else signal.SIG_DFL
        signal.signal(number, signal.default_int_handler if number == signal.SIGINT and handler == signal.SIG_DFL else handler)
    for name, number, mode in (("stdin", 0, "r"), ("stdout", 1, "w"), ("stderr", 2, "w")):
        # as CPython makes them (create_stdio): unbuffered output under -u or PYTHONUNBUFFERED,
        # which the fork server's own streams show, else line-buffered for a terminal and stderr
        old = getattr(sys, name)
        unbuffered = isinstance(old.buffer, io.FileIO)
        binary = io.open(number, mode + "b", buffering=0 if unbuffered else -1, closefd=False)
        terminal = os.isatty(number)
        stream = io.TextIOWrapper(
            binary, encoding=old.encoding, errors=old.errors, newline="\n",
            line_buffering=not old.write_through and (terminal or number == 2), write_through=old.write_through,
        )
        stream.mode = mode  # type: ignore[misc]  # (CPython names its standard streams' modes)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
    sys.path[0] = os.getcwd()
    main = types.ModuleType("__main__")
    main.__annotations__ = {}
    sys.modules["__main__"] = main
    module, *args = started["argv"]
    sys.argv = ["-m", *args]
    runpy._run_module_as_main(module)  # type: ignore[attr-defined]  # (what `python -m` calls)
    sys.exit(0)


# --- the launcher ---------------------------------------------------------------------------


def _launch(path: str, argv: list[str]) -> None:
    """Hand this process's standard streams, ``-m module args``, environment and working
    directory to the fork server at ``path``; forward signals; end as the server ends."""
    import array
    import json

    assert argv[0] == "-m", "the fork server runs modules: -m <module> <args>"
    ignored = [number for number in FORWARDED if signal.getsignal(number) == signal.SIG_IGN]
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pending: list[int] = []  # signals that came before the server was asked for
    handed_over = False

    def forward(number: int, frame: object) -> None:
        if not handed_over:
            pending.append(number)
            return
        try:
            connection.send(b"signal %d" % number)
        except OSError:  # the server has just ended, and its exit status is on its way
            pass

    for number in FORWARDED:
        if number not in ignored:
            signal.signal(number, forward)
    connection.connect(path)
    request = json.dumps({"argv": argv[1:], "env": dict(os.environ), "cwd": os.getcwd(), "ignored": ignored})
    connection.sendmsg([request.encode()], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))])
    nothing = os.open(os.devnull, os.O_RDWR)
    for standard in (0, 1, 2):  # the server's now: the client sees their end when the server closes them
        os.dup2(nothing, standard)
    os.close(nothing)
    handed_over = True
    for came in pending:
        connection.send(b"signal %d" % came)
    answer = connection.recv(64)  # (a signal's handler runs meanwhile, and the wait goes on)
    if not answer.startswith(b"exit "):
        os._exit(1)  # the fork server is gone
    code = os.waitstatus_to_exitcode(int(answer.split()[1]))
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


if __name__ == "__main__":
    if sys.argv[1] == "launch":
        _launch(sys.argv[2], sys.argv[3:])
    else:
        _serve_forks(sys.argv[2])
