"""The PySpark job in Spark's local mode, on WARC archives built here with warcio.

Every row is held to what ``formtools batch`` writes for the same archives (the job is batch,
flattened to one row per tool), and the job runs the way a cluster runs it: ``spark-submit`` on
the module's file, with a listing of relative paths and a prefix.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import formtools
from formtools import spark as job
from formtools._crawl.batch import BatchOptions, run_batch
from tests.conftest import ROOT

SEARCH = b"""<form toolname=search tooldescription='Search the shop' action=/s>
  <input name=q required minlength=2><input name=page type=number min=1>
  <input placeholder='no name: not a parameter'>
</form>
<form toolname=subscribe tooldescription='Get the letter' method=post toolautosubmit>
  <input name=email type=email required>
</form>"""
LATIN = "<form toolname=cafe tooldescription='Caf\xe9 cr\xe8me'><input name=q></form>".encode(
    "cp1252"
)
NO_TOOL = b"<form action=/login><input name=user></form>"
HUGE = b"<form toolname=huge tooldescription=h></form>" + b" " * (10 * 2**20)

# one Spark JVM per run: the module's session fixture is set up on one worker only (conftest.py)
pytestmark = pytest.mark.one_worker

# Subprocesses import formtools from this checkout and bind Spark to the loopback interface.
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
    "SPARK_LOCAL_IP": "127.0.0.1",
}


#: The driver JVM's options: the client compiler only (no C2) and one garbage-collector thread.
#: A test's JVM lives a minute and runs little Java of its own (the job is Python), so C2's
#: compiling and G1's threads were most of its CPU: 73-94 s of CPU for this file before,
#: 43-50 s with these, for the same jobs and rows.
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    if shutil.which("java") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the Spark tests: no java (see .ci/run)")
        pytest.skip("Spark needs Java 17+ (apt-get install default-jre-headless)")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("formtools-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.executorEnv.PYTHONPATH", ENV["PYTHONPATH"])
        .config("spark.driver.extraJavaOptions", JVM_OPTIONS)
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _response(writer: WARCWriter, url: str, content_type: str, body: bytes) -> None:
    headers = StatusAndHeaders("200 OK", [("Content-Type", content_type)], protocol="HTTP/1.1")
    writer.write_record(
        writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=headers)
    )


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """A crawl in two archives: a gzipped one with tools, a charset from the HTTP header, a
    page without tools, a non-HTML record and an oversized page; and an uncompressed one cut
    off by garbage after its first page."""
    root = tmp_path_factory.mktemp("crawl")
    first, second = root / "crawl-00000.warc.gz", root / "crawl-00001.warc"
    with first.open("wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        writer.write_record(
            writer.create_warc_record(
                "https://shop.example/", "request", payload=io.BytesIO(b"GET / HTTP/1.1\r\n\r\n")
            )
        )
        _response(writer, "https://shop.example/", "text/html; charset=utf-8", SEARCH)
        _response(writer, "https://shop.example/logo.png", "image/png", b"\x89PNG" + SEARCH)
        _response(writer, "https://cafe.example/", "text/html; charset=windows-1252", LATIN)
        _response(writer, "https://plain.example/", "text/html", NO_TOOL)
        _response(writer, "https://huge.example/", "text/html", HUGE)
    with second.open("wb") as stream:
        _response(WARCWriter(stream, gzip=False), "https://late.example/", "text/html", LATIN)
    second.write_bytes(second.read_bytes() + b"WARC/1.0\r\nWARC-Type: response\r\nbroken")
    return [first, second]


def batch_rows(
    archives: list[Path], out: Path, profile: str, all_forms: bool = False
) -> list[dict[str, Any]]:
    """What ``formtools batch`` says of the archives, as the rows the job should write."""
    options = BatchOptions(profile=profile, all_forms=all_forms, jobs=1)
    run_batch([str(a) for a in archives], out, options=options)
    rows = []
    for line in map(json.loads, out.read_text("utf-8").splitlines()):
        page = {"profile": profile, **({"url": line["url"]} if "url" in line else {})}
        if "error" in line and "path" in line:  # a damaged archive: Spark names it by URI
            rows.append({**page, "error": f"file:{line['error']}"})
        elif "error" in line:
            rows.append({**page, "error": line["error"]})
        for tool in line.get("tools", []):
            rows.append(
                {
                    **page,
                    "name": tool["name"],
                    "title": tool["title"],
                    "description": tool["description"],
                    "input_schema": formtools.dumps(tool["inputSchema"]),
                    "annotations": formtools.dumps(tool["annotations"]),
                    "diagnostics": line["diagnostics"],
                }
            )
    return rows


def as_dicts(rows: list[Any]) -> list[dict[str, Any]]:
    """Spark rows as plain dicts without null fields (the JSON writer's shape)."""
    found = []
    for row in rows:
        data = row.asDict(recursive=True) if hasattr(row, "asDict") else dict(row)
        found.append({k: v for k, v in data.items() if v is not None})
    return found


def key(row: dict[str, Any]) -> tuple[str, str, str]:
    return (row.get("url") or "", row.get("name") or "", row.get("error") or "")


def without_warc(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(({k: v for k, v in row.items() if k != "warc"} for row in rows), key=key)


def test_rows_are_the_batch_lines_flattened(
    spark: SparkSession, archives: list[Path], tmp_path: Path
) -> None:
    out = tmp_path / "tools.parquet"
    job.write_tools(job.extract_warcs(spark, [str(a) for a in archives]), str(out))
    rows = as_dicts(spark.read.parquet(str(out)).collect())
    expected = batch_rows(archives, tmp_path / "batch.jsonl", "chromium")
    assert without_warc(rows) == sorted(expected, key=key)

    by_key = {(r.get("url"), r.get("name")): r for r in rows}
    assert sorted(k for k in by_key if k[1]) == [
        ("https://cafe.example/", "cafe"),
        ("https://late.example/", "cafe"),
        ("https://shop.example/", "search"),
        ("https://shop.example/", "subscribe"),
    ]
    search = by_key["https://shop.example/", "search"]
    tool = formtools.extract(SEARCH, base_url="https://shop.example/").tool("search")
    assert search["input_schema"] == formtools.dumps(tool.to_dict()["inputSchema"])
    assert json.loads(search["input_schema"])["required"] == ["q"]
    assert search["warc"] == f"file:{archives[0]}"
    assert search["diagnostics"]["warnings"] >= 1  # the control without a name
    assert json.loads(by_key["https://shop.example/", "subscribe"]["annotations"]) == {
        "autosubmit": True
    }
    assert by_key["https://cafe.example/", "cafe"]["description"] == "Café crème"
    assert by_key["https://huge.example/", None]["error"].endswith("larger than 10,485,760 bytes, the page size limit; not read")
    damaged = by_key[None, None]
    assert damaged["warc"] == f"file:{archives[1]}"
    assert damaged["error"].startswith(f"file:{archives[1]}: damaged archive at byte ")
    assert {r["profile"] for r in rows} == {"chromium"}


def test_another_profile_all_forms_and_a_glob(
    spark: SparkSession, archives: list[Path], tmp_path: Path
) -> None:
    glob = str(archives[0].parent / "crawl-*.warc*")
    tools = job.extract_warcs(spark, [glob], profile="portable", all_forms=True)
    rows = as_dicts(tools.collect())
    expected = batch_rows(archives, tmp_path / "batch.jsonl", "portable", all_forms=True)
    assert without_warc(rows) == sorted(expected, key=key)
    search = next(r for r in rows if r.get("name") == "search")
    tool = formtools.extract(SEARCH, base_url="https://shop.example/", profile="portable")
    assert search["input_schema"] == formtools.dumps(tool.tool("search").to_dict()["inputSchema"])
    assert search["profile"] == "portable"
    # the form without toolname is an inferred tool now
    (plain,) = [r for r in rows if r.get("url") == "https://plain.example/"]
    assert json.loads(plain["annotations"]).get("x-formtools-inferred") is True


def test_user_mistakes_are_formtools_errors(
    spark: SparkSession, archives: list[Path], tmp_path: Path
) -> None:
    missing = tmp_path / "gone.warc.gz"
    with pytest.raises(formtools.SourceError, match=re.escape(f"{missing}: does not exist")):
        job.extract_warcs(spark, [str(archives[0]), str(missing)])
    with pytest.raises(formtools.UnknownProfile):
        job.extract_warcs(spark, [str(archives[0])], profile="firefox")
    with pytest.raises(formtools.SourceError, match=re.escape(f"{tmp_path / 'no-listing.txt'}: does not exist")):
        job.warc_paths(spark, str(tmp_path / "no-listing.txt"))
    out = tmp_path / "taken"
    out.mkdir()
    tools = job.extract_warcs(spark, [str(archives[1])])
    with pytest.raises(formtools.UsageProblem, match=re.escape(f"{out} already exists (give --")):
        job.write_tools(tools, str(out))
    job.write_tools(tools, str(out), format="json", overwrite=True)
    written = [json.loads(line) for part in out.glob("part-*.json") for line in part.open()]
    assert [(row.get("url"), row.get("name")) for row in written] == [
        ("https://late.example/", "cafe"),
        (None, None),  # the damage
    ]


def test_a_configuration_error_is_not_taken_for_a_path_hadoop_cannot_read(
    spark: SparkSession, archives: list[Path]
) -> None:
    """A Hadoop setting that fails the listing with an IllegalArgumentException (a thread pool
    of 0 listing threads, seeded 0 or below) on an archive that exists: the job fails with
    Spark's own error, not a ``UsageProblem`` saying the path is not one Hadoop can read. Before,
    every IllegalArgumentException in the cause chain was taken for an unparsable path."""
    threads = str(-random.Random(2323).randrange(2))
    setting = "mapreduce.input.fileinputformat.list-status.num-threads"
    configuration = spark.sparkContext._jsc.hadoopConfiguration()
    configuration.set(setting, threads)
    try:
        with pytest.raises(Exception) as raised:
            job.extract_warcs(spark, [str(archives[1])])
    finally:
        configuration.unset(setting)
    assert not isinstance(raised.value, formtools.FormtoolsError), raised.value


def test_an_output_directory_holding_an_input_is_refused_before_anything_is_read(
    spark: SparkSession, archives: list[Path], tmp_path: Path
) -> None:
    """``--out crawls --overwrite 'crawls/*.warc.gz'``: Spark emptied the output directory,
    deleting the archives, then failed with a Py4J traceback. Now a one-line UsageProblem (exit 2
    from the command) and the archives stay; a glob's folders are matched as patterns."""
    crawls = tmp_path / "crawls"
    crawls.mkdir()
    shutil.copy(archives[0], crawls / archives[0].name)
    before = sorted(crawls.iterdir())
    for out, path in [
        (crawls, f"{crawls}/*.warc.gz"),
        (crawls, f"file:{crawls}/{archives[0].name}"),
        (tmp_path, f"{tmp_path}/c*/*.warc.gz"),
    ]:
        with pytest.raises(formtools.UsageProblem, match="the output directory holds the input"):
            job.run(spark, [path], str(out), format="json", overwrite=True)
        assert sorted(crawls.iterdir()) == before
    job.run(spark, [f"{crawls}/*.warc.gz"], str(tmp_path / "tools"), format="json")
    assert sorted(crawls.iterdir()) == before


def test_spark_submit_with_a_listing_and_a_prefix(
    spark: SparkSession, archives: list[Path], tmp_path: Path
) -> None:
    listing = tmp_path / "warc.paths"
    listing.write_text("# two archives\n" + "".join(f"{a.name}\n" for a in archives) + "\n")
    out = tmp_path / "tools"
    done = subprocess.run(
        [
            "spark-submit",
            "--master",
            "local[2]",
            "--conf",
            "spark.ui.enabled=false",
            "--driver-java-options",
            JVM_OPTIONS,
            job.__file__,
            "--out",
            str(out),
            "--format",
            "json",
            "--listing",
            str(listing),
            "--prefix",
            f"{archives[0].parent}/",
            "--allow-damaged",
        ],
        check=False,
        capture_output=True,
        env=ENV,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    written = [json.loads(line) for part in sorted(out.glob("part-*.json")) for line in part.open()]
    library = as_dicts(job.extract_warcs(spark, [str(a) for a in archives]).collect())
    assert sorted(written, key=key) == sorted(library, key=key)
    # spark-submit runs the script with its standard error joined to standard output
    assert b"formtools: 4 tools on 3 pages, 2 errors, 1 damaged archives, from 2 paths" in done.stdout


def test_command_line_mistakes_need_no_spark(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "formtools.spark", *args],
            check=False,
        capture_output=True,
            env=ENV,
            timeout=60,
        )

    unknown = run("--out", str(tmp_path / "o"), "--profile", "firefox", "a.warc")
    assert unknown.returncode == 2
    assert b"invalid choice: 'firefox'" in unknown.stderr and b"Traceback" not in unknown.stderr
    nothing = run("--out", str(tmp_path / "o"))
    assert nothing.returncode == 2 and b"give WARC paths or --listing" in nothing.stderr


def test_the_jobs_messages_show_no_password_however_a_path_is_written(
    spark: SparkSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Hadoop path may hold a user name and password (``s3a://KEY:SECRET@bucket/…``, a URL
    pasted with its credentials): the job quoted every path and its output directory as given,
    in a comma's message (``PATH: WARC paths cannot contain a comma``), an output holding an
    input (``OUT: the output directory holds the input PATH``): a password with a space showed
    (the message was read word by word). Seeded would-be URLs (:mod:`tests.support.urlgen`, as
    in test_secret_outputs), half of them with spaced passwords, through each message: no piece
    of a password, and each message still says what is wrong. (A finished job's summary, ``…
    into OUT``, shows OUT by the same rule; an output with credentials, on S3, is not run here.)

    A path with a glob's characters (``[::1]``) is a pattern its output does not match: Hadoop
    was given it, and one it could not parse (``ws:ü:…@[::1]:1/a.warc``) ended the job in a
    traceback quoting it percent-encoded (``%20``, ``%5B``), one it found nothing at in its
    message spelling it resolved; now one line names it as given, and nothing is written."""
    from tests.support import urlgen

    monkeypatch.chdir(tmp_path)  # the seeded paths are relative: an output would land here
    pick = random.Random(2323)
    leaks = []
    for number in range(40):
        written = urlgen.with_credentials(pick, breaks="", joins=urlgen.SPACED_JOINS if number % 2 else urlgen.JOINS)
        messages = []
        checks = [
            (lambda: job.extract_warcs(spark, [written.text + ",b.warc"]), "cannot contain a comma"),
            (lambda: job.run(spark, [written.text + "/a.warc"], written.text), "holds the input|not a path Hadoop can read|does not exist"),
        ]
        for run, said in checks:
            with pytest.raises((formtools.UsageProblem, formtools.SourceError), match=said) as raised:
                run()
            messages.append(str(raised.value))
        assert all("\n" not in message for message in messages), messages
        leaks += [(written.text, m) for m in messages if any(piece in m for piece in written.secrets)]
    assert not leaks, leaks[:5]
    assert not list(tmp_path.iterdir())
