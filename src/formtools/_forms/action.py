"""Where a form submits: its action URL as the form submission algorithm resolves it, one
reading for the request a call makes (``formtools._execute.request``) and for lint's check of the
page's ``Content-Security-Policy: form-action`` (``formtools._synth.synthesize``)."""

from __future__ import annotations

import re
from typing import Mapping

from formtools._forms.model import Control, submission_attribute
from formtools._spec.limits import MAX_URL_CHARS
from formtools._spec.url import INVALID_BASE_URL, Url
from formtools._spec.url import parse as parse_url
from formtools.errors import UnknownDocumentURL

__all__ = ["ActionBlocked", "action_url"]

# what URL parsing strips from either end of an action: C0 controls and space
_URL_WHITESPACE = "".join(map(chr, range(0x21)))


class ActionBlocked(Exception):
    """The action does not parse: Chromium navigates to ``about:blank#blocked`` instead."""

    def __init__(self, action: str, *, unresolved: bool = False) -> None:
        super().__init__(action)
        self.action = action
        self.unresolved = unresolved  # relative, against a base URL that did not parse


def action_url(
    form_attributes: Mapping[str, str],
    submitter: Control | None,
    document_url: str | None,
    base_url: str | None,
    encoding: str,
) -> Url:
    """The parsed action (#form-submission-algorithm): the submitter's ``formaction`` or the
    form's ``action``, the document's URL when that is empty, else parsed as a WHATWG URL
    against the base URL with the document's encoding (which only the query depends on).
    Parsing and serializing are ada's (``formtools._spec.url``): IDNA (UTS 46), IPv4 and IPv6
    spellings, ports, dot segments, backslashes, percent-encode sets as browsers do them.

    An action that does not parse is no error in a browser: the HTML Standard says the
    submission does nothing ("If parsing failed, return"); Chromium 156 navigates to
    ``about:blank#blocked`` instead (measured, ``action-unparseable``, ``base-invalid``), which
    is followed (raised as :class:`ActionBlocked`). Only a relative action on a page whose URL
    formtools was not given is an error: formtools cannot know the answer."""
    action = (submission_attribute(form_attributes, submitter, "action") or "").strip(_URL_WHITESPACE)
    if action.replace("\t", "").replace("\n", "").replace("\r", "") == "":
        if document_url is None:
            raise UnknownDocumentURL("")
        action, base_url = document_url, None
    if base_url == INVALID_BASE_URL and parse_url(action) is None:
        raise ActionBlocked(action, unresolved=True)  # nothing relative resolves against it
    parsed = parse_url(action, base_url, encoding=encoding)
    if parsed is None:
        if base_url is None and parse_url(action) is None and not _has_scheme(action):
            raise UnknownDocumentURL(action)
        raise ActionBlocked(action)
    if len(parsed.href) > MAX_URL_CHARS:  # Chromium goes to about:blank#blocked instead
        raise ActionBlocked(action)
    return parsed


def _has_scheme(action: str) -> bool:
    """Whether ``action`` starts with a scheme (so that no document URL would make it parse)."""
    return re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", action.replace("\t", "").replace("\n", "").replace("\r", "")) is not None
