#!/usr/bin/env python3
"""Byte-for-byte comparison of what two revisions of formtools print, through the CLI only.

Why this exists: a restructuring (issue 11: the pipeline as packages) must not change a single
output byte, and the test suite checks meanings (parsed JSON, chosen fields), not every byte of
every command on every page. This script runs an OLD revision (a git revision, default ``HEAD``)
and a NEW one (the working tree, or a second revision) on the same pages, with the same commands,
and diffs stdout, stderr and the exit code of each command. It exits 0 iff nothing differs.

What runs, on every page of ``fixtures/html/`` and on generated pages (``tests/support/formgen.py``
of the OLD revision, fixed seeds: ``generate_page`` and ``generate_parser_page``):

- ``extract`` under the ``chromium``, ``html`` and ``portable`` profiles, each also with
  ``--all-forms``, and the ``mcp``, ``openai`` and ``evals`` formats;
- ``lint --json`` (also with ``--all-forms``);
- ``call --dry-run`` (``chromium`` and ``html`` profiles) and ``validate`` on a seeded sample of
  the inputs Chromium was called with (``fixtures/expected/chromium-calls/``), per tool, with the
  document URL they were recorded under;
- ``batch`` over all the pages (JSON lines on stdout) per profile, with ``--all-forms`` and with
  ``--jobs 1``;
- ``report`` (md) on the fixtures and on the generated pages, and ``report --format html`` on
  the fixtures.

Only the public interface is used: the console script's entry point, read from each revision's
``pyproject.toml`` (``[project.scripts] formtools``), so internal module moves cannot matter. Each
side is a copy: ``git archive`` of a revision, or a snapshot of the working tree's ``src/`` taken at
the start (so edits made during the run do not mix two states), imported through ``PYTHONPATH``
(ahead of the editable install). Both sides run with the same current directory, a shared
directory holding the OLD revision's fixtures and the generated pages, and the same relative
paths, so paths in outputs agree.

Speed: spawning the CLI per command costs ~0.3 s, so most commands run in a *driver* process per
side (and shard) that imports formtools once and calls the entry point for each command with
``sys.argv`` set and stdout/stderr swapped for byte buffers. ``batch`` runs as a real process. To
show the driver is faithful, a seeded sample of the commands is also run in fresh processes and
must give the driver's bytes (``--isolated-sample``).

Normalised before comparing (and only these, because they are random or scheduling-dependent by
design, not behaviour):

- multipart boundaries (``----WebKitFormBoundary`` + 16 random alphanumerics, drawn from
  ``random.SystemRandom`` on every call), in text and inside ``body_base64`` values;
- the order of ``batch``'s JSON lines: pages are written as workers finish, collected from a set of
  futures, so the order changes from run to run even with ``--jobs 1``; lines are sorted;
- the elapsed time and rates in ``batch``'s closing summary on stderr;
- uncaught exceptions: the traceback's frames name module files, which a restructuring moves;
  only the final ``Type: message`` line is compared.

Usage::

    python scripts/compare_revisions.py                 # HEAD against the working tree
    python scripts/compare_revisions.py HEAD~3 HEAD     # two revisions
    python scripts/compare_revisions.py HEAD /tmp/copy  # a revision against any checkout
"""

from __future__ import annotations

import argparse
import base64
import binascii
import collections
import concurrent.futures
import dataclasses
import difflib
import io
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import traceback
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CALL_BASE_URL = "http://127.0.0.1:8000/pages/{}.html"  # where the recorded calls were made
PROFILES = ("chromium", "html", "portable")
DEFAULT_ENTRY_POINT = "formtools.cli:main"
# warnings a fresh process hides by default (they would differ by import order, not behaviour)
HIDDEN_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)
TRACEBACK = b"Traceback (most recent call last):"


# ---------------------------------------------------------------------------------------------
# Commands and their outputs
# ---------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Job:
    """One CLI command: ``formtools *argv``, run with the pages directory as current directory."""

    kind: str
    argv: tuple[str, ...]

    def shown(self) -> str:
        return shlex.join(("formtools", *self.argv))


@dataclasses.dataclass(frozen=True)
class Output:
    exit: int
    stdout: bytes
    stderr: bytes


@dataclasses.dataclass(frozen=True)
class Side:
    """One of the two programs compared: a copy whose ``src/`` holds formtools."""

    name: str  # "old" or "new"
    label: str  # what it is, for the summary
    root: Path
    entry_point: str

    @property
    def src(self) -> Path:
        return self.root / "src"


# ---------------------------------------------------------------------------------------------
# The driver: many commands in one process (runs inside the side's PYTHONPATH)
# ---------------------------------------------------------------------------------------------


def _exit_status(code: object, stderr: io.TextIOBase) -> int:
    """What the interpreter makes of ``SystemExit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    stderr.write(f"{code}\n")
    return 1


def _write_exception(error: BaseException, stderr: io.TextIOBase) -> None:
    """An uncaught exception as the interpreter prints it, frames left out (see the docstring)."""
    stderr.write(f"{TRACEBACK.decode()}\n  ...\n")
    stderr.write(traceback.format_exception_only(type(error), error)[-1])


def _load_entry_point(entry_point: str) -> Callable[[], object]:
    module_name, _, attribute = entry_point.partition(":")
    module = __import__(module_name, fromlist=["_"])
    target: Any = module
    for part in attribute.split("."):
        target = getattr(target, part)
    if not callable(target):
        raise TypeError(f"{entry_point} is not callable")
    return target  # type: ignore[no-any-return]


def _cache_typer_commands() -> None:
    """Build each typer app's click command once instead of on every call.

    ``Typer.__call__`` rebuilds the whole command tree from the functions' signatures each time
    (about 80% of a small command's cost); click commands are stateless between invocations, so
    reusing the tree changes nothing but the speed (the fresh-process sample checks it)."""
    try:
        import typer.main
    except ImportError:
        return
    build = typer.main.get_command
    built: dict[int, tuple[object, Any]] = {}

    def get_command(app: Any) -> Any:
        if id(app) not in built:
            built[id(app)] = (app, build(app))  # the app is kept alive: its id stays its own
        return built[id(app)][1]

    setattr(typer.main, "get_command", get_command)  # noqa: B010 - typed differently on purpose


def run_driver(jobs_file: Path, results_file: Path, expected_src: Path, entry_point: str) -> int:
    """Run every ``argv`` of ``jobs_file`` (a JSON list) through the console script's entry
    point in this process; write one JSON line per command to ``results_file``."""
    import formtools  # the side's copy, through PYTHONPATH

    loaded = Path(formtools.__file__ or "").resolve()
    if not loaded.is_relative_to(expected_src.resolve()):
        print(f"driver: formtools imported from {loaded}, not from {expected_src}", file=sys.stderr)
        return 3
    if os.environ.get("COMPARE_REVISIONS_NO_COMMAND_CACHE") != "1":
        _cache_typer_commands()
    entry: Callable[[], object] | None = None
    import_error: BaseException | None = None
    try:
        entry = _load_entry_point(entry_point)
    except Exception as error:  # noqa: BLE001 - every command's outcome, as in a real process
        import_error = error
    encoding = sys.stdout.encoding or "utf-8"
    out_errors = sys.stdout.errors or "strict"
    real = (sys.stdin, sys.stdout, sys.stderr, sys.argv)
    all_argv: list[list[str]] = json.loads(jobs_file.read_text("utf-8"))
    with results_file.open("w", encoding="utf-8") as sink:
        for argv in all_argv:
            out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
            out = io.TextIOWrapper(out_bytes, encoding=encoding, errors=out_errors)
            err = io.TextIOWrapper(err_bytes, encoding=encoding, errors="backslashreplace")
            sys.stdin = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
            sys.stdout, sys.stderr, sys.argv = out, err, ["formtools", *argv]
            status = 0
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    if entry is None:
                        assert import_error is not None
                        _write_exception(import_error, err)
                        status = 1
                    else:
                        entry()
                except SystemExit as stop:
                    status = _exit_status(stop.code, err)
                except KeyboardInterrupt:
                    raise
                except BaseException as error:  # noqa: BLE001 - an uncaught exception is an outcome
                    _write_exception(error, err)
                    status = 1
                finally:
                    sys.stdin, sys.stdout, sys.stderr, sys.argv = real
            seen: list[str] = []
            for warning in caught:
                if not issubclass(warning.category, HIDDEN_WARNINGS):
                    line = f"<warning> {warning.category.__name__}: {warning.message}\n"
                    if line not in seen:  # a fresh process shows each warning once per place
                        seen.append(line)
            err.write("".join(seen))
            out.flush()
            err.flush()
            sink.write(json.dumps({
                "exit": status,
                "stdout": base64.b64encode(out_bytes.getvalue()).decode("ascii"),
                "stderr": base64.b64encode(err_bytes.getvalue()).decode("ascii"),
            }) + "\n")
    return 0


# ---------------------------------------------------------------------------------------------
# Normalisation (only what is random or scheduling-dependent by design)
# ---------------------------------------------------------------------------------------------

_BOUNDARY = re.compile(rb"----WebKitFormBoundary[A-Za-z0-9]{16}")
_BOUNDARY_SHOWN = b"----WebKitFormBoundary################"
_BASE64_BODY = re.compile(rb'("body_base64": ?")([A-Za-z0-9+/=]*)(")')
_BATCH_TIMING = re.compile(rb" in [\d,.]+ s \([\d,.]+ pages/s, [\d,.]+ MB/s")  # (then the workers)
_SHOWN_WARNING = re.compile(rb"^.*?:\d+: (\w*Warning): (.*)\n(?:  .*\n)?", re.MULTILINE)


def _without_boundaries(data: bytes) -> bytes:
    def in_base64(match: re.Match[bytes]) -> bytes:
        try:
            body = base64.b64decode(match.group(2), validate=True)
        except binascii.Error:
            return match.group(0)
        if not _BOUNDARY.search(body):
            return match.group(0)
        return match.group(1) + base64.b64encode(_BOUNDARY.sub(_BOUNDARY_SHOWN, body)) + match.group(3)

    if b"body_base64" in data:
        data = _BASE64_BODY.sub(in_base64, data)
    return _BOUNDARY.sub(_BOUNDARY_SHOWN, data)


def _collapsed_traceback(stderr: bytes) -> bytes:
    start = stderr.find(TRACEBACK)
    if start < 0:
        return stderr
    lines = [line for line in stderr[start:].splitlines() if line.strip()]
    return stderr[:start] + b"<traceback> " + (lines[-1] if lines else b"") + b"\n"


def normalised(kind: str, output: Output) -> Output:
    stdout, stderr = _without_boundaries(output.stdout), _without_boundaries(output.stderr)
    stderr = _SHOWN_WARNING.sub(rb"<warning> \1: \2\n", _collapsed_traceback(stderr))
    if kind.startswith("batch"):
        stdout = b"".join(sorted(stdout.splitlines(keepends=True)))
        stderr = _BATCH_TIMING.sub(b" in <time>", stderr)
    return Output(output.exit, stdout, stderr)


# ---------------------------------------------------------------------------------------------
# Preparing the two sides and the pages
# ---------------------------------------------------------------------------------------------


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        # no optional locks: a status must not take the index lock from someone working there
        ["git", "--no-optional-locks", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def export_revision(repo: Path, commit: str, into: Path, paths: Sequence[str]) -> None:
    """``git archive`` of the ``paths`` the commit has (read-only on the repository)."""
    present = [p for p in paths if git(repo, "ls-tree", "--name-only", commit, p)]
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", "--format=tar", commit, *present],
        check=True, capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def entry_point_of(root: Path) -> str:
    """The ``formtools`` console script of a checkout's ``pyproject.toml``."""
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        scripts = tomllib.loads(pyproject.read_text("utf-8")).get("project", {}).get("scripts", {})
        if isinstance(scripts.get("formtools"), str):
            return str(scripts["formtools"])
    return DEFAULT_ENTRY_POINT


def describe_commit(repo: Path, commit: str) -> str:
    return git(repo, "log", "-1", "--format=%h %s", commit)[:90]


def prepare_side(name: str, spec: str, repo: Path, work: Path, extra: Sequence[str]) -> Side:
    """A copy of ``spec``: a directory (a checkout: its ``src/`` is snapshotted) or a revision."""
    into = work / name
    if Path(spec).is_dir():
        tree = Path(spec).resolve()
        if not (tree / "src" / "formtools").is_dir():
            raise SystemExit(f"{spec}: no src/formtools here")
        shutil.copytree(tree / "src", into / "src", ignore=shutil.ignore_patterns("__pycache__"))
        for path in extra:
            if (tree / path).exists():
                (into / path).parent.mkdir(parents=True, exist_ok=True)
                copy = shutil.copytree if (tree / path).is_dir() else shutil.copy2
                copy(tree / path, into / path)
        if (tree / "pyproject.toml").is_file():
            shutil.copy2(tree / "pyproject.toml", into / "pyproject.toml")
        try:
            changed = git(tree, "status", "--porcelain", "--", "src").splitlines()
            head = git(tree, "rev-parse", "--short", "HEAD")
            label = f"working tree {tree} (HEAD {head}; {len(changed)} changed paths under src/)"
        except subprocess.CalledProcessError:
            label = f"directory {tree}"
        return Side(name, label, into, entry_point_of(into))
    try:
        commit = git(repo, "rev-parse", "--verify", f"{spec}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"{spec}: neither a directory nor a revision of {repo}") from None
    export_revision(repo, commit, into, ["src", "pyproject.toml", *extra])
    described = describe_commit(repo, commit)
    label = described if commit.startswith(spec) else f"{spec} = {described}"
    return Side(name, label, into, entry_point_of(into))


_GENERATOR = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from tests.support import formgen
out, count, parser_count, seed = Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
pages = list(formgen.generate_pages(count, seed))
if parser_count and hasattr(formgen, "generate_parser_pages"):
    pages += list(formgen.generate_parser_pages(parser_count, seed))
for name, text in pages:
    (out / f"{name}.html").write_bytes(text.encode("utf-8"))
print(len(pages))
"""


def generate_pages(old: Side, into: Path, count: int, parser_count: int, seed: int) -> int:
    """Pages of the OLD revision's generator (the same bytes for both sides)."""
    into.mkdir(parents=True)
    if not (old.root / "tests" / "support" / "formgen.py").is_file():
        raise SystemExit(f"{old.label}: has no tests/support/formgen.py to generate pages with")
    done = subprocess.run(
        [sys.executable, "-c", _GENERATOR, str(old.root), str(into), str(count), str(parser_count),
         str(seed)],
        check=True, capture_output=True, text=True, env=clean_env(None),
    )
    return int(done.stdout.strip())


# ---------------------------------------------------------------------------------------------
# The commands
# ---------------------------------------------------------------------------------------------


def page_jobs(page: str) -> list[Job]:
    jobs: list[Job] = []
    for profile in PROFILES:
        jobs.append(Job(f"extract --profile {profile}", ("extract", page, "--profile", profile)))
        jobs.append(Job(
            f"extract --profile {profile} --all-forms",
            ("extract", page, "--profile", profile, "--all-forms"),
        ))
    jobs.append(Job("extract --format mcp", ("extract", page, "--format", "mcp")))
    jobs.append(Job(
        "extract --format openai --profile portable",
        ("extract", page, "--format", "openai", "--profile", "portable"),
    ))
    jobs.append(Job("extract --format evals", ("extract", page, "--format", "evals")))
    jobs.append(Job("lint --json", ("lint", page, "--json")))
    jobs.append(Job("lint --json --all-forms", ("lint", page, "--json", "--all-forms")))
    return jobs


def recorded_calls(calls_dir: Path, per_tool: int, seed: int) -> list[tuple[str, str, Any]]:
    """``(stem, tool, input)`` for a seeded sample of ``per_tool`` recorded inputs of each tool
    (all of them when ``per_tool`` is 0), in the recordings' order."""
    chosen: list[tuple[str, str, Any]] = []
    for path in sorted(calls_dir.glob("*.json")) if calls_dir.is_dir() else []:
        if path.name == "UNSTABLE.json":
            continue
        by_tool: dict[str, list[Any]] = collections.defaultdict(list)
        for case in json.loads(path.read_text("utf-8")):
            by_tool[case["tool"]].append(case["input"])
        for tool, inputs in by_tool.items():
            picked: Sequence[int] = range(len(inputs))
            if 0 < per_tool < len(inputs):
                picked = sorted(random.Random(f"{path.stem}/{tool}/{seed}").sample(picked, per_tool))
            chosen.extend((path.stem, tool, inputs[i]) for i in picked)
    return chosen


def call_jobs(calls: Iterable[tuple[str, str, Any]]) -> list[Job]:
    jobs: list[Job] = []
    for stem, tool, tool_input in calls:
        page = f"fixtures/html/{stem}.html"
        given = (f"--input={json.dumps(tool_input, ensure_ascii=False)}",
                 "--base-url", CALL_BASE_URL.format(stem))
        jobs.append(Job("call --dry-run", ("call", page, tool, *given, "--dry-run")))
        jobs.append(Job(
            "call --dry-run --profile html",
            ("call", page, tool, *given, "--dry-run", "--profile", "html"),
        ))
        jobs.append(Job("validate", ("validate", page, tool, *given)))
    return jobs


def report_jobs() -> list[Job]:
    return [
        Job("report (fixtures, md)", ("report", "--format", "md")),
        Job("report (generated, md)", ("report", "generated", "--format", "md")),
        Job("report (fixtures, html)", ("report", "--format", "html")),
    ]


def batch_jobs(jobs: int) -> list[Job]:
    inputs = ("fixtures/html", "generated")
    each = [("batch", *inputs, "--out", "-", "--jobs", str(jobs), "--profile", p) for p in PROFILES]
    return [
        *(Job(f"batch --profile {argv[-1]}", argv) for argv in each),
        Job("batch --all-forms", ("batch", *inputs, "--out", "-", "--jobs", str(jobs), "--all-forms")),
        Job("batch --jobs 1", ("batch", *inputs, "--out", "-", "--jobs", "1")),
    ]


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def clean_env(side: Side | None, cache: Path | None = None) -> dict[str, str]:
    """The environment of every run: only PYTHONPATH differs between the sides."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(side.src) if side else ""
    env["COLUMNS"] = "100"  # usage errors are laid out to the terminal's width
    env.pop("NO_COLOR", None)
    if cache is not None:
        env["PYTHONPYCACHEPREFIX"] = str(cache)  # keeps bytecode out of the copies (and src/)
    return env


def run_drivers(side: Side, jobs: Sequence[Job], shards: int, work: Path, pages: Path) -> list[Output]:
    """The commands of ``jobs`` on one side, split round-robin over ``shards`` driver processes."""
    procs: list[tuple[subprocess.Popen[bytes], Path, list[int]]] = []
    logs: list[io.BufferedWriter] = []
    for shard in range(shards):
        indices = list(range(shard, len(jobs), shards))
        jobs_file = work / f"{side.name}-jobs-{shard}.json"
        results_file = work / f"{side.name}-results-{shard}.jsonl"
        jobs_file.write_text(json.dumps([list(jobs[i].argv) for i in indices]), "utf-8")
        log = (work / f"{side.name}-driver-{shard}.log").open("wb")
        logs.append(log)
        procs.append((subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--driver", str(jobs_file),
             str(results_file), str(side.src), side.entry_point],
            cwd=pages, env=clean_env(side, work / "pycache"), stdout=log, stderr=subprocess.STDOUT,
        ), results_file, indices))
    outputs: list[Output | None] = [None] * len(jobs)
    for proc, _, _ in procs:
        proc.wait()
    for log in logs:
        log.close()
    for proc, results_file, indices in procs:
        if proc.returncode != 0:
            raise SystemExit(f"{side.name}: a driver failed (exit {proc.returncode}); see {work}/*.log")
        lines = results_file.read_text("utf-8").splitlines()
        if len(lines) != len(indices):
            raise SystemExit(f"{side.name}: a driver answered {len(lines)} of {len(indices)} commands")
        for i, line in zip(indices, lines):
            row = json.loads(line)
            outputs[i] = Output(row["exit"], base64.b64decode(row["stdout"]), base64.b64decode(row["stderr"]))
    return [o for o in outputs if o is not None]


_RUNNER = (
    "import sys; sys.argv[0] = 'formtools'; module, _, name = sys.argv.pop(1).partition(':'); "
    "import importlib; sys.exit(getattr(importlib.import_module(module), name)())"
)


def fidelity_sample(jobs: Sequence[Job], per_kind: int, seed: int) -> list[int]:
    """Indices of a seeded sample of ``per_kind`` commands of every kind."""
    by_kind: dict[str, list[int]] = collections.defaultdict(list)
    for index, job in enumerate(jobs):
        by_kind[job.kind].append(index)
    rng = random.Random(f"isolated/{seed}")
    return sorted(i for indices in by_kind.values() for i in rng.sample(indices, min(per_kind, len(indices))))


def run_isolated(side: Side, job: Job, work: Path, pages: Path) -> Output:
    """One command in a fresh process, as the installed console script runs it."""
    done = subprocess.run(
        [sys.executable, "-c", _RUNNER, side.entry_point, *job.argv],
        check=False, cwd=pages, env=clean_env(side, work / "pycache"), capture_output=True,
        stdin=subprocess.DEVNULL, timeout=900,
    )
    return Output(done.returncode, done.stdout, done.stderr)


# ---------------------------------------------------------------------------------------------
# Reporting differences
# ---------------------------------------------------------------------------------------------


def _window(data: bytes, at: int, width: int = 90) -> str:
    return repr(data[max(0, at - width // 2): at + width // 2])


def describe_difference(
    job: Job, old: Output, new: Output, names: tuple[str, str] = ("old", "new"), max_lines: int = 24
) -> str:
    lines = [f"  $ {job.shown()}"]
    if old.exit != new.exit:
        lines.append(f"    exit: {names[0]} {old.exit}, {names[1]} {new.exit}")
    for stream in ("stdout", "stderr"):
        a: bytes = getattr(old, stream)
        b: bytes = getattr(new, stream)
        if a == b:
            continue
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        lines.append(f"    {stream}: {len(a)} bytes {names[0]}, {len(b)} {names[1]}; first difference at byte {at}")
        lines.append(f"      {names[0]}: {_window(a, at)}")
        lines.append(f"      {names[1]}: {_window(b, at)}")
        diff = list(difflib.unified_diff(
            a.decode("utf-8", "replace").splitlines(), b.decode("utf-8", "replace").splitlines(),
            *names, lineterm="", n=1,
        ))
        if len(a.splitlines()) > 1 or len(b.splitlines()) > 1:
            shown = [f"      {line[:160]}" for line in diff[:max_lines]]
            lines.extend(shown + (["      …"] if len(diff) > max_lines else []))
    return "\n".join(lines)


def exit_histogram(outputs: Iterable[Output]) -> str:
    counts = collections.Counter(o.exit for o in outputs)
    return ", ".join(f"{code}: {n}" for code, n in sorted(counts.items()))


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Run two revisions of formtools on the fixture pages and on generated pages "
        "(extract, lint --json, call --dry-run, validate, batch, report) and compare every "
        "output byte. Exit 0 iff nothing differs.",
        epilog="OLD and NEW are git revisions of --repo or directories holding a checkout "
        "(its src/ is snapshotted). Example: %(prog)s HEAD  (HEAD against the working tree)",
    )
    parser.add_argument("old", nargs="?", default="HEAD", help="the previous revision (default: HEAD)")
    parser.add_argument("new", nargs="?", default=None,
                        help="the new revision or checkout directory (default: the working tree of --repo)")
    parser.add_argument("--repo", type=Path, default=ROOT, help="the git repository (default: %(default)s)")
    parser.add_argument("--pages", type=int, default=500,
                        help="generated pages (formgen.generate_page; default: %(default)s)")
    parser.add_argument("--parser-pages", type=int, default=100,
                        help="generated parser-stressing pages (formgen.generate_parser_page; default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="first page seed, also seeds the call sample")
    parser.add_argument("--calls-per-tool", type=int, default=12,
                        help="recorded inputs per tool for call and validate (0: all; default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=0,
                        help="processes in all, shared by the two sides (0: one per core)")
    parser.add_argument("--isolated-sample", type=int, default=2, metavar="N",
                        help="commands of each kind also run in fresh processes on each side, to check "
                        "the driver (default: %(default)s)")
    parser.add_argument("--show", type=int, default=5, help="differences to print in full (default: %(default)s)")
    parser.add_argument("--workdir", type=Path, help="work here (kept) instead of a temporary directory")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    if argv[:1] == ["--driver"]:
        if len(argv) != 5:
            raise SystemExit("usage: --driver JOBS RESULTS SRC ENTRY_POINT")
        return run_driver(Path(argv[1]), Path(argv[2]), Path(argv[3]), argv[4])
    args = parse_args(argv)
    started = time.perf_counter()
    repo = Path(git(args.repo, "rev-parse", "--show-toplevel"))
    work = args.workdir.resolve() if args.workdir else Path(tempfile.mkdtemp(prefix="compare-revisions-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        code = compare(args, repo, work, started)
    finally:
        if args.workdir is None and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"work directory kept: {work}")
    return code


def compare(args: argparse.Namespace, repo: Path, work: Path, started: float) -> int:
    old = prepare_side("old", args.old, repo, work, ["tests/support", "fixtures"])
    new = prepare_side("new", args.new or str(repo), repo, work, [])
    pages = work / "pages"
    (pages / "fixtures").mkdir(parents=True)
    for part in ("html", "expected"):
        shutil.copytree(old.root / "fixtures" / part, pages / "fixtures" / part)
    fixture_pages = sorted(p.name for p in (pages / "fixtures" / "html").glob("*.html"))
    generated = generate_pages(old, pages / "generated", args.pages, args.parser_pages, args.seed)
    all_pages = [f"fixtures/html/{n}" for n in fixture_pages]
    all_pages += sorted(f"generated/{p.name}" for p in (pages / "generated").glob("*.html"))

    calls = recorded_calls(pages / "fixtures" / "expected" / "chromium-calls", args.calls_per_tool, args.seed)
    driver_jobs = report_jobs() + [job for page in all_pages for job in page_jobs(page)] + call_jobs(calls)
    processes = args.jobs or os.cpu_count() or 2
    shards = max(1, processes // 2)

    print(f"old: {old.label}")
    print(f"new: {new.label}")
    print(f"pages: {len(fixture_pages)} fixtures + {generated} generated "
          f"(seeds {args.seed}..; {args.pages} formgen, {args.parser_pages} parser) = {len(all_pages)}")
    print(f"recorded call inputs: {len(calls)} ({args.calls_per_tool or 'all'} per tool)")
    print(f"running {len(driver_jobs)} commands per side in {shards} driver(s) per side…", flush=True)

    phase = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        old_future = pool.submit(run_drivers, old, driver_jobs, shards, work, pages)
        new_future = pool.submit(run_drivers, new, driver_jobs, shards, work, pages)
        results = {"old": old_future.result(), "new": new_future.result()}
    driver_seconds = time.perf_counter() - phase

    # batch in real processes (each uses --jobs workers), and the driver's fidelity sample
    phase = time.perf_counter()
    batches = batch_jobs(2)
    sample = fidelity_sample(driver_jobs, args.isolated_sample, args.seed)
    tasks: list[tuple[str, Side, Job, int | None]] = [
        (kind, side, job, index)
        for side in (old, new)
        for kind, jobs_and_index in (
            ("batch", [(job, None) for job in batches]),
            ("isolated", [(driver_jobs[i], i) for i in sample]),
        )
        for job, index in jobs_and_index
    ]
    with concurrent.futures.ThreadPoolExecutor(processes) as pool:
        ran = list(pool.map(lambda t: run_isolated(t[1], t[2], work, pages), tasks))
    process_seconds = time.perf_counter() - phase

    batch_out: dict[str, list[Output]] = {"old": [], "new": []}
    unfaithful: list[tuple[Side, Job, Output, Output]] = []
    for (kind, side, job, index), output in zip(tasks, ran):
        if kind == "batch":
            batch_out[side.name].append(output)
        else:
            assert index is not None
            in_driver = normalised(job.kind, results[side.name][index])
            if normalised(job.kind, output) != in_driver:
                unfaithful.append((side, job, in_driver, normalised(job.kind, output)))

    everything = driver_jobs + batches
    old_outputs = results["old"] + batch_out["old"]
    new_outputs = results["new"] + batch_out["new"]
    per_kind: collections.Counter[str] = collections.Counter()
    differing_kind: collections.Counter[str] = collections.Counter()
    differences: list[tuple[Job, Output, Output]] = []
    for job, a, b in zip(everything, old_outputs, new_outputs):
        per_kind[job.kind] += 1
        a, b = normalised(job.kind, a), normalised(job.kind, b)
        if a != b:
            differing_kind[job.kind] += 1
            differences.append((job, a, b))

    width = max(len(kind) for kind in per_kind)
    print()
    print(f"{'kind':<{width}}  commands  differing")
    for kind in per_kind:
        print(f"{kind:<{width}}  {per_kind[kind]:>8}  {differing_kind[kind]:>9}")
    print(f"{'total':<{width}}  {sum(per_kind.values()):>8}  {len(differences):>9}")
    print(f"(each command ran on both sides: {2 * sum(per_kind.values())} runs)")
    print(f"exit codes, old: {exit_histogram(old_outputs)}")
    print(f"exit codes, new: {exit_histogram(new_outputs)}")
    uncaught = sum(TRACEBACK in o.stderr for o in old_outputs), sum(TRACEBACK in o.stderr for o in new_outputs)
    if any(uncaught):
        print(f"uncaught exceptions: old {uncaught[0]}, new {uncaught[1]}")
    print(f"driver fidelity: {len(sample)} commands per side ({args.isolated_sample} of each kind) "
          f"rerun in fresh processes, "
          f"{len(unfaithful)} mismatches")
    for side, job, in_driver, fresh in unfaithful[: args.show]:
        print(f"[{side.name}: driver vs fresh process]")
        print(describe_difference(job, in_driver, fresh, ("driver", "fresh process")))
    print(f"runtime: {time.perf_counter() - started:.0f} s (drivers {driver_seconds:.0f} s, "
          f"batch and fresh processes {process_seconds:.0f} s)")

    if differences:
        print(f"\nfirst {min(args.show, len(differences))} of {len(differences)} differences:")
        for job, a, b in differences[: args.show]:
            print(describe_difference(job, a, b))
    print("\nRESULT: " + ("no differences" if not differences and not unfaithful else
                          f"{len(differences)} differing outputs"
                          + (f", {len(unfaithful)} driver mismatches" if unfaithful else "")))
    return 0 if not differences and not unfaithful else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
