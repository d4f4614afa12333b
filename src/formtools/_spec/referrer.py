"""The ``Referer`` and ``Origin`` headers of a form submission, hop by hop (Referrer Policy,
"determine request's referrer"; Fetch, "append a request Origin header").

A submission carries its document's referrer policy (``<meta name=referrer>``, or the default
``strict-origin-when-cross-origin``). What each request of it says:

- ``Referer``: the policy applied to the referrer and the request's URL. Chromium 156 keeps the
  referrer *it sent* for the next hop of a redirect and applies the policy to that (measured in
  ``tests/test_browser_urls.py``): once a redirect went to another origin, the referrer stays cut
  to its origin (or absent) even when a later hop returns to the page's origin. The standard
  recomputes it from the document's URL on every hop; formtools follows the browser.
- ``Origin``: only on a POST (a navigation's GET has none); ``null`` under ``no-referrer``,
  under ``same-origin`` to another origin, on a downgrade from https to http under the
  ``*-when-downgrade`` and ``strict-*`` policies, and after any redirect from one origin to
  another (Chromium's rule, measured: stricter than Fetch's "redirect-tainted origin", which
  spares a first hop from the page's own origin).

Hand-written because no library implements these browser algorithms; the rules are the specs',
the cases the browser's.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, replace

from formtools._spec.microsyntax import ascii_lowercase
from formtools._spec.url import Url, parse

__all__ = ["DEFAULT_POLICY", "POLICIES", "Referrer", "policy_from_header", "potentially_trustworthy"]

DEFAULT_POLICY = "strict-origin-when-cross-origin"
#: Referrer Policy's policy tokens
POLICIES = frozenset(
    {
        "no-referrer", "no-referrer-when-downgrade", "same-origin", "origin", "strict-origin",
        "origin-when-cross-origin", "strict-origin-when-cross-origin", "unsafe-url",
    }
)  # fmt: skip


def policy_from_header(value: str | None) -> str | None:
    """A ``Referrer-Policy`` response header's policy (Referrer Policy, "parse a referrer policy
    from a Referrer-Policy header"): the last of its comma-separated tokens that is a policy
    (a list lets a site name a newer policy with an older fallback before it). Chromium 156
    compares the tokens ASCII case-insensitively, which the standard does not (measured in
    ``tests/test_browser_urls.py``); formtools follows the browser."""
    policy = None
    for token in (value or "").split(","):
        token = ascii_lowercase(token.strip(" \t"))
        if token in POLICIES:
            policy = token
    return policy
# Referrer Policy, "strip url for use as a referrer": a longer referrer is cut to its origin.
_LENGTH_LIMIT = 4096
_LOCAL_SCHEMES = frozenset({"about", "blob", "data"})


def potentially_trustworthy(url: Url) -> bool:
    """Secure Contexts' "potentially trustworthy URL": https/wss, a loopback host (127.0.0.0/8,
    ``::1``, ``localhost`` and ``*.localhost``), ``file:``, ``data:`` and ``about:blank``."""
    if url.scheme in ("https", "wss", "file", "data") or url.href in ("about:blank", "about:srcdoc"):
        return True
    if url.scheme not in ("http", "ws"):
        return False
    host = url.hostname.strip("[]").lower()
    # Chromium (net::IsLocalHostname) drops one trailing dot first: ``localhost.`` and
    # ``foo.localhost.`` are loopback names too (measured: an https page submits to them); Secure
    # Contexts names only ``localhost`` and ``.localhost`` names
    if host.endswith("."):
        host = host[:-1]
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _downgrade(referrer: Url, target: Url) -> bool:
    """Whether a request leaves TLS: the standard says from a potentially trustworthy URL to one
    that is not, so ``https`` → ``http://127.0.0.1`` would keep its referrer; Chromium 156 drops
    it for any https → non-https request (measured with an https page in
    ``tests/test_browser_urls.py``), and formtools does what Chromium does."""
    return referrer.scheme == "https" and target.scheme != "https"


def _stripped(url: Url, origin_only: bool) -> str | None:
    """"Strip url for use as a referrer": no userinfo, no fragment; only ``origin/`` when asked."""
    if url.scheme in _LOCAL_SCHEMES:
        return None
    if origin_only:
        return f"{url.origin}/"
    without = parse(url.href_without_fragment)
    assert without is not None  # a serialized URL parses again
    if without.username or without.password:
        scheme_end = len(without.protocol) + 2  # "http://"
        at = without.href.index("@", scheme_end)
        return without.href[:scheme_end] + without.href[at + 1 :]
    return without.href


def _referrer(policy: str, referrer: Url, target: Url) -> str | None:
    """Referrer Policy's "determine request's referrer", steps 3–8, for ``target``."""
    full, origin = _stripped(referrer, False), _stripped(referrer, True)
    if full is None:
        return None
    if len(full) > _LENGTH_LIMIT:
        full = origin
    same_origin = referrer.origin == target.origin
    downgrade = _downgrade(referrer, target)
    if policy == "no-referrer":
        return None
    if policy == "origin":
        return origin
    if policy == "unsafe-url":
        return full
    if policy == "strict-origin":
        return None if downgrade else origin
    if policy == "same-origin":
        return full if same_origin else None
    if policy == "origin-when-cross-origin":
        return full if same_origin else origin
    if policy == "no-referrer-when-downgrade":
        return None if downgrade else full
    # strict-origin-when-cross-origin, the default
    if same_origin:
        return full
    return None if downgrade else origin


@dataclass(frozen=True)
class Referrer:
    """A submission's referrer state: the ``referrer`` the next request is computed from (the
    document's URL at first, then what the previous hop sent), the request's ``origin`` (the
    document's, serialized), its ``policy``, and whether a redirect crossed origins so far."""

    referrer: str | None
    origin: str
    policy: str = DEFAULT_POLICY
    tainted: bool = False
    #: the document's policy, which ``Origin`` keeps: a redirect's ``Referrer-Policy`` header
    #: changes the ``Referer`` of the hops after it, not their ``Origin`` (measured in Chromium)
    origin_policy: str = DEFAULT_POLICY

    @classmethod
    def of(cls, document_url: str, policy: str | None) -> Referrer | None:
        """The state of a submission from the document at ``document_url`` (None when it is no
        URL). A page that is not http(s) (``file:``, ``data:``, ``about:blank``: an opaque origin)
        sends no Referer, and ``Origin: null`` on a POST, as measured in Chromium: formtools sent
        no Origin, so a ``formtools call page.html`` passed a site's Origin check that refuses
        Chromium's submission."""
        document = parse(document_url)
        if document is None:
            return None
        chosen = policy or DEFAULT_POLICY
        if document.scheme not in ("http", "https"):
            return cls(None, "null", chosen, origin_policy=chosen)
        return cls(document.href, document.origin, chosen, origin_policy=chosen)

    def headers(self, method: str, url: str) -> tuple[tuple[str, str], ...]:
        """``Referer`` and ``Origin`` of the request ``method url``, in the order Chromium sends them."""
        target = parse(url)
        if target is None:
            return ()
        source = parse(self.referrer) if self.referrer is not None else None
        referer = _referrer(self.policy, source, target) if source is not None else None
        found: list[tuple[str, str]] = []
        if method.upper() not in ("GET", "HEAD"):
            found.append(("Origin", self._origin_for(target)))
        if referer is not None:
            found.append(("Referer", referer))
        return tuple(found)

    def _origin_for(self, target: Url) -> str:
        """Fetch's "append a request Origin header" for a request that is not GET or HEAD."""
        policy = self.origin_policy
        if self.tainted or policy == "no-referrer":
            return "null"
        if policy == "same-origin" and self.origin != target.origin:
            return "null"
        downgrade_nulls = ("no-referrer-when-downgrade", "strict-origin", "strict-origin-when-cross-origin")
        if policy in downgrade_nulls and self.origin.startswith("https:") and target.scheme != "https":
            return "null"
        return self.origin

    def redirected(self, from_url: str, to_url: str) -> Referrer:
        """The state for the hop to ``to_url`` after ``from_url`` answered with a redirect."""
        here, there = parse(from_url), parse(to_url)
        if here is None or there is None:
            return self
        sent = dict(self.headers("GET", from_url)).get("Referer")
        return replace(self, referrer=sent, tainted=self.tainted or there.origin != here.origin)
