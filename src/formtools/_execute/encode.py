"""Stage 5 — encode: an entry list → the bytes a browser sends (#form-submission-algorithm).

Three serializers (``application/x-www-form-urlencoded``, ``multipart/form-data``, ``text/plain``).
They are short: the character encoders they call (:func:`~formtools._spec.encoding.encode_text`)
are where the work is.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass
from typing import Sequence

from formtools._spec.encoding import encode_text
from formtools.errors import UsageProblem

__all__ = [
    "ENCTYPES",
    "Entry",
    "File",
    "content_type",
    "multipart",
    "new_boundary",
    "percent_encode",
    "text_plain",
    "urlencode",
]

# #attr-fs-enctype: the three states, by keyword.
URLENCODED = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
TEXT_PLAIN = "text/plain"
ENCTYPES = (URLENCODED, MULTIPART, TEXT_PLAIN)


@dataclass(frozen=True)
class File:
    """A file entry's value (#concept-fd-entry). ``content_type`` is a File's ``type``: printable
    ASCII, and ``""`` (unknown) is sent as ``application/octet-stream``."""

    filename: str
    content_type: str = "application/octet-stream"
    data: bytes = b""

    def __post_init__(self) -> None:
        for name, kind in (("filename", str), ("content_type", str), ("data", bytes)):
            if not isinstance(getattr(self, name), kind):
                raise UsageProblem(f"a file's {name} is {kind.__name__}, not {type(getattr(self, name)).__name__}")
        if not all(" " <= char <= "~" for char in self.content_type):
            raise UsageProblem(f"a file's content type is printable ASCII: {self.content_type!r}")


Entry = tuple[str, str | File]

# --- the serializers --------------------------------------------------------------------------

_NEWLINE = re.compile("\r\n|\r|\n")


def _crlf(text: str) -> str:
    """Every CR not followed by LF, and every LF not preceded by CR, becomes CRLF."""
    return _NEWLINE.sub("\r\n", text)


def _name_value_pairs(entries: Sequence[Entry]) -> list[tuple[str, str]]:
    """#convert-to-a-list-of-name-value-pairs: files become their names; newlines become CRLF."""
    return [
        (_crlf(name), _crlf(value.filename if isinstance(value, File) else value))
        for name, value in entries
    ]


def _urlencoded_byte(byte: int) -> str:
    """The application/x-www-form-urlencoded percent-encode set spares only ASCII alphanumerics
    and ``*-._``; a space is ``+``."""
    char = chr(byte)
    if char == " ":
        return "+"
    return char if char.isascii() and (char.isalnum() or char in "*-._") else f"%{byte:02X}"


_BYTE_TO_URLENCODED = tuple(map(_urlencoded_byte, range(256)))


def percent_encode(data: bytes) -> str:
    """``data`` as the ``application/x-www-form-urlencoded`` serializer writes it."""
    return "".join(map(_BYTE_TO_URLENCODED.__getitem__, data))


def urlencode(entries: Sequence[Entry], encoding: str) -> str:
    """The ``application/x-www-form-urlencoded`` serialization (#urlencoded-serializing).

    >>> urlencode([("q", "a b~*'!()"), ("n", "\\u0259")], "windows-1252")
    'q=a+b%7E*%27%21%28%29&n=%26%23601%3B'
    """
    return "&".join(
        f"{percent_encode(encode_text(name, encoding))}="
        f"{percent_encode(encode_text(value, encoding))}"
        for name, value in _name_value_pairs(entries)
    )


def _escape_quoted(data: bytes) -> bytes:
    """#multipart-form-data-encoding-algorithm: in a quoted name or filename, only LF, CR and
    ``"`` are escaped, on the encoded bytes."""
    return data.replace(b"\n", b"%0A").replace(b"\r", b"%0D").replace(b'"', b"%22")


def multipart(entries: Sequence[Entry], encoding: str, boundary: str) -> bytes:
    """The ``multipart/form-data`` body (#multipart/form-data-encoding-algorithm, RFC 7578).

    Names and string values have their newlines made CRLF; filenames do not. A file part
    carries a ``Content-Type``, a string part none.
    """
    delimiter = b"--" + boundary.encode("ascii")
    body = bytearray()
    for name, value in entries:
        body += delimiter + b'\r\nContent-Disposition: form-data; name="'
        body += _escape_quoted(encode_text(_crlf(name), encoding)) + b'"'
        if isinstance(value, File):
            body += b'; filename="' + _escape_quoted(encode_text(value.filename, encoding))
            body += b'"\r\nContent-Type: '
            body += (value.content_type or "application/octet-stream").encode("ascii")
            body += b"\r\n\r\n" + value.data
        else:
            body += b"\r\n\r\n" + encode_text(_crlf(value), encoding)
        body += b"\r\n"
    return bytes(body + delimiter + b"--\r\n")


def text_plain(entries: Sequence[Entry], encoding: str) -> bytes:
    """The ``text/plain`` body (#text/plain-encoding-algorithm): ``name=value`` CRLF per entry,
    unescaped. Each name and value is encoded on its own, as Chromium does."""
    return b"".join(
        encode_text(name, encoding) + b"=" + encode_text(value, encoding) + b"\r\n"
        for name, value in _name_value_pairs(entries)
    )


_BOUNDARY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#: the bytes below this (4 × 62) give each character alike, modulo 62; the 8 above would favour
#: the first 8 characters
_UNBIASED_BYTES = 4 * len(_BOUNDARY_ALPHABET)


def new_boundary(rng: random.Random | None = None) -> str:
    """A boundary of Chromium's shape: ``----WebKitFormBoundary`` and 16 ASCII alphanumerics.

    Pass a seeded ``random.Random`` for a reproducible body.
    """
    if rng is not None:
        return "----WebKitFormBoundary" + "".join(rng.choices(_BOUNDARY_ALPHABET, k=16))
    return "----WebKitFormBoundary" + _system_alphanumerics(16)


def _system_alphanumerics(count: int) -> str:
    """``count`` characters of the alphabet, each alike, from the system's randomness in one read
    (``SystemRandom.choices`` read it once per character: 55 µs of every call prepared, which
    draws a boundary whether its form is multipart or not; this takes 9 µs)."""
    drawn: list[str] = []
    while len(drawn) < count:
        drawn += [_BOUNDARY_ALPHABET[byte % len(_BOUNDARY_ALPHABET)] for byte in os.urandom(2 * count) if byte < _UNBIASED_BYTES]
    return "".join(drawn[:count])


def content_type(enctype: str, boundary: str | None = None) -> str:
    """The request's ``Content-Type`` for an enctype (one of :data:`ENCTYPES`); multipart needs
    the boundary of its body."""
    if enctype not in ENCTYPES:
        raise ValueError(f"not an enctype: {enctype!r} (one of {', '.join(ENCTYPES)})")
    if enctype != MULTIPART:
        return enctype
    if not boundary:
        raise ValueError("multipart/form-data needs the body's boundary")
    return f"{MULTIPART}; boundary={boundary}"
