"""URLs as the URL Standard (https://url.spec.whatwg.org/) and a browser read them.

Form actions, ``formaction``, ``<base href>``, document URLs and redirect targets are WHATWG
URLs, not RFC 3986 ones: ``urllib.parse`` keeps ``:80`` on http, maps ``faß.de`` to ``fass.de``
(IDNA 2003), leaves ``0x7f.1`` and ``[::ffff:127.0.0.1]`` as written, reads a backslash as a
path character and refuses ``example.com:/x``. Parsing and serializing are done by ada
(https://github.com/ada-url/ada, the ``ada-url`` package), a maintained implementation of the
standard that passes every case of the web-platform-tests' URL data (``tests/test_url.py`` runs
them all: ``urltestdata.json``, ``toascii.json``, ``IdnaTestV2.json``).

One step is written here, because ada cannot do it: the URL parser's *encoding* argument. HTML
parses a form's action, ``formaction`` and links with the document's character encoding
("encoding-parsing a URL"), and for an http(s), ftp or file URL the parser then percent-encodes
the *query* as bytes of that encoding (#query-state: "percent-encode after encoding"), where ada
always uses UTF-8. :func:`encode_query` is that step and :func:`parse` applies it; the encoder is
the project's own :func:`~formtools._spec.encoding.encode_text`, which is Chromium's, byte for
byte, in the 37 encodings a page can submit in. Nothing else about a URL depends on the encoding:
the path, the fragment and the userinfo are UTF-8 in every document.

Where Chromium 156 departs from the standard in that step, :func:`parse` and
:func:`frozen_base_url` do what Chromium does unless given ``standard=True`` (as
:func:`~formtools._spec.encoding.form_encoding` does); each departure was measured in the browser
and is listed in the function's documentation. Where Chromium's *parser* departs from the
standard (file URLs, hosts with spaces, non-special URLs: 167 of the 891 cases of
``urltestdata.json``), formtools follows the standard, and
``tests/data/url/chromium-departures.json`` records each case as Chromium parses it.

Strings given to :func:`parse` are JavaScript strings to the browser: a lone surrogate becomes
U+FFFD before parsing (WebIDL ``USVString``), as in ``new URL()`` and in attribute values.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

import ada_url

from formtools._spec.encoding import encode_text, encoding_name

__all__ = [
    "Url",
    "parse",
    "resolve",
    "can_parse",
    "is_special",
    "default_port",
    "parse_host",
    "encode_query",
    "frozen_base_url",
    "same_origin",
    "same_origin_urls",
]

# #special-scheme, with each scheme's default port (file has none).
_SPECIAL_SCHEMES: dict[str, int | None] = {
    "ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443,
}  # fmt: skip

# What the URL parser removes before it starts (#concept-basic-url-parser, steps 1–3): leading
# and trailing C0 controls and spaces, then every ASCII tab or newline.
_C0_CONTROL_OR_SPACE = "".join(map(chr, range(0x21)))
_TAB_OR_NEWLINE = re.compile("[\t\n\r]")
_SURROGATE = re.compile("[\ud800-\udfff]")

# #special-query-percent-encode-set, as bytes: C0 controls, space, " # < > ', and every byte
# above 0x7E (the bytes of a non-ASCII character in the document's encoding).
_SPECIAL_QUERY_SET = frozenset(b" \"#<>'") | frozenset(range(0x21)) | frozenset(range(0x7F, 0x100))
# The "html" error mode's character reference, as encode_text writes it (&#NNNN;).
_REFERENCE = re.compile(rb"&#([0-9]+);")
# ISO-2022-JP's escape sequences (#iso-2022-jp-encoder): ESC ( B, ESC ( J, ESC $ B.
_ISO_2022_JP_ESCAPE = re.compile(rb"\x1b(?:\(B|\(J|\$B)")


def _usv(text: str) -> str:
    """#javascript-string-convert: a surrogate pair is one code point, a lone surrogate U+FFFD."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


@dataclass(frozen=True, slots=True)
class Url:
    """A parsed URL, by the getters of the URL Standard's ``URL`` class (#urlutils-members).

    ``protocol`` ends in ``:``; ``host`` is ``hostname`` with ``:port`` when the port is not the
    scheme's default; ``port`` is ``""`` for the default port or none; ``search`` and ``hash``
    are ``""`` or start with ``?`` / ``#`` (``""`` also for an empty query or fragment: see
    :attr:`query` and :attr:`fragment`); ``origin`` is ``"null"`` for an opaque origin.

    >>> url = parse("HTTP://Example.COM:80/a/../b?q=1#top")
    >>> url.href, url.host, url.pathname, url.search, url.origin
    ('http://example.com/b?q=1#top', 'example.com', '/b', '?q=1', 'http://example.com')
    """

    href: str
    protocol: str
    username: str
    password: str
    host: str
    hostname: str
    port: str
    pathname: str
    search: str
    hash: str
    origin: str

    def __str__(self) -> str:
        return self.href

    @property
    def scheme(self) -> str:
        """The scheme, lowercase, without the colon: ``https``, ``mailto``, ``javascript``."""
        return self.protocol[:-1]

    @property
    def is_special(self) -> bool:
        """#is-special: http, https, ws, wss, ftp or file."""
        return self.scheme in _SPECIAL_SCHEMES

    @property
    def query(self) -> str | None:
        """The URL's query without ``?``; ``None`` when it has none, ``""`` for a bare ``?``."""
        before_fragment = self.href.partition("#")[0]
        # No "?" can come before the query's: the userinfo, host and path percent-encode it.
        before, question_mark, query = before_fragment.partition("?")
        return query if question_mark else None

    @property
    def fragment(self) -> str | None:
        """The fragment without ``#``; ``None`` when there is none, ``""`` for a bare ``#``."""
        # No "#" can come before the fragment's: every other component percent-encodes it.
        _, number_sign, fragment = self.href.partition("#")
        return fragment if number_sign else None

    @property
    def port_number(self) -> int | None:
        """The port a connection goes to: the URL's own, else the scheme's default (None for
        a scheme without one, such as file or mailto)."""
        return int(self.port) if self.port else default_port(self.scheme)

    @property
    def href_without_fragment(self) -> str:
        """The serialization with *exclude fragment* set (#concept-url-serializer), as in a
        ``Referer`` header or a request's URL on the wire."""
        return self.href.partition("#")[0]

    def with_query(self, query: str | None) -> Url:
        """This URL with its query component set to ``query`` as it is (already percent-encoded;
        ``None`` removes it, ``""`` leaves a bare ``?``), the fragment kept.

        This is HTML's "set parsed action's query component to query" (#submit-mutate-action),
        which assigns the component; the ``search`` setter would re-encode it and drop an empty
        query.

        >>> parse("https://a.example/find?old=1#top").with_query("q=a+b").href
        'https://a.example/find?q=a+b#top'
        """
        before_fragment, number_sign, fragment = self.href.partition("#")
        prefix = before_fragment.partition("?")[0]
        question_mark = "" if query is None else "?"
        href = f"{prefix}{question_mark}{query or ''}{number_sign}{fragment}"
        return replace(self, href=href, search=f"?{query}" if query else "")


def _from_ada(url: ada_url.URL) -> Url:
    return Url(
        href=url.href,
        protocol=url.protocol,
        username=url.username,
        password=url.password,
        host=url.host,
        hostname=url.hostname,
        port=url.port,
        pathname=url.pathname,
        search=url.search,
        hash=url.hash,
        origin=url.origin,
    )


def _parse_utf8(url: str, base: str | None) -> Url | None:
    try:
        parsed = ada_url.URL(_usv(url), None if base is None else _usv(base))
    except ValueError:
        return None
    return _from_ada(parsed)


def _own_query(url: str) -> str | None:
    """The query text ``url`` itself spells, as the URL parser's query state reads it (``None``
    when the query, if any, comes from the base URL).

    After the parser's stripping, the first ``?`` that no ``#`` precedes always starts the query,
    in every state of a special URL: the scheme, authority, host, port and path states end at it,
    and no earlier component can hold a literal one.
    """
    stripped = _TAB_OR_NEWLINE.sub("", url.strip(_C0_CONTROL_OR_SPACE))
    before_fragment = stripped.partition("#")[0]
    _, question_mark, query = before_fragment.partition("?")
    return query if question_mark else None


def _has_opaque_path(url: Url) -> bool:
    """#url-opaque-path: ``mailto:x``, ``data:,x``, ``javascript:x``, ``about:blank`` (a URL
    with a list path serializes ``//`` and a host, or a path that starts with ``/``)."""
    return not url.is_special and not url.href[len(url.protocol) :].startswith("/")


def parse(
    url: str, base: str | Url | None = None, *, encoding: str = "UTF-8", standard: bool = False
) -> Url | None:
    """The URL parser (#concept-url-parser) on ``url`` against ``base``; None for failure.

    ``base`` is a URL's serialization (or a parsed :class:`Url`); ``encoding`` is any label of the
    document's character encoding, which only the query depends on (HTML's "encoding-parsing a
    URL": form actions, ``formaction``, links). ``url`` is taken as the attribute value it is:
    the parser itself strips leading and trailing C0 controls and spaces and removes tabs and
    newlines.

    >>> parse("http://faß.de:0443/%7e/./x\\\\y").href
    'http://xn--fa-hia.de:443/%7e/x/y'
    >>> parse("?q=é", "http://example.com/form", encoding="windows-1252").href
    'http://example.com/form?q=%E9'
    >>> parse("http://[::1", None) is None
    True

    The query is written as Chromium 156 writes it, which departs from the standard's text in
    two ways (``standard=True`` gives the standard's reading):

    - the document's encoding applies to the query of every URL without an opaque path, not only
      to http(s), ftp and file ones (``ws://h/?é``, ``foo://h/?é`` too), and opaque-path URLs
      (``mailto:``, ``javascript:``, ``data:`` …) keep UTF-8;
    - ``'`` is percent-encoded in every query, not only in a special URL's;
    - ``|`` is percent-encoded in a special URL's path (measured on form submissions).

    Measured by ``tests/test_url.py`` (``<a href>`` in all 37 encodings). Everything else is
    the standard's, as ada implements it; where Chromium's parser departs from that is recorded
    in ``tests/data/url/chromium-departures.json``.
    """
    base_href = base.href if isinstance(base, Url) else base
    if len(url) + len(base_href or "") > _KEPT_LENGTH:
        return _parse(url, base_href, encoding, standard)
    return _KEPT.parse(url, base_href, encoding, standard)


# A call parses the same few URLs several times (the action, the page's URL for Referer and
# Origin, each redirect's): the recent answers are kept (Url is frozen), those of URLs of ordinary
# length only, so the cache's memory stays bounded whatever a page holds.
_KEPT_LENGTH = 2048
_KEPT_URLS = 1024


class _Kept:
    """The last :data:`_KEPT_URLS` answers of :func:`_parse` (to questions of at most
    :data:`_KEPT_LENGTH` characters) whose ``href`` is at most as long. The answer is measured
    too: it can be 15 times its question (a non-ASCII character of a windows-1252 query is
    written ``%26%23128512%3B``), and 1,024 answers kept by their question's length alone held
    71 MB."""

    def __init__(self) -> None:
        self._answers: OrderedDict[tuple[str, str | None, str, bool], Url | None] = OrderedDict()
        self._lock = threading.Lock()

    def parse(self, url: str, base_href: str | None, encoding: str, standard: bool) -> Url | None:
        question = (url, base_href, encoding, standard)
        with self._lock:
            if question in self._answers:
                self._answers.move_to_end(question)
                return self._answers[question]
        answer = _parse(url, base_href, encoding, standard)
        if answer is None or len(answer.href) <= _KEPT_LENGTH:
            with self._lock:
                self._answers[question] = answer
                if len(self._answers) > _KEPT_URLS:
                    self._answers.popitem(last=False)
        return answer

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()

    def __len__(self) -> int:
        return len(self._answers)


def _parse(url: str, base_href: str | None, encoding: str, standard: bool) -> Url | None:
    parsed = _parse_utf8(url, base_href)
    if parsed is None:
        return None
    if not standard and parsed.is_special and "|" in parsed.pathname:
        parsed = _chromium_path(parsed)
    # #get-an-output-encoding: a UTF-16 or replacement document's URLs are UTF-8.
    name = encoding_name(encoding)
    if name in ("UTF-16BE", "UTF-16LE", "replacement"):
        name = "UTF-8"
    if standard:
        # #concept-basic-url-parser: "If url is not special or url's scheme is "ws" or "wss",
        # then set encoding to UTF-8" (and then ada's UTF-8 query is the parser's).
        if name == "UTF-8" or not parsed.is_special or parsed.scheme in ("ws", "wss"):
            return parsed
    elif name == "UTF-8" and parsed.is_special:
        return parsed  # ada's query is Chromium's
    query = _own_query(_usv(url))
    if query is None:
        return parsed  # no query, or the base URL's (already encoded when the base was parsed)
    if _has_opaque_path(parsed):
        name = "UTF-8"
    return parsed.with_query(encode_query(query, name))


_KEPT = _Kept()


def _chromium_path(url: Url) -> Url:
    """Chromium 156 percent-encodes ``|`` in a special URL's path, which the standard's path
    percent-encode set leaves alone (measured: an action ``/p|q`` is requested as ``/p%7Cq``;
    ``tests/test_browser_urls.py``)."""
    start = url.href.find(url.pathname, url.href.find("//") + 2 + len(url.host))
    if start < 0:
        return url
    path = url.pathname.replace("|", "%7C")
    href = url.href[:start] + path + url.href[start + len(url.pathname) :]
    return replace(url, href=href, pathname=path)


def encode_query(query: str, encoding: str) -> str:
    """A query as the query state writes it in ``encoding`` (#query-state: "percent-encode
    after encoding" with the special-query percent-encode set, which Chromium uses for every
    URL's query).

    Characters are encoded in ``encoding``; a character the encoding lacks becomes
    ``%26%23NNNN%3B`` (its decimal character reference ``&#NNNN;``, percent-encoded whole), then
    every byte in the set (controls, space, ``"``, ``#``, ``<``, ``>``, ``'`` and all above 0x7E)
    is percent-encoded.

    >>> encode_query("q=é&x=€ ☃", "windows-1252")
    'q=%E9&x=%80%20%26%239731%3B'

    This is the one step of URL parsing written here rather than taken from ada, which encodes
    every query as UTF-8 (the standard's behaviour for a UTF-8 document only). ``query`` is the
    text the parser reads as a query, so it holds no ``#`` (which ends it): one raises
    ValueError, as it would make ``&#NNNN;`` in the text indistinguishable from a reference.
    """
    if "#" in query:
        raise ValueError(f"a query holds no '#': {query!r}")
    data = encode_text(query, encoding)
    stateful = encoding_name(encoding) == "ISO-2022-JP"
    out: list[str] = []
    jis0208 = False  # in ISO-2022-JP's two-byte state, "&#" are halves of a character
    position = 0
    while position < len(data):
        if stateful and (escape := _ISO_2022_JP_ESCAPE.match(data, position)):
            jis0208 = escape.group() == b"\x1b$B"
            out.append("%1B" + escape.group()[1:].decode("ascii"))
            position = escape.end()
            continue
        # encode_text's only "&#" in a query is a character reference: the query holds no "#"
        # of its own (it ends there), and no encoding but ISO-2022-JP has 0x23 in a multi-byte
        # character (its references are written in the ASCII or Roman state: see encode_text).
        reference = None if jis0208 else _REFERENCE.match(data, position)
        if reference is not None:
            out.append(f"%26%23{reference.group(1).decode('ascii')}%3B")
            position = reference.end()
            continue
        byte = data[position]
        out.append(f"%{byte:02X}" if byte in _SPECIAL_QUERY_SET else chr(byte))
        position += 1
    return "".join(out)


def query_from_text(text: str) -> str:
    """The query a URL gets when ``text`` is set as it, as Chromium 156's ``KURL::SetQuery``
    (and the ``search`` setter) sets it: one leading ``?`` left out, every tab and newline
    removed, then percent-encoded in UTF-8 with the special-query percent-encode set, a ``#``
    too (in this text it ends nothing). :func:`encode_query` is the parser's own query state,
    in the document's encoding, for an action's query.

    >>> query_from_text("?a=1 2\\r\\nb=#é\\r\\n")
    'a=1%202b=%23%C3%A9'
    """
    data = _TAB_OR_NEWLINE.sub("", text.removeprefix("?")).encode("utf-8")
    return "".join(f"%{byte:02X}" if byte in _SPECIAL_QUERY_SET else chr(byte) for byte in data)


def resolve(
    reference: str, base: str | Url | None, *, encoding: str = "UTF-8", standard: bool = False
) -> str | None:
    """``reference`` resolved against ``base`` and serialized, or None when it does not parse
    (``new URL(reference, base).href``; ``encoding`` and ``standard`` as in :func:`parse`).

    >>> resolve("../g?x#y", "http://a/b/c/d;p?q")
    'http://a/b/g?x#y'
    """
    parsed = parse(reference, base, encoding=encoding, standard=standard)
    return None if parsed is None else parsed.href


def can_parse(url: str, base: str | None = None) -> bool:
    """``URL.canParse(url, base)``."""
    return parse(url, base) is not None


def is_special(scheme: str) -> bool:
    """#is-special for a scheme (lowercase, without the colon)."""
    return scheme in _SPECIAL_SCHEMES


def default_port(scheme: str) -> int | None:
    """#default-port: 80 for http and ws, 443 for https and wss, 21 for ftp, else None."""
    return _SPECIAL_SCHEMES.get(scheme)


def parse_host(text: str) -> str | None:
    """The host parser for a special URL (#concept-host-parser), serialized: percent-decoding,
    UTS 46 ToASCII (#concept-domain-to-ascii), IPv4 and IPv6 forms; None for failure.

    >>> parse_host("faß.DE"), parse_host("0x7f.1"), parse_host("[::ffff:127.0.0.1]")
    ('xn--fa-hia.de', '127.0.0.1', '[::ffff:7f00:1]')

    It runs ada's parser on ``https://<text>/`` with the code points that would end the host
    there percent-encoded, so that they reach the host parser, which decodes them and then
    refuses them as forbidden (this is how the web-platform-tests run ``IdnaTestV2.json``).
    """
    text = _usv(text)
    if not text or _TAB_OR_NEWLINE.search(text):
        return None  # the URL parser would drop tabs and newlines; the host parser refuses them
    ends = "@/?#\\" if text.startswith("[") else "@:/?#\\"
    escaped = "".join(f"%{ord(c):02X}" if c in ends else c for c in text)
    parsed = _parse_utf8(f"https://{escaped}/", None)
    if parsed is None or parsed.port or parsed.username or parsed.pathname != "/":
        return None
    return parsed.hostname


#: The base URL of a document whose ``<base href>`` does not parse, in Chromium 156 (see
#: :func:`frozen_base_url`): an ``about:`` URL with an opaque path, so that no relative reference
#: resolves against it (WHATWG: a base with an opaque path takes only a fragment-only reference,
#: which the form submission checks itself) while absolute URLs parse as they would anyway.
INVALID_BASE_URL = "about:invalid-base-url"


def frozen_base_url(
    href: str, fallback: str | None, *, encoding: str = "UTF-8", standard: bool = False
) -> str | None:
    """The URL a ``<base href>`` gives its document (#set-the-frozen-base-url): ``href`` parsed
    against ``fallback`` (the document's fallback base URL, usually its URL); the fallback when
    that gives a ``data:`` or ``javascript:`` URL.

    >>> frozen_base_url("javascript:void(0)", "https://example.com/a")
    'https://example.com/a'

    Chromium 156 departs from the standard twice here (``standard=True`` gives the standard's
    reading, with the fallback for an ``href`` that does not parse):

    - it parses ``href`` as UTF-8 whatever the document's encoding (``encoding`` is ignored);
    - an ``href`` that does not parse (``http://[bad/``) gives an invalid base URL, not the
      fallback: then every relative URL in the document fails to parse (``form.action`` is
      ``""`` for a relative action, and the form does not submit) while absolute ones still
      work. That is returned as None, which callers must not take for "no base URL".
    """
    if standard:
        parsed = parse(href, fallback, encoding=encoding, standard=True)
        if parsed is None:
            return fallback
    else:
        parsed = parse(href, fallback)
        if parsed is None:
            return None
    if parsed.scheme in ("data", "javascript"):
        return fallback
    return parsed.href


def same_origin(a: Url, b: Url) -> bool:
    """#same-origin for two URLs' origins: scheme, host and port equal. An opaque origin
    (``"null"``: ``file:``, ``data:``, ``about:`` …) is a new one for every URL, so it is never
    the same as another URL's."""
    return a.origin != "null" and a.origin == b.origin


def same_origin_urls(url: str, other: str) -> bool:
    """:func:`same_origin` of two absolute URLs; a URL that does not parse has no origin to
    share. The one origin comparison of the edges: urllib's ``netloc`` holds the credentials
    and its ``hostname`` is not the host a browser parses (``http://a\\@b/`` is ``a``'s)."""
    a, b = parse(url), parse(other)
    return a is not None and b is not None and same_origin(a, b)
