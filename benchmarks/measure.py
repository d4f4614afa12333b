"""What the benchmarks measure the same way: the machine and versions a figure came from, how
many cores the machine really gave at the time, a command's wall and CPU time, and the memory of
each process it starts.

The 2-core machines this project runs on are shared: another tenant's work does not show in
``top`` or ``/proc/stat`` here, yet it can take a whole core for minutes. A scaling figure alone
cannot tell "our workers wait on each other" from "the machine had one core". So every scaling
run is paired with :func:`parallel_ceiling`: the speedup that N independent CPU-bound processes
get on the machine at that moment, the best any program could have reached.
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cores() -> int:
    """The cores this process may run on (its affinity mask), as ``--jobs 0`` counts them."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _chromium() -> str:
    try:
        done = subprocess.run(
            ["/usr/bin/chromium", "--version"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return "not installed"
    return done.stdout.strip() or "not installed"


def _git() -> str:
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return f"{head}{' (uncommitted changes)' if dirty else ''}" if head else "unknown"


def _java() -> str:
    try:
        done = subprocess.run(["java", "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "not installed"
    return (done.stderr.splitlines() or ["unknown"])[0].strip()


PACKAGES = ("formtools", "selectolax", "lxml", "html5lib", "warcio", "httpx", "mcp", "pyspark")


def machine(*, browser: bool = False, java: bool = False) -> dict[str, object]:
    """The machine, the versions and the date a set of figures belongs to."""
    versions: dict[str, str] = {}
    for name in PACKAGES:
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = "not installed"
    found: dict[str, object] = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": _cpu_model(),
        "cores": cores(),
        "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "commit": _git(),
        "versions": versions,
    }
    if browser:
        found["chromium"] = _chromium()
    if java:
        found["java"] = _java()
    return found


def describe(found: Mapping[str, object]) -> str:
    """One line naming the machine, for the top of a benchmark's output."""
    versions = found["versions"]
    assert isinstance(versions, dict)
    shown = ", ".join(f"{k} {v}" for k, v in versions.items() if v != "not installed")
    extra = "".join(f"; {found[key]}" for key in ("chromium", "java") if key in found)
    return (
        f"{found['date']}; {found['cores']} cores ({found['cpu']}), {found['memory_gib']} GiB; "
        f"Python {found['python']}; {shown}{extra}; commit {found['commit']}"
    )


# --- how many cores the machine gives right now -------------------------------------------------


def _spin(rounds: int) -> None:
    total = 0
    for number in range(rounds):
        total += number


def parallel_ceiling(workers: int, rounds: int = 2_000_000) -> float:
    """The speedup ``workers`` independent CPU-bound processes get here now: the time of one
    spin loop, times ``workers``, over the time ``workers`` forked copies of it take together.
    Equal to ``workers`` on an idle machine with that many cores; about 1 when another tenant
    holds all but one."""
    start = time.perf_counter()
    _spin(rounds)
    one = time.perf_counter() - start
    start = time.perf_counter()
    children = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            _spin(rounds)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    together = time.perf_counter() - start
    return workers * one / together


# --- a command, measured from outside -------------------------------------------------------------


def _children() -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        found.setdefault(int(fields[1]), []).append(int(entry.name))
    return found


def process_tree(root: int) -> list[int]:
    """``root`` and its descendants, from ``/proc``."""
    children = _children()
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, ()))
    return found


def _status_kib(pid: int) -> tuple[int, int]:
    """Resident memory now and its high-water mark (``VmRSS``, ``VmHWM``), in KiB."""
    found: dict[bytes, int] = {}
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith((b"VmRSS:", b"VmHWM:")):
                    found[line[:5]] = int(line.split()[1])
    except OSError:
        pass
    return found.get(b"VmRSS", 0), found.get(b"VmHWM", 0)


def _is_helper(pid: int) -> bool:
    """multiprocessing's resource tracker: a child of the command that is not a worker."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return b"resource_tracker" in cmdline.read()
    except OSError:
        return False


@dataclass
class Sample:
    """The tree at one moment: seconds since the start, lines written so far, RSS per pid."""

    seconds: float
    lines: int
    rss_kib: dict[int, int]


def _children_of(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as children:
            return [int(child) for child in children.read().split()]
    except OSError:
        return []


def _state(pid: int) -> str:
    """R (running or waiting for a CPU), S (sleeping: waiting on something), D, Z …"""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0].decode()
    except (OSError, IndexError):
        return ""


@dataclass
class Run:
    """One command, measured from outside: wall time (interpreter start included), the CPU time
    of it and every process it reaped, and with ``sample`` the memory of each process."""

    seconds: float
    cpu_seconds: float
    returncode: int
    stderr: str
    root: int = 0
    workers: list[int] = field(default_factory=list)  #: children, helpers left out
    peak_kib: dict[int, int] = field(default_factory=dict)  #: VmHWM per pid
    samples: list[Sample] = field(default_factory=list)
    #: with ``states``: per child, its scheduler state at each sample (R, S, D …)
    states: dict[int, list[str]] = field(default_factory=dict)
    #: with ``states``: seconds from the start until a child was first seen running
    first_running: float | None = None
    helpers: set[int] = field(default_factory=set)  #: children that are not workers

    def runnable_share(self) -> float | None:
        """How much of their lives the children wanted a CPU (state R: running, or runnable and
        waiting for a core), from each one's first R on: near 1 when the workers never waited
        for work, whatever the machine's other load; low when they sat idle on the queue."""
        shares = []
        for pid, seen in self.states.items():
            if pid in self.helpers or "R" not in seen:
                continue
            alive = seen[seen.index("R"):]
            alive = [state for state in alive if state and state != "Z"]
            if len(alive) >= 5:
                shares.append(alive.count("R") / len(alive))
        return sum(shares) / len(shares) if shares else None



def run(
    command: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    sample: bool = False,
    lines_of: Path | None = None,
    states: bool = False,
    every: float = 0.05,
    timeout: float = 3600,
) -> Run:
    """Run ``command`` and wait for it with ``wait4`` (for the CPU time of it and the workers it
    reaped). With ``sample``, read every ``every`` seconds the resident memory of each of its
    processes from ``/proc`` (and how many lines ``lines_of`` holds), so that memory can be
    followed against progress. With ``states``, read every ``every`` seconds the scheduler state
    of each child (see :meth:`Run.runnable_share`)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=errors, env={**os.environ, **(env or {})}
        )
        result = Run(0.0, 0.0, 0, "", root=process.pid)
        lines, offset = 0, 0
        workers: set[int] = set()
        while True:
            if sample:
                rss: dict[int, int] = {}
                for pid in process_tree(process.pid):
                    now, high = _status_kib(pid)
                    if now:
                        rss[pid] = now
                        result.peak_kib[pid] = max(result.peak_kib.get(pid, 0), high)
                    if pid != process.pid and pid not in workers and not _is_helper(pid):
                        workers.add(pid)
                if lines_of is not None and lines_of.exists():
                    with lines_of.open("rb") as written:
                        written.seek(offset)
                        chunk = written.read()
                    lines += chunk.count(b"\n")
                    offset += len(chunk)
                result.samples.append(Sample(time.perf_counter() - start, lines, rss))
            if states:
                for child in _children_of(process.pid):
                    if child not in result.states and _is_helper(child):
                        result.helpers.add(child)
                    state = _state(child)
                    result.states.setdefault(child, []).append(state)
                    if state == "R" and result.first_running is None:
                        result.first_running = time.perf_counter() - start
            polling = sample or states
            pid, status, usage = os.wait4(process.pid, os.WNOHANG if polling else 0)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                process.kill()
                raise TimeoutError(f"{command[0]} ran over {timeout} s")
            time.sleep(every)
        result.seconds = time.perf_counter() - start
        result.returncode = process.returncode = os.waitstatus_to_exitcode(status)
        result.cpu_seconds = usage.ru_utime + usage.ru_stime
        errors.seek(0)
        result.stderr = errors.read().decode(errors="replace")
    result.workers = sorted(workers)
    return result


# --- figures ----------------------------------------------------------------------------------------


def median_range(values: Sequence[float], fmt: str = "{:.2f}", unit: str = "") -> str:
    """``median (min–max)``, for figures measured several times on a shared machine."""
    if len(values) == 1:
        return fmt.format(values[0]) + unit
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{fmt.format(mid)}{unit} ({fmt.format(low)}–{fmt.format(high)})"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table, so that figures can go into the README as printed."""
    widths = [max(len(header[c]), *(len(row[c]) for row in rows)) for c in range(len(header))]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |"]
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        cells = [
            cell.ljust(w) if c == 0 else cell.rjust(w)
            for c, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def show(text: str) -> None:
    print(text)
    sys.stdout.flush()


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start
