"""Browser engines' own form tests (Blink's web_tests, WebKit's LayoutTests, Gecko's mochitests:
written by engineers chasing real bugs, and never sent to WPT) as held-out input, against the
real Chromium 156, live.

Session 13 took a seeded sample of their pages with ``<form`` (form owners around tables and
``form=``, nested and parser-dropped forms, ``formaction``/``formmethod``/``formenctype``/
``formtarget``, image buttons, ``dirname``, disabled fieldsets and legends, ``<isindex>``,
``mailto:`` actions in legacy encodings, radio groups across forms, datalists, selects with
disabled options and optgroups, Gecko's form-submission table of every control × name × value),
and the markup their scripts write with ``innerHTML``; each became a WebMCP page (scripts
removed, served under a CSP, ``toolname``/``tooldescription`` on every ``<form``), once as
written and once with every control that has an ``id`` but no ``name`` named by it. Tools on
both parse paths, seeded calls, the ``html`` profile against ``checkValidity()`` and lint were
compared with the browser: 94 pages (72 and 22 named variants), 158 forms, 135 tools, all
Chromium's on both parse paths (none unstable); 626 seeded calls, 622 as ``executeTool`` sent or
refused them, the other 4 the documented departure (an unnamed password shares the input key
``""`` with the control that rejects the value, so the refusal does not quote it); the
``html`` profile matched ``checkValidity()`` on 3,369 samples; lint's 10 errors (never-valid 3,
mixed-types 3, duplicate-name 3, shares-name-with-button 1) were true of the markup. What the
pages found, and what probing the classes those tests chase beyond their own pages found, is
kept here:

- a submitter's ``formmethod`` with a text/plain entry list: Chromium picks how the entries are
  serialized by the form's *own* method (``FormSubmission::Create``), so a GET form submitted
  with ``formmethod=post`` sends an urlencoded body labelled ``text/plain``, and a POST form
  submitted with ``formmethod=get`` sends its text/plain entries as the query (read back as
  windows-1252, CRLFs dropped: ``?a=1%202b=x``). formtools followed the standard's one enctype
  and sent ``a=1 2\\r\\n``. Drawn here over the form's method and enctype × the submitter's
  kind, ``formmethod`` and ``formenctype`` × ``accept-charset`` × values;
- a ``type=email`` control's default value: Chromium holds the value attribute with each
  address's domain in ASCII (ICU's transitional UTS #46: ``a@mózillä.órg`` →
  ``a@xn--mzill-kra4h.xn--rg-4ja``, ``straße`` → ``strasse``) when that gives a valid address,
  so Gecko's form-submission page, called with no input, was sent by Chromium and refused by
  formtools ("A part following '@' should not contain the symbol 'ó'"). Drawn here over domains
  of every kind × ``multiple``, as the browser's ``.value`` of one page of such controls;
- a host label that begins with a combining mark (truth22, drawing the e-mail and URL classes
  over scripts Unicode added after Python 3.11's ``unicodedata``): UTS #46 refuses it, and
  Chromium's ICU knows a Kawi or Nag Mundari sign as a mark where Python's Unicode 14 has no
  category for it, so formtools passed ``http://`` + U+11F00 + ``a.com/`` and converted the
  e-mail domain. The marks are now Chromium's Unicode's (``unicodedata2`` at its 17.0).
  Drawn here over marks of ten blocks, old and new, as URL hosts and e-mail domains of one page;
- the rest of UTS #46 over scripts and symbols Unicode added after 14.0 (unicode22, from
  truth22's probes): the bidi rule, composition and CONTEXTJ read Python's Unicode 14 (a Garay
  label beside a Hebrew one refused, a Kawi virama before a joiner a ValueError), and idna's
  tables Unicode 18's (a Jurchen letter accepted). Drawn here over letters of fifteen blocks in
  four shapes, as URL hosts and e-mail domains of one page;
- a bidi domain name whose right-to-left label is written as an A-label (unicode22): UTS #46
  decodes it, so ``a¡.xn--4dbc`` is a bidi domain name whose ``a¡`` fails the bidi rule, and
  checks each A-label's decoded label (a leading mark, a left-to-right label with a Hebrew
  letter); formtools read the A-labels' ASCII text. Drawn here over labels of three bidi
  pools, as written or as A-labels, as URL hosts and e-mail domains of one page;
- a ``<button>`` in the Auto state (no ``type``, or an invalid one) with a ``command``
  attribute but no ``commandfor`` (Blink's command-attribute use-counter tests): Chromium, as
  the HTML Standard, counts it no submit button; formtools looked at ``commandfor`` only, so it
  submitted with that button (its name and value sent) or found a submit button where Chromium
  refuses a form without ``toolautosubmit``. Drawn here over ``type`` × the invoker attributes;
- a ``<select>``'s ``size`` as a non-negative integer (the select tests' ``size=0`` /
  ``size=1`` pages): Chromium skips a ``+`` sign (`` +02`` is 2, a list box, so nothing is
  selected by default) and refuses a value above 4294967295 (a drop-down, whose first enabled
  option is selected, and a required one has a placeholder); formtools took ``+2`` for no
  size and ``4294967296`` for a size, and its placeholder rule (validity, the ``html`` schema,
  lint) read ``2abc`` as no size where Chromium reads 2. One helper now gives the display
  size. A ``wrap=hard`` textarea's ``cols`` is the same number (`` 5``, ``+5``, ``5px`` wrap
  at 5 in Chromium, a value above 2147483647 is the default 20; formtools wrapped the first at
  20 and the last not at all). Drawn here over whitespace × sign × digits (at the 32-bit
  edges) × what follows, as what the selects of one form submit with no input, which required
  ones another refuses, and where a third's textareas are broken;
- the pages themselves (``tests/data/engine-form-pages.json``, each cited by repository, commit
  and path): their tools byte for byte on both parse paths and seeded calls.
"""

from __future__ import annotations

import html
import json
import random
from pathlib import Path
from typing import Any

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from tests.support.parity import answer_differences, call_differences, calls_may_share_a_load, calls_the_oracle_sees

pytestmark = pytest.mark.browser

#: a saved page's inline handlers must not run and its subresources must not reach the network
CSP = (("Content-Security-Policy", "default-src 'self'"),)

# the dimensions that decide how a submission's entries are serialized (None: no attribute)
FORM_METHODS = (None, "get", "GET", "post", "PoSt", "dialog", "bogus")
ENCTYPES = (None, "application/x-www-form-urlencoded", "multipart/form-data", "text/plain", "TEXT/plain", "bogus")
SUBMITTER_METHODS = (None, "get", "post", "POST")
SUBMITTERS = ("<button{}>Go</button>", "<input type=submit{}>", "<input type=image src=x{}>")
CHARSETS = (None, "windows-1252", "shift_jis")
VALUES = ("a b", "x&y=z", "#?%+", "l1\r\nl2\tz", "é€", "日本", "😀<>\"'`", "?lead", "")


def _attribute(name: str, value: str | None) -> str:
    return "" if value is None else f' {name}="{html.escape(value)}"'


def _effective(own: str | None, override: str | None) -> str:
    lowered = (override if override is not None else own or "").lower()
    return lowered if lowered in ("post", "dialog") else "get"


def _submission_pages(rng: random.Random, count: int) -> list[tuple[str, str, dict[str, str]]]:
    """(label, page, input): ``count`` forms whose submission is a GET or a POST, at least half
    of them text/plain submissions whose ``formmethod`` differs from the form's own method."""
    pages: list[tuple[str, str, dict[str, str]]] = []
    while len(pages) < count:
        own, override = rng.choice(FORM_METHODS), rng.choice(SUBMITTER_METHODS)
        enctype, formenctype = rng.choice(ENCTYPES), rng.choice((None, *ENCTYPES))
        method = _effective(own, override)
        effective_enctype = (formenctype if formenctype is not None else enctype or "").lower()
        crossed = effective_enctype == "text/plain" and method != _effective(own, None)
        if method == "dialog" or (len(pages) % 2 == 0 and not crossed):
            continue
        charset = rng.choice(CHARSETS)
        submitter = rng.choice(SUBMITTERS).format(
            _attribute("formmethod", override) + _attribute("formenctype", formenctype)
            + (' name=s value="s v"' if rng.random() < 0.5 else "")
        )
        names = rng.sample(("a", "b c", "?q", "é"), 2)
        page = (
            '<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d toolautosubmit action="land?x=1#f"'
            + _attribute("method", own) + _attribute("enctype", enctype) + _attribute("accept-charset", charset) + ">"
            + "".join(f'<input name="{html.escape(name)}">' for name in names) + submitter + "</form>"
        )
        tool_input = {name: rng.choice(VALUES) for name in names}
        label = f"method={own} enctype={enctype} formmethod={override} formenctype={formenctype} charset={charset}"
        pages.append((label, page, tool_input))
    return pages


def test_a_submitters_formmethod_serializes_entries_as_chromium_does(chromium: ChromiumOracle) -> None:
    """22 generated forms, each its own tool (``t<n>``) in one page whose calls share its one load
    (``again``): what a submission sends is its form's and submitter's attributes and the page's
    URL and encoding, which the forms share."""
    cases = _submission_pages(random.Random("engines-formmethod"), 22)
    prefix = "<!doctype html><meta charset=utf-8>"
    assert all(page.startswith(prefix) for _, page, _ in cases)
    page = prefix + "".join(
        form.removeprefix(prefix).replace("<form toolname=t ", f"<form toolname=t{number} ", 1)
        for number, (_, form, _) in enumerate(cases)
    )
    again = calls_may_share_a_load(page)
    assert again
    found = []
    for number, (label, _, tool_input) in enumerate(cases):
        for difference in call_differences(chromium, page, tool_input, "/engines/formmethod.html", f"t{number}", again=again):
            found.append(f"{label} {tool_input!r}: {difference}")
    assert not found, f"{len(found)} differences:\n" + "\n".join(found[:10])


# pieces of e-mail domains: what UTS #46 maps, refuses or leaves, and what the address check refuses
DOMAIN_LABELS = ("example", "EXAMPLE", "é", "BÜ", "straße", "ς", "a\u200db", "ａ", "مثال", "שa", "日本", "-x", "x-",
                 "ab--c", "xn--9ca", "é" * 64, "", "a_b", "a@b", "\u0301a", "١٢٣")
# A-labels as written: valid ones, and Punycode that does not decode, decodes to what the
# mapping changes or refuses (a control character, ⒈, a capital), to nothing, or to ASCII
A_LABELS = ("xn--mnchen-3ya", "XN--9CA", "xn--zca", "xn--1ug", "xn--mgbh0a", "xn--ls8h", "xn--zz", "xn--a",
            "xn--a-ecp", "xn--", "xn--ss-", "xn--abc", "xn--Mnchen-3ya", "xn--mnchen-3y")
LOCAL_PARTS = ("a", "é", "first.last", "")


def _email_values(rng: random.Random, count: int) -> list[tuple[str, bool]]:
    """(value attribute, multiple): addresses of 1 to 3 labels, some with a trailing dot, lists
    of 1 to 3 addresses with spaces around the commas for ``multiple``."""
    def address() -> str:
        labels = [rng.choice(DOMAIN_LABELS) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.3:  # beside a label that makes the domain go through UTS #46
            labels.insert(rng.randint(0, len(labels)), rng.choice(A_LABELS))
        return rng.choice(LOCAL_PARTS) + "@" + ".".join(labels) + ("." if rng.random() < 0.1 else "")

    values = []
    for _ in range(count):
        multiple = rng.random() < 0.3
        parts = [address() for _ in range(rng.randint(1, 3) if multiple else 1)]
        values.append((" , ".join(parts) if multiple else f" {parts[0]} ", multiple))
    return values


def test_an_email_controls_default_value_is_chromiums(chromium: ChromiumOracle) -> None:
    from formtools._forms.state import initial_state

    values = _email_values(random.Random("engines-email-defaults"), 120)
    page = "<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d>" + "".join(
        f'<input type=email name=e{n}{" multiple" if multiple else ""} value="{html.escape(value)}">'
        for n, (value, multiple) in enumerate(values)
    ) + "</form>"
    chromium.page.goto(chromium.site.put("/engines/email-defaults.html", page.encode(), "text/html; charset=utf-8"))
    theirs = chromium.page.evaluate("() => [...document.querySelectorAll('input')].map(e => e.value)")
    form = formtools.extract(formtools.parse_html(page)).tool("t").form
    state = initial_state(form)
    ours = [state.of(control).value for control in form.controls]
    wrong = [f"{value!r}: Chromium {t!r}, formtools {o!r}" for (value, _), t, o in zip(values, theirs, ours) if t != o]
    assert len(theirs) == len(ours) == len(values)
    assert not wrong, f"{len(wrong)} of {len(values)}:\n" + "\n".join(wrong[:10])


def test_a_url_controls_type_mismatch_is_chromiums(chromium: ChromiumOracle) -> None:
    """A type=url value whose host has a non-ASCII label goes through UTS #46, and an A-label
    beside it must decode to a valid label (``http://é.xn--zz.com/`` is a type mismatch in
    Chromium; formtools took any ``xn--`` label as it was). 60 seeded hosts of an A-label and
    1 or 2 other labels, one page."""
    from formtools._forms.values.email_url import type_mismatch

    rng = random.Random("engines-url-a-labels")
    values = []
    for _ in range(60):
        labels = [rng.choice(DOMAIN_LABELS) for _ in range(rng.randint(1, 2))]
        labels.insert(rng.randint(0, len(labels)), rng.choice(A_LABELS))
        values.append(f"http://{'.'.join(labels)}/")
    page = "<!doctype html><meta charset=utf-8><form>" + "".join(
        f'<input type=url value="{html.escape(value)}">' for value in values
    ) + "</form>"
    chromium.page.goto(chromium.site.put("/engines/url-a-labels.html", page.encode(), "text/html; charset=utf-8"))
    theirs = chromium.page.evaluate("() => [...document.querySelectorAll('input')].map(e => e.validity.typeMismatch)")
    wrong = [f"{value!r}: Chromium {t}, formtools {not t}" for value, t in zip(values, theirs) if type_mismatch("url", value) != t]
    assert not wrong, f"{len(wrong)} of {len(values)}:\n" + "\n".join(wrong[:10])


#: left-to-right scripts with combining marks: classic blocks, and scripts Unicode added after
#: 14.0 (Python 3.11's ``unicodedata``), Kawi, Nag Mundari, Tulu-Tigalari, Gurung Khema, Kirat Rai,
#: Sunuwar, Ol Onal, Devanagari Extended-A (right-to-left ones would make a bidi domain name)
MARKED_BLOCKS = ((0x0300, 0x036F), (0x0900, 0x097F), (0x11F00, 0x11F5F), (0x1E4D0, 0x1E4FF), (0x11380, 0x113FF),
                 (0x16100, 0x1613F), (0x16D40, 0x16D7F), (0x11BC0, 0x11BFF), (0x1E5D0, 0x1E5FF), (0x11B00, 0x11B5F))


def _assert_hosts_read_as_in_chromium(chromium: ChromiumOracle, path: str, hosts: list[str]) -> None:
    """Each host as a URL's (``http://HOST/``) and an e-mail address's domain (``x@HOST``) in one
    page: the value and typeMismatch of each input, Chromium's and formtools', are the same."""
    from formtools._forms.state import initial_state
    from formtools._forms.values.email_url import type_mismatch

    page = "<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d>" + "".join(
        f'<input type=url name=u{n} value="{html.escape(f"http://{host}/")}"><input type=email name=e{n} value="{html.escape(f"x@{host}")}">'
        for n, host in enumerate(hosts)
    ) + "</form>"
    chromium.page.goto(chromium.site.put(path, page.encode(), "text/html; charset=utf-8"))
    theirs = chromium.page.evaluate("() => [...document.querySelectorAll('input')].map(e => [e.value, e.validity.typeMismatch])")
    form = formtools.extract(formtools.parse_html(page)).tool("t").form
    state = initial_state(form)
    ours = [[state.of(control).value, type_mismatch(control.type, state.of(control).value)] for control in form.controls]
    wrong = [f"{t[0].encode('ascii', 'backslashreplace')!r}: Chromium {t}, formtools {o}" for t, o in zip(theirs, ours) if t != o]
    assert len(theirs) == len(ours) == 2 * len(hosts)
    assert not wrong, f"{len(wrong)} of {len(ours)}:\n" + "\n".join(wrong[:10])


def test_a_host_label_beginning_with_a_mark_is_refused_as_in_chromium(chromium: ChromiumOracle) -> None:
    """UTS #46 refuses a label that begins with a combining mark, and ICU knows the marks of
    Chromium's Unicode: formtools read Python's (``U+11F00``, a Kawi sign, has no category in
    Unicode 14), so a host of U+11F00 then U+11F04 passed where Chromium finds a type
    mismatch, and an e-mail domain was converted to Punycode where Chromium keeps it, invalid.
    60 seeded code points of :data:`MARKED_BLOCKS`, each first in a label, as a URL's host and
    an e-mail address's domain, one page."""
    rng = random.Random("engines-leading-marks")
    labels = [chr(rng.randint(*rng.choice(MARKED_BLOCKS))) + "a" for _ in range(60)]
    _assert_hosts_read_as_in_chromium(chromium, "/engines/leading-marks.html", [f"{label}.com" for label in labels])


#: scripts Unicode added after 14.0 (Python 3.11's ``unicodedata``) up to Chromium's 17.0, left to
#: right and right to left (Kawi, Nag Mundari, Tulu-Tigalari, Gurung Khema, Kirat Rai, Garay,
#: Arabic Extended-C, Sidetic, Tolong Siki, Beria Erfe, Tai Yo), new symbols (U+1C89, U+20C1,
#: control pictures), and Unicode 18.0's, which Chromium's Unicode does not assign (Jurchen,
#: Arabic crown letters)
NEWER_BLOCKS = ((0x11F00, 0x11F5F), (0x1E4D0, 0x1E4FF), (0x11380, 0x113FF), (0x16100, 0x1613F), (0x16D40, 0x16D7F),
                (0x10D40, 0x10D8F), (0x10EC0, 0x10EFF), (0x10940, 0x1095F), (0x11DB0, 0x11DEF), (0x16EA0, 0x16EDF),
                (0x1E6C0, 0x1E6FF), (0x1C89, 0x1C8A), (0x20C0, 0x20C1), (0x2427, 0x2429), (0x18E00, 0x1918F))


def test_hosts_of_newer_unicode_are_read_with_chromiums_unicode(chromium: ChromiumOracle) -> None:
    """UTS #46 as Chromium's ICU applies it reads Unicode 17.0's classes, formtools read
    Python's Unicode 14.0 and idna's (18.0 in idna 3.20): a label of Kawi or Garay letters
    beside a Hebrew label failed idna's bidi rule ("Unknown directionality") where Chromium
    accepts and converts it; a Kawi virama before a joiner raised ValueError (no such name);
    a Tulu-Tigalari or Kirat Rai pair Unicode 16 composes was converted to another Punycode
    than Chromium's; a Jurchen letter (Unicode 18) passed where Chromium refuses it. 60 seeded
    hosts of :data:`NEWER_BLOCKS` in four shapes (two letters; after a Hebrew one; a composite
    decomposed; a virama and a joiner), beside ``com`` or a Hebrew label, as a URL's host and
    an e-mail address's domain, one page."""
    import unicodedata2

    rng = random.Random("engines-newer-unicode")
    drawn = {shape: [chr(code) for low, high in NEWER_BLOCKS for code in range(low, high + 1)] for shape in "lhcv"}
    drawn["c"] = [unicodedata2.normalize("NFD", char) for char in drawn["c"] if unicodedata2.decomposition(char)[:1] not in ("", "<")]
    drawn["v"] = [char + rng.choice("\u200c\u200d") for char in drawn["v"] if unicodedata2.combining(char) == 9]
    labels = []
    for _ in range(60):
        shape = rng.choice("lhcv")
        draw = rng.choice(drawn[shape])
        label = {"l": draw + rng.choice(drawn["l"]), "h": "\u05d0" + draw, "c": draw, "v": "a" + draw + "a"}[shape]
        labels.append(label + rng.choice([".com", ".\u05d0\u05d1"]))
    _assert_hosts_read_as_in_chromium(chromium, "/engines/newer-unicode.html", labels)


#: characters of a host label by Bidi_Class: right to left (Hebrew, Arabic, Arabic-Indic digits
#: AN), left to right (Latin, Cyrillic), and neither (digits EN, symbols ON/ET, hyphen, marks)
BIDI_POOLS = ("\u05d0\u05d1\u05e9\u0627\u0628\u0645\u0661\u0662", "a\u00e9\u00f1\u0431\u0436z",
              "19\u00a1\u00a2\u00b0-\u0301\u0308")


def test_a_bidi_domain_name_is_read_with_its_a_labels_decoded_as_in_chromium(chromium: ChromiumOracle) -> None:
    """UTS #46 reads an ``xn--`` label as the label it stands for: a domain name is a bidi one
    when a label, an A-label decoded, holds a right-to-left character, and each label, as
    decoded, must pass the bidi rule and may not begin with a mark. formtools looked for
    right-to-left characters in the mapped text only (``a¡.xn--4dbc``, whose ``xn--4dbc`` is
    אב, passed where Chromium finds a type mismatch, 2,943 of the code points 0x80-0x3000 and
    0xFB00-0xFFFF in truth22's recording) and checked an A-label's ASCII text, not its label
    (``é.xn--a-0hc``, aא, passed; ``é.xn--a-wbb``, a mark first, passed; ``xn--é``
    was converted). 60 seeded hosts of two or three labels drawn from :data:`BIDI_POOLS`, each
    written as it is or as its A-label, as a URL's host and an e-mail address's domain, one
    page."""
    rng = random.Random("engines-bidi-a-labels")

    def label() -> str:
        text = "".join(rng.choice(rng.choice(BIDI_POOLS)) for _ in range(rng.randint(1, 3)))
        written = rng.random()
        if written < 0.45 and not text.isascii():
            return "xn--" + text.encode("punycode").decode("ascii")
        return ("xn--" if written > 0.95 else "") + text

    hosts = []
    while len(hosts) < 60:
        host = ".".join(label() for _ in range(rng.randint(2, 3)))
        if not host.isascii():  # an ASCII host is not read by UTS #46 (GURL's simple host)
            hosts.append(host)
    _assert_hosts_read_as_in_chromium(chromium, "/engines/bidi-a-labels.html", hosts)


def _host_of_units(first: str, units: int, label: int, rng: random.Random) -> str:
    """A host of ``units`` UTF-16 code units: ``first``, then ASCII labels of up to ``label``
    characters (each at least one) to fill it."""
    host = first
    while (left := units - len(host.encode("utf-16-le")) // 2) > 0:
        host += "." + "a" * max(1, min(left - 1, rng.randint(1, label)))
    return host


def test_long_idn_hosts_are_bounded_where_chromium_bounds_them(chromium: ChromiumOracle) -> None:
    """A host that needs IDNA is bounded by Chromium's url canonicalizer (``kMaxHostBufferLength``,
    1,265 UTF-16 units of the host percent-decoded) and each label that needs Punycode by ICU's
    encoder (1,000 units, once mapped); formtools used idna's bound, 1,024 characters of the
    whole host, so ``é`` + 1,000 ``a`` passed and ``é`` + 400 ``.ab`` (1,201) or 600 one-CJK
    labels failed, each the reverse of Chromium (adv22). Seeded lengths within 3 of each bound,
    in several shapes (``é``, an astral letter, a capital UTS #46 maps, ``%C3%A9``, CJK labels
    of one character, a soft hyphen UTS #46 drops), as a URL's host and an e-mail address's
    domain, one page."""
    rng = random.Random("engines-long-idn")
    firsts = ("\u00e9", "\U00010428", "\u00c9", "%C3%A9", "\u4e00", "\u00e9\u00ad\u00ad")
    hosts = []
    for _ in range(24):
        first = rng.choice(firsts)
        shown = "\u00e9" if first == "%C3%A9" else first  # its units once percent-decoded
        total = _host_of_units(shown, 1265 + rng.randint(-3, 3), rng.choice((2, 60, 900)), rng)
        hosts.append(first + total[len(shown):])
        labels = ".".join(chr(0x4E00 + rng.randrange(0x5000)) for _ in range(rng.randint(630, 636)))
        hosts.append(labels)
        one_label = first + ("A" if first == "\u00c9" else "a") * (1000 + rng.randint(-3, 3) - len(shown.encode("utf-16-le")) // 2)
        hosts.append(one_label + rng.choice(("", ".com")))
    _assert_hosts_read_as_in_chromium(chromium, "/engines/long-idn.html", hosts)


BUTTON_TYPES = (None, "submit", "SUBMIT", "button", "reset", "bogus", "")
INVOKER_ATTRIBUTES = ("", " command=show-modal", " command", " command=--custom", " commandfor=d",
                      ' commandfor=""', " command=close commandfor=d", " popovertarget=d")


def test_a_command_button_is_no_submit_button_as_in_chromium(chromium: ChromiumOracle) -> None:
    """Each ``type`` × invoker attribute: the button first of two in a form with
    ``toolautosubmit`` (which one submits: its name and value are sent or not), and alone in a
    form without it on a seeded sample (Chromium refuses the call when there is no submit
    button, else waits for the person)."""
    rng = random.Random("engines-command-buttons")
    found = []
    cases = [(kind, attributes) for kind in BUTTON_TYPES for attributes in INVOKER_ATTRIBUTES]
    for number, (kind, attributes) in enumerate(rng.sample(cases, 18)):
        button = f"<button{_attribute('type', kind)}{attributes} name=b value=1>B</button>"
        alone = rng.random() < 0.4
        page = (
            f'<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d{"" if alone else " toolautosubmit"}'
            f' action=land><input name=a>{button}{"" if alone else "<button name=c value=2>C</button>"}</form>'
            "<dialog id=d></dialog>"
        )
        path = f"/engines/buttons/{number}.html"
        if not alone:
            found += [f"{button}: {d}" for d in call_differences(chromium, page, {"a": "q"}, path)]
            continue
        answer = chromium.execute(page, "t", {"a": "q"}, path=path, wait_for_user=0.3)
        theirs = "refused" if answer.error else "waits"
        tool = formtools.extract(formtools.parse_html(page, url=chromium.site.origin + path)).tool("t")
        try:
            formtools.prepare_call(tool, {"a": "q"})
            ours = "waits"
        except formtools.NoSubmitButton:
            ours = "refused"
        if ours != theirs:
            found.append(f"{button} alone: Chromium {theirs}, formtools {ours}")
    assert not found, "\n".join(found[:10])


SIZE_PREFIXES = ("", " ", "\t\n", "\f", "\v", "\u00a0")
SIZE_SIGNS = ("", "", "+", "-", "++", "+-")
SIZE_DIGITS = ("", "0", "1", "2", "02", "7", "4294967295", "4294967296", "2147483648", "99999999999999999999")
SIZE_SUFFIXES = ("", "", "x", ".5", " 3", "e2")


def test_a_selects_size_is_parsed_as_chromium_parses_it(chromium: ChromiumOracle) -> None:
    """Two forms of 60 selects each, one per seeded size: in ``t`` the first option is
    disabled (a drop-down, display size 1, selects its first enabled option by default and
    submits it, a list box selects none); in ``u`` each is required with its empty first
    option selected (a drop-down's placeholder: valueMissing, which refuses the call and names
    every such select)."""
    rng = random.Random("engines-select-size")
    sizes = [
        rng.choice(SIZE_PREFIXES) + rng.choice(SIZE_SIGNS) + rng.choice(SIZE_DIGITS) + rng.choice(SIZE_SUFFIXES)
        for _ in range(60)
    ]
    options = {"t": "<option disabled>d</option><option>a</option>",
               "u": '<option value="" selected>pick</option><option>a</option>'}  # fmt: skip
    page = "<!doctype html><meta charset=utf-8>" + "".join(
        f"<form toolname={tool} tooldescription=d toolautosubmit action=land>"
        + "".join(
            f'<select name=s{n} size="{html.escape(size)}"{" required" if tool == "u" else ""}>{options[tool]}</select>'
            for n, size in enumerate(sizes)
        )
        + "<button>Go</button></form>"
        for tool in options
    )
    # the same numbers as a wrap=hard textarea's cols, which decides where its value is broken
    page += "<form toolname=v tooldescription=d toolautosubmit action=land method=post>" + "".join(
        f'<textarea name=w{n} wrap=hard cols="{html.escape(size)}">{"abcd " * 12}</textarea>'
        for n, size in enumerate(sizes[:30])
    ) + "<button>Go</button></form>"
    found = []
    for tool in (*options, "v"):
        found += call_differences(chromium, page, {}, "/engines/select-size.html", tool)
    assert not found, f"sizes {sizes!r}:\n" + "\n".join(found)


DATA = json.loads((Path(__file__).resolve().parent / "data" / "engine-form-pages.json").read_text("utf-8"))
CALLED_PAGES = 9  # a seeded sample of the pages gets seeded calls (each call is a page load)


def _served(page: str, entry: dict[str, Any]) -> tuple[str | bytes, str]:
    """The page and its Content-Type: UTF-8 text, or bytes in the page's own encoding."""
    if "charset" in entry:
        return page.encode(entry["charset"], "xmlcharrefreplace"), "text/html"
    return page, "text/html; charset=utf-8"


def test_engine_pages_give_chromiums_tools_and_calls(chromium: ChromiumOracle) -> None:
    """Every page once, for its tools on both parse paths (two navigations agreed on every page
    when the corpus was compared); on a seeded sample, the named variant's tools too, and
    seeded calls, with refusals, where the request reaches the oracle's site."""
    rng = random.Random("engine-form-pages")
    found, calls = [], 0
    called = set(rng.sample(range(len(DATA["pages"])), CALLED_PAGES))
    for number, entry in enumerate(DATA["pages"]):
        source = f"{entry['repo']}@{entry['commit'][:12]}:{entry['path']}"
        for variant in ("markup", "named"):
            if variant not in entry or (variant == "named" and number not in called):
                continue
            page, content_type = _served(entry[variant], entry)
            called_here = number in called and variant == "markup"
            path = f"/engines/pages/{number}.html"
            # a called page's tools are read where its calls are made, so that the first call is
            # made in the document read (a page load fewer per called page)
            theirs = chromium.tools(page, content_type=content_type, headers=CSP, path=path if called_here else None)
            found += answer_differences(theirs, page, f"{source} ({variant})", content_type)
            if not called_here:
                continue
            document = formtools.parse_html(page, url=chromium.site.origin + path, content_type=content_type)
            inputs = calls_the_oracle_sees(document, rng, chromium.site.origin)
            for index, (name, tool_input) in enumerate(rng.sample(inputs, min(2, len(inputs)))):
                calls += 1
                differences = call_differences(chromium, page, tool_input, path, name, content_type, CSP, loaded=index == 0)
                found += [f"{source} {name} {tool_input!r}: {difference}" for difference in differences]
    assert calls >= 12
    assert not found, "\n".join(found[:10])
