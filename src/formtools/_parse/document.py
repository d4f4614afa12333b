"""The parsed page every later stage reads: its tree, its URLs, its encoding and the form owners
only the parser can know (see :mod:`formtools._parse.exact`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from collections.abc import Hashable, Iterable
from typing import Any, Callable, Generic, Literal, Mapping, TypeVar

from lxml import etree

from formtools._spec.microsyntax import ascii_lowercase
from formtools._spec.referrer import POLICIES
from formtools._spec.url import INVALID_BASE_URL, frozen_base_url
from formtools._spec.url import parse as parse_url
from formtools.errors import UsageProblem, shown

__all__ = [
    "AncestorFacts",
    "Document",
    "INVALID_BASE_URL",
    "NAVIGABLE_TAGS",
    "Parser",
    "base_target_of",
    "base_url_of",
    "frame_names_of",
    "hides_navigables",
    "navigable_name",
    "meta_policies_of",
    "referrer_policy_from",
    "referrer_policy_of",
    "is_tree",
    "require_url",
    "resolve_base",
]

def is_tree(value: object) -> bool:
    """Whether ``value`` is a tree :func:`~formtools.from_tree` reads: lxml's or BeautifulSoup's."""
    return type(value).__module__.startswith("bs4") or isinstance(value, (etree._ElementTree, etree._Element))


def require_url(url: object) -> None:
    """Refuse a page URL that is no string: a ``base_url`` of bytes or a number was kept in the
    document and raised TypeError from the URL parser, here or at the first call's action."""
    if url is not None and not isinstance(url, str):
        raise UsageProblem(f"a page's URL (base_url, url) is a str, not {type(url).__name__}")


#: ``"auto"``: the fast exact path where it can vouch for the answer, html5lib elsewhere;
#: ``"html5lib"``: always html5lib (the reference the fast path is tested against).
Parser = Literal["auto", "html5lib"]

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
    #: the bytes name no encoding (no BOM, header charset, ``<meta>`` or XML declaration) and are
    #: not all ASCII: Chromium then guesses the encoding from the text with its detector, which
    #: formtools does not reproduce, and formtools' windows-1252 may be wrong (:mod:`.charset`)
    encoding_guessed: bool = False
    source: str = "<string>"
    parser_owners: Mapping[Any, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: elements of ``parser_owners`` whose form lists them only if ``form=`` names it too
    #: (:func:`formtools._parse.exact.parser_unlisted`); empty after the fast path, which leaves
    #: pages that deep to html5lib
    parser_unlisted: frozenset[Any] = frozenset()
    escaped: bool = False
    #: every attribute of the elements with too many for the tree, which holds only the ones
    #: read by name (:data:`formtools._parse.exact.TREE_ATTRIBUTES`): element → its attributes
    #: as the tree would hold them, in order
    many_attributes: Mapping[Any, Mapping[str, str]] = field(default_factory=lambda: MappingProxyType({}))
    whole: Callable[[], etree._Element] | None = field(default=None, repr=False)
    #: the source line of each form and form-associated element (the line its start tag's
    #: ``>`` is on, as html5lib counts): lxml's own ``sourceline`` holds no more than 65,535,
    #: and a page with a form further down failed with an OverflowError. Elements of a tree
    #: the caller built are not in it; their ``sourceline`` is used.
    lines: Mapping[Any, int] = field(default_factory=lambda: MappingProxyType({}))
    #: the first ``<base target>`` (the default target of the page's forms) and the names of
    #: the page's child navigables (iframes, frames, objects and embeds showing a document:
    #: :func:`navigable_name`; a form's ``target`` naming one navigates it, not a new window)
    base_target: str | None = None
    frame_names: frozenset[str] = frozenset()
    #: the page's ``<meta name=referrer>`` policy (:func:`referrer_policy_from`), None for none
    referrer_policy: str | None = None
    #: a fetched page's ``Content-Security-Policy`` header lines (its ``sandbox`` decides
    #: whether its forms submit: ``formtools._spec.csp``)
    security_policies: tuple[str, ...] = ()
    #: the contents of its ``<meta http-equiv=content-security-policy>`` elements in ``<head>``
    #: (:func:`is_head_policy`), which enforce their ``form-action`` as a header's does
    meta_policies: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """The page's name, URLs (without user name and password: a page loaded from
        ``http://user:password@host/`` keeps them in ``url``, for its forms' requests to send)
        and encoding; the tree is not printed."""
        return (
            f"Document(source={shown(self.source)!r}, url={shown(self.url) if self.url else None!r}, "
            f"base_url={shown(self.base_url) if self.base_url else None!r}, encoding={self.encoding!r})"
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Document:
        """Itself: a document is a value nothing changes. A deep copy copied the tree element by
        element (lxml copies ignore the memo), so the elements ``parser_owners``, ``lines`` and
        ``many_attributes`` are keyed by were no longer in it: the copy's forms lost their
        parser-given controls and lines, and a deep-copied Extraction its page."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError(
            "a formtools Document holds its parsed tree and cannot be pickled: pickle its tools "
            "(or an Extraction's tools), or the page's markup to parse again"
        )

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

# Names lxml holds as they are (html5lib's own coercion still rewrites a ":"); any other tag or
# attribute name is rewritten by xml_safe_name, on both parse paths alike, since html5lib's
# coercion misses characters beyond the BMP (lxml then refuses the name) and the two paths must
# give an element the same attribute names. Such names belong to attributes no form rule reads.
PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]*")


def xml_safe_name(name: str) -> str:
    """``name`` (not a :data:`PLAIN_NAME`) as an XML name: each character but ASCII letters,
    digits, ``_``, ``.`` and ``-`` as ``U`` and its six hex digits, after an ``x`` where the
    result would not start as a name must."""
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "_.-") else f"U{ord(c):06X}" for c in name)
    return safe if safe[:1].isalpha() or safe[:1] == "_" else "x" + safe



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


def is_head_policy(http_equiv: str, inside_head: bool, inert: bool) -> bool:
    """Whether a ``<meta http-equiv>`` is a ``Content-Security-Policy`` the page enforces: its
    ``http-equiv`` that name in any ASCII case, and the element in the document's ``<head>``
    (Chromium 156 ignores one outside it, in the body or a template: HTML's "the element is a
    descendant of a head element", measured by tests/test_browser_csp.py)."""
    return ascii_lowercase(http_equiv) == "content-security-policy" and inside_head and not inert


def meta_policies_of(root: etree._Element) -> tuple[str, ...]:
    """The contents of the tree's ``<meta>`` elements that are policies (:func:`is_head_policy`)."""
    return tuple(
        str(meta.get("content") or "")
        for meta in root.iter("meta")
        if is_head_policy(
            str(meta.get("http-equiv") or ""),
            any(a.tag == "head" for a in meta.iterancestors()),
            any(a.tag in _INERT for a in meta.iterancestors()),
        )
    )


#: the elements whose child navigable a form's ``target`` can name
NAVIGABLE_TAGS = ("iframe", "frame", "object", "embed")
# the types Chromium 156 shows in an <object>/<embed>'s child navigable (an image or a plugin type
# it has no plugin for is not one): measured text/html and application/pdf in, image/png and
# application/x-shockwave-flash out; the other document types as Blink's MIME registry has them
_DOCUMENT_TYPES = frozenset({"application/xhtml+xml", "application/xml", "application/json",
                             "application/javascript", "application/pdf"})  # fmt: skip


def _document_type(type_: str) -> bool:
    kind = ascii_lowercase(type_.partition(";")[0].strip(" \t\n\f\r"))
    return (
        kind.startswith("text/")
        or kind in _DOCUMENT_TYPES
        or (kind.endswith("+xml") and not kind.startswith("image/"))
    )


def shows_content(tag: str, attribute: Callable[[str], str | None]) -> bool:
    """Whether an ``<object>``/``<embed>`` (``attribute``: its attribute by name, None when
    absent) shows a resource in a child navigable, so that an ``<object>``'s fallback content is
    not rendered. Measured in Chromium 156 (``target-object*``/``target-embed*`` cases of
    ``fixtures/expected/results.json``): a non-empty ``data`` (``src``) or ``type`` does, unless
    the type is not a document's (an image, a plugin's); a ``hidden`` ``<object>`` has no child
    navigable (an ``<embed>`` keeps it). What the resource turns out to be is not known without
    fetching it: one that fails to load or is an image has none in Chromium, here it has one."""
    source = attribute("data" if tag == "object" else "src") or ""
    type_ = attribute("type") or ""
    if not (source or type_) or (type_ and not _document_type(type_)):
        return False
    return not (tag == "object" and attribute("hidden") is not None)


def navigable_name(tag: str, attribute: Callable[[str], str | None]) -> str:
    """The name a form's ``target`` finds this element's child navigable by (#valid-navigable-
    target-name-or-keyword; ``""``: it has none): an ``<iframe>``'s or ``<frame>``'s ``name``, an
    ``<object>``'s or ``<embed>``'s when it :func:`shows_content`; unless an ancestor
    :func:`hides_navigables`."""
    name = attribute("name") or ""
    if not name or tag not in NAVIGABLE_TAGS:
        return ""
    if tag in ("object", "embed") and not shows_content(tag, attribute):
        return ""
    return name


def hides_navigables(tag: str, attribute: Callable[[str], str | None]) -> bool | None:
    """Whether an element hides the child navigables below it (a test for
    :meth:`AncestorFacts.below`): a template's contents are inert, an ``<object>`` that shows
    its own content does not show its fallback content; None: it does not say."""
    return True if tag == "template" or (tag == "object" and shows_content("object", attribute)) else None


N = TypeVar("N")


class AncestorFacts(Generic[N]):
    """Facts about the ancestors of a tree's elements, each element's decided once.

    The elements a page asks about (metas, frames, templates, the elements a skeleton copies)
    share most of their ancestors; walking up to the root from each one costs the depth, which
    thousands of them deep in a page made quadratic. Here each element is looked at once per
    fact, whatever the number of elements below it that ask."""

    def __init__(self, parent: Callable[[N], N | None], key: Callable[[N], Hashable]) -> None:
        self._parent = parent
        self._key = key
        self._known: dict[tuple[Hashable, Hashable], bool] = {}
        self._highest: dict[tuple[Hashable, Hashable], N | None] = {}
        self._nearest: dict[tuple[Hashable, Hashable], N | None] = {}

    def below(self, node: N, fact: Hashable, test: Callable[[N], bool | None]) -> bool:
        """Walking up from ``node``'s parent, the first answer ``test`` gives (None: go on
        up), False past the root. ``fact`` names the test: answers are remembered by it."""
        known = self._known
        walked = []
        answer = False
        element = self._parent(node)
        while element is not None:
            key = (fact, self._key(element))
            remembered = known.get(key)
            if remembered is not None:
                answer = remembered
                break
            walked.append(key)
            said = test(element)
            if said is not None:
                answer = said
                break
            element = self._parent(element)
        for key in walked:
            known[key] = answer
        return answer

    def nearest(self, node: N, fact: Hashable, test: Callable[[N], bool]) -> N | None:
        """The nearest ancestor of ``node`` that passes ``test`` (None: none does)."""
        nearest = self._nearest
        walked = []
        answer: N | None = None
        element = self._parent(node)
        while element is not None:
            key = (fact, self._key(element))
            if key in nearest:
                answer = nearest[key]
                break
            walked.append(key)
            if test(element):
                answer = element
                break
            element = self._parent(element)
        for key in walked:
            nearest[key] = answer  # (the one at or above each element walked)
        return answer

    def outermost(self, node: N, fact: Hashable, test: Callable[[N], bool]) -> N | None:
        """The outermost ancestor of ``node`` that passes ``test`` (None: none does)."""
        highest = self._highest
        walked = []
        answer: N | None = None
        element = self._parent(node)
        while element is not None:
            key = (fact, self._key(element))
            if key in highest:
                answer = highest[key]
                break
            walked.append((key, element))
            element = self._parent(element)
        for key, element in reversed(walked):  # from the outermost down
            if answer is None and test(element):
                answer = element
            highest[key] = answer
        return answer


def frame_names_of(root: etree._Element) -> frozenset[str]:
    """The names of the document's child navigables (:func:`navigable_name`)."""
    # (an lxml element is its own key: the dict keeps it alive, so lxml gives back that object)
    facts: AncestorFacts[etree._Element] = AncestorFacts(lambda e: e.getparent(), lambda e: e)
    names = set()
    for element in root.iter(*NAVIGABLE_TAGS):
        name = navigable_name(str(element.tag), element.get)
        if name and not facts.below(element, "hides", lambda a: hides_navigables(str(a.tag), a.get)):
            names.add(name)
    return frozenset(names)


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


