"""formtools: HTML forms → WebMCP tools, without a browser.

The layout is the pipeline; each stage is a package that imports only the stages below it
(``lint-imports`` checks the contract in ``pyproject.toml``)::

    errors          the one error tree (codes, one-line messages, JSON forms)
    _spec           facts of the standards: microsyntaxes, encoders, URLs, ECMAScript regexes, JS numbers
    _net            the one guarded, bounded fetch
    _parse          markup → Document (exact html5lib tree, fast lexbor tree, sources, prefilter)
    _forms          Document → Form / Control models; control values; form state; constraint validation
    _synth          forms → Tools under a profile (chromium; html and portable derived from it)
    _execute        validate → fill → entry list → encode → request → send → result
    _crawl          many pages: batch, WARC
    _conformance    lint, diff, the conformance report, the Chromium oracle
    cli, mcp, spark, scrapy   the edges

Typical use::

    import formtools
    for tool in formtools.extract_tools(html, base_url="https://example.com/"):
        print(tool.name, formtools.dumps(tool.to_dict()))
"""

from __future__ import annotations

from typing import Any

from formtools._execute.call import (
    PreparedCall,
    acall_tool,
    asubmit,
    call_tool,
    prepare_call,
    submit,
)
from formtools._execute.encode import File
from formtools._execute.fill import InputProblem
from formtools._execute.request import NoRequest, Request
from formtools._execute.send import ToolResult, asend_request, send_request
from formtools._execute.validate import Problem, validate_input
from formtools._forms.model import Control, Form, Option
from formtools._forms.state import FormState, initial_state
from formtools._forms.validity import ValidityProblem
from formtools._parse import Document, Parser, from_tree, parse_html
from formtools._parse.sources import load_page
from formtools._spec.jsjson import dumps
from formtools._synth.diagnostics import Diagnostic, Severity
from formtools._synth.profile import Profile, get_profile, profile_names
from formtools._synth.synthesize import Extraction, synthesize
from formtools._synth.tool import FORMATS, PageContext, Tool, listing
from formtools.errors import (
    BrowserError,
    FormtoolsError,
    InputError,
    NoSubmitButton,
    Refused,
    SendError,
    SourceError,
    SubmissionError,
    UnknownFormat,
    UnknownProfile,
    UsageProblem,
    ValidationError,
)

__all__ = [
    "BrowserError",
    "Control",
    "Diagnostic",
    "Document",
    "Extraction",
    "FORMATS",
    "File",
    "Form",
    "FormState",
    "FormtoolsError",
    "InputError",
    "InputProblem",
    "NoRequest",
    "NoSubmitButton",
    "Option",
    "PageContext",
    "PreparedCall",
    "Problem",
    "Profile",
    "Refused",
    "Request",
    "SendError",
    "Severity",
    "SourceError",
    "SubmissionError",
    "Tool",
    "ToolResult",
    "UnknownFormat",
    "UnknownProfile",
    "UsageProblem",
    "ValidationError",
    "ValidityProblem",
    "acall_tool",
    "asend_request",
    "asubmit",
    "call_tool",
    "dumps",
    "extract",
    "extract_tools",
    "from_tree",
    "get_profile",
    "initial_state",
    "listing",
    "load_page",
    "parse_html",
    "prepare_call",
    "profile_names",
    "send_request",
    "submit",
    "synthesize",
    "validate_input",
]

__version__ = "0.1.0"


def _document(page: Any, base_url: str | None, parser: Parser) -> Document:
    if isinstance(page, Document):
        return page
    if isinstance(page, (str, bytes)):
        return parse_html(page, url=base_url, parser=parser)
    return from_tree(page, url=base_url)


def extract(
    page: str | bytes | Document | Any,
    *,
    base_url: str | None = None,
    profile: str | Profile = "chromium",
    all_forms: bool = False,
    parser: Parser = "auto",
) -> Extraction:
    """Tools and diagnostics of a page.

    ``page`` is markup (``str``, or ``bytes`` decoded as a browser would), a :class:`Document`
    from :func:`parse_html` / :func:`load_page`, or an lxml / BeautifulSoup tree (owners then
    come from the final tree only: see :func:`from_tree`). ``base_url`` is the document's URL.
    ``all_forms``: forms without ``toolname`` become tools too, with an inferred name and
    description (``Tool.inferred``). ``parser="html5lib"`` parses markup with html5lib even where
    the fast exact path would do (see :func:`parse_html`); the answer is the same.
    """
    return synthesize(_document(page, base_url, parser), profile, all_forms=all_forms)


def extract_tools(
    page: str | bytes | Document | Any,
    *,
    base_url: str | None = None,
    profile: str | Profile = "chromium",
    all_forms: bool = False,
    parser: Parser = "auto",
) -> list[Tool]:
    """The tools a page registers, sorted by name as ``document.modelContext.getTools()`` is
    (``all_forms``: and the inferred tools of its unannotated forms, sorted in with them)."""
    extraction = extract(page, base_url=base_url, profile=profile, all_forms=all_forms, parser=parser)
    return list(extraction.tools)
