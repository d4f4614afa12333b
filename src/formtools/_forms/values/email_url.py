"""``type=email`` and ``type=url`` as Chromium validates them: ASCII e-mail addresses, and
absolute URLs as GURL parses them (not as the URL Standard does).

Part of :mod:`formtools._forms.values`; see it for how these rules were measured.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from formtools._spec.unicode_classes import bidi_class, combining_class, is_assigned, is_mark, nfc

_HTML_SPACES = " \t\n\f\r"

# --- e-mail and URL ------------------------------------------------------------------------------

_EMAIL = re.compile(
    r"[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*"
)


def is_valid_email(value: str, multiple: bool = False) -> bool:
    """A valid e-mail address (list): ASCII only, as Chromium checks a value set by script."""
    if not multiple:
        return _EMAIL.fullmatch(value) is not None
    return all(_EMAIL.fullmatch(part.strip(_HTML_SPACES)) for part in value.split(","))


# Schemes Chromium's renderer parses as "standard" (host required); other schemes but file and
# filesystem follow the URL Standard's rules for non-special URLs.
_STANDARD_SCHEMES = frozenset(
    "http https ws wss ftp chrome chrome-extension chrome-untrusted chrome-search chrome-error"
    " chrome-native devtools isolated-app".split()
)
_SCHEMES_WITH_PORT = frozenset("http https ws wss ftp".split())  # the others ignore ":port"
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# Code points a host may not contain once percent-decoded (a space is allowed: GURL escapes it).
_SPECIAL_HOST_FORBIDDEN = frozenset(chr(c) for c in range(0x20)) | set("\x7f%/:<>?@[\\]^|#")
# Chromium tests the low byte of each code point of a non-special host (the high surrogate's,
# for a pair) against the forbidden host code points: U+4E00 is rejected like NUL, U+0140 like @.
_OPAQUE_HOST_FORBIDDEN = frozenset(b"\x00\t\n\r #/:<>?@[\\]^|")
_HEX_DIGITS = "0123456789abcdefABCDEF"


def is_valid_absolute_url(value: str) -> bool:
    """Whether Chromium's URL parser (GURL) accepts ``value`` with no base URL.

    This is the typeMismatch rule of ``<input type=url>``: any scheme will do, hosts of the
    standard schemes must canonicalize (IDNA, IPv4 and IPv6 forms, ports up to 65535).
    """
    text = value.strip("".join(chr(c) for c in range(0x21))).translate(str.maketrans("", "", "\t\n\r"))
    match = _SCHEME.match(text)
    if not match:
        return False
    scheme, rest = match.group(1).lower(), text[match.end() :]
    if scheme == "file":
        return _valid_file_url(rest)
    if scheme == "filesystem":
        # filesystem:<standard or file URL with a path of at least one segment>
        inner = _SCHEME.match(rest)
        if not inner or not is_valid_absolute_url(rest):
            return False
        inner_scheme, inner_rest = inner.group(1).lower(), rest[inner.end() :]
        if inner_scheme == "file":
            path = re.sub(r"^//[^/\\?#]*", "", inner_rest)
        elif inner_scheme in _STANDARD_SCHEMES:
            path = re.sub(r"^[/\\]*[^/\\?#]*", "", inner_rest)
        else:
            return False
        return re.match(r"[/\\][^/\\?#]", path) is not None
    if scheme in _STANDARD_SCHEMES:
        authority = re.match(r"[/\\]*([^/\\?#]*)", rest).group(1)  # type: ignore[union-attr]
        return _valid_authority(authority, special=True, ports=scheme in _SCHEMES_WITH_PORT)
    if not rest.startswith("//"):
        return True  # an opaque path: anything goes
    authority = re.match(r"//([^/?#]*)", rest).group(1)  # type: ignore[union-attr]
    return _valid_authority(authority, special=False)


def _valid_file_url(rest: str) -> bool:
    slashes = len(rest) - len(rest.lstrip("/\\"))
    if slashes != 2:
        return True
    host, after = re.match(r"[/\\]*([^/\\?#]*)(.?)", rest).groups()  # type: ignore[union-attr]
    if after in ("?", "#"):
        return False  # a host must be followed by a path before a query or fragment
    return not host or (":" not in host.rpartition("]")[2] and _valid_special_host(host))


def _valid_authority(authority: str, *, special: bool, ports: bool = True) -> bool:
    userinfo, at, hostport = authority.rpartition("@")
    if hostport.startswith("["):
        host, bracket, port = hostport.partition("]")
        host += bracket
        if port and not port.startswith(":"):
            return False
        port = port[1:]
    else:
        host, _, port = hostport.partition(":")
    if ports and port and (not port.isascii() or not port.isdigit() or int(port) > 65535):
        return False
    if not host:  # only a non-special URL may have an empty host, and then no port
        return not special and not at and ":" not in hostport
    if special:
        return _valid_special_host(host)
    if host.startswith("["):
        return host.endswith("]") and _valid_ipv6(host[1:-1])
    return not any(_low_byte(ch) in _OPAQUE_HOST_FORBIDDEN for ch in host)


def _low_byte(ch: str) -> int:
    code = ord(ch)
    if code > 0xFFFF:
        code = 0xD800 + ((code - 0x10000) >> 10)
    return code & 0xFF


#: Chromium's bound on a host that needs IDNA (``kMaxHostBufferLength`` in url/url_canon_host.cc:
#: five times RFC 1034's 253, so that UTS #46 can shrink a long host to fit; ``DoIDNHost``
#: refuses a longer one), in UTF-16 code units of the host percent-decoded; an ASCII host has
#: none. Measured in Chromium 156: 1,265 units valid, 1,266 a type mismatch, however the units
#: are spelled (an astral character counts two, ``%C3%A9`` one, a soft hyphen UTS #46 drops one).
MAX_IDNA_HOST_UNITS = 253 * 5
#: ICU's Punycode encoder's bound on one label (``MAX_CP_COUNT`` in punycode.cpp, against
#: quadratic encoding time): a label that needs Punycode, once mapped, of more than 1,000 UTF-16
#: code units fails (measured: ``é`` + 999 ASCII letters valid, + 1,000 not; an ASCII label in
#: the same host has no such bound)
MAX_PUNYCODE_LABEL_UNITS = 1000


def _utf16_units(text: str) -> int:
    return len(text) + sum(1 for char in text if char > "\uffff")


def _valid_special_host(host: str) -> bool:
    if host.startswith("["):
        return host.endswith("]") and _valid_ipv6(host[1:-1])
    decoded = _percent_decode(host)
    if decoded is None:
        return False
    if not decoded.isascii():
        if _utf16_units(decoded) > MAX_IDNA_HOST_UNITS:
            return False
        mapped = _idna_to_ascii(decoded)
        if mapped is None:
            return False
        decoded = mapped
    if not decoded or any(ch in _SPECIAL_HOST_FORBIDDEN for ch in decoded):
        return False
    return not _ends_in_number(decoded) or _valid_ipv4(decoded)


def _percent_decode(host: str) -> str | None:
    out = bytearray()
    index = 0
    while index < len(host):
        ch = host[index]
        if ch == "%":
            pair = host[index + 1 : index + 3]
            if len(pair) != 2 or not all(c in _HEX_DIGITS for c in pair):
                return None
            out.append(int(pair, 16))
            index += 3
        else:
            out += ch.encode("utf-8", "surrogatepass")
            index += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


#: UTS #46 transitional processing's deviations from the mapping table (ß, final sigma, ZWNJ, ZWJ)
_TRANSITIONAL = str.maketrans({"\u00df": "ss", "\u03c2": "\u03c3", "\u200c": None, "\u200d": None})


def _uts46_map(text: str) -> str:
    """UTS #46 mapping at Chromium's Unicode (``idna.IDNAError`` for a disallowed code point).

    idna's tables may follow a later Unicode (idna 3.20's: 18.0), and a code point Chromium's
    Unicode leaves unassigned is disallowed there; idna normalizes with Python's ``unicodedata``,
    so the result is normalized again at Chromium's Unicode (normalization is stable: what an
    older Unicode composed, a later one composes alike, and it adds its own compositions).
    """
    import idna  # httpx's dependency; only hosts with non-ASCII characters need it

    if not all(map(is_assigned, text)):
        raise idna.IDNAError("a code point Chromium's Unicode does not assign")
    # idna refuses a text past its own bound (1,024 characters), which is not Chromium's
    # (MAX_IDNA_HOST_UNITS): the mapping is per code point, so it is done in pieces within
    # idna's bound, and the pieces, joined, normalized once
    pieces = (text[start : start + _IDNA_PIECE] for start in range(0, len(text), _IDNA_PIECE))
    return nfc("".join(idna.uts46_remap(piece, std3_rules=False, transitional=False) for piece in pieces))


#: the longest text idna.uts46_remap maps (its defensive ``_max_input_length``)
_IDNA_PIECE = 1024


def _idna_to_ascii(host: str, *, transitional: bool = False, strict: bool = False) -> str | None:
    """UTS #46 processing as Chromium asks ICU for it: bidi and CONTEXTJ checked, non-transitional
    for a URL's host (GURL), transitional for an e-mail address's domain.

    GURL does not apply the length and hyphen rules (it accepts ``à-.com``); ``strict`` applies
    them, and refuses an empty label but a trailing one, as ICU's ``nameToASCII`` does when its
    errors are not ignored (``EmailInputType::ConvertEmailAddressToASCII``).
    """
    import idna

    try:
        mapped = _uts46_map(host)
    except idna.IDNAError:
        return None
    if transitional:
        mapped = nfc(mapped.translate(_TRANSITIONAL))
    labels = mapped.split(".")
    forms = []  # each label as ICU checks it: an xn-- label as its Punycode decodes
    for number, label in enumerate(labels):
        if strict and (
            (not label and number < len(labels) - 1)
            or label[:1] == "-" or label[-1:] == "-" or (label[2:4] == "--" and not label.startswith("xn--"))
        ):
            return None
        if not label.isascii() and _utf16_units(label) > MAX_PUNYCODE_LABEL_UNITS:
            return None
        if label.startswith("xn--"):
            form = _a_label_decoded(label, transitional=transitional)
        else:
            form = label if _contextj_ok(label) else None
        if form is None or (form and is_mark(form[0])):
            return None
        forms.append(form)
    # a bidi domain name (a label, an xn-- one decoded, holds a right-to-left character): every
    # label, ASCII too, must pass the bidi rule
    if any(bidi_class(char) in _RTL_CLASSES for form in forms for char in form):
        if not all(_passes_bidi_rule(form) for form in forms if form):
            return None
    out = [label if label.isascii() else "xn--" + label.encode("punycode").decode("ascii") for label in labels]
    if strict and (any(len(label) > 63 for label in out) or len(".".join(out).rstrip(".")) > 253):
        return None
    return ".".join(out)


# RFC 5893's Bidi Rule over Bidi_Class: a label holding one of these makes a bidi domain name
_RTL_CLASSES = frozenset({"R", "AL", "AN"})
_RTL_LABEL_CLASSES = frozenset({"R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"})  # rule 2
_LTR_LABEL_CLASSES = frozenset({"L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"})  # rule 5


def _passes_bidi_rule(label: str) -> bool:
    """Whether a (non-empty) label of a bidi domain name passes RFC 5893's Bidi Rule, as ICU's
    ``UTS46::checkLabelBiDi`` tests it, over Chromium's Bidi_Class.

    Written here because ``idna.check_bidi`` reads Python's ``unicodedata`` and takes no other
    data: it raises "Unknown directionality" for a letter Unicode 14 does not know (Kawi, Garay,
    ``U+1C89``), which Chromium classes and accepts beside a Hebrew label.
    """
    classes = [bidi_class(char) for char in label]
    first = classes[0]
    # rules 3 and 6 read the last class but trailing NSMs (the first's, if only NSMs follow it)
    last = next((found for found in reversed(classes[1:]) if found != "NSM"), first)
    present = set(classes)
    if first == "L":
        return last in ("L", "EN") and present <= _LTR_LABEL_CLASSES
    if first in ("R", "AL"):
        return last in ("R", "AL", "EN", "AN") and present <= _RTL_LABEL_CLASSES and not {"EN", "AN"} <= present
    return False  # rule 1


def _a_label_decoded(label: str, *, transitional: bool) -> str | None:
    """The label an ``xn--`` label stands for, when it passes UTS #46 (section 4, step 4) as ICU
    checks it for Chromium 156: it is ASCII, its Punycode decodes, to a label that is not all
    ASCII, is NFC, that the (nontransitional) mapping leaves as it is and, for a URL's host,
    that passes CONTEXTJ (an e-mail domain's ``xn--1ug``, a lone ZWJ, is accepted: measured).
    Else (None) ICU reports an error, and Chromium keeps an e-mail address as written or calls
    a URL's host invalid (``é.xn--zz.com``, ``é.xn--a-ecp.ru``, whose ⒈ maps to "1.",
    ``é.xn--ss-.com``, ``xn--é.com``)."""
    import idna  # (as _idna_to_ascii: loaded only for hosts with non-ASCII characters)

    try:
        decoded = label[4:].encode("ascii").decode("punycode")
        remapped = _uts46_map(decoded)
    except (UnicodeError, idna.IDNAError):
        return None
    valid = not decoded.isascii() and remapped == decoded == nfc(decoded)
    return decoded if valid and (transitional or _contextj_ok(decoded)) else None


_VIRAMA = 9  # the Canonical_Combining_Class of a virama


def _contextj_ok(label: str) -> bool:
    """Whether each ZWNJ and ZWJ of a label stands where IDNA's CONTEXTJ rules (RFC 5892,
    appendix A.1 and A.2) allow it, as ICU's ``UTS46::isLabelOkContextJ`` tests them.

    Written here because ``idna.valid_contextj`` reads a virama's combining class from Python's
    ``unicodedata``, which has none for a virama of a later script (Kawi ``U+11F42``): it raised
    ValueError. A joiner's scan stops at the joiners beside it (neither is Transparent), so the
    label is read about twice at most.
    """
    for position, char in enumerate(label):
        if char not in "\u200c\u200d":
            continue
        if position == 0:
            return False
        if combining_class(label[position - 1]) == _VIRAMA:
            continue
        if char == "\u200d":
            return False
        before = _joining_type_beside(reversed(label[:position]))
        after = _joining_type_beside(label[position + 1 :])
        if before not in ("L", "D") or after not in ("R", "D"):
            return False
    return True


def _joining_type_beside(chars: Iterable[str]) -> str | None:
    """The Joining_Type of the first of ``chars`` that is not Transparent (idna's table: at
    Chromium's Unicode for every code point it assigns), None when there is none."""
    from idna.idnadata import joining_types
    from idna.intranges import intranges_contain

    for char in chars:
        found = next((kind for kind, ranges in joining_types.items() if intranges_contain(ord(char), ranges)), None)
        if found != "T":
            return found
    return None


def email_to_ascii(value: str, multiple: bool = False) -> str:
    """A ``type=email`` control's value attribute as its default value holds it in Chromium 156:
    each address's domain converted to ASCII (``a@é.com`` → ``a@xn--9ca.com``,
    ``a@straße.de`` → ``a@strasse.de``) when ICU's transitional UTS #46 processing has no error
    and the result is a valid e-mail address, else the address as written
    (``EmailInputType::ConvertEmailAddressToASCII``). ``value`` is already sanitized. A value set
    by script (a call's) is not converted: Chromium validates it as it is (measured,
    tests/test_browser_engines_corpus.py).

    >>> email_to_ascii("a@é.com,b@é-.com", multiple=True)
    'a@xn--9ca.com,b@é-.com'
    """
    if not multiple:
        return _address_to_ascii(value)
    return ",".join(map(_address_to_ascii, value.split(",")))


def _address_to_ascii(address: str) -> str:
    local, at, domain = address.partition("@")
    if address.isascii() or not at:
        return address
    ascii_domain = _idna_to_ascii(domain, transitional=True, strict=True)
    if ascii_domain is None or len(ascii_domain) >= 255:
        return address
    converted = f"{local}@{ascii_domain}"
    return converted if is_valid_email(converted) else address


def _ipv4_number(part: str) -> int | None:
    radix = 10
    if part[:2] in ("0x", "0X"):
        part, radix = part[2:], 16
    elif len(part) > 1 and part[0] == "0":
        part, radix = part[1:], 8
    if not part:
        return 0
    allowed = {8: "01234567", 10: "0123456789", 16: _HEX_DIGITS}[radix]
    if not all(ch in allowed for ch in part):
        return None
    return int(part, radix)


def _ends_in_number(host: str) -> bool:
    parts = host.split(".")
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]
    if last and last.isascii() and last.isdigit():
        return True
    return bool(last) and _ipv4_number(last) is not None


def _valid_ipv4(host: str) -> bool:
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4 or any(not part for part in parts):
        return False
    numbers = [_ipv4_number(part) for part in parts]
    if any(n is None for n in numbers):
        return False
    if any(n > 255 for n in numbers[:-1]):  # type: ignore[operator]
        return False
    return bool(numbers[-1] < 256 ** (5 - len(numbers)))


def _valid_ipv6(text: str) -> bool:
    """The URL Standard's IPv6 parser, as a yes/no: at most one ``::``, an IPv4 tail allowed."""
    if text.count("::") > 1:
        return False
    head, compressed, tail = text.partition("::")
    if compressed:
        pieces = (head.split(":") if head else []) + (tail.split(":") if tail else [])
    else:
        pieces = text.split(":")
    count = 0
    for index, piece in enumerate(pieces):
        if "." in piece:
            if index != len(pieces) - 1 or not _valid_embedded_ipv4(piece):
                return False
            count += 2
        elif 1 <= len(piece) <= 4 and all(ch in _HEX_DIGITS for ch in piece):
            count += 1
        else:
            return False
    return count < 8 if compressed else count == 8


def _valid_embedded_ipv4(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(
        part.isascii() and part.isdigit() and (part == "0" or not part.startswith("0")) and int(part) <= 255
        for part in parts
    )


def type_mismatch(input_type: str, value: str, *, multiple: bool = False) -> bool:
    """validity.typeMismatch for a sanitized value (only url and email can suffer from it)."""
    if not value:
        return False
    if input_type == "email":
        return not is_valid_email(value, multiple)
    if input_type == "url":
        return not is_valid_absolute_url(value)
    return False


