"""Why a fetch failed, as values: one class per reason, each ``str()`` one sentence naming the URL.

They sit under :class:`~formtools.errors.FormtoolsError` (so every edge already renders them) and
:class:`OSError` (so callers that catch I/O errors keep working). The URL in a message never
shows its user name and password: a message may reach a log or an agent.

    FetchError           fetch                 the base: ``url`` is the hop that failed
    ├── BadURL           bad-url               not a valid URL, or not http/https
    ├── Blocked          blocked               the host is, or resolves to, a non-public address
    ├── FetchTimeout     timeout               the whole fetch outlived its deadline
    ├── TooLarge         too-large             a body is bigger than the byte cap
    ├── TooManyRedirects too-many-redirects    the redirect cap was reached
    └── Unreachable      network               DNS, connection, TLS or HTTP protocol failure
"""

from __future__ import annotations

from typing import Any

import ada_url

from formtools.errors import FormtoolsError

__all__ = [
    "BadURL",
    "Blocked",
    "FetchError",
    "FetchTimeout",
    "TooLarge",
    "TooManyRedirects",
    "Unreachable",
    "shown",
]


def shown(url: str) -> str:
    """``url`` as a message may show it: without user name and password (a message can reach a
    log or an agent; credentials must not)."""
    try:
        parsed = ada_url.URL(url)
    except ValueError:
        scheme, sep, rest = url.partition("://")
        if sep and "@" in rest.split("/", 1)[0]:
            return f"{scheme}://{rest.split('@', 1)[1]}"
        return url
    if parsed.username or parsed.password:
        parsed.username = ""
        parsed.password = ""
    return parsed.href


class FetchError(FormtoolsError, OSError):
    """A fetch that did not give a response; ``url`` is the hop it failed at (credentials
    removed)."""

    code = "fetch"
    exit_code = 3

    def __init__(self, message: str, *, url: str) -> None:
        super().__init__(message)
        self.url = shown(url)

    def __reduce__(self) -> tuple[Any, ...]:
        # OSError pickles by its args; the URL is keyword-only, so say how to rebuild it
        # (batch hands results between processes)
        return (_rebuild, (type(self), str(self), self.url))

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "url": self.url}


def _rebuild(cls: type[FetchError], message: str, url: str) -> FetchError:
    return cls(message, url=url)


class BadURL(FetchError):
    """Not a URL the WHATWG parser accepts, or a scheme other than http and https."""

    code = "bad-url"


class Blocked(FetchError):
    """The target guard refused the host: it is, or resolves to, a loopback, private, link-local
    or otherwise non-public address. ``address`` is the first such address, ``reason`` its kind."""

    code = "blocked"

    def __init__(self, message: str, *, url: str, address: str = "", reason: str = "") -> None:
        super().__init__(message, url=url)
        self.address = address
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_blocked, (str(self), self.url, self.address, self.reason))


def _rebuild_blocked(message: str, url: str, address: str, reason: str) -> Blocked:
    return Blocked(message, url=url, address=address, reason=reason)


class FetchTimeout(FetchError):
    """The deadline of the whole fetch (every connection, redirect and byte) passed."""

    code = "timeout"


class TooLarge(FetchError):
    """A body (after content decoding) is larger than the byte cap."""

    code = "too-large"


class TooManyRedirects(FetchError):
    """More redirects than the cap."""

    code = "too-many-redirects"


class Unreachable(FetchError):
    """Name resolution, connection, TLS or the HTTP exchange failed."""

    code = "network"
