"""Every figure of the README's performance section, regenerated in one run.

    python benchmarks/run_all.py            # runs every benchmark, prints the section
    python benchmarks/run_all.py --write    # and puts it into README.md
    python benchmarks/run_all.py --quick --only scaling,memory   # a quick look at some

Runs, one after the other, each benchmark with ``--json`` (their own output goes by as they
run): ``bench_formpages.py`` (batch ``--jobs 1`` against the fastest parse-only baseline),
``bench_scaling.py`` (``--jobs`` 1, 2 … and start-up), ``bench_memory.py`` (RSS per worker over
10,000 pages), ``bench_execute.py`` (dry runs, bridge calls, Chromium ``executeTool``) and
``bench_spark.py`` (the PySpark job in ``local[2]`` against ``batch --jobs 2``) and
``bench_validate.py`` (``validate_input`` and ``prepare_call`` calls per CPU second). Then it renders
the section: the machine, the versions and the date first, then the figures. The section in
README.md lies between ``<!-- performance:begin -->`` and ``<!-- performance:end -->``; with
``--write`` that block is replaced and nothing else is touched. ``--keep DIR`` keeps the JSON
of each benchmark. A full run takes about 15 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from measure import ROOT, describe, machine, show  # noqa: E402

README = ROOT / "README.md"
BEGIN, END = "<!-- performance:begin -->", "<!-- performance:end -->"
BLOCK = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.DOTALL)

#: name → (script, arguments, arguments with --quick)
BENCHMARKS: dict[str, tuple[str, list[str], list[str]]] = {
    "formpages": ("bench_formpages.py", [], ["--repeat", "1"]),
    "scaling": ("bench_scaling.py", [], ["--quick"]),
    "memory": ("bench_memory.py", [], ["--pages", "1000"]),
    "execute": ("bench_execute.py", [], ["--quick"]),
    "spark": ("bench_spark.py", [], ["--quick"]),
    "validate": ("bench_validate.py", [], ["--quick"]),
}


def measure(name: str, scratch: Path, quick: bool) -> dict[str, Any]:
    script, arguments, quick_arguments = BENCHMARKS[name]
    out = scratch / f"{name}.json"
    command = [sys.executable, str(HERE / script), *(quick_arguments if quick else arguments),
               "--json", str(out)]
    show(f"\n$ {' '.join(command[1:])}")
    done = subprocess.run(command, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"{script} failed ({done.returncode})")
    found: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return found


# --- the section ----------------------------------------------------------------------------------


def _range(values: Sequence[float], fmt: str) -> str:
    low, high = min(values), max(values)
    return fmt.format(low) if f"{low:.2f}" == f"{high:.2f}" else f"{fmt.format(low)}–{fmt.format(high)}"


def _formpages(found: dict[str, Any]) -> list[list[str]]:
    corpora = found["corpora"]
    named = {"formpages": "form pages", "mixed": "crawl mix"}
    cells = "; ".join(
        f"{named.get(name, name)} {row['ratio']:.2f} ({row['mb_per_s']['batch --jobs 1']:.1f} "
        f"vs {row['mb_per_s'][row['fastest_parse']]:.1f} MB/s)"
        for name, row in corpora.items()
    )
    return [["`batch --jobs 1` ÷ fastest parse-only (lexbor/lxml), in process", cells]]


def _free(speedups: Sequence[float]) -> str:
    return f"{statistics.median(speedups):.2f}× ({len(speedups)})" if speedups else "none"


def _scaling(found: dict[str, Any]) -> tuple[list[list[str]], str]:
    rows = [r for r in found["rows"] if r["version"] == "now"]
    jobs = found["jobs"]
    top = max(jobs)
    ceiling = found["ceiling"]["median"]

    def speedup(name: str, kind: str) -> str:
        row = next(r for r in rows if (r["input"], r["kind"], r["jobs"]) == (name, kind, top))
        free = row["clean_speedups"]
        first = (f"{statistics.median(free):.2f}× in the {len(free)} rounds the machine was free"
                 if free else "no round found the machine free")
        return (f"{first}; best of {found['rounds']} {row['best_speedup']:.2f}×, median "
                f"{row['speedup']:.2f}× ({_range(row['speedup_range'], '{:.2f}')})")

    largest = max({r["input"] for r in rows}, key=lambda n: max(r["pages"] for r in rows if r["input"] == n))
    start = found["startup"]["now"]
    lines = [
        [
            f"`batch --jobs {top}` ÷ `--jobs 1`, {largest} (directory; WARC.gz)",
            f"directory: {speedup(largest, 'directory')}. WARC.gz: {speedup(largest, 'WARC.gz')}. "
            f"The machine's ceiling in those rounds: {ceiling:.2f}× median, "
            f"{found['ceiling']['best']:.2f}× best",
        ],
        [
            "batch start-up, empty input (wall; imports)",
            f"{start['wall_s']:.3f} s ({start['python_s']:.3f} s of it Python's own); "
            f"{start['import_ms']:.0f} ms",
        ],
    ]
    header = ("| input | " + " | ".join(f"`--jobs {j}` pages/s" for j in jobs)
              + " | speedup: free rounds; best; median |")
    curve = [header, "|---|" + "--:|" * (len(jobs) + 1)]
    for name, kind in dict.fromkeys((r["input"], r["kind"]) for r in rows):
        mine = {r["jobs"]: r for r in rows if (r["input"], r["kind"]) == (name, kind)}
        first = mine[jobs[0]]
        cells = [f"{first['pages'] / mine[j]['best_s']:,.0f}" for j in jobs]
        curve.append(
            f"| {name}, {kind} ({first['pages']:,} pages, {first['bytes'] / 1e6:.0f} MB) | "
            + " | ".join(cells)
            + f" | {_free(mine[top]['clean_speedups'])}; {mine[top]['best_speedup']:.2f}×; "
            f"{mine[top]['speedup']:.2f}× |"
        )
    return lines, "\n".join(curve)


def _workers(run: dict[str, Any]) -> tuple[float, float | None]:
    """The largest worker's peak (MiB) and the most a worker grew after its first 1,000 pages
    (None: no worker was measured that far)."""
    peak = max(v for k, v in run["peak_mib"].items() if k != "parent")
    grown = [g for k, g in run["growth_after_1000_mib"].items() if k != "parent" and g is not None]
    return peak, max(grown) if grown else None


def _memory(found: dict[str, Any]) -> list[list[str]]:
    cells = []
    for kind in ("directory", "WARC.gz"):
        run = found.get(kind)
        if not run:
            continue
        peak, growth = _workers(run)
        after = "not measured after the first 1,000" if growth is None else f"+{growth:.1f} MiB after the first 1,000"
        cells.append(f"{kind}: {peak:.0f} MiB ({after}; parent {run['peak_mib']['parent']:.0f} MiB)")
    return [[f"peak RSS per worker, {found['pages']:,} pages, `--jobs {found['jobs']}`",
             "; ".join(cells)]]


def _execute(found: dict[str, Any]) -> list[list[str]]:
    def calls(name: str) -> str:
        row = found[name]
        return (f"{row['calls_per_s']:,.1f} calls/s, p50 {row['p50_ms']:,.1f} ms, "
                f"p99 {row['p99_ms']:,.1f} ms")

    rows = [
        ["`prepare_call` (dry run, in process)", calls("library")],
        ["`formtools call --dry-run` (a process per call)", calls("cli")],
        ["bridge `tools/call` (stdio → local HTTP site → JSON-LD)", calls("bridge")],
    ]
    if "chromium" in found:
        same = found["same_requests"]
        rows.append([
            "Chromium `executeTool`, same calls (page load, call, submission, landing)",
            f"{calls('chromium')}; same requests at the site {same['same']}/{same['compared']}",
        ])
    return rows


def _spark(found: dict[str, Any]) -> list[list[str]]:
    steps = found["steps"]
    return [[
        f"Spark `{found['master']}` vs `batch --jobs 2`, {found['records']:,} records "
        f"in {found['archives']} archives",
        f"{found['spark_records_per_s']:,.0f} vs {found['batch_records_per_s']:,.0f} records/s "
        f"({found['spark_s']:.1f} vs {found['batch_s']:.1f} s). The job's time: JVM and session "
        f"{steps['session_s']:.1f} s, Python workers' start {steps['first_job_s']:.1f} s, "
        f"archives' bytes into Python {steps['read_bytes_s']:.1f} s, reading and extracting "
        f"{steps['extract_s']:.1f} s, DataFrame, Parquet and counts "
        f"{max(0.0, steps['run_s'] - steps['extract_s']):.1f} s more the first time, "
        f"{max(0.0, steps['run_again_s'] - steps['extract_s']):.1f} s the second",
    ]]


def _validate(found: dict[str, Any]) -> list[list[str]]:
    profiles = ("html", "chromium", "portable")
    cells = "; ".join(
        f"{profile} {found[f'{profile}/validate_input']['calls_per_s']:,.0f} / "
        f"{found[f'{profile}/prepare_call']['calls_per_s']:,.0f}"
        for profile in profiles
    )
    inputs = found["html/validate_input"]["calls"]
    return [[
        f"`validate_input` / `prepare_call` calls/s (CPU, best round; every fixture tool's seeded "
        f"and type-confused inputs, {inputs:,} under `html`)",
        cells,
    ]]


def _goals(results: dict[str, dict[str, Any]]) -> list[list[str]]:
    """Issue 16's goals against the figures of this run, so that where they stand is generated
    with them instead of written beside them by hand (and going stale at the next run)."""

    def judged(met: bool, figure: str) -> list[str]:
        return [figure, "met" if met else "not met"]

    rows: list[list[str]] = []
    corpora = results.get("formpages", {}).get("corpora", {})
    for name, label, goal in (("formpages", "form pages", 0.50), ("mixed", "crawl mix", 0.60)):
        if name in corpora:
            ratio = corpora[name]["ratio"]
            rows.append([f"`batch --jobs 1` ≥ {goal:.2f} × fastest parse, {label}",
                         *judged(ratio >= goal, f"{ratio:.2f}")])
    if "scaling" in results:
        found = results["scaling"]
        top = max(found["jobs"])
        goal = 0.9 * top
        largest = max((r for r in found["rows"] if r["version"] == "now"), key=lambda r: r["pages"])
        for kind in ("directory", "WARC.gz"):
            row = next(r for r in found["rows"] if r["version"] == "now" and r["jobs"] == top
                       and (r["input"], r["kind"]) == (largest["input"], kind))
            free = row["clean_speedups"]
            shown = statistics.median(free) if free else row["speedup"]
            where = (f"median of {len(free)} free rounds" if free else
                     f"median, no round free; the machine's ceiling {found['ceiling']['median']:.2f}×")
            rows.append([f"`--jobs {top}` ÷ `--jobs 1` ≥ {goal:.1f}×, {largest['input']}, {kind}",
                         *judged(shown >= goal, f"{shown:.2f}× ({where})")])
        wall = found["startup"]["now"]["wall_s"]
        rows.append(["start-up ≤ 0.15 s", *judged(wall <= 0.15, f"{wall:.3f} s")])
    if "memory" in results:
        for kind in ("directory", "WARC.gz"):
            run = results["memory"].get(kind)
            if not run:
                continue
            peak, growth = _workers(run)
            memory = f"peak RSS per worker < 200 MB, flat after 1,000 pages (growth ≤ 10 %), {kind}"
            if growth is None:
                rows.append([memory, f"{peak:.0f} MiB, growth not measured", "not shown"])
                continue
            flat = growth <= 0.1 * peak and peak * 1.048576 < 200
            rows.append([memory, *judged(flat, f"{peak:.0f} MiB, +{growth:.1f} MiB")])
    return rows


RENDER: dict[str, Callable[[dict[str, Any]], list[list[str]]]] = {
    "formpages": _formpages,
    "memory": _memory,
    "execute": _execute,
    "spark": _spark,
    "validate": _validate,
}


def section(results: dict[str, dict[str, Any]], found: dict[str, object]) -> str:
    rows: list[list[str]] = []
    curve = ""
    for name in BENCHMARKS:
        if name not in results:
            continue
        if name == "scaling":
            lines, curve = _scaling(results[name])
            rows += lines
        else:
            rows += RENDER[name](results[name])
    parts = [
        BEGIN,
        "<!-- generated by `python benchmarks/run_all.py --write`: change the benchmarks, not "
        "this block -->",
        f"Measured {describe(found)}. The machine is shared with other work: each figure is a "
        "median over repeated runs, and the scaling rows name the parallel ceiling the machine "
        "gave at the time (two independent processes' speedup).",
        "",
        "| what | measured |",
        "|---|---|",
        *(f"| {what} | {figure} |" for what, figure in rows),
    ]
    goals = _goals(results)
    if goals:
        parts += ["", "Issue 16's goals against these figures:", "", "| goal | measured | |",
                  "|---|---|---|", *(f"| {goal} | {figure} | {verdict} |" for goal, figure, verdict in goals)]
    if curve:
        parts += ["", "Scaling, whole command (start-up included), pages/s of the best round:",
                  "", curve]
    parts.append(END)
    return "\n".join(parts)


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--only", help=f"comma-separated: {','.join(BENCHMARKS)}")
    parser.add_argument("--quick", action="store_true", help="each benchmark at its smallest")
    parser.add_argument("--write", action="store_true", help="replace the block in README.md")
    parser.add_argument("--readme", type=Path, default=README, help=argparse.SUPPRESS)
    parser.add_argument("--keep", type=Path, help="keep each benchmark's JSON here")
    args = parser.parse_args(argv)
    chosen = [n.strip() for n in (args.only or ",".join(BENCHMARKS)).split(",") if n.strip()]
    unknown = sorted(set(chosen) - set(BENCHMARKS))
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    if args.write and not BLOCK.search(args.readme.read_text(encoding="utf-8")):
        parser.error(f"{args.readme}: no {BEGIN} … {END} block to replace")  # before measuring
    found = machine(browser="execute" in chosen, java="spark" in chosen)
    show(f"# formtools performance — {describe(found)}")
    with tempfile.TemporaryDirectory(prefix="formtools-all-") as temporary:
        scratch = args.keep or Path(temporary)
        scratch.mkdir(parents=True, exist_ok=True)
        results = {name: measure(name, scratch, args.quick) for name in BENCHMARKS if name in chosen}
    block = section(results, found)
    show("\n" + block)
    if args.write:
        text, replaced = BLOCK.subn(lambda _: block, args.readme.read_text(encoding="utf-8"), 1)
        if not replaced:  # the markers went while the benchmarks ran
            raise SystemExit(f"{args.readme}: no {BEGIN} … {END} block any more: not written")
        args.readme.write_text(text, encoding="utf-8")
        show(f"\n{args.readme}: performance section rewritten")
    return block


if __name__ == "__main__":
    main()
