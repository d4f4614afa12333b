"""``formtools call`` stopped by Ctrl-C or SIGTERM at a seeded line of the command line's own code
and of the send to a real 127.0.0.1 site, on a call that succeeds and one whose error is being
reported (:mod:`tests.support.command_interruptions`): one last line, ``formtools:
interrupted`` (130) or ``terminated`` (143), no traceback, nothing left running.

The lines of :func:`formtools.cli.main` itself are not tried: a signal there comes as the
process is leaving (its exit, or its report of an interrupt), where any Python program prints
the interrupt's traceback."""

from __future__ import annotations

import inspect
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from formtools import cli
from tests.support.processes import left_after
from tests.support.site import TestSite
from tests.test_mcp_bridge import ENV, ROOT

_PAGE = b"<form toolname=s tooldescription=d toolautosubmit action=/submit><input name=q><button>Go</button></form>"
_MAIN = inspect.getsourcelines(cli.main)
_MAIN_LINES = range(_MAIN[1], _MAIN[1] + len(_MAIN[0]))


def _run(argv: list[str], mode: str, record: Path, point: list[Any] | None = None) -> tuple[int, str, list[str]]:
    env = {**ENV, "PYTHONPATH": f"{ENV['PYTHONPATH']}{os.pathsep}{ROOT}", "FORMTOOLS_POINT": json.dumps(point)}
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.command_interruptions", mode, str(record), "--", *argv],
        env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    _, err = process.communicate(timeout=60)
    return process.returncode, err.decode(), left_after(process.pid)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with TestSite() as running:
        yield running.put("shop", _PAGE)


@pytest.fixture(scope="module")
def urls_argv(site: str, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """``batch --urls`` of a list of the site's page, into a file of the module's."""
    folder = tmp_path_factory.mktemp("urls")
    listing = folder / "urls.txt"
    listing.write_text(f"{site}\n")
    return ["batch", "--urls", str(listing), "--out", str(folder / "out.jsonl"), "--jobs", "2"]


@pytest.fixture(scope="module")
def lines_of(tmp_path_factory: pytest.TempPathFactory) -> Callable[[list[str]], tuple[int, str, list[Any]]]:
    """The exit code, standard error and lines ran (file, line, how often) of an uninterrupted
    run of a command line, run once for the module: the tests that interrupt the same command
    (``call`` of the tool ``s``, ``batch --urls``) share it rather than trace it again."""
    runs: dict[tuple[str, ...], tuple[int, str, list[Any]]] = {}

    def lines(argv: list[str]) -> tuple[int, str, list[Any]]:
        if tuple(argv) not in runs:
            record = tmp_path_factory.mktemp("lines") / "lines.json"
            code, err, _ = _run(argv, "lines", record)
            runs[tuple(argv)] = (code, err, json.loads(record.read_text()) if record.exists() else [])
        return runs[tuple(argv)]

    return lines


@pytest.mark.parametrize("tool", ["s", "no_such_tool"])
def test_a_signal_at_a_line_of_call_stops_it_with_one_line(
    site: str, tool: str, lines_of: Callable[[list[str]], tuple[int, str, list[Any]]], tmp_path: Path
) -> None:
    """Before, a signal while the command line set up its streams or reported an error (outside
    the ``try`` that caught interrupts around the command alone) printed a traceback and exited
    2, or -15 for a SIGTERM before its handler was set (5 in 20 seeded lines of cli.py)."""
    argv = ["call", site, tool, "--input", '{"q": "x"}', "--yes"]
    code, err, ran = lines_of(argv)
    assert code in (0, 2), err
    own = [entry for entry in ran if entry[0] == cli.__file__ and entry[1] not in _MAIN_LINES]
    sending = [entry for entry in ran if "/formtools/_net/" in entry[0] or "/httpcore/" in entry[0]]
    rng = random.Random(tool)
    record = tmp_path / "sent"
    for filename, line, count in rng.sample(own, 6) + rng.sample(sending, min(2, len(sending))):
        record.unlink(missing_ok=True)
        point = [filename, line, rng.randint(1, count), rng.choice(["SIGINT", "SIGTERM"])]
        code, err, left = _run(argv, "interrupt", record, point)
        assert "Traceback" not in err and left == [], (point, err[-3000:], left)
        if record.exists():
            assert code in (130, 143), (point, code, err)
            assert err.splitlines()[-1] == ("formtools: interrupted" if code == 130 else "formtools: terminated"), (point, err)


@pytest.mark.parametrize("command", ["call", "batch"])
def test_a_signal_in_code_made_from_a_string_ends_with_the_commands_own_status(
    site: str, command: str, urls_argv: list[str], lines_of: Callable[[list[str]], tuple[int, str, list[Any]]], tmp_path: Path
) -> None:
    """dataclasses and namedtuple make their methods by ``exec`` of a string, in every module a
    command imports late (httpx for ``call`` and ``batch --urls``, Playwright for ``diff``), and
    CPython took an interrupt that left such code for one nobody handled: ``python -m
    formtools`` said ``formtools: terminated`` and then died by SIGINT (-2; 2 in 150 Ctrl-Cs of
    ``batch --urls``). A signal at seeded runs of the first line of such code: the command's
    own exit, 130 or 143. Before, the runs whose line was the code's making died by SIGINT."""
    argv = ["call", site, "s", "--input", '{"q": "x"}', "--yes"] if command == "call" else urls_argv
    code, err, ran = lines_of(argv)
    assert code in (0, 2), err
    ((_, _, count),) = [entry for entry in ran if entry[:2] == ["<string>", 1]]
    rng = random.Random(command)
    record = tmp_path / "sent"
    for occurrence in sorted(rng.sample(range(1, count + 1), 3)):
        record.unlink(missing_ok=True)
        point = ["<string>", 1, occurrence, rng.choice(["SIGINT", "SIGTERM"])]
        code, err, left = _run(argv, "interrupt", record, point)
        assert record.exists(), point
        said = "formtools: interrupted" if point[3] == "SIGINT" else "formtools: terminated"
        assert (code, err.splitlines()[-1:], left) == (130 if point[3] == "SIGINT" else 143, [said], []), (point, err[-3000:])


def test_a_signal_as_asyncio_is_imported_ends_the_command_cleanly(
    urls_argv: list[str], lines_of: Callable[[list[str]], tuple[int, str, list[Any]]], tmp_path: Path
) -> None:
    """``batch --urls`` imports asyncio as it starts fetching, and the command line's handler
    looks for a running event loop in it: a signal while asyncio's base_events was half
    imported (seeded lines of it that run once) raised AttributeError from the handler, a
    traceback and exit 1 (14 in 60 Ctrl-Cs of ``batch --urls`` before)."""
    argv = urls_argv
    code, err, ran = lines_of(argv)
    assert code == 0, err
    from asyncio import base_events

    first_class = inspect.getsourcelines(base_events.BaseEventLoop)[1]  # before it, half imported
    importing = [entry for entry in ran if entry[0] == base_events.__file__ and entry[1] < first_class]
    rng = random.Random(15)
    record = tmp_path / "sent"
    for filename, line, _ in rng.sample(importing, 2):
        record.unlink(missing_ok=True)
        point = [filename, line, 1, rng.choice(["SIGINT", "SIGTERM"])]
        code, err, left = _run(argv, "interrupt", record, point)
        assert record.exists(), point
        said = "formtools: interrupted" if point[3] == "SIGINT" else "formtools: terminated"
        assert (code, err.splitlines()[-1:], left) == (130 if point[3] == "SIGINT" else 143, [said], []), (point, err[-3000:])
