"""What a Python process started as ``python -m support.startprobe`` (from tests/) finds itself started
with, as JSON on standard output (exit 3): the checks of ``test_a_forked_start_is_a_plain_start``
(tests/test_mcp_bridge.py), which runs it plainly and through tests/support/forkserve.py."""

import hashlib
import json
import os
import signal
import sys
import threading

main = sys.modules["__main__"]
streams = {
    name: [stream.line_buffering, getattr(stream, "write_through"), stream.encoding, stream.errors, stream.mode, type(stream.buffer).__name__]
    for name, stream in (("stdin", sys.stdin), ("stdout", sys.stdout), ("stderr", sys.stderr))
}
print(json.dumps({
    "argv": sys.argv,
    "path0": sys.path[0],
    "path": sys.path,
    "cwd": os.getcwd(),
    "main": sorted(vars(main)),
    "main_file": main.__file__,
    "streams": streams,
    "stdin": sys.stdin.readline(),
    "signals": [str(signal.getsignal(number)) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGCHLD)],
    "threads": threading.active_count(),
    "session_leader": os.getsid(0) == os.getpid(),
    "fds": sorted(os.listdir("/proc/self/fd")),
    # a digest, not the variables: a failing comparison prints this, and CI's may hold secrets
    "environ": hashlib.sha256(json.dumps(sorted(os.environ.items())).encode()).hexdigest(),
    "warnoptions": sys.warnoptions,
}))
sys.exit(3)
