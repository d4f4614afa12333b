"""The ``formtools`` command: a thin edge over the public API.

Conventions (those of ruff, jq and httpx's CLI): ``-`` is standard input for a page and standard
output for ``--out``; ``--input`` takes JSON, ``@file.json`` or ``@-``; ``--format`` picks a
machine format; colour only on a terminal and never with ``NO_COLOR``. Exit codes, the same for
every command: 0 done, 1 findings (lint errors, an invalid input, pages that differ), 2 a usage or
input error, 3 the network, 141 standard output's reader gone (``… | head``). Errors are
rendered in one place (:func:`main`): one line, never a traceback for a user's mistake. Stages
are imported by the command that needs them, so ``formtools --version`` and ``formtools
extract`` start fast.

No ``from __future__ import annotations`` here, unlike the rest of the package: typer reads
every command's parameters from its annotations each time the command line is parsed, and as
strings they were compiled and evaluated again at every start (a sixth of ``formtools batch``'s
own start-up: 51 M of 297 M instructions, callgrind). Evaluated once, as the module is run,
they cost nothing more; names imported only for type checking are quoted.
"""

import errno
import io
import os
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Optional, TextIO, cast

import typer

from formtools._spec.limits import MAX_PAGE_BYTES
from formtools.errors import BrowserError, FormtoolsError, SourceError, UnknownFormat, UsageProblem, one_line, shown_argument, shown_in_text
from formtools.errors import shown as without_credentials

if TYPE_CHECKING:
    import asyncio

    from formtools._synth.synthesize import Extraction
    from formtools._synth.tool import Tool

__version__ = "0.1.0"

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # The docstrings are the help pages: Markdown joins their source lines into paragraphs and
    # shows ``code`` as code, where the default mode kept every source line break and the backticks.
    rich_markup_mode="markdown",
    help="Turn HTML forms into WebMCP tools, without a browser.",
)

# The built-in profiles, named here so that --help need not load them.
PROFILES = ("chromium", "html", "portable")
TOOL_FORMATS = ("webmcp", "mcp", "openai", "evals")

Page = Annotated[str, typer.Argument(help="An HTML file, an http(s) URL, or - for standard input.")]
ProfileOption = Annotated[
    str, typer.Option("--profile", help=f"Synthesis rules: {', '.join(PROFILES)}.")
]
def _absolute_url(value: str | None) -> str | None:
    """``--base-url`` is an absolute URL (a relative one would make every action the page's
    fault)."""
    if value is None:
        return None
    from formtools._spec.url import can_parse

    if not can_parse(value):
        raise UsageProblem(f"--base-url: {value!r} is not an absolute URL")
    return value


def _a_number(param: typer.CallbackParam, value: float) -> float:
    """A float option is a number: click's range check lets NaN through (a comparison with it is
    false whatever the bound), and ``--page-time-limit nan`` meant no limit while ``serve
    --timeout nan`` started a server whose every call failed with a traceback."""
    if value != value:
        raise UsageProblem(f"{param.opts[0]}: nan is not a number of seconds")
    return value


def _positive_seconds(param: typer.CallbackParam, value: float) -> float:
    """``serve --timeout`` is more than 0 seconds: 0, a negative number or nan started a server
    whose every call failed, with a traceback on standard error."""
    if not value > 0:
        raise UsageProblem(f"{param.opts[0]}: {value:g} is not a positive number of seconds")
    return value


BaseUrl = Annotated[
    Optional[str],
    typer.Option(
        "--base-url", help="The document URL of a file or standard input.", callback=_absolute_url
    ),
]
AllForms = Annotated[
    bool,
    typer.Option(
        "--all-forms",
        help="Also make forms without toolname tools, with a name and description inferred "
        "from the page (flagged as inferred).",
    ),
]
#: ``--max-bytes``, one definition for every command that reads a page (README, "Limits")
MaxBytes = Annotated[
    int,
    typer.Option(
        "--max-bytes", min=0, help="The largest page (and submission answer) read, in bytes: the page size limit."
    ),
]
JsonInput = Annotated[
    str, typer.Option("--input", help="The call's input: JSON, @file.json, or @- for standard input.")
]


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"formtools {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_show_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Turn HTML forms into WebMCP tools, without a browser."""


def _choice(value: str, known: tuple[str, ...], option: str) -> str:
    if value not in known:
        raise UsageProblem(f"{option}: unknown value {value!r} (known: {', '.join(known)})")
    return value


def _complain(line: str) -> None:
    """``formtools: LINE`` on standard error, as plain text on one line (:func:`one_line`): the
    lines of a rejected call quote the page's field names and the caller's values verbatim, and
    a field named ``ESC]0;…`` retitled the terminal, ``ESC[2J`` cleared it, a carriage return
    printed over the line before."""
    typer.echo(f"formtools: {one_line(line)}", err=True)


_SCHEME_PREFIX = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


def _refuse_unfetchable(page: str) -> None:
    """A page that looks like a URL but is none formtools fetches is a user mistake (exit 2):
    ``http://`` or ``https://[::1`` was reported as a network failure (exit 3), ``ftp://…``
    and ``file://…`` as a missing file."""
    from formtools._spec.url import can_parse

    scheme = _SCHEME_PREFIX.match(page)
    if scheme is None:
        return
    if scheme[1].lower() not in ("http", "https"):
        raise UsageProblem(f"{shown_argument(page)}: only http(s) URLs are fetched (name a file by its path)")
    if not can_parse(page):
        raise UsageProblem(f"{shown_argument(page)}: not a valid URL")


def _extraction(
    page: str, profile: str, base_url: str | None, max_bytes: int, all_forms: bool = False, infer: bool = True
) -> "Extraction":
    from formtools._parse.sources import load_page
    from formtools._synth.hints import without_guesses
    from formtools._synth.profile import get_profile
    from formtools._synth.synthesize import synthesize

    rules = get_profile(profile)  # an unknown profile fails before any I/O
    _refuse_unfetchable(page)
    if not infer:
        rules = without_guesses(rules)
    return synthesize(load_page(page, base_url=base_url, max_bytes=max_bytes), rules, all_forms=all_forms)


@app.command()
def extract(
    page: Page,
    profile: Annotated[
        Optional[str],
        typer.Option(
            "--profile",
            help=f"Synthesis rules: {', '.join(PROFILES)} (default chromium; portable for --format openai).",
        ),
    ] = None,
    format: Annotated[
        str,
        typer.Option(
            "--format",
            help=f"Output shape: {', '.join(TOOL_FORMATS)} (openai: function tools, strict when the "
            "schema allows; evals: a webmcp-evals tools file).",
        ),
    ] = "webmcp",
    base_url: BaseUrl = None,
    pretty: Annotated[bool, typer.Option("--pretty", help="Indent the JSON.")] = False,
    all_forms: AllForms = False,
    no_infer: Annotated[
        bool,
        typer.Option("--no-infer", help="Annotations: only the hints the page declares, no guesses (html, portable)."),
    ] = False,
    max_bytes: MaxBytes = MAX_PAGE_BYTES,
) -> None:
    """Print the page's tools as a JSON array (for ``evals``, a ``{"tools": [...]}`` file)."""
    from formtools._spec.jsjson import dumps, plain
    from formtools._synth.tool import listing

    if format not in TOOL_FORMATS:
        raise UnknownFormat(f"unknown format {format!r} (known: {', '.join(TOOL_FORMATS)})")
    if profile is None:  # OpenAI rejects the other profiles' keywords (anyOf titles, const, format …)
        profile = "portable" if format == "openai" else "chromium"
    result = _extraction(page, profile, base_url, max_bytes, all_forms, infer=not no_infer)
    typer.echo(plain(dumps(listing(result.tools, format), pretty=pretty)))


@app.command()
def lint(
    page: Page,
    profile: ProfileOption = "chromium",
    base_url: BaseUrl = None,
    format: Annotated[
        str | None,
        typer.Option("--format", help="text (the default), json (versioned: see docs/guide/cli.md), sarif (SARIF 2.1.0) or github (Actions annotations)."),
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Also print informational findings (text).")
    ] = False,
    all_forms: AllForms = False,
    max_bytes: MaxBytes = MAX_PAGE_BYTES,
) -> None:
    """Explain every form that is not a tool and every control that is not a parameter.

    Exits with 1 when there are errors.
    """
    from formtools._conformance.lint import LINT_FORMATS, as_github, as_json, as_sarif, as_text
    from formtools._spec.jsjson import dumps, plain
    from formtools._synth.diagnostics import Severity

    chosen = "text" if format is None else _choice(format, LINT_FORMATS, "--format")
    if json and format not in (None, "json"):
        raise UsageProblem(f"--json and --format {chosen} ask for two formats: give one")
    chosen = "json" if json else chosen
    result = _extraction(page, profile, base_url, max_bytes, all_forms)
    page = without_credentials(page)  # every format names the page: a URL without its user name and password
    diagnostics = list(result.diagnostics)
    names = [tool.name for tool in result.tools]
    if chosen == "json":
        typer.echo(plain(dumps(as_json(page, names, diagnostics), pretty=True)))
    elif chosen == "sarif":
        typer.echo(plain(dumps(as_sarif(page, diagnostics, __version__), pretty=True)))
    elif chosen == "github":
        text = as_github(page, [d for d in diagnostics if d.severity is not Severity.INFO])
        if text:
            typer.echo(text)
    else:
        shown = [d for d in diagnostics if verbose or d.severity is not Severity.INFO]
        typer.echo(as_text(page, names, diagnostics, shown))
    if result.errors:
        raise typer.Exit(1)


def _tool_input(text: str) -> object:
    """``--input``: JSON text, ``@path`` to a JSON file, or ``@-`` for standard input."""
    from formtools._execute.validate import MAX_INPUT_DEPTH
    from formtools._parse.sources import read_path, read_standard_input
    from formtools._spec.limits import check_page_size
    from formtools._spec.jsjson import loads, nests_deeper

    source = "--input"
    if text.startswith("@"):
        source = text[1:]
        try:
            # within the page size limit, as @- always was (@/dev/zero took memory without end)
            raw = read_standard_input() if source == "-" else read_path(source, "a JSON file", MAX_PAGE_BYTES)
            check_page_size(raw, source)
            # a byte order mark, which Windows editors write, is no part of the JSON (RFC 8259 §8.1)
            text = raw.decode("utf-8").removeprefix("\ufeff")
        except SourceError as error:  # standard input's messages name it already
            raise error if source == "-" else SourceError(f"--input: {error}") from None
        except UnicodeDecodeError:
            raise UsageProblem(f"--input: {shown_argument(source)} is not UTF-8 text") from None
        source = "--input: " + ("standard input" if source == "-" else shown_argument(source))
    if nests_deeper(text, MAX_INPUT_DEPTH):  # Python's parser fails near 1,000 levels
        raise UsageProblem(
            f"{source} nests deeper than {MAX_INPUT_DEPTH} levels of arrays and objects"
        )
    try:
        return loads(text)
    except ValueError as error:
        raise UsageProblem(f"{source} is not JSON: {error}") from None


def _files(options: list[str], tool: "Tool") -> dict[str, list[str]]:
    """``--file NAME=PATH`` options by name, each NAME one of ``tool``'s enabled file inputs."""
    from formtools._execute.fill import check_file_names
    from formtools.errors import SubmissionError

    chosen: dict[str, list[str]] = {}
    for option in options:
        name, equals, path = option.partition("=")
        if not equals or not name:
            raise UsageProblem(f"--file takes NAME=PATH, not {option!r}")
        chosen.setdefault(name, []).append(path)
    try:
        check_file_names(tool.form, chosen)
    except SubmissionError as error:
        raise UsageProblem(f"--file: {error}") from None
    return chosen


def _check_submitter(tool: "Tool", name: str) -> None:
    """``--submitter NAME``: one of ``tool``'s enabled submit buttons, by name or id."""
    from formtools._execute.call import check_submitter
    from formtools.errors import SubmissionError

    try:
        check_submitter(tool, name)
    except SubmissionError as error:
        raise UsageProblem(f"--submitter: {error}") from None


#: the fix for a call whose form submits relative to a page read from a file or standard input
_GIVE_BASE_URL = "pass --base-url, the http(s) address the page came from (e.g. --base-url https://shop.example/)"


def _chosen_tool(result: "Extraction", page: str, tool: str) -> "Tool":
    chosen = result.tool(tool)
    if chosen is None:
        names = ", ".join(t.name for t in result.tools) or "none"
        raise UsageProblem(f"{shown_argument(page)} has no tool named {tool!r} (tools: {names})")
    return chosen


@app.command()
def validate(
    page: Page,
    tool: Annotated[str, typer.Argument(help="The tool's name.")],
    input: JsonInput = "{}",
    base_url: BaseUrl = None,
    profile: ProfileOption = "html",
    all_forms: AllForms = False,
    format: Annotated[
        str, typer.Option("--format", help="text (one 'pointer: message (flag)' line each) or json.")
    ] = "text",
    file: Annotated[
        Optional[list[str]],
        typer.Option("--file", help="NAME=PATH: the call attaches a file to the file input NAME (repeatable)."),
    ] = None,
    max_bytes: MaxBytes = MAX_PAGE_BYTES,
) -> None:
    """Check an input against the tool's schema (JSON Schema 2020-12, ECMAScript patterns,
    the html profile's x- keywords), and that each required file input gets a --file; print one
    line per problem, located by JSON Pointer.

    Exits with 1 when the input is invalid.
    """
    from formtools._execute.validate import validate_input
    from formtools._spec.jsjson import dumps, plain

    chosen_format = _choice(format, ("text", "json"), "--format")
    arguments = _tool_input(input)
    chosen = _chosen_tool(_extraction(page, profile, base_url, max_bytes, all_forms), page, tool)
    problems = validate_input(chosen, arguments, files=_files(file or [], chosen))
    if chosen_format == "json":
        typer.echo(plain(dumps({"tool": chosen.name, "valid": not problems, "problems": [p.to_dict() for p in problems]}, pretty=True)))
    else:
        for problem in problems:
            typer.echo(one_line(str(problem)))  # the page's field name, the caller's value: see _complain
        if not problems:
            typer.echo(f"{chosen.name}: valid")
    if problems:
        raise typer.Exit(1)


@app.command()
def call(
    page: Page,
    tool: Annotated[str, typer.Argument(help="The tool's name.")],
    input: JsonInput = "{}",
    base_url: BaseUrl = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the request instead of sending it.")
    ] = False,
    yes: Annotated[
        bool, typer.Option("--yes", help="Submit a form without toolautosubmit without asking.")
    ] = False,
    submitter: Annotated[
        Optional[str], typer.Option("--submitter", help="The submit button's name or id.")
    ] = None,
    file: Annotated[
        Optional[list[str]],
        typer.Option("--file", help="NAME=PATH: a file for the file input NAME (repeatable)."),
    ] = None,
    text: Annotated[
        bool, typer.Option("--text", help="Also print the landing page's text.")
    ] = False,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal",
            help="Print a sensitive output (sensitiveHint) instead of its secret reference: for a person, not an agent.",
        ),
    ] = False,
    profile: ProfileOption = "chromium",
    all_forms: AllForms = False,
    max_bytes: MaxBytes = MAX_PAGE_BYTES,
) -> None:
    """Execute a tool call as Chromium would: validate, fill, submit, print the result.

    Invalid input prints one message per field and exits with 1; nothing is sent (a form without
    toolautosubmit is filled and waits for a person, as in Chromium: its failures are printed
    with --dry-run or when the submission is confirmed). A tool whose
    output is sensitive prints a secret reference in its place unless ``--reveal``.
    """
    from formtools._execute.call import prepare_call, submit
    from formtools._spec.jsjson import dumps, plain
    from formtools.errors import InputError, UnknownDocumentURL, ValidationError

    arguments = _tool_input(input)
    chosen = _chosen_tool(_extraction(page, profile, base_url, max_bytes, all_forms), page, tool)
    if submitter is not None:
        _check_submitter(chosen, submitter)
    try:
        prepared = prepare_call(chosen, arguments, submitter=submitter, files=_files(file or [], chosen))
    except (InputError, ValidationError) as error:
        for line in error.lines():
            _complain(line)
        raise typer.Exit(1) from None
    except UnknownDocumentURL as error:  # standard input without --base-url
        target = f"to its action {error.action!r}, relative to" if error.action else "to"
        raise UsageProblem(
            f"{chosen.name} submits {target} the page's URL, which "
            f"{'standard input' if page == '-' else page} does not say: {_GIVE_BASE_URL}"
        ) from None
    from formtools._execute.request import Request

    shown = prepared.shown  # sensitive values masked
    if dry_run:
        typer.echo(plain(dumps(shown.to_dict() if isinstance(shown, Request) else {"sent": False, "reason": shown.reason}, pretty=True)))
        if prepared.problems:  # a form without toolautosubmit: filled, but a person's submit is stopped
            for line in ValidationError(prepared.problems).lines():
                _complain(prepared.secrets.message(line))
            raise typer.Exit(1)
        return
    if isinstance(shown, Request) and shown.url.startswith("file:"):
        # a saved page's relative action resolves against its file: URL; only http(s) is sent
        raise UsageProblem(f"{chosen.name} submits to {shown.url}, which formtools does not send to: {_GIVE_BASE_URL}")
    confirmed = yes or prepared.autosubmit
    if not confirmed and sys.stdin is not None and sys.stdin.isatty():
        where = f"{shown.method} {shown.url}" if isinstance(shown, Request) else "this form"
        confirmed = typer.confirm(f"{chosen.name} has no toolautosubmit. Submit {where}?")
    try:
        result = submit(prepared, confirm=confirmed, include_text=text, max_bytes=max_bytes)
    except ValidationError as error:  # confirmed, but the filled form fails constraint validation
        for line in error.lines():
            _complain(prepared.secrets.message(line))
        raise typer.Exit(1) from None
    typer.echo(plain(dumps(result.to_dict(reveal=reveal), pretty=True)))
    if result.status == "awaiting-user":
        typer.echo("formtools: not submitted: the form has no toolautosubmit (pass --yes)", err=True)
        raise typer.Exit(1)


@app.command()
def diff(
    page: Page,
    base_url: BaseUrl = None,
    max_bytes: MaxBytes = MAX_PAGE_BYTES,
) -> None:
    """Show where formtools and the installed Chromium disagree on a page's tools.

    Needs the ``browser`` extra (playwright) and a system Chromium 156 (/usr/bin/chromium).
    Exits with 1 when they differ.
    """
    from formtools._conformance.diff import browser_diff

    from formtools._conformance.browser import OracleError

    try:
        report = browser_diff(page, base_url=base_url, max_bytes=max_bytes)
    except OracleError as error:
        raise BrowserError(str(error)) from None
    typer.echo(report.text)
    if not report.identical:
        raise typer.Exit(1)


@app.command()
def report(
    pages: Annotated[
        Optional[list[str]],
        typer.Argument(help="HTML files, directories of them, or http(s) URLs (default: fixtures/html)."),
    ] = None,
    format: Annotated[
        Optional[str], typer.Option("--format", help="md, html, json (default: from --out's suffix, else md), or wpt (tests and a manifest, into the --out directory).")
    ] = None,
    out: Annotated[
        Optional[Path], typer.Option("--out", help="Write the report to this file; to a directory (an existing one, or a path without suffix) as linked files, one per question (- or none: standard output).")
    ] = None,
) -> None:
    """Compare Chromium's tools (its recording when the page has one) with the html profile's,
    keyword by keyword, explain every difference and file it under the spec question it bears
    on; count the schemas webmcp#289's JSON Schema subset would refuse."""
    if out is not None and str(out) == "-":
        out = None
    from formtools._conformance.report_compare import Report, compare_page, page_sources
    from formtools._conformance.report_render import render, render_files, report_format

    if format == "wpt":
        _report_wpt(pages, out)
        return
    chosen = report_format(format, out)  # a bad format fails before any page is read
    if not pages and not Path("fixtures/html").is_dir():
        raise UsageProblem("name the pages to report on (there is no fixtures/html here)")
    result = Report(tuple(compare_page(page) for page in page_sources(pages or ["fixtures/html"])))
    if out is None:
        typer.echo(render(result, chosen), nl=False)
    else:
        split = out.is_dir() or (not out.suffix and not out.exists())  # (an existing file: itself)
        files = render_files(result, chosen) if split else {out.name: render(result, chosen)}
        try:
            if split:
                out.mkdir(parents=True, exist_ok=True)
            for name, text in files.items():
                (out / name if split else out).write_text(text, encoding="utf-8")
        except OSError as error:
            raise UsageProblem(f"--out: {shown_argument(str(out))}: cannot write: {error.strerror or error}") from None
    if result.unexplained:
        typer.echo(f"formtools: {len(result.unexplained)} difference(s) no rule explains", err=True)


def _report_wpt(pages: list[str] | None, out: Path | None) -> None:
    """``report --format wpt --out DIR``: testharness.js tests, expectations and a manifest."""
    from formtools._conformance.report_compare import compare_page, page_sources
    from formtools._conformance.wpt import write_export

    if out is None:
        raise UsageProblem("--format wpt writes a directory: give --out DIR")
    if not pages and not Path("fixtures/html").is_dir():
        raise UsageProblem("name the pages to report on (there is no fixtures/html here)")
    from formtools._spec.scheme import is_url

    sources = [s for s in page_sources(pages or ["fixtures/html"]) if not is_url(s)]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageProblem(f"--out: {shown_argument(str(out))}: cannot write: {error.strerror or error}") from None
    expectations = write_export([compare_page(page) for page in sources], sources, out)
    failing = sum(not passes for passes in expectations.values())
    typer.echo(
        f"formtools: {len(sources)} page(s), {len(expectations)} test(s) in {out}/webmcp/declarative "
        f"({failing} expected to fail in Chromium 156), manifest.json",
        err=True,
    )


@app.command()
def serve(
    pages: Annotated[
        list[str], typer.Argument(help="Pages to serve: http(s) URLs, saved .html files or directories of them.")
    ],
    transport: Annotated[str, typer.Option("--transport", help="stdio or http (streamable HTTP at /mcp).")] = "stdio",
    host: Annotated[str, typer.Option("--host", help="The address the http transport listens on.")] = "127.0.0.1",
    allowed_hosts: Annotated[
        Optional[list[str]],
        typer.Option(
            "--allowed-host",
            help="A name the http transport answers in the Host header besides IP addresses, localhost and "
            "--host (a reverse proxy's, LAN or Compose service name; repeatable). Any other gets 421.",
        ),
    ] = None,
    port: Annotated[
        int, typer.Option("--port", min=1, max=65535, help="The port the http transport listens on.")
    ] = 8000,
    base_url: Annotated[
        Optional[str],
        typer.Option(
            "--base-url", help="The site URL saved pages come from (needed for files).", callback=_absolute_url
        ),
    ] = None,
    profile: ProfileOption = "chromium",
    allow_private: Annotated[
        bool, typer.Option("--allow-private", help="Allow submissions to loopback, private and link-local addresses.")
    ] = False,
    allow_cross_origin: Annotated[
        bool, typer.Option("--allow-cross-origin", help="Allow forms that submit to another origin than their page's.")
    ] = False,
    timeout: Annotated[
        float,
        typer.Option("--timeout", callback=_positive_seconds, help="Seconds allowed for each submission."),
    ] = 30.0,
    max_bytes: MaxBytes = MAX_PAGE_BYTES,
    all_forms: AllForms = False,
    log_format: Annotated[
        str, typer.Option("--log-format", help="The log on standard error: text (a line a record) or json (an object a line).")
    ] = "text",
    head_timeout: Annotated[
        float,
        typer.Option(
            "--head-timeout",
            callback=_positive_seconds,
            help="Seconds an http connection has to send each request's head (line and headers), else it is closed (default: 10).",
        ),
    ] = 10.0,
    body_timeout: Annotated[
        float,
        typer.Option(
            "--body-timeout",
            callback=_positive_seconds,
            help="Seconds an http request has to send its body once its head is whole, else the connection is closed (default: 30).",
        ),
    ] = 30.0,
    max_connections: Annotated[
        int,
        typer.Option(
            "--max-connections",
            min=1,
            help="Connections the http transport holds at once, one peer at most half; one opened beyond either is closed at once (default: 1000).",
        ),
    ] = 1000,
) -> None:
    """Serve the pages' tools as an MCP server (needs the mcp extra)."""
    from formtools._synth.profile import get_profile

    get_profile(profile)  # an unknown profile fails before any I/O
    if transport not in ("stdio", "http"):
        raise UsageProblem(f"unknown transport {transport!r} (known: stdio, http)")
    try:
        from formtools import mcp as bridge
    except ImportError as error:
        if "formtools[mcp]" not in str(error):
            raise
        raise UsageProblem("formtools serve needs the mcp extra: pip install 'formtools[mcp]'") from None
    options = bridge.BridgeOptions(
        profile=profile,
        allow_private=allow_private,
        allow_cross_origin=allow_cross_origin,
        timeout=timeout,
        max_bytes=max_bytes,
        all_forms=all_forms,
    )
    bridge.serve(
        pages,
        transport=transport,
        host=host,
        port=port,
        base_url=base_url,
        options=options,
        log_format=log_format,
        allowed_hosts=allowed_hosts or (),
        limits=bridge.HttpLimits(head_timeout, body_timeout, max_connections),
    )
    if transport == "stdio":
        # The MCP SDK reads standard input in a worker thread that only a line or its end
        # releases, and Python waits for that thread before exiting: stopped by SIGTERM or
        # Ctrl-C while the client still held the pipe open, the process said "stopped" and
        # lived on until the client let go. Nothing is left to do but leave (the match helpers
        # end when their input does; the log is written line by line).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


@app.command()
def batch(
    out: Annotated[str, typer.Option("--out", help="The JSON-lines file to write, one line per page (-: standard output).")],
    inputs: Annotated[
        Optional[list[str]],
        typer.Argument(help="Directories (searched for *.html, *.htm), HTML files, WARC or WARC.gz files."),
    ] = None,
    urls: Annotated[
        # the name as given, not a Path: Path("http://u:pw@h") is "http:/u:pw@h", which a
        # message showed with its password (no "//" left to mark where the user information is)
        Optional[str], typer.Option("--urls", help="A file (or pipe) of http(s) URLs to fetch, one a line, each at most 2 MiB.")
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, help="Worker processes (0: one per core).")
    ] = 0,
    profile: ProfileOption = "chromium",
    all_forms: Annotated[
        bool,
        typer.Option(
            "--all-forms",
            help="Parse every page with a form and make forms without toolname tools too "
            "(inferred names and descriptions).",
        ),
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Keep the output and skip the pages it already has.")
    ] = False,
    allow_damaged: Annotated[
        bool,
        typer.Option(
            "--allow-damaged",
            help="Exit 0 even when a WARC archive is cut short or corrupt (its records before "
            "the damage are written either way).",
        ),
    ] = False,
    page_time_limit: Annotated[
        float,
        typer.Option(
            "--page-time-limit",
            min=0,
            callback=_a_number,
            help="Seconds one page's parse may take before its line is an error (0: no limit).",
        ),
    ] = 60.0,
    max_bytes: MaxBytes = MAX_PAGE_BYTES,
) -> None:
    """Extract the tools of many pages into a JSON-lines file.

    Each line is {"path" or "url", "tools", "diagnostics": {"errors", "warnings"}}, or
    {"path" or "url", "error"} for a page that could not be read or parsed. Pages without a
    toolname attribute (with --all-forms: without <form) are never parsed (their line says
    "skipped").
    """
    from formtools._crawl.batch import BatchOptions, Tally, progress_display, run_batch
    from formtools._crawl.pages import FetchOptions

    options = BatchOptions(
        profile=profile,
        all_forms=all_forms,
        jobs=jobs,
        resume=resume,
        fetch=FetchOptions(max_bytes=max_bytes),
        page_time_limit=page_time_limit or None,
    )
    sink = sys.stdout if out == "-" else Path(out)
    so_far: list[Tally] = []  # the running totals, for the summary of an interrupted run

    def on_page(tally: Tally) -> None:
        so_far[:] = [tally]
        show(tally)

    with progress_display(sys.stderr.isatty()) as show:
        try:
            tally = run_batch(inputs or [], sink, urls=urls, options=options, on_page=on_page)
        except KeyboardInterrupt:
            if so_far:  # what is written stays: --resume goes on from it
                typer.echo(f"formtools: {so_far[0].summary()}", err=True)
            raise
    typer.echo(f"formtools: {tally.summary()}", err=True)
    if tally.damaged and not allow_damaged:
        typer.echo(
            f"formtools: error: {tally.damaged:,} archives are damaged (their lines in "
            f"{'the output' if out == '-' else out} say "
            "where; --allow-damaged accepts that)",
            err=True,
        )
        raise typer.Exit(2)


class _ClosedOutput(io.TextIOBase):
    """Standard output when it was closed as formtools started (``>&-``): Python leaves
    ``sys.stdout`` None, so ``batch --out -`` failed with an AttributeError traceback and click
    dropped every other command's output, exiting 0. Writing here fails as an output that
    cannot be written does (see :func:`main`)."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _ReaderGone(Exception):
    """Standard output's reader went away (``… | head``). Deliberately not an
    :class:`OSError`: click catches a broken pipe inside the command and exits 1 quietly,
    before :func:`main` could exit 141 as shells report SIGPIPE."""


class _Output:
    """A standard stream as formtools writes it, whose reader may go away: a broken pipe on a
    write or a flush is standard output's :class:`_ReaderGone`; on standard error the message
    goes nowhere, as with ``2>&-``, and the exit code still tells (the broken pipe escaped
    :func:`main` while it reported an error: a missing file exited 1, not 2, and a batch
    that succeeded exited 1). Everything else is the stream's own (its descriptor, encoding
    and terminal, which click and rich ask about)."""

    def __init__(self, stream: TextIO | io.TextIOBase, error: bool) -> None:
        self._stream = stream
        self._error = error

    def _gone(self) -> None:
        _discard(self._stream)
        if not self._error:
            raise _ReaderGone

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _stand_in_for_closed_streams() -> None:
    """Standard output closed: :class:`_ClosedOutput`. Standard error closed (``2>&-``): its
    messages go nowhere, as asked, and the exit code still tells (``batch`` asked the missing
    stream whether it is a terminal: an AttributeError, exit 1 whatever happened). Standard
    output and error are then written through :class:`_Output`, whose reader may go away."""
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the process's life)
    sys.stdout = cast(TextIO, _Output(sys.stdout, error=False))
    sys.stderr = cast(TextIO, _Output(sys.stderr, error=True))


def _discard(stream: TextIO | io.TextIOBase) -> None:
    """Point ``stream``'s descriptor at /dev/null, so that what is still buffered for it goes
    nowhere quietly when Python exits."""
    try:
        descriptor = stream.fileno()
    except OSError:  # no descriptor (:class:`_ClosedOutput`), and nothing buffered either
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)


_INTERRUPTED = 130  # 128 + SIGINT, as shells report a process Ctrl-C ended
_TERMINATED = 143  # 128 + SIGTERM
_terminated: list[bool] = []  # set by SIGTERM's handler: the interrupt was a termination


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C and SIGTERM (``timeout``, a CI job cancelled, ``kill``) stop a command alike, so
    that what it holds is released: Python's default ended the process on SIGTERM on the spot,
    leaving ``diff``'s and ``report``'s Chromium profile directory in the temporary directory
    and ``batch``'s last buffered lines unwritten, with no summary. The first signal is the one
    acted on: from it on, further ones are ignored, so that the clean-up it starts runs to its
    end. Ignored only once :func:`main` caught the interrupt, a second SIGTERM during ``diff``'s
    clean-up interrupted Playwright's close of Chromium, whose profile was then removed while
    it still wrote there: left in the temporary directory (3 in 14 double SIGTERMs), or
    reported as ``cannot write the output: Directory not empty`` (exit 1).

    A signal that finds an event loop of this thread at work (Playwright's, which the browser's
    commands drive from the main thread) is raised from a callback of its own, between the
    loop's callbacks, as :mod:`formtools.mcp` does for ``serve``: raised in the middle of one,
    it became the exception of the task it was in, the one reading Playwright's driver among
    them, which ended the connection, so that the browser could not be closed (``Target page,
    context or browser has been closed``, exit 1, the profile left; or ``cannot write the
    output: Directory not empty``); raised as the loop took a callback from its queue, it lost
    that callback, and the close waited for ever (8 in 60 seeded lines of Playwright's and
    asyncio's code in ``diff``). While the loop waits for its driver the signal is raised at
    once, as elsewhere."""
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_IGN)
    if signum == signal.SIGTERM:
        _terminated.append(True)
    loop = _loop_at_work(frame)
    if loop is None:
        raise KeyboardInterrupt
    _deferred.append(True)
    loop.call_soon(_raise_deferred)


_deferred: list[bool] = []  # an interrupt left to an event loop to raise, not raised yet


def _raise_deferred() -> None:
    _deferred.clear()
    raise KeyboardInterrupt


def _loop_at_work(frame: FrameType | None) -> "asyncio.AbstractEventLoop | None":
    """The event loop whose step (a callback, a task's step, or its own taking of them from its
    queue) ``frame`` is in, in this greenlet or the greenlets it runs for (Playwright's sync API
    runs the loop in a greenlet, and its event handlers in greenlets of their own); None when
    there is none, or when the loop waits for I/O in its selector."""
    events = sys.modules.get("asyncio.base_events")
    # none before asyncio is imported, nor while it is (a signal then, in batch --urls' import
    # of it, raised AttributeError from here: a traceback and exit 1, 14 in 60 Ctrl-Cs)
    loops = getattr(events, "BaseEventLoop", None)
    if loops is None:
        return None
    step, selectors = loops._run_once.__code__, getattr(sys.modules.get("selectors"), "__file__", None)
    waiting = False
    for caller in _callers(frame):
        waiting = waiting or caller.f_code.co_filename == selectors
        if caller.f_code is step:
            loop = caller.f_locals.get("self")
            # not running: an interrupt held until the loop had ended (see formtools._interrupts)
            running = isinstance(loop, loops) and loop.is_running()
            return cast("asyncio.AbstractEventLoop", loop) if running and not waiting else None
    return None


def _callers(frame: FrameType | None) -> Iterator[FrameType]:
    """Each frame from ``frame`` outwards: its greenlet's, and then those of the greenlets it
    runs for (greenlet's parents)."""
    greenlet = sys.modules.get("greenlet")
    parent = greenlet.getcurrent().parent if greenlet is not None else None
    while frame is not None:
        yield frame
        frame = frame.f_back
        if frame is None and parent is not None:
            frame, parent = parent.gr_frame, parent.parent


def main() -> None:
    """The console script: every error a one-line message and its exit code (see the module).

    An interrupt is caught around everything the command line does, reporting an error
    included: caught only around the command, Ctrl-C or SIGTERM while the streams were set up
    or while an error was being reported (8 in 10 seeded lines of this module) printed a
    traceback and exited 2 (-15 for SIGTERM before its handler was set)."""
    for number in (signal.SIGINT, signal.SIGTERM):  # `serve` sets its own while it serves
        signal.signal(number, _interrupt)
    try:
        try:
            _main()
        finally:
            if _deferred:  # left to a loop that ended before it ran it: the command ended too
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        for number in (signal.SIGINT, signal.SIGTERM):  # one raised elsewhere (serve, Typer)
            signal.signal(number, signal.SIG_IGN)
        typer.echo(f"formtools: {'terminated' if _terminated else 'interrupted'}", err=True)
        sys.exit(_TERMINATED if _terminated else _INTERRUPTED)
    finally:
        _forget_handled_interrupt()


def _forget_handled_interrupt() -> None:
    """Clear CPython's mark of an interrupt nobody handled, set wrongly for one we did.

    CPython marks the run as ended by an unhandled Ctrl-C whenever a KeyboardInterrupt leaves
    code that ``exec`` or ``eval`` ran from a string, even one caught further up, as every
    interrupt is here; ``python -m`` then ends the process by SIGINT once Python has exited,
    whatever exit status it was given (``formtools: terminated`` and then death by SIGINT, -2:
    130 for a shell, not 143; and for ``serve``, whose interrupt exits 0). Such code is
    everywhere: dataclasses and namedtuple make their methods so, and a signal that came while
    one was made, in a module a command imports late (httpx for ``batch --urls``, Playwright for
    ``diff``), set the mark (2 in 150 Ctrl-Cs of ``batch --urls``). CPython clears the mark as
    it starts running any string: an empty one clears it, here where every exit passes, after
    the interrupt was handled. A run whose interrupt does leave :func:`main` is marked again as
    it leaves."""
    exec("")


def _main() -> None:
    _stand_in_for_closed_streams()
    if os.environ.get("NO_COLOR"):  # https://no-color.org: rich then writes no escape codes at all
        os.environ["TERM"] = "dumb"
    try:
        code = app(standalone_mode=False)  # returns Exit's code instead of raising it
        if code == _INTERRUPTED:
            raise KeyboardInterrupt  # Typer turned it into that code; no command exits with it
        sys.stdout.flush()  # a failed write shows here, not in Python's shutdown
    except _ReaderGone:  # … | head: nothing to say, the exit status of a process SIGPIPE ended
        sys.exit(141)
    except FormtoolsError as error:
        for line in error.lines():
            _complain(f"error: {line}")
        sys.exit(error.exit_code)
    except OSError as error:  # writing the output failed: a full disk, /dev/full
        typer.echo(f"formtools: error: cannot write the output: {error.strerror or error}", err=True)
        _discard(sys.stdout)
        sys.exit(1)
    except typer.Abort:
        typer.echo("formtools: aborted", err=True)
        sys.exit(130)
    except Exception as error:
        # click's usage errors (typer bundles its own copy of click, so match by behaviour),
        # one line like every other mistake: click's own rendering took four (usage, a hint,
        # a blank line, the error), with a prefix unlike formtools' "formtools: error:"
        describe, exit_code = getattr(error, "format_message", None), getattr(error, "exit_code", None)
        if callable(describe) and isinstance(exit_code, int):
            message = shown_in_text(" ".join(str(describe()).split()))  # it quotes what was given
            if not message:  # `formtools` alone: click shows the help
                error.show()  # type: ignore[attr-defined]
                sys.exit(exit_code)
            command = getattr(getattr(error, "ctx", None), "command_path", None) or "formtools"
            typer.echo(f"formtools: error: {message} (see '{command} --help')", err=True)
            sys.exit(exit_code)
        raise
    sys.exit(code if isinstance(code, int) else 0)
