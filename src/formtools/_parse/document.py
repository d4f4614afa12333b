"""The parsed page every later stage reads: its tree, its URLs, its encoding and the form owners
only the parser can know (see :mod:`formtools._parse.exact`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Callable, Iterable, Literal, Mapping

import webencodings
from lxml import etree

from formtools._spec.microsyntax import ascii_lowercase
from formtools._spec.referrer import POLICIES
from formtools._spec.url import INVALID_BASE_URL, frozen_base_url
from formtools._spec.url import parse as parse_url

__all__ = [
    "Document",
    "INVALID_BASE_URL",
    "Parser",
    "base_target_of",
    "base_url_of",
    "frame_names_of",
    "referrer_policy_from",
    "referrer_policy_of",
    "resolve_base",
    "sniffed_charset",
]

#: ``"auto"``: the fast exact path where it can vouch for the answer, html5lib elsewhere;
#: ``"html5lib"``: always html5lib (the reference the fast path is tested against).
Parser = Literal["auto", "html5lib"]

_CHARSET_IN_CONTENT_TYPE = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.IGNORECASE)


@dataclass(frozen=True, eq=False)
class Document:
    """A parsed page: the tree, where it came from, and the parser-recorded form owners.

    ``forms_root`` is the tree form extraction reads and ``parser_owners`` maps its control
    elements to the form the parser's form pointer gave them (empty for trees the caller built:
    their owners come from the final tree only). After html5lib it is the whole document. After
    the fast path (:mod:`._fastparse`) it holds only what extraction reads, so ``root``, the whole
    document, is then parsed with html5lib the first time somebody asks for it (``whole``).
    """

    forms_root: etree._Element
    url: str | None = None
    base_url: str | None = None
    encoding: str = "UTF-8"
    source: str = "<string>"
    parser_owners: Mapping[Any, Any] = field(default_factory=lambda: MappingProxyType({}))
    escaped: bool = False
    #: every attribute of the elements with too many for the tree, which holds only the ones
    #: read by name (:data:`formtools._parse.exact.TREE_ATTRIBUTES`): element → its attributes
    #: as the tree would hold them, in order
    many_attributes: Mapping[Any, Mapping[str, str]] = field(default_factory=lambda: MappingProxyType({}))
    whole: Callable[[], etree._Element] | None = field(default=None, repr=False)
    #: the first ``<base target>`` (the default target of the page's forms) and the names of
    #: the page's iframes (a form's ``target`` naming one navigates that frame, not a new window)
    base_target: str | None = None
    frame_names: frozenset[str] = frozenset()
    #: the page's ``<meta name=referrer>`` policy (:func:`referrer_policy_from`), None for none
    referrer_policy: str | None = None

    @cached_property
    def root(self) -> etree._Element:
        """The whole document tree, as html5lib builds it."""
        return self.forms_root if self.whole is None else self.whole()

    def restore(self, text: str) -> str:
        """The page's own characters for a string read from the tree (see :func:`_escape`)."""
        return text.translate(_RESTORE) if self.escaped else text


# lxml refuses characters XML cannot hold (most C0 controls, U+FFFE/U+FFFF, lone surrogates) and
# html5lib's lxml builder turns U+000C into a space. Pages contain them, and they matter (a form
# feed in a label is not a space to the browser), so they are parked in Supplementary Private Use
# Area-A while the tree is built and restored whenever text leaves the tree.
_PARKED = [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF]
_ESCAPE = {code: 0xF0000 + i for i, code in enumerate(_PARKED)}
_RESTORE = {parked: code for code, parked in _ESCAPE.items()}
_NEEDS_ESCAPE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")



def sniffed_charset(content_type: str | None) -> str | None:
    if not content_type:
        return None
    match = _CHARSET_IN_CONTENT_TYPE.search(content_type)
    if match and webencodings.lookup(match.group(1)) is not None:
        return match.group(1)
    return None


def _bases(root: etree._Element) -> Iterable[etree._Element]:
    """The document's ``<base>`` elements in tree order: not those in a template's contents,
    which are inert (#the-base-element: "the first base element with an href attribute in tree
    order" of the *document*; a template's contents belong to another document). Measured in
    Chromium 156 (``fixtures/expected/results.json``, ``base-in-template``, ``base-template-*``).
    A ``<noscript>``'s contents never hold one: the parser runs with scripting on, as a browser's."""
    for base in root.iter("base"):
        if not any(ancestor.tag == "template" for ancestor in base.iterancestors()):
            yield base


def base_url_of(root: etree._Element, url: str | None) -> str | None:
    """The document base URL: the first ``<base href>`` resolved against the document URL
    (:func:`resolve_base`; :data:`INVALID_BASE_URL` when it does not parse)."""
    for base in _bases(root):
        href = base.get("href")
        if href is not None:
            return resolve_base(href, url)
    return url


def base_target_of(root: etree._Element) -> str | None:
    """The first ``<base>`` with a ``target`` attribute gives the document's default target."""
    for base in _bases(root):
        target = base.get("target")
        if target is not None:
            return str(target)
    return None


_LEGACY_REFERRER_POLICIES = MappingProxyType(
    {
        "never": "no-referrer",
        "default": "strict-origin-when-cross-origin",
        "always": "unsafe-url",
        "origin-when-crossorigin": "origin-when-cross-origin",
    }
)
# where a <meta> is no part of the document: a template's inert contents, and noscript, whose
# contents are raw text in a browser (scripting is on)
_INERT = frozenset({"template", "noscript"})


def referrer_policy_from(metas: Iterable[tuple[str, str]]) -> str | None:
    """The document's referrer policy from its ``<meta name content>`` pairs in tree order
    (HTML, #meta-referrer): the content ASCII-lowercased, a legacy keyword mapped, and the last
    one that is a policy token wins. Measured in Chromium 156 (``tests/test_browser_urls.py``):
    a meta anywhere in the document counts (after the form, in the body), the content is not
    trimmed, and a comma-separated list is no policy."""
    policy = None
    for name, content in metas:
        if ascii_lowercase(name) != "referrer" or not content:
            continue
        value = ascii_lowercase(content)
        value = _LEGACY_REFERRER_POLICIES.get(value, value)
        if value in POLICIES:
            policy = value
    return policy


def referrer_policy_of(root: etree._Element) -> str | None:
    """:func:`referrer_policy_from` over the tree's ``<meta>`` elements."""
    return referrer_policy_from(
        (str(meta.get("name") or ""), str(meta.get("content") or ""))
        for meta in root.iter("meta")
        if not any(a.tag in _INERT for a in meta.iterancestors())
    )


def frame_names_of(root: etree._Element) -> frozenset[str]:
    """The names of the document's child navigables (``<iframe name>``, ``<frame name>``; a
    template's contents are inert and have none)."""
    return frozenset(
        element.get("name") or ""
        for element in root.iter("iframe", "frame")
        if element.get("name") and not any(a.tag == "template" for a in element.iterancestors())
    )


def resolve_base(href: str, url: str | None) -> str | None:
    """A ``<base href>`` value resolved against the document URL (#set-the-frozen-base-url), as
    a WHATWG URL (``formtools._spec.url``; as UTF-8, as Chromium parses it).

    Chromium's departure is followed: an ``href`` that does not parse (``http://[bad/``) makes
    Chromium 156's base URL invalid, where the standard falls back to the document's URL. Every
    relative action then fails to parse and the submission ends on ``about:blank#blocked``,
    while absolute actions and an empty one (the document's URL) still submit (measured:
    ``base-invalid*`` in ``fixtures/expected/results.json``). That base is returned as
    :data:`~formtools._spec.url.INVALID_BASE_URL`. Without a document URL (None), a relative
    ``href`` gives None (unknown, as the document URL is), one with a scheme that does not parse
    the invalid base all the same."""
    if parse_url(href, url) is None:
        if url is None and not _has_scheme(href):
            return None  # relative to an unknown URL: unknown (formtools asks for base_url)
        return INVALID_BASE_URL
    return frozen_base_url(href, url)


def _has_scheme(href: str) -> bool:
    """Whether ``href`` starts with a scheme: it fails to parse whatever the document's URL."""
    return re.match(r"[\x00-\x20]*[A-Za-z][A-Za-z0-9+.\-]*:", href) is not None


