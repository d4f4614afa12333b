"""Issue 16's table: ``formtools batch --jobs 1`` against the fastest parse-only baseline.

    python benchmarks/bench_formpages.py                  # both corpora, best of 5 passes
    python benchmarks/bench_formpages.py --repeat 9 --json results.json
    python benchmarks/bench_formpages.py --only formpages

Two seeded corpora from ``make_corpus.py``, generated once into ``--corpora`` (default
``benchmarks/corpus/``, ignored by git) and reused:

- ``formpages``: every page carries one to three forms (``--forms-only``), 200 pages, 16.1 MB,
  median 64 KB: a crawl that kept only pages with forms;
- ``mixed``: the ordinary crawl-like corpus (half of the pages without forms), 16 MB.

On each, in one process and one run (start-up and imports left out, the page files in the page
cache after a warm-up pass):

- ``lexbor``: ``selectolax.lexbor.LexborHTMLParser(body)`` on every page, bytes in memory;
- ``lxml``: ``lxml.html.document_fromstring(body)`` on every page;
- ``batch --jobs 1``: :func:`formtools._crawl.batch.run_batch` over the corpus's ``pages/``
  directory with ``jobs=1``, the ``chromium`` profile, output to an in-memory text stream. That is
  the whole of ``formtools batch --jobs 1 DIR`` but the interpreter start-up: the directory walk,
  each file read, the byte prefilter, parsing, synthesis and the JSON line;
- a breakdown of the batch time over the pages the prefilter passes: ``parse_html``,
  ``synthesize``, and the JSON line (``tool.to_dict`` and ``dumps``).

The ratio is batch MB/s ÷ the faster parse-only MB/s, from wall time; ``cpu_ratio`` is the same
from CPU time (``time.process_time``), which other processes on a shared machine disturb less.
Every figure is the best of ``--repeat`` passes over the whole corpus (passes alternate between
the engines, so a slow spell of the machine hits all of them). Nothing is asserted: the test suite
checks outputs, this measures.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import lxml.html  # noqa: E402
from make_corpus import Corpus, generate, load  # noqa: E402
from selectolax.lexbor import LexborHTMLParser  # noqa: E402

from formtools._crawl.batch import BatchOptions, run_batch  # noqa: E402
from formtools._parse import parse_html  # noqa: E402
from formtools._parse.prefilter import may_hold_tools  # noqa: E402
from formtools._spec.jsjson import dumps  # noqa: E402
from formtools._synth.synthesize import synthesize  # noqa: E402

CORPORA: dict[str, dict[str, Any]] = {
    "formpages": {"pages": 200, "forms_only": True},
    "mixed": {"size_mb": 16.0},
}


def corpus_of(name: str, root: Path, seed: int) -> Corpus:
    directory = root / f"{name}-seed{seed}"
    if (directory / "manifest.jsonl").exists():
        return load(directory)
    spec = CORPORA[name]
    return generate(
        directory,
        size_mb=spec.get("size_mb", 0.0),
        seed=seed,
        pages=spec.get("pages"),
        forms_only=spec.get("forms_only", False),
        warc=False,
    )


def _seconds(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one pass."""
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - start, time.process_time() - cpu


def measure(corpus: Corpus, repeat: int) -> dict[str, Any]:
    bodies = corpus.bodies()
    size = sum(len(body) for body in bodies)
    urls = [corpus.path(page).resolve().as_uri() for page in corpus.pages]
    passed = [i for i, body in enumerate(bodies) if may_hold_tools(body)]
    pages_dir = str(corpus.pages_dir)

    def lexbor() -> None:
        for body in bodies:
            LexborHTMLParser(body)

    def lxml_parse() -> None:
        for body in bodies:
            lxml.html.document_fromstring(body)

    def batch() -> None:
        run_batch([pages_dir], io.StringIO(), options=BatchOptions(jobs=1))

    stages = {"parse_html": 0.0, "synthesize": 0.0, "json line": 0.0}

    def breakdown() -> None:
        clock = time.perf_counter
        totals = dict.fromkeys(stages, 0.0)
        for i in passed:
            start = clock()
            document = parse_html(bodies[i], url=urls[i])
            parsed = clock()
            result = synthesize(document, "chromium")
            synthesized = clock()
            dumps({"path": urls[i], "tools": [tool.to_dict() for tool in result.tools]})
            totals["parse_html"] += parsed - start
            totals["synthesize"] += synthesized - parsed
            totals["json line"] += clock() - synthesized
        if sum(totals.values()) < sum(stages.values()) or not any(stages.values()):
            stages.update(totals)

    engines = {"lexbor": lexbor, "lxml": lxml_parse, "batch --jobs 1": batch}
    batch()  # warm-up: imports, regex compilation, page cache
    best = {name: float("inf") for name in engines}
    best_cpu = {name: float("inf") for name in engines}
    for _ in range(repeat):
        for name, work in engines.items():
            wall, cpu = _seconds(work)
            best[name] = min(best[name], wall)
            best_cpu[name] = min(best_cpu[name], cpu)
        breakdown()
    rates = {name: size / seconds / 1e6 for name, seconds in best.items()}
    fastest = max(("lexbor", "lxml"), key=rates.__getitem__)
    cpu_rates = {name: size / seconds / 1e6 for name, seconds in best_cpu.items()}
    cpu_fastest = max(("lexbor", "lxml"), key=cpu_rates.__getitem__)
    return {
        "pages": len(bodies),
        "bytes": size,
        "pages_with_forms": sum(1 for page in corpus.pages if page.forms),
        "pages_prefilter_passes": len(passed),
        "seconds": {name: round(seconds, 4) for name, seconds in best.items()},
        "mb_per_s": {name: round(rate, 2) for name, rate in rates.items()},
        "fastest_parse": fastest,
        "ratio": round(rates["batch --jobs 1"] / rates[fastest], 3),
        # the same from CPU time (time.process_time), steadier on a machine other work shares
        "cpu_seconds": {name: round(seconds, 4) for name, seconds in best_cpu.items()},
        "cpu_ratio": round(cpu_rates["batch --jobs 1"] / cpu_rates[cpu_fastest], 3),
        "breakdown_seconds": {name: round(seconds, 4) for name, seconds in stages.items()},
    }


def machine() -> dict[str, Any]:
    import selectolax

    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model or platform.processor(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "selectolax": getattr(selectolax, "__version__", "?"),
        "lxml": ".".join(map(str, lxml.etree.LXML_VERSION)),
        "date": time.strftime("%Y-%m-%d"),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=HERE / "corpus")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", choices=tuple(CORPORA), action="append")
    parser.add_argument("--json", type=Path, help="write the results here too")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {"machine": machine(), "corpora": {}}
    print(
        f"# formtools batch --jobs 1 ÷ fastest parse-only ({results['machine']['cpu']}, "
        f"Python {results['machine']['python']}, {results['machine']['date']})"
    )
    for name in args.only or CORPORA:
        corpus = corpus_of(name, args.corpora, args.seed)
        row = results["corpora"][name] = measure(corpus, args.repeat)
        mb = row["mb_per_s"]
        split = ", ".join(f"{k} {v:.2f} s" for k, v in row["breakdown_seconds"].items())
        print(
            f"{name:10} {row['pages']} pages, {row['bytes'] / 1e6:.1f} MB "
            f"({row['pages_with_forms']} with forms, {row['pages_prefilter_passes']} parsed): "
            f"lexbor {mb['lexbor']:.1f} MB/s, lxml {mb['lxml']:.1f} MB/s, "
            f"batch --jobs 1 {mb['batch --jobs 1']:.1f} MB/s → ratio {row['ratio']:.2f} "
            f"(from CPU time {row['cpu_ratio']:.2f})\n"
            f"{'':10} batch {row['seconds']['batch --jobs 1']:.2f} s; parsed pages: {split}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return results


if __name__ == "__main__":
    main()
