"""The one guarded, bounded fetch.

Every HTTP request formtools makes — loading a page, sending a submission, the MCP bridge's
page loads and submissions, batch fetching — goes through :func:`fetch` / :func:`afetch` (or a
reusable :class:`Fetcher` / :class:`AsyncFetcher`) under a :class:`FetchPolicy`:

- each hop's URL parsed as a browser parses it (WHATWG), http and https only;
- each host resolved once, every address it resolves to checked, and the connection made to a
  checked address (no second lookup: DNS rebinding finds nothing to rebind) — unless the
  policy allows private targets;
- one deadline for the whole fetch (or, inside :func:`deadline`, for every fetch of a whole
  call), a byte cap on every body (after decoding), a redirect cap;
  redirects followed one guarded hop at a time, as browsers follow them;
- cookies (with a jar) sent to the hosts, and under the ``SameSite`` rules, Chromium sends
  them under: a submission names the page it comes from (:class:`Initiator`).

Failures are :class:`FetchError` values (``BadURL``, ``Blocked``, ``FetchTimeout``,
``TooLarge``, ``TooManyRedirects``, ``Unreachable``), each a one-sentence message naming the
URL without its credentials.
"""

from formtools._net.errors import (
    BadURL,
    Blocked,
    FetchError,
    FetchTimeout,
    TooLarge,
    TooManyRedirects,
    Unreachable,
)
from formtools._net.fetch import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_TIMEOUT,
    HTTP_LOGGERS,
    AsyncFetcher,
    BrowserCookiePolicy,
    Fetcher,
    FetchPolicy,
    Initiator,
    Response,
    acheck_target,
    afetch,
    check_target,
    cookie_jar,
    deadline,
    fetch,
)
from formtools._net.guard import classify

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_TIMEOUT",
    "HTTP_LOGGERS",
    "AsyncFetcher",
    "BadURL",
    "Blocked",
    "BrowserCookiePolicy",
    "FetchError",
    "FetchPolicy",
    "FetchTimeout",
    "Fetcher",
    "Initiator",
    "Response",
    "TooLarge",
    "TooManyRedirects",
    "Unreachable",
    "acheck_target",
    "afetch",
    "check_target",
    "classify",
    "cookie_jar",
    "deadline",
    "fetch",
]
