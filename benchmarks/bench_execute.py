"""Tool calls per second and their latency: formtools' dry run, its MCP bridge, and Chromium.

    python benchmarks/bench_execute.py                  # 200 library, 20 CLI, 200 bridge, 30 browser calls
    python benchmarks/bench_execute.py --quick          # a tenth of each
    python benchmarks/bench_execute.py --no-browser --json execute.json

One page, one tool (a GET search form with ``toolautosubmit``, two fields), served by a real
local web site (``formtools._conformance.site.LocalSite`` on 127.0.0.1) whose ``/results``
answers with a JSON-LD landing page. Every call has its own input (``{"q": "milk 17", …}``).
In one run, one after the other:

- ``prepare_call`` (library): validate, fill, encode, build the request; no I/O. What
  ``call --dry-run`` and the bridge do before sending.
- ``formtools call --dry-run`` (CLI): one process per call, the page read from a file:
  interpreter start-up, imports, parse, prepare, print.
- bridge: ``formtools serve URL`` over stdio, driven by the MCP SDK's client; one session, calls
  one after the other: the MCP round trip, prepare, the HTTP request to the site, the landing
  page's JSON-LD. The session's start (process, imports, the page fetched and parsed) and an
  MCP round trip alone (``tools/list``) are reported apart.
- Chromium: headless Chromium 156 with WebMCP through ``formtools._conformance.browser
  .ChromiumOracle``: each call loads the form page, runs ``document.modelContext.executeTool``
  and waits until the submission reached the site and the landing page committed (an agent in a
  browser pays the page load on every call too: a submission navigates away). The page load
  alone is measured apart, to say where the time goes.

The site is Python's ``http.server``, which writes a response's headers and its body in two
sends: with Nagle's algorithm on, the body waits for the client's delayed ACK, 40 ms on Linux,
which would be most of every call measured here. Web servers turn Nagle off; so does this
benchmark (``TCP_NODELAY`` on the site's connections), for formtools and Chromium alike.

The site records every request: the bridge's and Chromium's submissions are compared (method,
target, body) to show both made the same calls. Latencies are wall-clock per call, p50 and p99
(the largest with fewer than 100 calls); calls/s is calls over their total time. Nothing is
asserted here.
"""

from __future__ import annotations

import argparse
import json
import os
import socketserver
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import describe, machine, show, table  # noqa: E402

import formtools  # noqa: E402
from formtools._conformance.site import LocalSite  # noqa: E402

# the site's handlers inherit this: no 40 ms wait for a delayed ACK between headers and body
socketserver.StreamRequestHandler.disable_nagle_algorithm = True

PAGE = b"""<!doctype html><meta charset=utf-8><title>Shop</title>
<form toolname=search tooldescription="Search the shop" toolautosubmit action=/results>
  <label>Query <input name=q required></label>
  <select name=sort><option value=new>Newest</option><option value=old>Oldest</option></select>
  <button>Search</button>
</form>
"""
RESULTS = (
    b'<!doctype html><title>Results</title><script type="application/ld+json">'
    b'{"@type": "SearchResultsPage", "name": "results"}</script><p>3 results</p>'
)


def arguments(number: int) -> dict[str, str]:
    return {"q": f"milk {number}", "sort": "old" if number % 2 else "new"}


def latencies(seconds: Sequence[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return {
        "calls": len(ordered),
        "calls_per_s": len(ordered) / sum(ordered),
        "p50_ms": statistics.median(ordered) * 1000,
        "p99_ms": p99 * 1000,
    }


def timed_calls(count: int, call: Callable[[int], object]) -> list[float]:
    found = []
    for number in range(count):
        start = time.perf_counter()
        call(number)
        found.append(time.perf_counter() - start)
    return found


def library(site: LocalSite, count: int) -> dict[str, float]:
    url = site.put("/shop", PAGE)
    (tool,) = formtools.extract_tools(PAGE, base_url=url)
    timed_calls(20, lambda n: formtools.prepare_call(tool, arguments(n)))  # warm
    return latencies(timed_calls(count, lambda n: formtools.prepare_call(tool, arguments(n))))


def cli(site: LocalSite, count: int, scratch: Path) -> dict[str, float]:
    page = scratch / "shop.html"
    page.write_bytes(PAGE)
    url = site.origin + "/shop"

    def call(number: int) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "formtools", "call", str(page), "search", "--input",
             json.dumps(arguments(number)), "--base-url", url, "--dry-run"],
            capture_output=True,
        )
        if done.returncode != 0:
            raise SystemExit(f"formtools call failed: {done.stderr.decode()}")

    return latencies(timed_calls(count, call))


def bridge(site: LocalSite, count: int) -> tuple[dict[str, float], list[tuple[str, str, bytes]]]:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    url = site.put("/shop", PAGE)
    site.put("/results", RESULTS)
    first = len(site.requests)
    found: dict[str, float] = {}

    async def session() -> list[float]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "formtools", "serve", url, "--allow-private"],
            env=dict(os.environ),
        )
        start = time.perf_counter()
        with open(os.devnull, "w") as errlog:  # noqa: ASYNC230 (the null device does not block)
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(
                read, write, read_timeout_seconds=30
            ) as client:
                await client.initialize()
                await client.list_tools()
                found["session_start_s"] = time.perf_counter() - start
                listing = []
                for _ in range(20):  # the MCP round trip alone: no page, no HTTP
                    began = time.perf_counter()
                    await client.list_tools()
                    listing.append(time.perf_counter() - began)
                found["list_tools_p50_ms"] = statistics.median(listing) * 1000
                seconds = []
                for number in range(count):
                    began = time.perf_counter()
                    result = await client.call_tool("search", arguments(number))
                    seconds.append(time.perf_counter() - began)
                    if result.is_error:
                        raise SystemExit(f"bridge call failed: {result.content}")
                return seconds

    seconds = anyio.run(session)
    sent = [(r.method, r.target, r.body) for r in site.requests[first:] if r.path == "/results"]
    return {**latencies(seconds), **found}, sent


def chromium(
    site_count: int,
) -> tuple[dict[str, Any], list[tuple[str, str, bytes]]]:
    from formtools._conformance.browser import CHROMIUM, ChromiumOracle

    version = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()
    start = time.perf_counter()
    with ChromiumOracle() as oracle:
        launch = time.perf_counter() - start
        site = oracle.site
        site.put("/results", RESULTS)
        path = "/shop"

        def call(number: int) -> None:
            answer = oracle.execute(PAGE, "search", arguments(number), path=path)
            if answer.request is None:
                raise SystemExit(f"Chromium did not submit: {answer}")

        call(0)  # warm: the first load compiles and caches
        first = len(site.requests)
        seconds = timed_calls(site_count, call)
        sent = [
            (r.method, r.target, r.body) for r in site.requests[first:] if r.path == "/results"
        ]
        url = site.put(path, PAGE)
        loads = timed_calls(10, lambda n: oracle.page.goto(url))
    return {
        **latencies(seconds),
        "launch_s": launch,
        "page_load_p50_ms": statistics.median(loads) * 1000,
        "chromium": version,
    }, sent


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--quick", action="store_true", help="a tenth of the calls")
    parser.add_argument("--no-browser", action="store_true", help="leave Chromium out")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    scale = 0.1 if args.quick else 1.0
    counts = {name: max(3, int(n * scale)) for name, n in
              {"library": 200, "cli": 20, "bridge": 200, "chromium": 30}.items()}
    found = machine(browser=not args.no_browser)
    show(f"# formtools tool calls — {describe(found)}")
    results: dict[str, Any] = {"machine": found}
    with tempfile.TemporaryDirectory(prefix="formtools-execute-") as scratch, LocalSite() as site:
        results["library"] = library(site, counts["library"])
        results["cli"] = cli(site, counts["cli"], Path(scratch))
        results["bridge"], bridge_sent = bridge(site, counts["bridge"])
    if not args.no_browser:
        results["chromium"], browser_sent = chromium(counts["chromium"])
        shared = min(len(bridge_sent), len(browser_sent))
        same = sum(
            1 for ours, theirs in zip(bridge_sent[:shared], browser_sent[:shared]) if ours == theirs
        )
        results["same_requests"] = {"compared": shared, "same": same}

    labels = {
        "library": "formtools.prepare_call (dry run, in process)",
        "cli": "formtools call --dry-run (a process per call)",
        "bridge": "bridge: MCP tools/call over stdio → HTTP → JSON-LD",
        "chromium": "Chromium executeTool (load, call, submission, landing page)",
    }
    rows = [
        [label, f"{results[name]['calls']}", f"{results[name]['calls_per_s']:,.1f}",
         f"{results[name]['p50_ms']:,.2f}", f"{results[name]['p99_ms']:,.2f}"]
        for name, label in labels.items() if name in results
    ]
    show("\n## tool calls, one after the other")
    show(table(["calls through", "calls", "calls/s", "p50 ms", "p99 ms"], rows))
    show(f"bridge: session start (process, page fetched and parsed, tools listed) "
         f"{results['bridge']['session_start_s']:.2f} s; an MCP round trip alone (tools/list) "
         f"{results['bridge']['list_tools_p50_ms']:.1f} ms (p50)")
    if "chromium" in results:
        browser = results["chromium"]
        show(
            f"Chromium: launched in {browser['launch_s']:.2f} s; loading the form page alone "
            f"{browser['page_load_p50_ms']:.1f} ms (p50) of each call's {browser['p50_ms']:.1f} ms; "
            f"bridge vs Chromium: {browser['p50_ms'] / results['bridge']['p50_ms']:.1f}× faster "
            f"per call (p50). Same request at the site for "
            f"{results['same_requests']['same']} of {results['same_requests']['compared']} "
            f"calls with the same input"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return results


if __name__ == "__main__":
    main()
