"""The PySpark job next to ``formtools batch --jobs 2`` on the same archives, and where Spark's
overhead goes.

    python benchmarks/bench_spark.py                    # 5 archives, 2,000 form pages, 3 rounds
    python benchmarks/bench_spark.py --quick --json spark.json

The archives: the form-page corpus's WARC.gz (``make_corpus.py --forms-only --pages 200``)
concatenated twice per archive, ``--archives`` of them (each about 8 MB, over Spark's 4 MB
``openCostInBytes``, so each archive is a task of its own). Spark runs in local mode with two
task slots, ``local[2]``: one JVM, two Python workers, the local equivalent of two executors of
one core.

- whole commands, wall time: ``formtools batch ARCHIVES --jobs 2`` and ``python -m
  formtools.spark --out DIR ARCHIVES`` (Parquet, the job's default) with ``local[2]``, JVM start
  included; records/s is HTML records over that time.
- where the job's time goes, measured inside one session (in a fresh process each round),
  step by step: starting the JVM and the session; a first trivial job (starting the Python workers); reading the archives' bytes into
  the Python workers and nothing else (``binaryFiles`` → length); extracting every row in the
  Python workers and only counting them (the job's own row function, no DataFrame); and the job
  as ``run`` does it (rows into a DataFrame, Parquet written, the counts read back), twice: the
  first run pays the JVM's first SQL query (planning, code generation, the Parquet writer's
  start), the second does not.

Figures are medians of ``--rounds``. Nothing is asserted here.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_corpus import generate, load  # noqa: E402
from measure import describe, machine, run, show, table  # noqa: E402

MASTER = "local[2]"
ENV = {
    "SPARK_LOCAL_IP": "127.0.0.1",
    "PYSPARK_SUBMIT_ARGS": f"--master {MASTER} --conf spark.ui.enabled=false "
    "--conf spark.ui.showConsoleProgress=false pyspark-shell",
}


def archives(root: Path, count: int) -> tuple[list[Path], int]:
    """``count`` archives, each the form-page corpus twice, and their HTML records."""
    where = root / "formpages"
    corpus = load(where) if (where / "manifest.jsonl").exists() else generate(
        where, pages=200, seed=1, forms_only=True
    )
    assert corpus.warc is not None
    made = []
    for number in range(count):
        path = root / "spark" / f"crawl-{number:05d}.warc.gz"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as out:
                for _ in range(2):
                    with corpus.warc.open("rb") as one:
                        shutil.copyfileobj(one, out)
        made.append(path)
    return made, 2 * count * len(corpus.pages)


def commands(paths: list[Path], scratch: Path, records: int) -> dict[str, float]:
    out = scratch / "batch.jsonl"
    batch = run([sys.executable, "-m", "formtools", "batch", *map(str, paths), "--out", str(out),
                 "--jobs", "2"])
    if batch.returncode != 0:
        raise SystemExit(f"formtools batch failed: {batch.stderr}")
    tools = scratch / "tools"
    shutil.rmtree(tools, ignore_errors=True)
    spark = run([sys.executable, "-m", "formtools.spark", "--out", str(tools), *map(str, paths)],
                env=ENV)
    if spark.returncode != 0:
        raise SystemExit(f"formtools.spark failed: {spark.stderr[-2000:]}")
    return {"batch_s": batch.seconds, "spark_s": spark.seconds}


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def steps(paths: list[Path], scratch: Path) -> dict[str, float]:
    """One session, step by step (see the module's docstring)."""
    os.environ.update(ENV)
    found: dict[str, float] = {}
    start = time.perf_counter()
    from pyspark.sql import SparkSession

    from formtools import spark as job

    session = (
        SparkSession.builder.master(MASTER)
        .appName("formtools-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    found["session_s"] = time.perf_counter() - start
    try:
        context = session.sparkContext
        found["first_job_s"] = _timed(lambda: context.parallelize(range(2), 2).map(abs).collect())
        names = ",".join(str(p) for p in paths)
        found["read_bytes_s"] = _timed(
            lambda: context.binaryFiles(names, minPartitions=2**30)
            .map(lambda archive: len(archive[1]))
            .sum()
        )
        found["extract_s"] = _timed(
            lambda: context.binaryFiles(names, minPartitions=2**30)
            .flatMap(lambda archive: job._archive_rows(archive, "chromium", False))
            .count()
        )
        out = scratch / "steps"
        found["run_s"] = _timed(
            lambda: job.run(session, [str(p) for p in paths], str(out), overwrite=True)
        )
        found["run_again_s"] = _timed(
            lambda: job.run(session, [str(p) for p in paths], str(out), overwrite=True)
        )
    finally:
        session.stop()
    return found


def fresh_steps(paths: list[Path], scratch: Path) -> dict[str, float]:
    """:func:`steps` in a new interpreter: a JVM once started stays up for the process's life,
    so only a fresh process shows what starting it costs."""
    out = scratch / "steps.json"
    done = run([sys.executable, __file__, "--steps", str(out), *map(str, paths)], env=ENV)
    if done.returncode != 0:
        raise SystemExit(f"the Spark steps failed: {done.stderr[-2000:]}")
    found: dict[str, float] = json.loads(out.read_text())
    return found


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    if argv is None and sys.argv[1:2] == ["--steps"]:  # one round of steps(), for fresh_steps()
        out, *paths = sys.argv[2:]
        with tempfile.TemporaryDirectory(prefix="formtools-spark-steps-") as scratch:
            Path(out).write_text(json.dumps(steps([Path(p) for p in paths], Path(scratch))))
        return {}
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--archives", type=int, help="archives (default 5, --quick 2)")
    parser.add_argument("--rounds", type=int, help="rounds (default 3, --quick 1)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--corpus", type=Path, help="keep the archives here, or reuse them")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    count = args.archives or (2 if args.quick else 5)
    rounds = args.rounds or (1 if args.quick else 3)
    found = machine(java=True)
    show(f"# formtools.spark vs formtools batch — {describe(found)}")
    results: dict[str, Any] = {"machine": found, "master": MASTER}
    with tempfile.TemporaryDirectory(prefix="formtools-spark-") as temporary:
        scratch = Path(temporary)
        paths, records = archives(args.corpus or scratch, count)
        size = sum(p.stat().st_size for p in paths)
        show(f"{count} archives, {records:,} HTML records, {size / 1e6:.1f} MB compressed; "
             f"Spark master {MASTER}")
        whole = [commands(paths, scratch, records) for _ in range(rounds)]
        parts = [fresh_steps(paths, scratch) for _ in range(rounds)]
    batch_s = statistics.median(r["batch_s"] for r in whole)
    spark_s = statistics.median(r["spark_s"] for r in whole)
    step = {key: statistics.median(p[key] for p in parts) for key in parts[0]}
    results.update(
        archives=count, records=records, compressed_bytes=size,
        batch_s=batch_s, spark_s=spark_s,
        batch_records_per_s=records / batch_s, spark_records_per_s=records / spark_s,
        steps=step,
    )
    show(f"\n## whole commands (median of {rounds})")
    show(table(["command", "seconds", "records/s"], [
        ["formtools batch --jobs 2", f"{batch_s:.2f}", f"{records / batch_s:,.0f}"],
        [f"python -m formtools.spark ({MASTER}, Parquet)", f"{spark_s:.2f}",
         f"{records / spark_s:,.0f}"],
    ]))
    show(f"\n## where the Spark job's time goes (one session, median of {rounds})")
    labels = [
        ("session_s", "JVM and SparkSession start"),
        ("first_job_s", "first job: Python workers start"),
        ("read_bytes_s", "archives' bytes into the Python workers, nothing else"),
        ("extract_s", "read and extract every row in the Python workers, count them"),
        ("run_s", "run: the same into a DataFrame, Parquet written, counts read back"),
        ("run_again_s", "run again in the same session (the JVM's query machinery warm)"),
    ]
    show(table(["step", "seconds"], [[label, f"{step[key]:.2f}"] for key, label in labels]))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return results


if __name__ == "__main__":
    main()
