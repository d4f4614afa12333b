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


import ada_url


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

# The classes are formtools.errors' (the one error tree); this module shows URLs safely.
from formtools.errors import (  # noqa: E402
    BadURL,
    Blocked,
    FetchError,
    FetchTimeout,
    TooLarge,
    TooManyRedirects,
    Unreachable,
)


def shown(url: str) -> str:
    """``url`` as a message may show it: without user name and password (a message can reach a
    log or an agent; credentials must not)."""
    try:
        parsed = ada_url.URL(url)
    except ValueError:
        # No parser says where the user info of a URL that does not parse ends, and a password
        # may hold "@", "/", "?" or "#": everything up to the last "@" goes (splitting at the
        # first "@", or looking only before the first "/", showed "ss@…" of "pa@ss", or all of
        # "pa/ss")
        scheme, sep, rest = url.partition("://")
        if sep and "@" in rest:
            return f"{scheme}://{rest.rpartition('@')[2]}"
        return url
    if parsed.username or parsed.password:
        parsed.username = ""
        parsed.password = ""
    return parsed.href
