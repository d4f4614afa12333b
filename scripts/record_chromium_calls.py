"""Record what Chromium does when an agent calls the tools of every fixture page.

For each ``fixtures/html/<stem>.html`` this asks the real browser (``formtools._conformance.browser``) for the
page's tools, and for every tool whose ``annotations.autosubmit`` is true executes the inputs
``tests/support/callgen.py`` derives from its schema (seeded by the page's stem, so the inputs
are the same on every run). Each call starts from a fresh load of the page: Chromium keeps values
between calls on one document. The results go to ``fixtures/expected/chromium-calls/<stem>.json``,
a list of::

    {"tool": name, "input": input, "outcome": outcome}

where ``outcome`` is one of

- ``{"error": message}``: the call was rejected; the message is Chromium's, verbatim;
- ``{"request": {"method", "url", "content_type", "body"}}``: the form was submitted. ``url``
  is the request-target (path and query, no fragment); ``content_type`` is ``null`` for a GET;
  a multipart boundary is replaced by ``BOUNDARY`` in both ``content_type`` and ``body``. The
  body is text when it is valid UTF-8, else ``"body_base64"`` holds it;
- ``{"no_request": true, "result": value}``: the call resolved without sending anything
  (``method=dialog``, for one); ``result`` is what ``executeTool`` resolved to.

The page is served byte for byte as ``text/html`` with no charset, from
``http://127.0.0.1:<port>/pages/<stem>.html``, so its ``<meta charset>`` decides the encoding and
``action=""`` submits to ``/pages/<stem>.html``.

Every call is made twice. A call whose two outcomes differ, or that the oracle could not answer
(``OracleError``), is left out of the page's file and listed in
``fixtures/expected/chromium-calls/UNSTABLE.json`` with both ``runs`` (or the ``error``).

    PYTHONPATH=src python scripts/record_chromium_calls.py [--only GLOB]
"""

from __future__ import annotations

import base64
import collections
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
if str(ROOT) not in sys.path:  # run as a script: the shared helpers live in the scripts package
    sys.path.insert(0, str(ROOT))

from support.callgen import tagged_calls_for

from formtools._conformance.browser import (
    BrowserUnavailable,
    ChromiumOracle,
    ExecuteAnswer,
    OracleError,
)
from formtools._spec.jsjson import dumps
from scripts._recording import fixture_pages, kept_unstable, stamped, write_json

EXPECTED_DIR = ROOT / "fixtures" / "expected" / "chromium-calls"
UNSTABLE_FILE = EXPECTED_DIR / "UNSTABLE.json"


def outcome_of(answer: ExecuteAnswer) -> dict[str, Any]:
    if answer.error is not None:
        return {"error": answer.error}
    if answer.request is not None:
        request: dict[str, Any] = {
            "method": answer.request.method,
            "url": answer.request.url,
            "content_type": answer.request.content_type,
        }
        try:
            request["body"] = answer.request.body.decode("utf-8")
        except UnicodeDecodeError:
            request["body_base64"] = base64.b64encode(answer.request.body).decode("ascii")
        return {"request": request}
    if answer.waiting_for_user:
        return {"waiting_for_user": True}
    return {"no_request": True, "result": answer.result}


_UNKNOWN = re.compile(r'^Input contains a parameter ".*" but there is no such parameter', re.DOTALL)
_BAD_VALUE = re.compile(r'^Invalid value ".*" for parameter ', re.DOTALL)
_BAD_TYPE = re.compile(r"^Invalid value for parameter ", re.DOTALL)
_VALIDATION = "Form validation failed: "


def error_kind(message: str) -> str:
    """The message with its parameter names and values left out, for the summary."""
    if _UNKNOWN.match(message):
        return 'Input contains a parameter "…" but there is no such parameter for the tool'
    if _BAD_VALUE.match(message):
        return 'Invalid value "…" for parameter …'
    if _BAD_TYPE.match(message):
        return "Invalid value for parameter …"
    if message.startswith(_VALIDATION):
        return _VALIDATION + "…"
    return message


def validation_messages(message: str) -> list[str]:
    """The browser's messages inside a "Form validation failed" error, numbers left out."""
    if not message.startswith(_VALIDATION):
        return []
    parts = message[len(_VALIDATION) :].split(".. ")
    return [
        re.sub(
            r"\d+(\.\d+)?", "N", re.sub(r"'.*'", "'…'", part.partition(": ")[2], flags=re.DOTALL)
        )
        + "."
        for part in parts
        if part.strip()
    ]


def request_kind(outcome: dict[str, Any]) -> str:
    request = outcome["request"]
    content_type = (request["content_type"] or "").partition(";")[0]
    return f"{request['method']} {content_type or '(no body)'}"


def record(pages: list[Path]) -> int:
    EXPECTED_DIR.mkdir(parents=True, exist_ok=True)
    unstable = kept_unstable(UNSTABLE_FILE, pages)
    counts: collections.Counter[str] = collections.Counter()
    errors: collections.Counter[str] = collections.Counter()
    constraints: collections.Counter[str] = collections.Counter()
    requests: collections.Counter[str] = collections.Counter()
    tags: collections.Counter[str] = collections.Counter()
    started = time.monotonic()
    executions = 0
    with ChromiumOracle() as oracle:
        stamped(oracle)
        for page in pages:
            html = page.read_bytes()
            golden = EXPECTED_DIR / f"{page.stem}.json"
            tools = [
                tool
                for tool in oracle.tools(html, content_type="text/html")
                if tool["annotations"]["autosubmit"]
            ]
            if not tools:
                golden.unlink(missing_ok=True)
                continue
            rng = random.Random(page.stem)
            covered: set[str] = set()
            entries = []
            page_started = time.monotonic()
            for tool in tools:
                for tag, tool_input in tagged_calls_for(tool, rng, covered=covered):
                    runs = []
                    try:
                        for _ in range(2):
                            answer = oracle.execute(
                                html,
                                tool["name"],
                                tool_input,
                                content_type="text/html",
                                path=f"/pages/{page.name}",
                            )
                            executions += 1
                            runs.append(outcome_of(answer))
                    except OracleError as error:
                        unstable.append(
                            {
                                "page": page.stem,
                                "tool": tool["name"],
                                "input": tool_input,
                                "error": str(error),
                            }
                        )
                        counts["oracle errors"] += 1
                        continue
                    if dumps(runs[0]) != dumps(runs[1]):
                        unstable.append(
                            {
                                "page": page.stem,
                                "tool": tool["name"],
                                "input": tool_input,
                                "runs": runs,
                            }
                        )
                        counts["unstable"] += 1
                        continue
                    outcome = runs[0]
                    entries.append({"tool": tool["name"], "input": tool_input, "outcome": outcome})
                    counts["calls"] += 1
                    tags[tag] += 1
                    if "error" in outcome:
                        errors[error_kind(outcome["error"])] += 1
                        constraints.update(validation_messages(outcome["error"]))
                    elif "request" in outcome:
                        requests[request_kind(outcome)] += 1
                    else:
                        requests["no request"] += 1
            write_json(golden, entries)
            counts["pages"] += 1
            print(
                f"{page.stem}: {len(tools)} tools, {len(entries)} calls"
                f" ({time.monotonic() - page_started:.1f} s)",
                flush=True,
            )
    unstable.sort(key=lambda entry: entry["page"])
    write_json(UNSTABLE_FILE, unstable)
    elapsed = time.monotonic() - started
    print()
    print(
        f"{counts['pages']} pages, {counts['calls']} calls recorded"
        f" ({', '.join(f'{tags[tag]} {tag}' for tag in sorted(tags))}),"
        f" {counts['unstable']} unstable, {counts['oracle errors']} oracle errors;"
        f" {executions} executions in {elapsed:.0f} s"
        f" ({elapsed / max(executions, 1):.3f} s each)"
    )
    print("errors by kind:")
    for kind, count in errors.most_common():
        print(f"  {count:5}  {kind}")
    print("validation messages:")
    for kind, count in constraints.most_common():
        print(f"  {count:5}  {kind}")
    print("requests by method and enctype:")
    for kind, count in requests.most_common():
        print(f"  {count:5}  {kind}")
    return 0


def main(argv: list[str] | None = None) -> int:
    pages = fixture_pages(argv, __doc__.partition("\n")[0], "submit-*")
    try:
        return record(pages)
    except BrowserUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
