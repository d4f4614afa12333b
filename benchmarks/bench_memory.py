"""Memory of ``formtools batch`` over 10,000 pages: resident memory per process against progress.

    python benchmarks/bench_memory.py                  # 10,000 pages, --jobs 2, directory and WARC.gz
    python benchmarks/bench_memory.py --pages 2000 --jobs 4 --json memory.json

The pages are the form-page corpus (``make_corpus.py --forms-only --pages 200``: every page with
forms, 16 MB) repeated until there are ``--pages`` of them: hard links in a directory, and the
archive concatenated into one WARC.gz. Every page is parsed or prefiltered as in a crawl.

While the batch runs, the resident memory (``VmRSS``) of the parent and of each worker is read
from ``/proc`` every 50 ms together with the number of lines written, so memory is followed
against pages done; ``VmHWM`` gives each process's peak. The goal (issue 16): flat after the
first 1,000 pages, and under 200 MB per worker. ``growth`` is the most a process's RSS rose
between 1,000 pages done and the end. Forked workers share the parent's pages until they write
them: their RSS counts those shared pages in full. Nothing is asserted here.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_corpus import Corpus, generate, load  # noqa: E402
from measure import Run, cores, describe, machine, run, show, table  # noqa: E402

GOAL_MIB = 200
STEP = 1000


def corpus(where: Path) -> Corpus:
    if (where / "manifest.jsonl").exists():
        return load(where)
    return generate(where, pages=200, seed=1, forms_only=True)


def repeated(base: Corpus, where: Path, pages: int) -> tuple[Path, Path, int]:
    """``pages`` pages of ``base`` over and over, as a directory and as one WARC.gz."""
    copies = -(-pages // len(base.pages))
    directory, archive = where / f"pages-{pages}", where / f"corpus-{pages}.warc.gz"
    if not directory.exists():
        files = sorted(base.pages_dir.rglob("*.html"))
        for number in range(pages):
            source = files[number % len(files)]
            target = directory / f"{number // len(files):03d}" / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.hardlink_to(source)
    if not archive.exists():
        assert base.warc is not None
        with archive.open("wb") as out:
            for _ in range(copies):
                with base.warc.open("rb") as one:
                    shutil.copyfileobj(one, out)
    return directory, archive, copies * len(base.pages)


def _mib(kib: int) -> float:
    return kib / 1024


def follow(done: Run, pages: int) -> dict[str, Any]:
    """RSS of each process at each thousand pages done, its peak, and its growth after the
    first thousand."""
    names = {done.root: "parent"} | {
        pid: f"worker {number + 1}" for number, pid in enumerate(done.workers)
    }
    marks = list(range(STEP, pages + 1, STEP))
    at: dict[str, list[float | None]] = {name: [] for name in names.values()}
    for mark in marks:
        for pid, name in names.items():
            alive = [s for s in done.samples if pid in s.rss_kib]
            # the first sample at the mark; at the last one, the process's last sample (the
            # output's buffer is flushed as it exits)
            sample = next((s for s in alive if s.lines >= mark), alive[-1] if alive else None)
            kib = sample.rss_kib[pid] if sample is not None else 0
            at[name].append(round(_mib(kib), 1) if kib else None)
    growth = {}
    for pid, name in names.items():
        after = [
            s.rss_kib[pid] for s in done.samples if s.lines >= STEP and pid in s.rss_kib
        ]
        first = at[name][0]
        growth[name] = round(_mib(max(after)) - first, 1) if after and first else None
    return {
        "marks": marks,
        "rss_mib": at,
        "peak_mib": {name: round(_mib(done.peak_kib.get(pid, 0)), 1) for pid, name in names.items()},
        "growth_after_1000_mib": growth,
        "seconds": round(done.seconds, 2),
        "pages_per_s": round(pages / done.seconds, 1),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=max(2, cores()))
    parser.add_argument("--corpus", type=Path, help="keep the corpora here, or reuse them")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    found = machine()
    show(f"# formtools batch memory — {describe(found)}")
    results: dict[str, Any] = {"machine": found, "pages": args.pages, "jobs": args.jobs}
    with tempfile.TemporaryDirectory(prefix="formtools-memory-") as temporary:
        root = args.corpus or Path(temporary)
        base = corpus(root / "formpages")
        directory, archive, archived = repeated(base, root / "repeated", args.pages)
        out = Path(temporary) / "out.jsonl"
        for kind, source, count in (("directory", directory, args.pages), ("WARC.gz", archive, archived)):
            out.unlink(missing_ok=True)  # lines are counted as they are written
            done = run(
                [sys.executable, "-m", "formtools", "batch", str(source), "--out", str(out),
                 "--jobs", str(args.jobs)],
                sample=True,
                lines_of=out,
            )
            if done.returncode != 0:
                raise SystemExit(f"formtools batch failed ({done.returncode}) on {source}")
            figures = follow(done, count)
            results[kind] = {"pages": count, **figures}
            names = list(figures["rss_mib"])
            show(
                f"\n## {kind}: {count:,} pages, --jobs {args.jobs}, {figures['seconds']:.1f} s "
                f"({figures['pages_per_s']:,.0f} pages/s) — RSS in MiB against pages done"
            )

            def cell(value: float | None) -> str:
                return "—" if value is None else f"{value:.1f}"

            rows = [
                [f"{mark:,}", *(cell(figures["rss_mib"][name][i]) for name in names)]
                for i, mark in enumerate(figures["marks"])
            ]
            rows.append(["peak (VmHWM)", *(cell(figures["peak_mib"][name]) for name in names)])
            rows.append(
                ["growth after 1,000", *(cell(figures["growth_after_1000_mib"][name]) for name in names)]
            )
            show(table(["pages done", *names], rows))
            workers = [figures["peak_mib"][name] for name in names if name != "parent"]
            if workers:
                show(
                    f"largest worker peak {max(workers):.1f} MiB (goal under {GOAL_MIB} MB); "
                    f"largest growth after 1,000 pages "
                    f"{max((g or 0) for g in figures['growth_after_1000_mib'].values()):.1f} MiB"
                )
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return results


if __name__ == "__main__":
    main()
