"""Seeded would-be URLs as people write them, with and without a user name and password, for
the tests that no output shows a password (``tests/test_batch.py``,
``tests/test_secret_outputs.py``).

A URL with credentials is drawn from every way a list line, an argument or a message may
hold one: wrapped (quotes, ``<>``, ``()``, a word before it), its scheme misspelled
(``http_s``), spaced, full-width or missing, its slashes backslashes or absent, tabs and line
breaks inside (which the URL parser removes), ``%40`` in its user name or password, hosts that
parse or not (IDN, IPv6 literals, a port too large, an unclosed ``[``). Its password is pieces
of seven random letters and digits joined by ``%``, ``:``, ``%40``…: a leak of the password,
encoded or not, shows a piece, and no piece shows by chance.

A URL without credentials is drawn the same way, but for what could be read as a user name and
password: ``@`` only after its host (path, query, fragment), and a host that parses; or it is
one of a scheme without authority (``mailto:ann@mail.example``).
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
from dataclasses import dataclass

import ada_url

#: schemes as written, right or wrong ("" for none)
SCHEMES = ["http", "HTTPS", "hTtp", "ftp", "ws", "foo", "git+ssh", "http_s", "htp", "ht tp", "ｈttp", "ｈｔｔｐ", ""]
#: what comes between a scheme and the authority, as written
SEPARATORS = ["://", ":\\\\", ":/\\", ":", ":/", ":///", ": //", "//", "：//"]
#: ... of those, the ones that mark an authority whatever the scheme (a URL without
#: credentials is shown as written after one of these)
AUTHORITY_SEPARATORS = ["://", ":\\\\", ":/\\", ":/", ":///", ": //", "//"]
USERS = ["user", "", "a b", "ann%40mail.example", "ü", "x.y-z"]
#: hosts a fetch ends at at once (a loopback address the guard refuses, a closed port)
LOCAL_HOSTS = ["127.0.0.1:1", "[::1]:1", "localhost:1"]
#: hosts that parse
HOSTS = LOCAL_HOSTS + ["bücher.example", "xn--bcher-kva.example", "[2001:db8::7]", "h.example:8080"]
#: hosts that do not parse
BAD_HOSTS = ["h:99999", "[::1", "exa mple.com", "a<b"]
RESTS = ["", "/", "/p", "/a b", "/p@x?q=a@b#f@g", "?q=1", "#f@g", "/caf\\xe9", "/a:b@c"]
WRAPPERS = [("", ""), ('"', '"'), ("<", ">"), ("(", ")"), ("'", "'"), ("GET ", ""), ("url=", ""), (" ", "\t")]
#: URLs of schemes without authority, an ``@`` in each (no space: in a message, a URL ends at one)
OPAQUE = ["mailto:ann@mail.example", "mailto:a.b@xn--bcher-kva.example?subject=x:y@z", "data:text/html,<a%20href=x:y@z>",
          "javascript:alert('a:b@c')", "about:blank#a:b@c", "blob:https://h.example/a:b@c"]
#: what joins a password's pieces
JOINS = ["", "%", ":", "%40", "%3A", "%%", "::"]
#: joins that space a password out: a message's words (``shown_in_text``) end at a space, so a
#: message must show such a URL, quoted whole, by ``shown_argument``
SPACED_JOINS = [" ", "\t", "% ", " :", "  "]


@dataclass(frozen=True)
class Written:
    """A would-be URL as written, and the pieces of its password, none of which may be shown."""

    text: str
    secrets: tuple[str, ...]


def with_credentials(pick: random.Random, *, breaks: str = "\t\r\n", joins: Sequence[str] = JOINS) -> Written:
    """A would-be URL holding a user name and password; ``breaks``: what may be written inside
    it (a URL list's line holds no line feed); ``joins``: what joins its password's pieces
    (:data:`SPACED_JOINS`: a password with spaces and tabs). A URL formtools would fetch (one the URL parser
    reads as http or https, or one written with ``http://``) gets a local host: no test waits
    for a name to resolve."""
    pieces = tuple(pick.choice(string.ascii_letters) + "".join(pick.choices(string.ascii_letters + string.digits, k=6))
                   for _ in range(pick.randint(1, 3)))
    password = pick.choice(joins) + "".join(piece + pick.choice(joins) for piece in pieces)
    opening, closing = pick.choice(WRAPPERS)
    scheme = pick.choice(SCHEMES)
    separator = pick.choice(SEPARATORS) if scheme else pick.choice(["", "//"])
    parts = [opening + scheme + separator, pick.choice(USERS), ":", password, "@"]
    if breaks and pick.random() < 0.4:  # between two parts: never inside a piece of the password
        at = pick.randrange(1, len(parts))
        parts[at] = pick.choice(breaks) + parts[at]
    rest = pick.choice(RESTS) + closing
    for host in (pick.choice(HOSTS + BAD_HOSTS), pick.choice(LOCAL_HOSTS)):
        text = "".join(parts) + host + rest
        if not fetched(text):
            break
    return Written(text, pieces)


def without_credentials(pick: random.Random, *, breaks: str = "\t") -> str:
    """A would-be URL with an authority, no user name and no password: ``@`` only after its
    host, which parses; or, in quotes or brackets, a URL of a scheme without authority whose
    ``@`` is an address or content (``mailto:``, ``data:``)."""
    if pick.random() < 0.2:
        opening, closing = pick.choice(WRAPPERS[:5])
        return opening + pick.choice(OPAQUE) + closing
    opening, closing = pick.choice(WRAPPERS)
    scheme = pick.choice(SCHEMES)
    separator = pick.choice(AUTHORITY_SEPARATORS) if scheme else "//"
    if breaks and pick.random() < 0.3:
        separator = separator[:-1] + pick.choice(breaks) + separator[-1]
    rest = pick.choice(RESTS) + closing
    for host in (pick.choice(HOSTS), pick.choice(LOCAL_HOSTS)):
        text = opening + scheme + separator + host + rest
        if not fetched(text):
            break
    return text


def fetched(text: str) -> bool:
    """Whether some edge would fetch ``text``: the URL parser reads it as http(s) (the library
    does), or it starts with ``http://`` or ``https://`` (a URL list's line, a command's page)."""
    try:
        if ada_url.URL(text).protocol in ("http:", "https:"):
            return True
    except ValueError:
        pass
    return text.strip()[:8].lower().startswith(("http://", "https://"))
