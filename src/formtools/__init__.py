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

import copyreg
import importlib
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

# The errors are imported at once: they are small, and every edge needs them.
from formtools.errors import (
    BadURL,
    Blocked,
    BrowserError,
    WorkerLost,
    FetchError,
    FetchTimeout,
    FormtoolsError,
    InputError,
    NetworkError,
    NoSubmitButton,
    ParseTimeLimit,
    Refused,
    SendError,
    SourceError,
    SubmissionError,
    TooLarge,
    TooManyRedirects,
    UnfollowedRedirect,
    UnknownDocumentURL,
    UnknownFormat,
    UnknownProfile,
    Unreachable,
    Unsupported,
    UsageProblem,
    ValidationError,
)


def _read_only(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only mapping again, from the items it was pickled or copied with."""
    return MappingProxyType(items)


# Every value formtools returns is immutable: its mappings are read-only views
# (MappingProxyType), which Python can neither pickle nor deep-copy, so no Tool, prepared call or
# call error crossed to another process (multiprocessing, Spark, a batch's workers) or went
# through copy.deepcopy. Registered here, where the package is imported before any of its
# values can exist; a view is pickled as a copy of what it shows.
copyreg.pickle(MappingProxyType, lambda view: (_read_only, (dict(view),)))

if TYPE_CHECKING:  # the names below load on first use: `import formtools` stays fast
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
    from formtools._parse import parse_html
    from formtools._parse.document import Document
    from formtools._parse.exact import from_tree
    from formtools._parse.sources import load_page
    from formtools._spec.jsjson import dumps
    from formtools._synth.diagnostics import Diagnostic, Severity
    from formtools._synth.profile import Profile, get_profile, profile_names
    from formtools._synth.synthesize import (
        Extraction,
        extract,
        extract_tools,
        synthesize,
    )
    from formtools._synth.tool import FORMATS, PageContext, Tool, listing

__all__ = [
    "BadURL",
    "Blocked",
    "FetchError",
    "FetchTimeout",
    "TooLarge",
    "TooManyRedirects",
    "UnfollowedRedirect",
    "Unreachable",
    "BrowserError",
    "WorkerLost",
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
    "NetworkError",
    "ParseTimeLimit",
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
    "UnknownDocumentURL",
    "UnknownFormat",
    "UnknownProfile",
    "Unsupported",
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

# name → the module that defines it, imported on first access (PEP 562)
_LAZY = {
    "Control": "formtools._forms.model",
    "Diagnostic": "formtools._synth.diagnostics",
    "Document": "formtools._parse.document",
    "Extraction": "formtools._synth.synthesize",
    "FORMATS": "formtools._synth.tool",
    "File": "formtools._execute.encode",
    "Form": "formtools._forms.model",
    "FormState": "formtools._forms.state",
    "InputProblem": "formtools._execute.fill",
    "NoRequest": "formtools._execute.request",
    "Option": "formtools._forms.model",
    "PageContext": "formtools._synth.tool",
    "Parser": "formtools._parse.document",
    "PreparedCall": "formtools._execute.call",
    "Problem": "formtools._execute.validate",
    "Profile": "formtools._synth.profile",
    "Request": "formtools._execute.request",
    "Severity": "formtools._synth.diagnostics",
    "Tool": "formtools._synth.tool",
    "ToolResult": "formtools._execute.send",
    "ValidityProblem": "formtools._forms.validity",
    "acall_tool": "formtools._execute.call",
    "asend_request": "formtools._execute.send",
    "asubmit": "formtools._execute.call",
    "call_tool": "formtools._execute.call",
    "dumps": "formtools._spec.jsjson",
    "extract": "formtools._synth.synthesize",
    "extract_tools": "formtools._synth.synthesize",
    "from_tree": "formtools._parse.exact",
    "get_profile": "formtools._synth.profile",
    "initial_state": "formtools._forms.state",
    "listing": "formtools._synth.tool",
    "load_page": "formtools._parse.sources",
    "parse_html": "formtools._parse",
    "prepare_call": "formtools._execute.call",
    "profile_names": "formtools._synth.profile",
    "send_request": "formtools._execute.send",
    "submit": "formtools._execute.call",
    "synthesize": "formtools._synth.synthesize",
    "validate_input": "formtools._execute.validate",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'formtools' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
