"""What one Chromium page load of the browser tests costs, process by process.

The browser tests' CPU is mostly page loads (about 2,000 a suite run). This starts the test
oracle as the tests do (``ChromiumOracle``, one Chromium for the run), reads the tools of
``--loads`` small generated form pages (``oracle.tools``: a load, the settle poll, DevTools'
replay) and prints the CPU each load cost in every process below this one, by kind: the browser
process, the page's renderer, the GPU process (the display compositor), the network and storage
services, the WebUI renderer of the browser's own toolbar, Playwright's Node driver and this
Python process. CPU is read from ``/proc/<pid>/stat`` (own and reaped children's), so it is not
wall time: other work on the machine makes it noisier, not larger.

    python benchmarks/bench_page_load.py [--loads 200] [--rounds 2] [-- CHROMIUM SWITCHES...]

Switches after ``--`` are added to the oracle's command line (``ChromiumOracle(extra_args=…)``),
to compare a switch with the oracle as it is: run both, interleaved, and compare the totals.
What it found (Chromium 156, 2 cores): a load cost 138 ms, 67 of them in the browser process
(navigation, the browser window's toolbar and its UI compositor), 35 in the page's renderer;
RenderDocument's new frame and page per same-site load was 37 of them (compare with the switch
``--enable-features=RenderDocument:level/crashed-frame``; the oracle does not run with it, since
it changed which answer a racy page gives: internals.md).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from formtools._conformance.browser import ChromiumOracle, _descendants  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
_INPUT_TYPES = ("text", "number", "email", "checkbox", "date")


def form_page(number: int, rng: random.Random) -> str:
    """A small page with one tool of one to four required fields."""
    fields = "".join(
        f'<input name="f{number}_{index}" type="{rng.choice(_INPUT_TYPES)}" required>'
        for index in range(rng.randint(1, 4))
    )
    return f'<!doctype html><title>p{number}</title><form toolname="t{number}" tooldescription="d">{fields}</form>'


def process_kind(pid: int) -> str:
    """What a process below this one is, from its command line (Chromium's ``--type``)."""
    if pid == os.getpid():
        return "python"
    try:
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").split()
    except OSError:
        return "ended"
    if arguments and "node" in os.path.basename(arguments[0]):
        return "playwright driver (node)"
    switches = dict(argument[2:].partition("=")[::2] for argument in arguments if argument.startswith("--"))
    kind = switches.get("type")
    if kind is None:
        return "browser"
    if kind == "utility":
        return "utility: " + switches.get("utility-sub-type", "?").rpartition(".")[2]
    if kind == "renderer":
        return "renderer " + switches.get("renderer-client-id", "?")
    return kind


def cpu_ticks() -> dict[int, tuple[str, int]]:
    """Each process below this one (and this one): its kind and its CPU ticks so far, its reaped
    children's included (a renderer Chromium ended is counted in its parent)."""
    found = {}
    for pid in _descendants(os.getpid()):
        try:
            fields = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()
        except OSError:
            continue
        found[pid] = (process_kind(pid), sum(int(field) for field in fields[11:15]))
    return found


def one_round(loads: int, switches: list[str]) -> dict[str, float]:
    """CPU milliseconds per load, by process kind, over ``loads`` loads after 5 to warm up."""
    rng = random.Random(7)
    with ChromiumOracle(extra_args=switches) as oracle:
        for number in range(5):
            oracle.tools(form_page(number, rng))
        before = cpu_ticks()
        for number in range(loads):
            oracle.tools(form_page(number, rng))
        after = cpu_ticks()
    ticks_by_kind: Counter[str] = Counter()
    for pid, (kind, ticks) in after.items():
        ticks_by_kind[kind] += ticks - before.get(pid, (kind, 0))[1]
    return {kind: ticks * 1000 / TICKS / loads for kind, ticks in ticks_by_kind.most_common()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--loads", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("switches", nargs="*", help="more Chromium switches, after --")
    options = parser.parse_args()
    for number in range(1, options.rounds + 1):
        per_load = one_round(options.loads, options.switches)
        print(f"round {number}: {sum(per_load.values()):.1f} ms of CPU per load ({options.loads} loads)")
        for kind, milliseconds in per_load.items():
            if milliseconds >= 0.05:
                print(f"  {milliseconds:6.1f} ms  {kind}")


if __name__ == "__main__":
    main()
