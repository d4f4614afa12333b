"""formtools: HTML forms → WebMCP tools, without a browser.

The pipeline, one module per stage::

    _parse      markup → lxml tree + parser-recorded form owners      (parse_html, from_tree)
    _forms      tree → Form / Control models                          (form owner & controls)
    _synth      forms → Tools under a profile (_profiles, _chromium)  (synthesize)
    _tool       the Tool value and its output formats

Typical use::

    import formtools
    for tool in formtools.extract_tools(html, base_url="https://example.com/"):
        print(tool.name, formtools.dumps(tool.to_dict()))
"""

from __future__ import annotations

from typing import Any

from . import _chromium  # noqa: F401  (registers the "chromium" profile)
from ._diagnostics import Diagnostic, Severity
from ._errors import FormtoolsError, SourceError, UnknownFormat, UnknownProfile
from ._forms import Control, Form, Option
from ._jsjson import dumps
from ._parse import Document, from_tree, parse_html
from ._profiles import Profile, get_profile, profile_names
from ._sources import load_page
from ._synth import Extraction, synthesize
from ._tool import FORMATS, Tool

__all__ = [
    "Control",
    "Diagnostic",
    "Document",
    "Extraction",
    "FORMATS",
    "Form",
    "FormtoolsError",
    "Option",
    "Profile",
    "Severity",
    "SourceError",
    "Tool",
    "UnknownFormat",
    "UnknownProfile",
    "dumps",
    "extract",
    "extract_tools",
    "from_tree",
    "get_profile",
    "load_page",
    "parse_html",
    "profile_names",
    "synthesize",
]

__version__ = "0.1.0"


def _document(page: Any, base_url: str | None) -> Document:
    if isinstance(page, Document):
        return page
    if isinstance(page, (str, bytes)):
        return parse_html(page, url=base_url)
    return from_tree(page, url=base_url)


def extract(
    page: str | bytes | Document | Any,
    *,
    base_url: str | None = None,
    profile: str | Profile = "chromium",
) -> Extraction:
    """Tools and diagnostics of a page.

    ``page`` is markup (``str``, or ``bytes`` decoded as a browser would), a :class:`Document`
    from :func:`parse_html` / :func:`load_page`, or an lxml / BeautifulSoup tree (owners then
    come from the final tree only: see :func:`from_tree`). ``base_url`` is the document's URL.
    """
    return synthesize(_document(page, base_url), profile)


def extract_tools(
    page: str | bytes | Document | Any,
    *,
    base_url: str | None = None,
    profile: str | Profile = "chromium",
) -> list[Tool]:
    """The tools a page registers, sorted by name as ``document.modelContext.getTools()`` is."""
    return list(extract(page, base_url=base_url, profile=profile).tools)
