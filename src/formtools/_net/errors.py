"""Why a fetch failed, as values: one class per reason, each ``str()`` one sentence naming the URL.

They sit under :class:`~formtools.errors.FormtoolsError` (so every edge already renders them) and
:class:`OSError` (so callers that catch I/O errors keep working). The URL in a message never
shows its user name and password: a message may reach a log or an agent.

    FetchError           fetch                 the base: ``url`` is the hop that failed
    ├── BadURL           bad-url               not a valid URL, or not http/https
    │   └── UnfollowedRedirect                 a redirect to one: the request before it was answered
    ├── Blocked          blocked               the host is, or resolves to, a non-public address
    ├── FetchTimeout     timeout               the whole fetch outlived its deadline
    ├── TooLarge         too-large             a body is bigger than the byte cap
    ├── TooManyRedirects too-many-redirects    the redirect cap was reached
    └── Unreachable      network               DNS, connection, TLS or HTTP protocol failure
"""

from __future__ import annotations

__all__ = [
    "BadURL",
    "Blocked",
    "FetchError",
    "FetchTimeout",
    "TooLarge",
    "TooManyRedirects",
    "UnfollowedRedirect",
    "Unreachable",
    "shown",
]

# The classes are formtools.errors' (the one error tree), and so is the way a message shows a URL.
from formtools.errors import (  # noqa: E402
    BadURL,
    Blocked,
    FetchError,
    FetchTimeout,
    TooLarge,
    TooManyRedirects,
    UnfollowedRedirect,
    Unreachable,
    shown,
)
