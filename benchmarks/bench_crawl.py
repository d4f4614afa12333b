"""The crawl benchmark: formtools against parsers, a byte scan and a browser, in one run.

    python benchmarks/bench_crawl.py                        # every section, a 25 MB corpus
    python benchmarks/bench_crawl.py --quick                # a 2 MB corpus and short runs
    python benchmarks/bench_crawl.py --only parse,prefilter --size-mb 10
    python benchmarks/bench_crawl.py --corpus benchmarks/corpus --json results.json

The corpus comes from ``make_corpus.py`` (seeded: the same pages every run), generated into a
temporary directory, or kept in (and reused from) ``--corpus DIR``. Every baseline is measured in
the same run on the same pages, so the ratios hold on any machine even where the absolute figures
do not. Sections (``--only``, comma-separated):

- ``parse``: MB/s and pages/s of parse-only lexbor (selectolax), lxml.html and html5lib, of
  ``formtools.parse_html``, and of ``formtools.extract`` (``chromium`` profile), over the whole
  corpus and over the pages with ``toolname`` (those the prefilter passes). For the whole corpus,
  extract's time is what batch extraction spends: the prefilter on every page plus extract on the
  pages it passes. Ratios are against lexbor, the fastest parser.
- ``prefilter``: the byte scan's MB/s on the corpus as it is, with every ``toolname`` renamed (it
  reads every byte), in ``--all-forms`` mode with every ``<form`` renamed, and on UTF-16 pages.
- ``scaling``: ``formtools batch`` over the corpus directory with ``--jobs 1`` … all cores (wall
  time of the command, start-up included, and the CPU time of it and its workers), and once over
  the corpus's WARC.gz.
- ``memory``: peak resident memory of ``formtools batch`` over 1,000 and 10,000 small pages,
  sampled from ``/proc``: the largest high-water mark of any one process, and the highest sum
  over the process tree; flat means the two runs peak alike.
- ``chromium``: per-page time of headless Chromium (``/usr/bin/chromium`` with WebMCP, through
  ``formtools._conformance.browser.ChromiumOracle``: load the page from a local server, wait until the tools
  settle, read them) on a sample of pages, against ``formtools.extract`` on the same pages, and
  whether the two give the same tools.

Figures are best-of-``--repeat`` passes where a pass is short (each engine gets more passes only
while it has spent under 3 s); nothing is asserted here.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import html5lib  # noqa: E402
import lxml.html  # noqa: E402
from make_corpus import PAGES_PER_FOLDER, Corpus, PageInfo, generate, load  # noqa: E402
from selectolax.lexbor import LexborHTMLParser  # noqa: E402

import formtools  # noqa: E402
from formtools._parse.prefilter import may_hold_tools  # noqa: E402

SECTIONS = ("parse", "prefilter", "scaling", "memory", "chromium")
_PASS_BUDGET = 3.0  # seconds an engine may spend on extra passes


# --- measuring ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """Throughput of one engine over a set of pages."""

    pages: int
    size: int
    seconds: float

    @property
    def mb_per_s(self) -> float:
        return self.size / self.seconds / 1e6 if self.seconds else float("inf")

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds if self.seconds else float("inf")

    def to_dict(self) -> dict[str, float]:
        return {
            "pages": self.pages,
            "bytes": self.size,
            "seconds": round(self.seconds, 4),
            "mb_per_s": round(self.mb_per_s, 3),
            "pages_per_s": round(self.pages_per_s, 2),
        }


def _per_page_seconds(work: Callable[[int], object], count: int, repeat: int) -> list[float]:
    """Seconds per page of the best pass (the pass with the least total)."""
    best: list[float] | None = None
    spent = 0.0
    for _ in range(repeat):
        times = []
        clock = time.perf_counter
        for index in range(count):
            start = clock()
            work(index)
            times.append(clock() - start)
        spent += sum(times)
        if best is None or sum(times) < sum(best):
            best = times
        if spent > _PASS_BUDGET:
            break
    assert best is not None
    return best


def _rate(times: Sequence[float], sizes: Sequence[int], chosen: Sequence[int]) -> Rate:
    return Rate(len(chosen), sum(sizes[i] for i in chosen), sum(times[i] for i in chosen))


# --- sections ----------------------------------------------------------------------------------


def section_parse(corpus: Corpus, bodies: list[bytes], repeat: int) -> dict[str, Any]:
    sizes = [len(body) for body in bodies]
    everything = range(len(bodies))
    passed = [i for i, body in enumerate(bodies) if may_hold_tools(body)]
    urls = [page.url for page in corpus.pages]
    prefilter = _per_page_seconds(lambda i: may_hold_tools(bodies[i]), len(bodies), repeat)

    def html5lib_parse(body: bytes) -> object:
        return html5lib.HTMLParser(namespaceHTMLElements=False).parse(body)

    engines: list[tuple[str, Callable[[int], object]]] = [
        ("lexbor (selectolax), parse only", lambda i: LexborHTMLParser(bodies[i])),
        ("lxml.html, parse only", lambda i: lxml.html.document_fromstring(bodies[i])),
        ("html5lib, parse only", lambda i: html5lib_parse(bodies[i])),
        ("formtools.parse_html", lambda i: formtools.parse_html(bodies[i], url=urls[i])),
    ]
    rows: list[dict[str, Any]] = []
    for name, work in engines:
        times = _per_page_seconds(work, len(bodies), repeat)
        rows.append(
            {
                "engine": name,
                "all": _rate(times, sizes, everything),
                "toolname": _rate(times, sizes, passed),
            }
        )

    # extract runs only where the prefilter lets it, as batch extraction does
    extract_times = [0.0] * len(bodies)
    extracted = _per_page_seconds(
        lambda k: formtools.extract(bodies[passed[k]], base_url=urls[passed[k]]),
        len(passed),
        repeat,
    )
    for index, seconds in zip(passed, extracted, strict=True):
        extract_times[index] = seconds
    with_prefilter = [p + e for p, e in zip(prefilter, extract_times, strict=True)]
    rows.append(
        {
            "engine": "formtools.extract (+ prefilter on all)",
            "all": _rate(with_prefilter, sizes, everything),
            "toolname": _rate(extract_times, sizes, passed),
        }
    )

    fastest = rows[0]
    table: list[dict[str, Any]] = []
    for row in rows:
        table.append(
            {
                "engine": row["engine"],
                "all": row["all"].to_dict(),
                "toolname": row["toolname"].to_dict(),
                "vs_lexbor_all": round(row["all"].mb_per_s / fastest["all"].mb_per_s, 4),
                "vs_lexbor_toolname": round(
                    row["toolname"].mb_per_s / fastest["toolname"].mb_per_s, 4
                ),
            }
        )
    print(
        f"\n## parse — {len(bodies):,} pages, {sum(sizes) / 1e6:.1f} MB; "
        f"{len(passed):,} pages with toolname, {sum(sizes[i] for i in passed) / 1e6:.1f} MB"
    )
    _print_table(
        [
            "engine",
            "all pages MB/s",
            "pages/s",
            "× lexbor",
            "toolname pages MB/s",
            "pages/s",
            "× lexbor",
        ],
        [
            [
                r["engine"],
                f"{r['all']['mb_per_s']:,.2f}",
                f"{r['all']['pages_per_s']:,.1f}",
                f"{r['vs_lexbor_all']:.3f}",
                f"{r['toolname']['mb_per_s']:,.2f}",
                f"{r['toolname']['pages_per_s']:,.1f}",
                f"{r['vs_lexbor_toolname']:.3f}",
            ]
            for r in table
        ],
    )
    return {"pages": len(bodies), "bytes": sum(sizes), "toolname_pages": len(passed), "rows": table}


def section_prefilter(corpus: Corpus, bodies: list[bytes], repeat: int) -> dict[str, Any]:
    without = [
        body.replace(b"toolname", b"toolnome").replace(b"TOOLNAME", b"TOOLNOME") for body in bodies
    ]
    formless = [body.replace(b"<form", b"<farm").replace(b"<FORM", b"<FARM") for body in without]
    wide = [
        codecs.BOM_UTF16_LE + body.decode(_codec(page), errors="replace").encode("utf-16-le")
        for page, body in zip(corpus.pages, without, strict=True)
    ][: max(1, len(bodies) // 4)]
    cases: list[tuple[str, list[bytes], Callable[[bytes], bool]]] = [
        ("corpus as it is (scan stops at a toolname)", bodies, may_hold_tools),
        ("no toolname anywhere (every byte read)", without, may_hold_tools),
        (
            "--all-forms, no <form anywhere",
            formless,
            lambda body: may_hold_tools(body, all_forms=True),
        ),
        ("UTF-16 pages, no toolname", wide, may_hold_tools),
    ]
    rows: list[dict[str, Any]] = []
    for name, pages, scan in cases:
        rate = _scan_rate(pages, scan, max(repeat, 5))
        rows.append({"case": name, **rate.to_dict()})
    print("\n## prefilter (byte scan)")
    _print_table(
        ["case", "MB", "MB/s"],
        [[r["case"], f"{r['bytes'] / 1e6:.1f}", f"{r['mb_per_s']:,.0f}"] for r in rows],
    )
    return {"rows": rows}


def _scan_rate(pages: list[bytes], scan: Callable[[bytes], bool], repeat: int) -> Rate:
    times = _per_page_seconds(lambda i: scan(pages[i]), len(pages), repeat)
    return Rate(len(pages), sum(map(len, pages)), sum(times))


def _codec(page: PageInfo) -> str:
    return "cp1252" if page.charset in ("windows-1252", "iso-8859-1") else page.charset


def _batch_command(inputs: Sequence[str], out: Path, jobs: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "formtools",
        "batch",
        *inputs,
        "--out",
        str(out),
        "--jobs",
        str(jobs),
    ]


def _tree(root: int) -> list[int]:
    """``root`` and its descendants, from ``/proc``."""
    parents: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(parents.get(pid, ()))
    return found


def _memory_kib(pid: int) -> tuple[int, int]:
    """The process's resident memory now and its high-water mark (``VmRSS``, ``VmHWM``)."""
    found = {}
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith((b"VmRSS:", b"VmHWM:")):
                    found[line[:5]] = int(line.split()[1])
    except OSError:
        pass
    return found.get(b"VmRSS", 0), found.get(b"VmHWM", 0)


@dataclass(frozen=True)
class Memory:
    """Resident memory of a process tree, sampled from ``/proc`` every 20 ms.

    Not ``ru_maxrss``: on Linux a child's counts the parent's memory it was forked from (the
    high-water mark survives ``exec``), so from a benchmark holding a corpus it would report the
    benchmark's size. ``VmHWM`` starts afresh with ``exec``.
    """

    largest_process_mib: float  #: the highest high-water mark of any one process of the tree
    tree_peak_mib: float  #: the highest sum over the tree (the workers' peaks need not coincide)


@dataclass(frozen=True)
class BatchRun:
    """One ``formtools batch`` process, measured from outside."""

    seconds: float  #: wall time, interpreter start-up included
    cpu_seconds: float  #: user + system time of the process and the workers it reaped
    lines: int  #: lines in the output: one per page
    memory: Memory | None


def _run_batch(inputs: Sequence[str], out: Path, jobs: int, *, sample_memory: bool) -> BatchRun:
    """Run ``formtools batch`` and wait for it with ``wait4`` (for its CPU time), sampling the
    memory of its process tree if asked."""
    log = out.with_suffix(".stderr")
    start = time.perf_counter()
    with log.open("wb") as errors:
        process = subprocess.Popen(
            _batch_command(inputs, out, jobs), stdout=subprocess.DEVNULL, stderr=errors
        )
    high_water: dict[int, int] = {}
    tree_peak = 0
    while True:
        if sample_memory:
            sampled = {pid: _memory_kib(pid) for pid in _tree(process.pid)}
            tree_peak = max(tree_peak, sum(rss for rss, _ in sampled.values()))
            for pid, (_, hwm) in sampled.items():
                high_water[pid] = max(high_water.get(pid, 0), hwm)
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, so Popen must not wait
    if process.returncode != 0:
        raise SystemExit(
            f"formtools batch failed ({process.returncode}):\n{log.read_text(errors='replace')}"
        )
    with out.open("rb") as lines:
        written = sum(1 for _ in lines)
    memory = (
        Memory(max(high_water.values(), default=0) / 1024, tree_peak / 1024)
        if sample_memory
        else None
    )
    return BatchRun(seconds, usage.ru_utime + usage.ru_stime, written, memory)


def section_scaling(corpus: Corpus, scratch: Path, cores: int) -> dict[str, Any]:
    runs: list[tuple[str, int, BatchRun]] = []
    for jobs in range(1, cores + 1):
        out = scratch / f"scaling-{jobs}.jsonl"
        runs.append(
            ("directory", jobs, _run_batch([str(corpus.pages_dir)], out, jobs, sample_memory=False))
        )
    if corpus.warc is not None:
        out = scratch / "scaling-warc.jsonl"
        runs.append(
            ("WARC.gz", cores, _run_batch([str(corpus.warc)], out, cores, sample_memory=False))
        )
    single = runs[0][2].seconds
    rows: list[dict[str, Any]] = [
        {
            "input": source,
            "jobs": jobs,
            "lines": run.lines,
            "cpu_seconds": round(run.cpu_seconds, 3),
            "speedup": round(single / run.seconds, 3),
            **Rate(run.lines, corpus.size, run.seconds).to_dict(),
        }
        for source, jobs, run in runs
    ]
    print(
        f"\n## scaling — formtools batch over {len(corpus.pages):,} pages, "
        f"{corpus.size / 1e6:.1f} MB (wall time, start-up included; {cores} cores)"
    )
    _print_table(
        ["input", "--jobs", "pages/s", "MB/s", "seconds", "CPU s", "speedup"],
        [
            [
                row["input"],
                str(row["jobs"]),
                f"{row['pages_per_s']:,.1f}",
                f"{row['mb_per_s']:,.2f}",
                f"{row['seconds']:.2f}",
                f"{row['cpu_seconds']:.2f}",
                f"{row['speedup']:.2f}×",
            ]
            for row in rows
        ],
    )
    return {"cores": cores, "rows": rows}


def section_memory(scratch: Path, counts: Sequence[int], seed: int, cores: int) -> dict[str, Any]:
    started = time.perf_counter()
    small = generate(scratch / "small", pages=max(counts), seed=seed, page_kb=(1, 5), warc=False)
    print(
        f"\n## memory — formtools batch --jobs {cores} over small pages "
        f"({max(counts):,} generated in {time.perf_counter() - started:.1f} s)"
    )
    rows: list[dict[str, Any]] = []
    for count in counts:
        pages = small.pages[:count]
        # pages/0000 holds the first 1,000 pages, pages/0001 the next …: whole folders if possible
        folders = sorted({str(small.directory / Path(page.file).parent) for page in pages})
        inputs = (
            folders
            if len(folders) * PAGES_PER_FOLDER == count
            else [str(small.path(page)) for page in pages]
        )
        run = _run_batch(inputs, scratch / f"memory-{count}.jsonl", cores, sample_memory=True)
        assert run.memory is not None
        rows.append(
            {
                "pages": count,
                "bytes": sum(page.bytes for page in pages),
                "lines": run.lines,
                "seconds": round(run.seconds, 3),
                "pages_per_s": round(count / run.seconds, 1),
                "largest_process_mib": round(run.memory.largest_process_mib, 1),
                "tree_peak_mib": round(run.memory.tree_peak_mib, 1),
            }
        )
    _print_table(
        ["pages", "MB", "seconds", "pages/s", "largest process peak MiB", "process tree peak MiB"],
        [
            [
                f"{r['pages']:,}",
                f"{r['bytes'] / 1e6:.1f}",
                f"{r['seconds']:.1f}",
                f"{r['pages_per_s']:,.0f}",
                f"{r['largest_process_mib']:.1f}",
                f"{r['tree_peak_mib']:.1f}",
            ]
            for r in rows
        ],
    )
    return {"jobs": cores, "rows": rows}


@dataclass(frozen=True)
class BrowserPage:
    """One sample page: seconds per engine, and whether formtools gave Chromium's tools."""

    file: str
    bytes: int
    tools: int  #: as Chromium registers them
    chromium_s: float
    formtools_s: float
    prefiltered_s: float  #: the prefilter, then extract only if it passes (what batch does)
    same_tools: bool


def _time_per_page(oracle: Any, page: PageInfo, body: bytes) -> BrowserPage:
    clock = time.perf_counter
    start = clock()
    browser_tools = oracle.tools(body, content_type="text/html")  # the <meta> charset decides
    chromium_s = clock() - start
    start = clock()
    ours = formtools.extract(body, base_url=page.url)
    formtools_s = clock() - start
    start = clock()
    if may_hold_tools(body):
        formtools.extract(body, base_url=page.url)
    prefiltered_s = clock() - start
    same = [tool.to_dict() for tool in ours.tools] == browser_tools
    return BrowserPage(
        page.file, len(body), len(browser_tools), chromium_s, formtools_s, prefiltered_s, same
    )


def section_chromium(corpus: Corpus, bodies: list[bytes], sample: int) -> dict[str, Any]:
    from formtools._conformance.browser import CHROMIUM, ChromiumOracle

    step = max(1, len(bodies) // sample)
    chosen = list(range(0, len(bodies), step))[:sample]
    version = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()
    started = time.perf_counter()
    with ChromiumOracle() as oracle:
        launch = time.perf_counter() - started
        rows = [_time_per_page(oracle, corpus.pages[i], bodies[i]) for i in chosen]
    engines = {
        "chromium": [row.chromium_s for row in rows],
        "formtools": [row.formtools_s for row in rows],
        "formtools_prefiltered": [row.prefiltered_s for row in rows],
    }
    summary: dict[str, Any] = {
        "chromium": version,
        "launch_s": round(launch, 2),
        "pages": len(rows),
        "bytes": sum(row.bytes for row in rows),
        "pages_with_tools": sum(1 for row in rows if row.tools),
        "same_tools": sum(row.same_tools for row in rows),
    }
    for name, times in engines.items():
        summary[f"{name}_mean_s"] = round(statistics.mean(times), 4)
        summary[f"{name}_median_s"] = round(statistics.median(times), 4)
    browser = statistics.mean(engines["chromium"])
    summary["speedup_mean"] = round(browser / statistics.mean(engines["formtools"]), 2)
    summary["speedup_prefiltered_mean"] = round(
        browser / statistics.mean(engines["formtools_prefiltered"]), 2
    )
    print(
        f"\n## chromium — {len(rows)} pages ({summary['bytes'] / 1e6:.1f} MB, "
        f"{summary['pages_with_tools']} with tools), {version}, launched in {launch:.1f} s"
    )
    labels = {
        "chromium": "headless Chromium (load, settle, read tools)",
        "formtools": "formtools.extract",
        "formtools_prefiltered": "prefilter, then formtools.extract if it passes",
    }
    _print_table(
        ["per page", "mean s", "median s"],
        [
            [label, f"{summary[f'{name}_mean_s']:.3f}", f"{summary[f'{name}_median_s']:.3f}"]
            for name, label in labels.items()
        ],
    )
    print(
        f"formtools.extract is {summary['speedup_mean']:.1f}× faster per page on average "
        f"({summary['speedup_prefiltered_mean']:.1f}× with the prefilter); "
        f"same tools as Chromium on {summary['same_tools']} of {len(rows)} pages"
    )
    return {**summary, "rows": [row.__dict__ for row in rows]}


# --- output ------------------------------------------------------------------------------------


def _print_table(header: list[str], rows: list[list[str]]) -> None:
    """A Markdown table, so that figures can be pasted into the README as they are."""
    widths = [max(len(header[c]), *(len(row[c]) for row in rows)) for c in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        cells = [
            cell.ljust(w) if c == 0 else cell.rjust(w)
            for c, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        print("| " + " | ".join(cells) + " |")
    sys.stdout.flush()


def _loads(loads: Sequence[float]) -> str:
    return " ".join(f"{load:.2f}" for load in loads)


def _machine(cores: int) -> dict[str, Any]:
    from importlib.metadata import version

    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next(
                (line.split(":", 1)[1].strip() for line in info if line.startswith("model name")),
                "",
            )
    except OSError:
        pass
    return {
        "cores": cores,
        "cpu": model,
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
        **{name: version(name) for name in ("formtools", "lxml", "html5lib", "selectolax")},
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2],
    )
    parser.add_argument("--size-mb", type=float, help="corpus size (default 25, with --quick 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", type=Path, help="keep the corpus here, or reuse the one there")
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"sections, comma-separated: {','.join(SECTIONS)}",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a small corpus, 1 pass, fewer memory pages, 3 browser pages",
    )
    parser.add_argument(
        "--repeat", type=int, help="passes per engine, best kept (default 3, with --quick 1)"
    )
    parser.add_argument(
        "--memory-pages",
        help="page counts of the memory runs (default 1000,10000; --quick 200,1000)",
    )
    parser.add_argument(
        "--sample", type=int, help="pages loaded in Chromium (default 20, with --quick 3)"
    )
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="most workers (default: the cores)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    sections = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    size_mb = args.size_mb if args.size_mb is not None else (2.0 if args.quick else 25.0)
    repeat = args.repeat or (1 if args.quick else 3)
    counts = [
        int(n)
        for n in (args.memory_pages or ("200,1000" if args.quick else "1000,10000")).split(",")
    ]
    sample = args.sample or (3 if args.quick else 20)

    results: dict[str, Any] = {"machine": _machine(args.jobs), "sections": sections}
    with ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="formtools-bench-")))
        started = time.perf_counter()
        if args.corpus is not None and (args.corpus / "manifest.jsonl").exists():
            corpus = load(args.corpus)
            origin = f"reused from {args.corpus}"
        else:
            corpus = generate(args.corpus or scratch / "corpus", size_mb, args.seed)
            origin = f"generated (seed {args.seed}) in {time.perf_counter() - started:.1f} s"
        bodies = corpus.bodies()
        results["corpus"] = {
            "pages": len(corpus.pages),
            "bytes": corpus.size,
            "with_forms": sum(1 for p in corpus.pages if p.forms),
            "with_toolname_forms": sum(1 for p in corpus.pages if p.toolname_forms),
        }
        machine = results["machine"]
        print(
            f"# formtools crawl benchmark — {args.jobs} cores, "
            f"{machine['cpu'] or platform.machine()}, Python {machine['python']}; "
            f"load average {_loads(machine['load_average'])} (other work on the machine skews "
            "every figure)"
        )
        print(
            f"corpus: {len(corpus.pages):,} pages, {corpus.size / 1e6:.1f} MB, "
            f"{results['corpus']['with_forms']:,} with forms, "
            f"{results['corpus']['with_toolname_forms']:,} with toolname forms; {origin}"
        )
        measure: dict[str, Callable[[], dict[str, Any]]] = {
            "parse": lambda: section_parse(corpus, bodies, repeat),
            "prefilter": lambda: section_prefilter(corpus, bodies, repeat),
            "scaling": lambda: section_scaling(corpus, scratch, args.jobs),
            "memory": lambda: section_memory(scratch, counts, args.seed, args.jobs),
            "chromium": lambda: section_chromium(corpus, bodies, sample),
        }
        for name in sections:
            results[name] = measure[name]()
    results["load_average_after"] = [round(load, 2) for load in os.getloadavg()]
    print(f"\nload average at the end: {_loads(results['load_average_after'])}")
    if args.json is not None:
        args.json.write_text(
            json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return results


if __name__ == "__main__":
    main()
