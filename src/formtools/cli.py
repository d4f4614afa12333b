"""The ``formtools`` command: a thin layer over the public API.

Errors are mapped in one place (:func:`main`): a :class:`~formtools.FormtoolsError` is a user's
mistake or an unreachable page and prints one line with exit code 2, never a traceback.
"""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from . import _jsjson
from ._diagnostics import Severity
from ._errors import BrowserError, FormtoolsError, UnknownFormat
from ._profiles import get_profile, profile_names
from ._sources import load_page
from ._synth import Extraction, synthesize
from ._tool import FORMATS

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Turn HTML forms into WebMCP tools, without a browser.",
)

Page = Annotated[str, typer.Argument(help="An HTML file, an http(s) URL, or - for standard input.")]
ProfileOption = Annotated[
    str, typer.Option("--profile", help=f"Synthesis rules: {', '.join(profile_names())}.")
]
BaseUrl = Annotated[
    Optional[str],
    typer.Option("--base-url", help="The document URL of a file or standard input."),
]


def _extraction(page: str, profile: str, base_url: str | None) -> Extraction:
    rules = get_profile(profile)  # an unknown profile fails before any I/O
    return synthesize(load_page(page, base_url=base_url), rules)


@app.command()
def extract(
    page: Page,
    profile: ProfileOption = "chromium",
    format: Annotated[
        str, typer.Option("--format", help=f"Output shape: {', '.join(FORMATS)}.")
    ] = "webmcp",
    base_url: BaseUrl = None,
    pretty: Annotated[bool, typer.Option("--pretty", help="Indent the JSON.")] = False,
) -> None:
    """Print the page's tools as a JSON array."""
    if format not in FORMATS:
        raise UnknownFormat(f"unknown format {format!r} (known: {', '.join(FORMATS)})")
    result = _extraction(page, profile, base_url)
    typer.echo(_jsjson.dumps([tool.to_dict(format) for tool in result.tools], pretty=pretty))


@app.command()
def lint(
    page: Page,
    profile: ProfileOption = "chromium",
    base_url: BaseUrl = None,
    json: Annotated[bool, typer.Option("--json", help="Print diagnostics as JSON.")] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Also print informational findings.")
    ] = False,
) -> None:
    """Explain every form that is not a tool and every control that is not a parameter.

    Exits with 1 when there are errors.
    """
    result = _extraction(page, profile, base_url)
    shown = [
        d for d in result.diagnostics if json or verbose or d.severity is not Severity.INFO
    ]
    if json:
        typer.echo(_jsjson.dumps([d.to_dict() for d in shown], pretty=True))
    else:
        for diagnostic in shown:
            line = f":{diagnostic.line}" if diagnostic.line else ""
            typer.echo(f"{page}{line}: {diagnostic}")
        counts = {s: sum(d.severity is s for d in result.diagnostics) for s in Severity}
        typer.echo(
            f"{len(result.tools)} tool(s); {counts[Severity.ERROR]} error(s), "
            f"{counts[Severity.WARNING]} warning(s), {counts[Severity.INFO]} note(s)"
        )
    if result.errors:
        raise typer.Exit(1)


@app.command()
def diff(
    page: Page,
    base_url: BaseUrl = None,
) -> None:
    """Show where formtools and the installed Chromium disagree on a page's tools.

    Needs the ``browser`` extra (playwright) and a system Chromium 156 (/usr/bin/chromium).
    Exits with 1 when they differ.
    """
    from ._diff import browser_diff

    from ._browser import OracleError

    try:
        report = browser_diff(page, base_url=base_url)
    except OracleError as error:
        raise BrowserError(str(error)) from None
    typer.echo(report.text)
    if not report.identical:
        raise typer.Exit(1)


def main() -> None:
    try:
        code = app(standalone_mode=False)  # returns Exit's code instead of raising it
    except FormtoolsError as error:
        typer.echo(f"formtools: error: {error}", err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo("formtools: aborted", err=True)
        sys.exit(130)
    except Exception as error:  # click's usage errors
        import click

        if isinstance(error, click.ClickException):
            error.show()
            sys.exit(2)
        raise
    sys.exit(code if isinstance(code, int) else 0)
