"""Keeping a call's secrets out of everything formtools shows: results, errors and logs.

A tool call carries the user's password or card number to the site, and nowhere else. What
formtools hands back (the request it prepared, the landing page's JSON-LD, the final URL, an
error message) may be printed by a CLI, returned to a model by the MCP bridge or written to a
log, so each of those is scrubbed of the values of the call's sensitive fields
(:func:`~formtools._synth.hints.is_sensitive`).

Scrubbing replaces a secret with :data:`MASK` wherever it occurs as written or as a form
submission writes it: the bytes of the form's encoding (a windows-1252 page sends ``ä`` as one
byte, ``%E4``) and of UTF-8, percent-encoded (``+`` or ``%20`` for spaces) or read back as
Latin-1 characters, each in any letter case (a site may echo ``%c3%a4``, or the secret in upper
case). It masks any base64 token whose text holds it (an echoed ``Authorization: Basic``
header), and a JSON number that is one (a card number echoed as ``4111111111111111``). Other
transformations a site may apply (digits grouped, hex, a hash) are not recognised. A secret
shorter than :data:`_SHORTEST_SUBSTRING` characters (a 3-digit card code) would match ordinary text, so it is
only masked where it is a whole string or a whole query parameter value.
"""

from __future__ import annotations

import base64
import binascii
import functools
import itertools
import logging
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, urlencode, urlsplit, urlunsplit

from formtools._execute.encode import percent_encode
from formtools._spec.constants import MASK
from formtools._spec.encoding import encode_text
from formtools._forms.state import FormState
from formtools._forms.sensitive import is_sensitive
from formtools._execute.request import NoRequest, Request
from formtools._execute.send import ToolResult
from formtools.errors import URL_IN_TEXT as _URL_IN_TEXT
from formtools.errors import shown as without_credentials

__all__ = ["MASK", "Secrets", "hide_in_logs", "scrubbed_result", "without_queries"]

_SHORTEST_SUBSTRING = 4
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{8,}={0,2}")


@functools.cache
def _folding() -> dict[int, str]:
    """A ``str.translate`` table folding each character to one that stands for its letter
    case class: the classes of the regular expression engine's IGNORECASE (checked over
    every code point by the tests), so that a folded text matches a folded secret exactly
    where the secret matched the text in any letter case. The one-character case folding
    where there is one, the dotted and dotless i as i (the engine's own exception), else the
    first character with the same case folding (``ﬅ`` and ``ﬆ`` are both ``st``). Only the
    characters it changes are in it (built once, about 0.2 s; the text is translated in C)."""
    table: dict[int, str] = {0x130: "i", 0x131: "i"}
    first: dict[str, str] = {}
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        folded = char.casefold()
        if folded == char or code in table:
            continue
        table[code] = folded if len(folded) == 1 else first.setdefault(folded, char)
    return {code: char for code, char in table.items() if chr(code) != char}


def _folded(text: str) -> str:
    return text.translate(_folding())


def _prefix_tree(words: Iterable[str]) -> str:
    """A pattern matching, at each place, the longest of ``words`` that starts there, as their
    alternation longest first does, with one branch per character at each fork: the engine's
    work per character of the text is bounded by the alphabet and the words' length, not
    their number. Built without recursion (a secret may be long), in time linear in the
    words' total length: each word is looked at only at the forks on its path."""
    out: list[str] = []
    # a task: sorted words sharing their first `depth` characters, or text to write
    tasks: list[tuple[list[str], int] | str] = [(sorted(set(words)), 0)]
    while tasks:
        task = tasks.pop()
        if isinstance(task, str):
            out.append(task)
            continue
        group, depth = task
        ends = group[0] == group[0][:depth]  # (a word ending here sorts first)
        rest = group[1:] if ends else group
        if not rest:
            continue
        first, last = rest[0], rest[-1]
        shared = depth
        while shared < min(len(first), len(last)) and first[shared] == last[shared]:
            shared += 1
        if ends:
            out.append("(?:")
            tasks.append(")?")
        if shared > depth or len(rest) == 1:
            end = len(first) if len(rest) == 1 else shared
            out.append(re.escape(first[depth:end]))
            if len(rest) > 1:
                tasks.append((rest, shared))
            continue
        branches = [list(words) for _, words in itertools.groupby(rest, key=lambda word: word[depth])]
        tasks.append(")")
        for number, branch in reversed(list(enumerate(branches))):
            tasks.append((branch, depth))
            if number:
                tasks.append("|")
        out.append("(?:")
    return "".join(out)


@dataclass(frozen=True)
class Secrets:
    """The secret values of one call (``names``: their controls' name attributes), sent in
    ``encoding`` (the form's: what its bytes on the wire are). ``repr()`` leaves the values out."""

    names: frozenset[str]
    values: frozenset[str] = field(repr=False)
    encoding: str = "UTF-8"

    @classmethod
    def of(cls, state: FormState, encoding: str = "UTF-8") -> "Secrets":
        controls = [c for c in state.form.controls if not c.is_button and is_sensitive(c)]
        values = {state.of(c).value for c in controls if c.tag != "select"}
        for select in (c for c in controls if c.tag == "select"):
            values.update(o.value for o, on in zip(select.options, state.of(select).selected) if on)
        return cls(
            frozenset(c.attributes.get("name", "") for c in controls) - {""},
            frozenset(v for v in values if v),
            encoding,
        )

    def __bool__(self) -> bool:
        return bool(self.values)

    @cached_property
    def _written(self) -> list[str]:
        """Every way a long-enough secret can appear in text, longest first: as typed, and its
        bytes in the form's encoding and in UTF-8, percent-encoded as a form or a URL writes
        them, or each byte read as a Latin-1 character (a site echoing the raw body)."""
        forms: set[str] = set()
        for value in self.values:
            if len(value) < _SHORTEST_SUBSTRING:
                continue
            forms.add(value)
            for encoding in dict.fromkeys(("UTF-8", self.encoding)):
                sent = encode_text(value, encoding)
                forms.update((percent_encode(sent), quote_plus(sent, safe=""), quote(sent, safe=""), sent.decode("latin-1")))
        return sorted(forms, key=len, reverse=True)

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        """:attr:`_written` as one pattern, in any letter case: a site may echo a secret's
        percent-escapes in lower case (``%c3%a4``) or the secret itself in upper case. The
        pattern is their prefix tree (:func:`_prefix_tree`), not one alternative per form:
        the regular expression engine tries each alternative at each character, so a page of
        n secret inputs (their default values are secrets too) made masking a landing page
        cost n times its length (800 secrets, 100 KB: 0.6 s; 10 MB: a minute)."""
        if not self._written:
            return None
        return re.compile(_prefix_tree(map(_folded, self._written)))

    def text(self, text: str) -> str:
        if text in self.values:
            return MASK
        if self._pattern is None:
            return text
        pieces: list[str] = []
        done = 0
        for found in self._pattern.finditer(_folded(text)):  # (the same length as text)
            pieces += (text[done : found.start()], MASK)
            done = found.end()
        text = "".join(pieces) + text[done:] if pieces else text
        if _BASE64.search(text):
            text = _BASE64.sub(self._base64, text)
        return text

    def _base64(self, found: re.Match[str]) -> str:
        """A base64 token that decodes to text holding a secret (``user:password`` of a Basic
        Authorization header echoed back, a secret encoded by the site) is masked whole."""
        token = found.group()
        try:
            decoded = base64.b64decode(token + "=" * (-len(token) % 4), validate=False).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return token
        assert self._pattern is not None  # (called by text() only when there are secrets)
        return MASK if self._pattern.search(_folded(decoded)) else token

    def url(self, url: str) -> str:
        """A URL with the query parameters of sensitive fields masked, then scrubbed. A text
        that only looks like a URL (a hostile redirect's ``http://[oops``, which urllib cannot
        split) is scrubbed as text: masking must never fail the message it masks."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return self.text(url)
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        if self.names.intersection(name for name, value in pairs if value):
            query = urlencode([(n, MASK if n in self.names else v) for n, v in pairs])
            url = urlunsplit(parts._replace(query=query))
        return self.text(url)

    def message(self, text: str) -> str:
        """An error message, whose URLs (a GET form's query) are masked by parameter too."""
        return self.text(_URL_IN_TEXT.sub(lambda found: self.url(found.group()), text))

    def json(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            # a secret of digits echoed as a number: its digits are the secret all the same
            return MASK if self.text(_number_text(value)) != _number_text(value) else value
        if isinstance(value, dict):
            return {self.text(k): self.json(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(self.json(v) for v in value)
        return value


def _number_text(number: int | float) -> str:
    """A JSON number's digits as the page wrote them (``4111111111111111``, ``1234.0``)."""
    return str(number) if isinstance(number, int) else repr(number)


_ACTIVE: ContextVar[Secrets | None] = ContextVar("formtools_secrets", default=None)


class _ScrubbingFilter(logging.Filter):
    """Masks the active call's secrets in records of the HTTP client's loggers, which write the
    request URL (a GET form's query) at INFO level."""

    def filter(self, record: logging.LogRecord) -> bool:
        secrets = _ACTIVE.get()
        if secrets:
            record.msg = secrets.text(str(record.msg))
            if isinstance(record.args, tuple):
                record.args = tuple(
                    a if isinstance(a, (int, float)) else secrets.url(str(a)) for a in record.args
                )
        return True


_FILTER = _ScrubbingFilter()


@functools.cache
def _filter_http_logs() -> None:
    """The filter on each of the HTTP client's loggers (a parent's filter never sees a child's
    records), put there by the first send: it acts only while one runs, and importing the
    client (``formtools._net``: httpx, with trio where it is installed) for it cost every
    ``call --dry-run`` and ``validate`` a third of its time, though they send nothing."""
    from formtools._net import HTTP_LOGGERS

    for name in HTTP_LOGGERS:
        logging.getLogger(name).addFilter(_FILTER)  # (added once however often asked)


@contextmanager
def hide_in_logs(secrets: Secrets) -> Iterator[None]:
    """While sending, the HTTP client's log records do not show ``secrets``."""
    _filter_http_logs()
    token = _ACTIVE.set(secrets)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def scrubbed_result(
    result: ToolResult, secrets: Secrets, shown_request: Request | NoRequest
) -> ToolResult:
    """A :class:`~formtools.ToolResult` fit to show: the masked request, no secret anywhere
    (a result's URLs never hold the page URL's user name and password: ToolResult drops them)."""
    shown = shown_request if isinstance(shown_request, Request) else None
    result = replace(result, request=shown if result.request is not None else None)
    if not secrets:
        return result
    return replace(
        result,
        url=secrets.url(result.url) if result.url else result.url,
        json_ld=secrets.json(tuple(result.json_ld)),
        text=secrets.text(result.text) if result.text else result.text,
        redirects=tuple(secrets.url(u) for u in result.redirects),
        # a reason can name URLs whose query is the form's (a redirect refused): masked as an
        # error message is, by parameter name too, since a value too short to match as text
        # (a three-digit card code) or cut off with its URL is still there
        reason=secrets.message(result.reason) if result.reason else result.reason,
    )


def printable_request(request: Request | NoRequest) -> Request | NoRequest:
    """``request`` as it may be printed: its URL without user name and password (sent as
    ``Authorization: Basic``, never to be shown)."""
    if isinstance(request, Request) and request.url != without_credentials(request.url):
        return replace(request, url=without_credentials(request.url))
    return request


def without_queries(text: str) -> str:
    """``text`` with the query and fragment of every URL in it left out (``?…``): what a
    message may say when the URLs it names can carry a sensitive output."""

    def cut(found: re.Match[str]) -> str:
        url = found.group().partition("#")[0]
        before, question_mark, _ = url.partition("?")
        return before + ("?…" if question_mark else "")

    return _URL_IN_TEXT.sub(cut, text)
