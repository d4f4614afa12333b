"""Every error formtools raises on purpose, in one tree::

    FormtoolsError              code            exit
    ├── UsageProblem            usage           2   a request that does not fit (no such tool, input not JSON)
    │   ├── UnknownProfile      unknown-profile 2   a profile name nobody registered
    │   └── UnknownFormat       unknown-format  2   an output format nobody knows
    ├── SourceError             source          2   a page that cannot be read (missing file, bad URL)
    │   ├── NetworkError        network         3   a page that cannot be fetched (HTTP error, timeout, refused)
    │   └── ParseTimeLimit      parse-time-limit 3  a page's parse outlived the time limit given for it
    ├── BrowserError            browser         2   ``formtools diff`` could not drive the installed Chromium
    ├── WorkerLost              worker-lost     2   a batch's worker process ended or was stopped from outside (killed, out of memory)
    ├── InputError              invalid-input   1   a tool call's arguments were rejected; nothing was filled
    ├── ValidationError         invalid-form    1   the filled form fails constraint validation; nothing was sent
    ├── SubmissionError         not-submittable 1   the form cannot be submitted as asked
    │   ├── NoSubmitButton      no-submit-button 1  no submit button and no ``toolautosubmit``
    │   └── UnknownDocumentURL  unknown-document-url 1  the action needs the page's URL, which was not given
    ├── Unsupported             unsupported     1   the browser would decide it; formtools cannot exactly
    ├── SendError               send            3   the request could not be sent or its answer read
    │   └── Refused             refused         3   a destination the caller's policy does not allow
    └── FetchError              fetch           3   the guarded fetch (formtools._net) gave no response
        ├── BadURL              bad-url         3   not a WHATWG URL, or a scheme other than http(s)
        │   └── UnfollowedRedirect bad-url      3   a redirect to one (a submission's call completes without a result)
        ├── Blocked             blocked         3   the host is, or resolves to, a non-public address
        ├── FetchTimeout        timeout         3   the whole fetch outlived its deadline
        ├── TooLarge            too-large       3   a body is bigger than the byte cap
        ├── TooManyRedirects    too-many-redirects 3 the redirect cap was reached
        └── Unreachable         network         3   DNS, connection, TLS or HTTP failure

Each error is a value: ``str()`` is its one-line message, :attr:`~FormtoolsError.code` a stable
identifier, :meth:`~FormtoolsError.to_dict` its JSON form and :attr:`~FormtoolsError.problems`
the per-field problems of an input or validation error. The edges (the CLI, the MCP bridge and
the Spark job) render these values; nothing else formats an error.

Problems *in* a page (a form that is not a tool, a control that is not a parameter) are not
exceptions: they are :class:`~formtools.Diagnostic` values, so one odd form never stops a crawl.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Sequence, TypeVar

if TYPE_CHECKING:
    import ada_url

__all__ = [
    "FormtoolsError",
    "UsageProblem",
    "UnknownProfile",
    "UnknownFormat",
    "SourceError",
    "NetworkError",
    "ParseTimeLimit",
    "BrowserError",
    "WorkerLost",
    "InputError",
    "ValidationError",
    "SubmissionError",
    "NoSubmitButton",
    "UnknownDocumentURL",
    "Unsupported",
    "SendError",
    "Refused",
    "FetchError",
    "BadURL",
    "Blocked",
    "FetchTimeout",
    "TooLarge",
    "TooManyRedirects",
    "UnfollowedRedirect",
    "Unreachable",
    "Problem",
    "require",
]


def shown(url: str) -> str:
    """``url`` as a message may show it: without what is, or looks like, a user name and
    password (a message can reach a log or an agent; credentials must not), whether or not it
    parses; a URL without them is returned as written.

    A URL the URL Standard reads with a host (once what may wrap it, :data:`_OPENING`, is set
    aside) loses its user information as the parser finds it (:func:`_user_info_span`); one of
    a scheme that has no authority (:data:`_OPAQUE_SCHEMES`: ``mailto:ann@mail.example``) is
    kept. Anything else (a scheme misspelled ``http_s:``, spaced ``ht tp:`` or full-width, a
    word before it, no scheme at all: ``user:pw@host/``, which parses as the scheme ``user:``
    with no host) is read as a would-be URL: what comes before its authority
    (:func:`before_user_info`) is kept, and the rest is read as a URL's authority onward. Only
    when that rest does not parse either does everything up to the last ``@`` go: no parser
    says where its user information ends, and a password may hold ``@``, ``/``, ``?`` or
    ``#``. Looking for user information only after a scheme of URL characters
    (``[a-zA-Z0-9+.-]*:``) at the very start kept the password of all these, and of a URL in
    quotes or ``<>``. Last, a ``//user:password@`` inside the URL (a redirect target in its
    query) goes too (:data:`_NESTED_USER_INFO`)."""
    if "@" not in url:  # no user info without its "@" (every page of a crawl passes here)
        return url
    inner = url.lstrip(_OPENING)
    parsed = _parsed(inner)
    if parsed is not None and (parsed.host or parsed.protocol in _OPAQUE_SCHEMES):
        return _without_nested_user_info(url[: len(url) - len(inner)] + _without_user_info(inner, parsed))
    before = before_user_info(url)
    as_written = _AS_AUTHORITY + url[len(before) :]
    as_authority = _parsed(as_written)
    if as_authority is None:
        return before + url.rpartition("@")[2]
    return _without_nested_user_info(before + _without_user_info(as_written, as_authority)[len(_AS_AUTHORITY) :])


#: the characters of a URL a message quotes (:func:`quoted`)
_QUOTED_CHARS = 200


def quoted(url: str) -> str:
    """``url`` as a one-line message quotes it: :func:`shown` (no credentials) and at most
    :data:`_QUOTED_CHARS` characters then ``…``: an action or a redirect may be as long as
    Chromium goes to (2 MB), and a message that quoted a 100,000-character action whole was
    100,188 characters long."""
    text = shown(url)
    return text if len(text) <= _QUOTED_CHARS else text[:_QUOTED_CHARS] + "…"


def _parsed(url: str) -> ada_url.URL | None:
    """``url`` as the URL Standard parses it, None if it does not parse."""
    import ada_url  # (loaded only for a URL to show: `import formtools` stays fast)

    try:
        return ada_url.URL(url)
    except ValueError:
        return None


def _without_user_info(url: str, parsed: ada_url.URL) -> str:
    """``url`` as written but for the user name and password ``parsed``, its parse, holds."""
    if not (parsed.username or parsed.password):
        return url
    begin, end = _user_info_span(url, special=parsed.protocol in _SPECIAL_SCHEMES)
    return url[:begin] + url[end:]


def before_user_info(text: str) -> str:
    """The start of ``text``, a would-be URL no parser reads with a host, that comes before
    where its user information would be, and so may be shown: a scheme however written
    (``http_s:``, ``"http:``, ``ht tp:``, ``ｈttp:``), its ``:`` and the slashes, backslashes
    and spaces after it (``http:\\``, ``http: //``), or what comes before a first ``//``
    (``http//``); else only what wraps it (:data:`_OPENING`): ``user:pw@host``
    starts with its user information, and ``host/p@x`` is a host and a path.
    It never holds an ``@``, nor a ``:`` but the one before the slashes, so no password."""
    found = _BEFORE_AUTHORITY.match(text)
    assert found is not None  # (its second branch matches the empty string)
    return found.group()


#: what may come before a URL in a list's line or a message: spaces, quotes, ``<``, ``(``
_OPENING = " \t\n\r\f\v\"'<({"

#: schemes whose URLs have no authority: an ``@`` in one is an address or content, never
#: the end of a password (read as a would-be URL's, ``mailto:ann@mail.example`` was shown
#: ``mail.example``, a ``data:`` URL of markup its end)
_OPAQUE_SCHEMES = frozenset({"about:", "blob:", "data:", "javascript:", "mailto:"})

#: what :func:`before_user_info` keeps. Possessive, so one pass: the run up to the first ``:``,
#: ``/``, ``\`` or ``@`` is never taken back a character at a time.
_BEFORE_AUTHORITY = re.compile(r"[^:/\\@]*+(?::\s*+[/\\]|[/\\]\s*+[/\\])[/\\\s]*+|[" + re.escape(_OPENING) + "]*+")

#: what a would-be URL's rest is read after: an authority onward, of a scheme that is not
#: special, whose authority a ``\`` does not end (``'http://u:\\n:pw@h'``, a message quoting
#: with ``repr()`` a URL with a line break, ended at ``u:`` when read as http's)
_AS_AUTHORITY = "x://"

#: a ``//user:password@`` (or ``//user@``) inside a URL (a redirect target in its query): the
#: slashes (tabs and newlines, which the URL parser removes, between them), then a run up to
#: ``@`` with no ``/``, ``\``, ``?`` or ``#`` (``http://h?x@y`` holds none: its host is h);
#: or a ``\`` and a ``user:password@``: a message quoting a URL with ``repr()`` writes its
#: line break ``\n``, which ends an http URL's authority (``'http://u\\n:pw@h'`` is the host
#: ``u`` and the path ``\n:pw@h``). It starts only where a run of slashes does, so no run is
#: scanned twice.
_NESTED_USER_INFO = re.compile(
    r"(?<![/\\\t\n\r])(?:([\t\n\r]*+[/\\](?:[\t\n\r]*+[/\\])++[\t\n\r]*+)[^/\\?#@]*+@|(\\)[^/\\?#@:]*+:[^/\\?#@]*+@)"
)


def _without_nested_user_info(url: str) -> str:
    """``url`` without the user names and passwords :data:`_NESTED_USER_INFO` finds in it."""
    return _NESTED_USER_INFO.sub(lambda found: found.group(1) or found.group(2), url)


#: the URL Standard's special schemes, whose authority may follow any number of ``/`` and ``\``
_SPECIAL_SCHEMES = frozenset({"ftp:", "file:", "http:", "https:", "ws:", "wss:"})


def _user_info_span(url: str, *, special: bool) -> tuple[int, int]:
    """Where the user name and password of ``url``, which the URL Standard parses with them,
    begin and end (their ``@`` included), as written: its parsed ``href`` (what :func:`shown`
    gave) is another spelling of the URL, and of the part of a message a URL ends at the first
    space (``exa mple`` became ``http://exa/ mple``, an escaped ``\\xe9`` the path ``/xe9``).
    The parser's own steps find them: the authority starts after the scheme's ``:`` and its
    slashes (any run of ``/`` and ``\\`` for a special scheme, ``//`` for another), ends at
    ``/``, ``?``, ``#`` (or ``\\``, special), and its user information is everything before its
    last ``@``; tabs and newlines, which the parser removes, are passed over."""
    start = url.index(":") + 1
    if special:
        while url[start] in "/\\\t\n\r":
            start += 1
    else:
        slashes = 0
        while slashes < 2:
            slashes += url[start] == "/"
            start += 1
    ends = "/?#\\" if special else "/?#"
    end = next((i for i in range(start, len(url)) if url[i] in ends), len(url))
    return start, url.rindex("@", start, end) + 1


#: a URL in a text (a message quoting one), up to a space or a quote. A match starts only where
#: a run of scheme characters does (its leading digits, ``+``, ``.``, ``-`` included, which a
#: scheme may not start with): started at every letter, a long run with no ``://`` after it
#: was scanned again from each of its letters, quadratic time (40,000 letters and an ``@``
#: took 1.2 s in a message, 400,000 two minutes).
URL_IN_TEXT = re.compile(r"(?<![a-zA-Z0-9+.-])[0-9+.-]*[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")

#: a word of a text holding an ``@``: what lies between spaces (a tab, CR or LF, which the URL
#: parser removes, does not end it). It starts only where a word does: one pass.
_WORD_WITH_AT = re.compile(r"(?<![\S\t\n\r])[\S\t\n\r]*@[\S\t\n\r]*")

#: what comes before a word's last ``@`` when it may be a user name and password: a ``:``
#: (``user:pw@``) or a slash (``//user@``, ``http:\\u@``); ``photo@2x.png`` and ``me@mail.example`` have none
_USER_INFO_MARK = re.compile(r"[:/\\]")


def shown_in_text(text: str) -> str:
    """``text`` with every word in it that may hold a user name and password :func:`shown`: a
    message built around a URL (a crawl's error line, a caller's page URL quoted back, a path
    that was a URL mistyped) may quote one written with a password. Found as words, not as
    URLs: a URL is found by its ``scheme://``, so ``http:\\u:p@h``, ``user:pw@host`` or a
    URL with a tab kept theirs."""
    return _WORD_WITH_AT.sub(_shown_word, text) if "@" in text else text


def _shown_word(found: re.Match[str]) -> str:
    return shown_argument(found.group())


def shown_argument(argument: str) -> str:
    """A whole argument a user gave (a page's URL or path, a URL list's path) as a message may
    quote it: :func:`shown` when what comes before its last ``@`` may be a user name and
    password (a ``:`` or a slash), else as given (``me@host.html`` is a file's name). Whole: a
    password may hold a space or a tab, and :func:`shown_in_text`, which finds words, showed
    what followed its first space (``https://u:S3cr x@h:99999/: not a valid URL``)."""
    if "@" not in argument or not _USER_INFO_MARK.search(argument, 0, argument.rindex("@")):
        return argument
    return shown(argument)


#: What a terminal runs, or a reader cannot see: Unicode's controls (C0, DEL, C1: ESC starts a
#: terminal's escape sequences, a window title, an OSC 8 link, a clipboard write, a cleared
#: screen), format characters (zero-width, bidirectional, the invisible tag characters that spell
#: ASCII text no one sees) and line and paragraph separators: general categories Cc, Cf, Zl, Zp
#: (tests/test_cli.py checks the list against the running Python's Unicode data).
_PAST_C0 = (
    "\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
UNSHOWABLE = re.compile(f"[\x00-\x1f{_PAST_C0}]")
#: UNSHOWABLE but C0's controls (a JSON text holds those only as whitespace)
UNSHOWABLE_PAST_C0 = re.compile(f"[{_PAST_C0}]")
#: UNSHOWABLE but the tab and the line feed, which lay a text of many lines out (a page's
#: source, a document) and run nothing
UNSHOWABLE_IN_LINES = re.compile(f"[\x00-\x08\x0b-\x1f{_PAST_C0}]")


def _escape(found: re.Match[str]) -> str:
    """The character ``found`` as Python writes it in a string: ``\\n``, ``\\x1b``, ``\\u202e``."""
    return found.group().encode("unicode_escape").decode("ascii")


def one_line(text: str) -> str:
    """``text`` with every character of :data:`UNSHOWABLE` written as its escape (``\\n``,
    ``\\x1b``, ``\\u202e``): a control's name, a label or a parameter key is the page's to
    choose, a path or an input the caller's, and a message that quotes one must stay one line
    of plain text — in a terminal, which would run an escape sequence (a page's field named
    ``ESC]0;…`` retitled the window of ``formtools validate``), in the operator's text log,
    where a second line could pass for a record of a call that never happened, and in an
    error list, one line per problem."""
    return UNSHOWABLE.sub(_escape, text)


def plain_lines(text: str) -> str:
    """``text`` with every character of :data:`UNSHOWABLE_IN_LINES` written as :func:`one_line`
    writes it: a document of many lines that quotes a page (``formtools report``'s Markdown and
    HTML, which show a page's source, title and names) keeps its line feeds and tabs, and runs
    no escape sequence on the terminal it is printed to."""
    return UNSHOWABLE_IN_LINES.sub(_escape, text)


class Problem(Protocol):
    """One rejected field of a call: the parameter's ``key`` (None for the input as a whole) and
    the browser's ``message`` for it."""

    @property
    def key(self) -> str | None: ...

    @property
    def message(self) -> str: ...


class FormtoolsError(Exception):
    """Base class of every error formtools raises on purpose; ``str()`` is a one-line message."""

    #: A stable identifier of the kind of error (the JSON form's ``"error"``).
    code: ClassVar[str] = "error"
    #: The process exit code the CLI gives it: 1 a rejected call, 2 a usage or input error,
    #: 3 the network.
    exit_code: ClassVar[int] = 2
    #: Per-field problems (input and validation errors), in the order the browser reports them.
    problems: tuple[Problem, ...] = ()

    #: The message is the browser's own text about the caller's values (a validation message
    #: quoting an email field's value), kept byte for byte as its ``problems`` keep it: what
    #: looks like a URL with a password there (``a://u:p@``) is a value the caller gave.
    verbatim: ClassVar[bool] = False

    def __init__(self, *args: Any) -> None:
        """The message as every edge and ``repr()`` shows it: a URL in it without its user name
        and password, and on one line of plain text, a control character in what it quotes (a
        file name, a path a caller gave) written as its escape (:func:`one_line`), whichever
        message quoted it (one place, so no message can forget: ``"a\r\nX: 1: no such file"``
        printed a second line). A verbatim message is escaped by the edge that prints it."""
        if self.verbatim:
            super().__init__(*args)
        else:
            super().__init__(*(one_line(shown_in_text(arg)) if isinstance(arg, str) else arg for arg in args))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) as what it is, its message and attributes, not by calling its
        class again with its ``args``: the message is no argument of most constructors
        (``InputError`` takes problems, ``NoSubmitButton`` nothing, ``FetchError`` a keyword
        URL), and an error raised in a worker process came back as a TypeError instead."""
        return (_unpickled, (type(self), self.args), self.__dict__)

    @property
    def message(self) -> str:
        return str(self)

    def lines(self) -> list[str]:
        """The message as an edge shows it: one line per distinct problem, else the message itself.

        Chromium reports a failing group once per control (each radio of a required group is
        valueMissing), so its message, which ``str()`` keeps byte for byte, repeats a line per
        radio; an edge printing every problem showed a newcomer the same line three times for
        one field (a required Django ``RadioSelect``, Bootstrap's required radios)."""
        return list(dict.fromkeys(str(problem) for problem in self.problems)) or [self.message]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"error": code, "message": …}`` plus ``"problems"`` when it has them."""
        data: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.problems:
            data["problems"] = [{"key": p.key, "message": p.message} for p in self.problems]
        return data


def _unpickled(cls: type[FormtoolsError], args: tuple[Any, ...]) -> FormtoolsError:
    """An error of ``cls`` with ``args``, its attributes to be set by unpickling."""
    error = cls.__new__(cls)
    error.args = args
    return error


class UsageProblem(FormtoolsError, ValueError):
    code = "usage"


_Taken = TypeVar("_Taken")


def require(value: Any, kind: type[_Taken], taker: str, what: str) -> _Taken:
    """``value`` if it is a ``kind``, else a one-line :class:`UsageProblem` saying what ``taker``
    takes: a mistaken argument (a tool's name for the tool, markup for a document) raised
    AttributeError or TypeError from deep inside."""
    if not isinstance(value, kind):
        raise UsageProblem(f"{taker} takes {what}, not a {type(value).__name__}")
    return value


class UnknownProfile(UsageProblem):
    code = "unknown-profile"


class UnknownFormat(UsageProblem):
    code = "unknown-format"


class SourceError(FormtoolsError, OSError):
    code = "source"


class NetworkError(SourceError):
    code = "network"
    exit_code = 3


class ParseTimeLimit(SourceError):
    """Parsing a page took longer than the time limit given for it (``parse_html(...,
    time_limit=…)``, ``formtools batch --page-time-limit``): a page built to cost the parser
    more than its size (misnested formatting elements the adoption agency moves again and
    again) stops there instead of holding a crawl."""

    code = "parse-time-limit"
    exit_code = 3


class BrowserError(FormtoolsError, RuntimeError):
    code = "browser"


class WorkerLost(FormtoolsError, RuntimeError):
    """Something outside formtools ended a worker process (``kill -9``, the kernel's
    out-of-memory killer) or sent it the stop signal (SIGUSR1) that an interrupted batch sends
    its workers: its pages' lines are lost, the others written stand."""

    code = "worker-lost"


class InputError(FormtoolsError, ValueError):
    """A tool call's input was rejected; nothing was filled. ``problems`` has one entry per
    bad key; ``str()`` is the message for the first: Chromium's, or under a profile that
    enforces its schema (``html``) the schema's."""

    code = "invalid-input"
    exit_code = 1
    verbatim = True

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(problems[0].message)
        self.problems = tuple(problems)


class ValidationError(FormtoolsError, ValueError):
    """The filled form fails constraint validation; nothing was sent. ``str()`` is Chromium's
    ``Form validation failed: <name>: <message>. …`` text."""

    code = "invalid-form"
    exit_code = 1
    verbatim = True

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        text = "".join(f"{p.key}: {p.message}. " for p in problems)
        super().__init__(f"Form validation failed: {text}")


class SubmissionError(FormtoolsError, ValueError):
    """The form cannot be submitted as asked (an action URL that cannot be resolved, an unknown
    submitter)."""

    code = "not-submittable"
    exit_code = 1


class NoSubmitButton(SubmissionError):
    """Chromium's refusal of a call on a form with neither a submit button nor ``toolautosubmit``."""

    code = "no-submit-button"

    def __init__(self) -> None:
        super().__init__(
            "No submit button was found, but for a form without `toolautosubmit`, "
            "there must be a submit button"
        )


class UnknownDocumentURL(SubmissionError):
    """The form's action is empty or relative, and the page's URL is unknown (markup parsed
    without ``base_url``), so formtools cannot know where the browser would submit it.
    ``action`` is the action as written (``""``: the document URL itself). Its own class so
    that an edge can name its own way to give the URL (the CLI's ``--base-url``)."""

    code = "unknown-document-url"

    def __init__(self, action: str) -> None:
        self.action = action
        super().__init__(
            f"the form's action {action!r} is relative and the document URL is unknown (give base_url)"
            if action
            else "the form's action is the document URL, which is unknown (give base_url)"
        )


class Unsupported(FormtoolsError, ValueError):
    """Something the browser decides that formtools cannot decide exactly, so it refuses rather
    than guess: a ``pattern`` V8 compiles that formtools' matcher (regress) cannot, which would
    otherwise pass every value or none. Nothing was filled or sent."""

    code = "unsupported"
    exit_code = 1


class SendError(FormtoolsError, OSError):
    """The request could not be sent or its answer read (network error, timeout, too large)."""

    code = "send"
    exit_code = 3


class Refused(SendError):
    """A destination the caller's policy does not allow (a private address, another origin, a
    scheme other than http and https)."""

    code = "refused"


class FetchError(FormtoolsError, OSError):
    """A fetch that did not give a response; ``url`` is the hop it failed at (credentials
    removed)."""

    code = "fetch"
    exit_code = 3

    def __init__(self, message: str, *, url: str) -> None:
        super().__init__(message)
        self.url = shown(url)  # as a message may show it, whoever raised it

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "url": self.url}


class BadURL(FetchError):
    """Not a URL the WHATWG parser accepts, or a scheme other than http and https."""

    code = "bad-url"


class UnfollowedRedirect(BadURL):
    """A redirect to what is no http(s) URL (``javascript:``, ``data:``, a ``Location`` that does
    not parse): the request before it was sent and answered, and nothing follows it. A form's
    submission that ends so was made all the same (Chromium gives the agent no result).
    ``url`` is the hop whose redirect is not followed; ``redirects`` the hops before it that
    answered with a redirect, in order (credentials removed), as a followed chain lists them."""

    def __init__(self, message: str, *, url: str, redirects: tuple[str, ...] = ()) -> None:
        super().__init__(message, url=url)
        self.redirects = tuple(map(shown, redirects))


class Blocked(FetchError):
    """The target guard refused the host: it is, or resolves to, a loopback, private, link-local
    or otherwise non-public address. ``address`` is the first such address, ``reason`` its kind."""

    code = "blocked"

    def __init__(self, message: str, *, url: str, address: str = "", reason: str = "") -> None:
        super().__init__(message, url=url)
        self.address = address
        self.reason = reason


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
