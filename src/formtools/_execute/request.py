"""Stage 7 — request: a filled form and its submitter → the HTTP request a browser would send.

#form-submission-algorithm from the point where the entry list exists: method, action and
enctype (the submitter's ``formmethod`` / ``formaction`` / ``formenctype`` first), action URL
resolution against the base URL, GET replacing the query, the POST body per enctype. The result
is an immutable :class:`Request`, usable without sending it.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from formtools._spec.csp import form_action_applies, form_action_blocker
from formtools._spec.referrer import Referrer, potentially_trustworthy
from formtools._spec.limits import MAX_URL_CHARS
from formtools._spec.url import Url, query_from_text
from formtools._execute.encode import Entry, File, multipart, new_boundary, text_plain, urlencode
from formtools._spec.encoding import decode_windows_1252, form_encoding
from formtools._execute.entries import construct_entry_list
from formtools.errors import shown
from formtools._spec.constants import MASK
from formtools._forms.action import ActionBlocked, action_url
from formtools._forms.state import FormState
from formtools._forms.model import Control, submission_attribute, submission_method

__all__ = ["BLOCKED_URL", "Request", "NoRequest", "build_request"]

#: the headers a form submission carries of itself, whose values :meth:`Request.__repr__` shows
_SHOWN_HEADERS = frozenset({"content-type", "origin", "referer"})


@dataclass(frozen=True)
class Request:
    """A request exactly as it would go on the wire: ``body`` is bytes or None. ``referrer``
    says which ``Referer`` and ``Origin`` each redirect hop carries (its policy and state),
    ``page`` which ``SameSite`` cookies."""

    method: str
    url: str
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None
    referrer: Referrer | None = field(default=None, compare=False, repr=False)
    #: the URL of the page the form is on, whose site decides the ``SameSite`` cookies the
    #: request and its redirects carry (``formtools._net.Initiator``); None: no page known
    page: str | None = field(default=None, compare=False, repr=False)
    #: the page's ``form-action`` source lists (:func:`formtools._spec.csp.form_action_lists`),
    #: which every hop a redirect leads to must match too, as Chromium checks them
    form_action: tuple[tuple[str, ...], ...] = field(default=(), compare=False, repr=False)

    def __repr__(self) -> str:
        """What a REPL, an assertion or a ``%r`` log line prints: the URL without user name and
        password, and no value a caller may have put a secret in — a header's but the ones a
        form's own request carries (``Content-Type``, ``Origin``, ``Referer``), the body and the
        URL's query (a form's password is in one of them: a GET form's values are its query),
        each given by its length. :meth:`to_dict` has them all."""
        headers = tuple((n, v if n.lower() in _SHOWN_HEADERS else MASK) for n, v in self.headers)
        body = None if self.body is None else f"<{len(self.body)} bytes>"
        before, question_mark, rest = shown(self.url).partition("?")
        query, hash_mark, fragment = rest.partition("#")
        url = before + (f"?<{len(query)} characters>" if question_mark else "") + hash_mark + fragment
        return f"Request(method={self.method!r}, url={url!r}, headers={headers!r}, body={body})"

    def header(self, name: str) -> str | None:
        lowered = name.lower()
        return next((v for k, v in self.headers if k.lower() == lowered), None)

    def to_dict(self) -> dict[str, Any]:
        """``{"method", "url", "headers", "body"}``; a body that is not UTF-8 is given as
        ``body_base64`` instead of ``body``."""
        data: dict[str, Any] = {"method": self.method, "url": self.url, "headers": dict(self.headers)}
        if self.body is None:
            data["body"] = None
        else:
            try:
                data["body"] = self.body.decode("utf-8")
            except UnicodeDecodeError:
                data["body_base64"] = base64.b64encode(self.body).decode("ascii")
        return data


@dataclass(frozen=True)
class NoRequest:
    """Submitting sends nothing. ``reason`` says why, ``url`` is where the page goes, if anywhere
    (else the action, when there is one). What each does in Chromium 156 is recorded from the
    browser (``fixtures/expected/results.json``):

    - ``dialog``: ``method=dialog`` closes a dialog (``return_value`` is the submitter's value);
    - ``mailto``: a mail client would open;
    - ``about``: the page navigates to ``about:blank`` (scheme ASCII case-insensitive, path
      exactly ``blank``, any query or fragment), an empty document: Chromium completes the call
      with ``[]``. A GET replaces the URL's query as for any action (``about:blank?q=x``);
    - ``navigation-blocked``: Chromium navigates the page to ``about:blank#blocked`` instead of
      the action, and completes the call with ``[]``: an action that does not parse (also a
      relative one against a ``<base href>`` that does not parse) and an ``about:`` URL other
      than ``about:blank`` and ``about:srcdoc`` (``about:BLANK`` too: the path is
      case-sensitive), and a URL longer than Chromium goes to
      (:data:`~formtools._spec.limits.MAX_URL_CHARS`: the action, or a GET's URL its values
      made longer). ``action`` is the action as written;
    - ``unresolved``: a relative action with ``method=post`` against a ``<base href>`` that does
      not parse: Chromium does nothing (a GET ends on ``about:blank#blocked``); the call never
      completes;
    - ``error-page``: the navigation fails and the page shows Chromium's error page
      (``chrome-error://chromewebdata/``): ``about:srcdoc`` on a top-level page, ``ws:`` and
      ``wss:`` (Chromium starts the navigation, no server is asked); the call never completes;
    - ``javascript``: the action runs a script; formtools runs none (Chromium's page API resolves
      ``null``; an agent's call through DevTools never completes);
    - ``blocked``: another scheme (``data:``, ``ftp:``, ``blob:``, ``file:`` from a page that is
      not a ``file:`` one …) that Chromium does not navigate a page to from a form: nothing
      happens and the call never completes for the agent;
    - ``mixed-content``: an https page's form targets an insecure endpoint (http on a host that
      is not potentially trustworthy): Chromium submits nothing and the call gives ``null``;
    - ``sandboxed``: the page's ``Content-Security-Policy`` sandboxes it without ``allow-forms``
      (HTML's "sandboxed forms browsing context flag", checked before any other step of form
      submission): Chromium submits nothing and the call never completes (measured);
    - ``form-action``: a ``form-action`` directive of the page's ``Content-Security-Policy``
      (``policy``: the directive as written there; header or ``<meta>`` in its head) does not
      allow the action: Chromium submits nothing and the call never completes (measured).
    """

    reason: str
    url: str | None = None
    return_value: str | None = None
    action: str | None = None
    policy: str | None = None


#: where Chromium sends a navigation it refuses (an unparseable URL, an ``about:`` URL it does
#: not load): ``about:blank`` with this fragment, an empty document of the page's origin
BLOCKED_URL = "about:blank#blocked"


def _enctype(form_attributes: Mapping[str, str], submitter: Control | None) -> str:
    lowered = (submission_attribute(form_attributes, submitter, "enctype") or "").lower()
    if lowered in ("multipart/form-data", "text/plain"):
        return lowered
    return "application/x-www-form-urlencoded"


def _serialized_as(form_attributes: Mapping[str, str], enctype: str) -> str:
    """The enctype a submission's entry list is serialized in when it is not multipart.

    Chromium 156 (``FormSubmission::Create``) chooses it by the form's *own* method, not the
    submission's: a form whose ``method`` is GET serializes its entries urlencoded, so a
    submitter's ``formmethod=post`` with text/plain (the form's ``enctype`` or the submitter's
    ``formenctype``) sends an urlencoded body under ``Content-Type: text/plain``; and a POST (or
    dialog) form's text/plain entries, submitted with ``formmethod=get``, become the query as
    they are (:func:`_query`). The HTML Standard has one enctype for both; this is what the
    browser sends (measured, tests/test_browser_engines_corpus.py)."""
    if enctype == "text/plain" and submission_method(form_attributes, None) == "get":
        return "application/x-www-form-urlencoded"
    return enctype


def _query(entries: Sequence[Entry], encoding: str, serialized_as: str) -> str:
    """A GET submission's query: urlencoded, or for a text/plain entry list (see
    :func:`_serialized_as`) its bytes read back as windows-1252 and set as the URL's query
    (``EncodedFormData::FlattenToString``, ``KURL::SetQuery``): ``name=value`` pairs run
    together, as the query drops the CRLF after each."""
    if serialized_as == "text/plain":
        return query_from_text(decode_windows_1252(text_plain(entries, encoding)))
    return urlencode(entries, encoding)


def _about(parsed: Url) -> str:
    """What Chromium 156 does with an ``about:`` action: ``blank`` for ``about:blank`` (any
    query and fragment; "matches about:blank" in the HTML Standard), ``srcdoc`` for
    ``about:srcdoc`` (a top-level page cannot load it: an error page), ``blocked`` for any other
    (``about:BLANK``, ``about:version``: Chromium blocks a page's navigation to them)."""
    path = parsed.pathname
    if parsed.username or parsed.password or parsed.host:
        return "blocked"
    return {"blank": "blank", "srcdoc": "srcdoc"}.get(path, "blocked")


def build_request(
    state: FormState,
    submitter: Control | None,
    *,
    document_url: str | None,
    base_url: str | None,
    document_encoding: str = "UTF-8",
    boundary: str | None = None,
    files: Mapping[str, Sequence[File]] | None = None,
    image_coordinates: tuple[int, int] = (0, 0),
    masked: Mapping[str, str] | None = None,
    referrer_policy: str | None = None,
    forms_sandboxed: bool = False,
    form_action: Sequence[tuple[str, ...]] = (),
) -> Request | NoRequest:
    """The request submitting ``state``'s form with ``submitter`` makes (validation is the
    caller's business: it happens before this stage). ``referrer_policy`` is the document's
    (``<meta name=referrer>``; None: the default), which decides ``Referer`` and ``Origin``;
    ``forms_sandboxed``: its ``Content-Security-Policy`` sandboxes it without ``allow-forms``;
    ``form_action``: its policies' ``form-action`` source lists (each must allow the action).

    ``masked`` (entry name → stand-in) builds the request as it may be shown instead: the
    same bytes but for those entries' values, which hold secrets."""
    if forms_sandboxed:  # the page's policy: no form of it submits, method=dialog neither
        return NoRequest("sandboxed")
    form = state.form.attributes
    method = submission_method(form, submitter)
    if method == "dialog":
        value = None
        if submitter is not None:
            value = "%d,%d" % image_coordinates if submitter.type == "image" else submitter.attributes.get("value", "")
        return NoRequest("dialog", return_value=value)
    try:
        parsed = action_url(form, submitter, document_url, base_url or document_url, document_encoding)
    except ActionBlocked as blocked:
        if blocked.unresolved and method == "post":
            # measured: a relative action against an invalid base URL ends on
            # about:blank#blocked for a GET, while a POST does nothing at all
            return NoRequest("unresolved", action=blocked.action)
        return NoRequest("navigation-blocked", url=BLOCKED_URL, action=blocked.action)
    referrer = Referrer.of(document_url, referrer_policy) if document_url else None
    action = parsed.href
    scheme = parsed.scheme
    if scheme == "javascript":
        return NoRequest("javascript", url=action)
    encoding = form_encoding(form.get("accept-charset"), document_encoding)
    entries = construct_entry_list(
        state, submitter, encoding=encoding, image_coordinates=image_coordinates, files=files
    )
    if masked:
        entries = tuple((name, masked.get(name, value)) for name, value in entries)
    enctype = _enctype(form, submitter)
    serialized_as = _serialized_as(form, enctype)
    if scheme == "mailto":
        return NoRequest("mailto", url=action)
    if scheme == "about":
        kind = _about(parsed)
        if kind == "blank":  # Chromium replaces the query of a GET, as for any other URL
            landing = parsed.with_query(_query(entries, encoding, serialized_as)).href if method == "get" else action
            return NoRequest("about", url=landing, action=action)
        if kind == "srcdoc":
            return NoRequest("error-page", url=action, action=action)
        return NoRequest("navigation-blocked", url=BLOCKED_URL, action=action)
    if scheme in ("ws", "wss"):
        # Chromium navigates to the URL (a GET's query replaced) and fails: an error page
        sent = parsed.with_query(_query(entries, encoding, serialized_as)).href if method == "get" else action
        return NoRequest("error-page", url=sent, action=action)
    if not form_action_applies(document_url, action):
        # another scheme, or a file: URL from a page that is not a file: one (Chromium: "Not
        # allowed to load local resource"; measured: nothing happens, executeTool resolves
        # null); what is left is what the page's form-action decides, as lint reads it
        return NoRequest("blocked", url=action)
    policies = tuple(tuple(sources) for sources in form_action)
    blocker = form_action_blocker(policies, document_url, action)
    if blocker is not None:
        return NoRequest("form-action", url=action, policy=blocker)
    if referrer is not None and referrer.origin.startswith("https:") and not potentially_trustworthy(parsed):
        return NoRequest("mixed-content", url=action)
    if method == "get":
        # the query is replaced, even by an empty one ("/path?"), the fragment kept
        sent = parsed.with_query(_query(entries, encoding, serialized_as)).href
        if len(sent) > MAX_URL_CHARS:  # the values made it longer than Chromium goes to
            return NoRequest("navigation-blocked", url=BLOCKED_URL, action=action)
        return Request("GET", sent, _headers(referrer, "GET", sent), referrer=referrer, page=document_url, form_action=policies)
    if enctype == "multipart/form-data":
        boundary = boundary or new_boundary()
        body = multipart(entries, encoding, boundary)
        content_type = f"multipart/form-data; boundary={boundary}"
    elif enctype == "text/plain":
        body = text_plain(entries, encoding) if serialized_as == enctype else urlencode(entries, encoding).encode("ascii")
        content_type = "text/plain"
    else:
        body = urlencode(entries, encoding).encode("ascii")
        content_type = "application/x-www-form-urlencoded"
    headers = (("Content-Type", content_type), *_headers(referrer, "POST", action))
    return Request("POST", action, headers, body, referrer=referrer, page=document_url, form_action=policies)


def _headers(referrer: Referrer | None, method: str, url: str) -> tuple[tuple[str, str], ...]:
    return referrer.headers(method, url) if referrer is not None else ()
