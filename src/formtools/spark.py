"""PySpark: the WebMCP tools of Common-Crawl-style WARC archives, as Parquet or JSON-lines rows.

Run it as a job (``spark-submit …/formtools/spark.py --out DIR WARC…``, or ``python -m
formtools.spark`` for Spark's local mode) or call :func:`extract_warcs` with your own
``SparkSession``. Archives are read with ``SparkContext.binaryFiles``, so every path Hadoop can
open works (``file:``, ``hdfs://``, ``s3a://``, ``gs://`` …, globs too) with the cluster's own
credentials; each archive is one task, held in its executor's memory while it is read.

Nothing here parses pages itself: an archive's HTML responses come from the reader ``formtools
batch`` uses (``warc_pages``: record URL as document URL, charset from the HTTP header), pages
without ``toolname`` are skipped by the same byte prefilter, and each remaining page goes
through batch's ``extract_page``. A row is a batch line flattened to one tool, so the job and
``formtools batch`` give the same answer, and the same error text, for every page.

Imports are absolute so that ``spark-submit`` can run this file as a script.
"""

from __future__ import annotations

import argparse
import fnmatch
import io
import os
import posixpath
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from py4j.protocol import Py4JJavaError
from pyspark.errors import AnalysisException, IllegalArgumentException
from pyspark.sql import DataFrame, SparkSession, functions
from pyspark.sql.types import IntegerType, StringType, StructField, StructType

from formtools._crawl.batch import extract_page, warc_pages
from formtools._crawl.pages import Unreadable
from formtools._crawl.warc import DAMAGED
from formtools.errors import FormtoolsError, SourceError, UsageProblem, shown_argument
from formtools._spec.jsjson import dumps, loads
from formtools._parse.prefilter import may_hold_tools
from formtools._synth.profile import get_profile, profile_names

__all__ = ["OUTPUT_FORMATS", "SCHEMA", "extract_warcs", "main", "run", "warc_paths", "write_tools"]

SCHEMA = StructType(
    [
        StructField("url", StringType()),  # the record's WARC-Target-URI; null: the whole archive
        StructField("warc", StringType(), nullable=False),  # the archive, as Hadoop names it
        StructField("name", StringType()),
        StructField("title", StringType()),
        StructField("description", StringType()),
        StructField("input_schema", StringType()),  # JSON text, as `formtools extract` writes it
        StructField("annotations", StringType()),  # JSON text
        StructField("profile", StringType(), nullable=False),
        StructField(
            "diagnostics",
            StructType([StructField("errors", IntegerType()), StructField("warnings", IntegerType())]),
        ),
        StructField("error", StringType()),  # set on the one row of a page or archive that failed
    ]
)
"""One row per tool found; a page (or an archive) that could not be read or parsed is one row
with ``error`` set and no tool. Pages without tools have no row."""

OUTPUT_FORMATS = ("parquet", "json")

# Java exceptions that mean "an input path is not there" rather than a failure of the job.
_MISSING_INPUT = frozenset(
    {
        "org.apache.hadoop.mapreduce.lib.input.InvalidInputException",
        "org.apache.hadoop.mapred.InvalidInputException",
        "java.io.FileNotFoundException",
    }
)
# the Java exception under a path Hadoop cannot parse ("Relative path in absolute URI")
_UNPARSABLE = "java.net.URISyntaxException"


def _archive_rows(
    archive: tuple[str, bytes], profile: str, all_forms: bool
) -> Iterator[tuple[Any, ...]]:
    """The rows of one archive (runs on an executor)."""
    path, content = archive

    def failed(url: str | None, error: str) -> tuple[Any, ...]:
        return (url, path, None, None, None, None, None, profile, None, error)

    for page in warc_pages(io.BytesIO(content), path):
        if isinstance(page, Unreadable):
            yield failed(page.name if page.key == "url" else None, page.error)
            continue
        if not may_hold_tools(page.body, page.content_type, all_forms=all_forms):
            continue
        line = loads(extract_page(page, profile, all_forms).line)
        if "error" in line:
            yield failed(page.url, line["error"])
            continue
        diagnostics = (line["diagnostics"]["errors"], line["diagnostics"]["warnings"])
        for tool in line["tools"]:
            yield (
                page.url,
                path,
                tool["name"],
                tool["title"],
                tool["description"],
                dumps(tool["inputSchema"]),
                dumps(tool["annotations"]),
                profile,
                diagnostics,
                None,
            )


def extract_warcs(
    spark: SparkSession,
    paths: Sequence[str],
    *,
    profile: str = "chromium",
    all_forms: bool = False,
) -> DataFrame:
    """The tools of the WARC / WARC.gz archives at ``paths`` (Hadoop paths or globs). The paths
    are listed at once, so a missing one raises :class:`~formtools.SourceError` here; archives
    are read only when the frame is written or collected. Rows follow :data:`SCHEMA`; a damaged
    archive is an ``error`` row, and the records before the damage are kept. ``all_forms``:
    forms without ``toolname`` give inferred tools too, as with ``formtools batch --all-forms``.
    """
    name = get_profile(profile).name  # an unknown profile fails before any job starts
    if not paths:
        raise UsageProblem("no WARC paths to read")
    for path in paths:
        if "," in path:  # binaryFiles takes one comma-separated string of paths
            raise UsageProblem(f"{shown_argument(path)}: WARC paths cannot contain a comma")
    # binaryFiles packs files into a task until the task holds about total size / minPartitions
    # bytes; a huge minPartitions makes every archive over spark.files.openCostInBytes (4 MB) a
    # task of its own, so a crawl's archives run in parallel while small files still share
    with _hadoop_errors(paths, lambda path: spark.sparkContext.binaryFiles(path).getNumPartitions()):
        archives = spark.sparkContext.binaryFiles(",".join(paths), minPartitions=2**30)
        # lists the inputs now (the listing is kept for the job): a missing path fails here,
        # before a writer starts and logs the failure as a crashed job
        archives.getNumPartitions()
    rows = archives.flatMap(lambda archive: _archive_rows(archive, name, all_forms))
    return spark.createDataFrame(rows, SCHEMA)


def warc_paths(spark: SparkSession, listing: str, prefix: str = "") -> list[str]:
    """The archive paths in the text file ``listing``, one a line (blank lines and ``#``
    comments left out), each prefixed with ``prefix``. The listing is read through Hadoop, so it
    may be on HDFS or S3 and gzip-compressed, like Common Crawl's ``warc.paths.gz`` (whose
    paths are relative: give ``prefix="s3a://commoncrawl/"``)."""
    with _hadoop_errors([listing], lambda path: spark.sparkContext.textFile(path).getNumPartitions()):
        lines = spark.sparkContext.textFile(listing).collect()
    paths = (line.strip() for line in lines)
    return [prefix + path for path in paths if path and not path.startswith("#")]


def write_tools(
    tools: DataFrame, out: str, *, format: str = "parquet", overwrite: bool = False
) -> None:
    """Write the rows of :func:`extract_warcs` to the directory ``out`` (one file per
    partition: ``part-*.parquet``, or ``part-*.json`` with one JSON object a line, null fields
    left out)."""
    if format not in OUTPUT_FORMATS:
        known = ", ".join(OUTPUT_FORMATS)
        raise UsageProblem(f"unknown output format {format!r} (known: {known})")
    writer = tools.write.mode("overwrite" if overwrite else "errorifexists").format(format)
    try:
        writer.save(out)
    except AnalysisException as error:
        if error.getCondition() == "PATH_ALREADY_EXISTS":
            raise UsageProblem(f"{shown_argument(out)} already exists (give --overwrite to replace it)") from None
        raise


def run(
    spark: SparkSession,
    paths: Sequence[str],
    out: str,
    *,
    profile: str = "chromium",
    all_forms: bool = False,
    format: str = "parquet",
    overwrite: bool = False,
) -> dict[str, int]:
    """The whole job: extract the tools of ``paths`` into ``out`` and count what was written
    (``tools``, ``pages`` with a tool, ``errors``, ``damaged`` archives: cut short or corrupt,
    their records before the damage read), reading back only the written columns. An ``out``
    that is or holds an input is refused before anything is read or written: Spark empties
    the output directory before the job reads its inputs."""
    for path in paths:
        if _holds(out, path):
            raise UsageProblem(
                f"{shown_argument(out)}: the output directory holds the input {shown_argument(path)} (writing it would delete "
                "the input): choose another output directory"
            )
    tools = extract_warcs(spark, paths, profile=profile, all_forms=all_forms)
    write_tools(tools, out, format=format, overwrite=overwrite)
    written = spark.read.schema(SCHEMA).format(format).load(out)
    counts = written.agg(
        functions.count("name").alias("tools"),
        functions.countDistinct(
            functions.when(written.name.isNotNull(), written.url), written.warc
        ).alias("pages"),
        functions.count("error").alias("errors"),
        functions.count(
            functions.when(written.url.isNull() & written.error.contains(DAMAGED), True)
        ).alias("damaged"),
    ).collect()
    return counts[0].asDict()  # a global aggregate has exactly one row


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]+):(//[^/]*)?(.*)")  # one letter: a drive


def _holds(out: str, path: str) -> bool:
    """Whether the directory ``out`` is, or is a folder of, the input path or glob ``path``
    (each of the glob's folders matched as a pattern). Local paths (no scheme, ``file:``) are
    compared resolved; others by their scheme, authority and path as written."""
    out_root, out_parts = _split_path(out)
    root, parts = _split_path(path)
    if out_root != root or len(out_parts) > len(parts):
        return False
    return all(fnmatch.fnmatchcase(name, pattern) for name, pattern in zip(out_parts, parts))


def _split_path(path: str) -> tuple[str, list[str]]:
    """A Hadoop path as its file system (scheme and authority; "" for local files) and the
    names of its folders and file."""
    match = _SCHEME.fullmatch(path)
    if match is None or match[1].lower() == "file":
        local = path if match is None else match[3]
        return "", [name for name in os.path.realpath(local).split(os.sep) if name]
    root = f"{match[1].lower()}:{match[2] or ''}"
    return root, [name for name in posixpath.normpath(match[3] or "/").split("/") if name]


@contextmanager
def _hadoop_errors(paths: Sequence[str], listed: Callable[[str], object]) -> Iterator[None]:
    """A path Hadoop finds nothing at, or cannot parse (``ws:ü:…@[::1]:1/a.warc``: a relative
    path in an absolute URI), reported deep inside a Java stack, as one line naming the path by
    :func:`~formtools.errors.shown_argument`. Hadoop's own message is not quoted: it spells the
    path its own way (resolved, percent-encoded: ``%20``, ``%5B``), so a password in it showed
    in a spelling no rule for the path as given could find (and a path that is no URI ended the
    job in a traceback holding it). ``listed`` lists one path alone:
    of several paths, the first that fails alone is the one named."""
    try:
        yield
    except (Py4JJavaError, IllegalArgumentException) as error:
        problem = _path_problem(error)
        if problem is None:
            raise
        failing = next((path for path in paths if _fails(listed, path)), None)
        named = ", ".join(shown_argument(path) for path in ([failing] if failing else paths))
        if problem == "missing":
            raise SourceError(f"{named}: does not exist (no file matches it)") from None
        raise UsageProblem(f"{named}: not a path Hadoop can read (not a valid URI)") from None


def _path_problem(error: Py4JJavaError | IllegalArgumentException) -> str | None:
    """What is wrong with an input path, as Hadoop's Java exception ``error`` says it:
    "missing", "unparsable" (a :data:`_UNPARSABLE` cause: Hadoop's ``Path`` wraps it in an
    IllegalArgumentException, whose message starts with the cause's class name), or None when
    the failure is not the path's. Only that cause: any IllegalArgumentException was taken for
    the path's, and a configuration error
    (``mapreduce.input.fileinputformat.list-status.num-threads=0``) was reported as a path
    Hadoop cannot read."""
    if isinstance(error, IllegalArgumentException):
        return "unparsable" if str(error).startswith(f"{_UNPARSABLE}:") else None
    cause = error.java_exception
    while cause is not None:
        name = cause.getClass().getName()
        if name in _MISSING_INPUT:
            return "missing"
        if name == _UNPARSABLE:
            return "unparsable"
        cause = cause.getCause()
    return None


def _fails(listed: Callable[[str], object], path: str) -> bool:
    """Whether Hadoop fails to list ``path`` alone for a reason of the path's."""
    try:
        listed(path)
    except (Py4JJavaError, IllegalArgumentException) as error:
        return _path_problem(error) is not None
    return False


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="formtools.spark",
        description="Extract the WebMCP tools of WARC archives into Parquet or JSON-lines rows "
        "(url, warc, name, title, description, input_schema, annotations, profile, diagnostics, "
        "error).",
    )
    parser.add_argument("warcs", nargs="*", metavar="WARC", help="WARC or WARC.gz paths or globs "
                        "(file:, hdfs://, s3a:// … anything Hadoop reads).")
    parser.add_argument("--out", required=True, help="The output directory.")
    parser.add_argument("--listing", help="A text file of WARC paths, one a line (may be gzipped, "
                        "on HDFS or S3), such as Common Crawl's warc.paths.gz.")
    parser.add_argument("--prefix", default="", help="Prepended to every path of --listing, e.g. "
                        "s3a://commoncrawl/.")
    parser.add_argument("--format", choices=OUTPUT_FORMATS, default="parquet")
    parser.add_argument("--profile", choices=profile_names(), default="chromium")
    parser.add_argument("--all-forms", action="store_true", help="Forms without toolname become "
                        "(inferred) tools too.")
    parser.add_argument("--overwrite", action="store_true", help="Replace an existing output.")
    parser.add_argument("--allow-damaged", action="store_true", help="Exit 0 even when an archive "
                        "is cut short or corrupt (its records before the damage are kept either way).")
    options = parser.parse_args(argv)
    if not options.warcs and not options.listing:
        parser.error("give WARC paths or --listing")
    return options


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m formtools.spark`` / ``spark-submit formtools/spark.py``: the master and the
    cluster's settings come from ``spark-submit`` (plain ``python -m`` runs Spark locally)."""
    options = _arguments(argv)
    spark = SparkSession.builder.appName("formtools").getOrCreate()
    try:
        paths = list(options.warcs)
        if options.listing:
            paths += warc_paths(spark, options.listing, options.prefix)
        counts = run(
            spark,
            paths,
            options.out,
            profile=options.profile,
            all_forms=options.all_forms,
            format=options.format,
            overwrite=options.overwrite,
        )
    except FormtoolsError as error:
        print(f"formtools: error: {error}", file=sys.stderr)
        sys.exit(2)
    finally:
        spark.stop()
    print(
        f"formtools: {counts['tools']:,} tools on {counts['pages']:,} pages, "
        f"{counts['errors']:,} errors, {counts['damaged']:,} damaged archives, "
        f"from {len(paths):,} paths into {shown_argument(options.out)}",
        file=sys.stderr,
    )
    if counts["damaged"] and not options.allow_damaged:
        print(
            f"formtools: error: {counts['damaged']:,} archives are damaged (their rows say where; "
            "--allow-damaged accepts that)",
            file=sys.stderr,
        )
        sys.exit(2)


if __name__ == "__main__":
    main()
