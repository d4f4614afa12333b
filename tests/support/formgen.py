"""Seeded random pages of WebMCP-annotated forms, for the live differential test.

Why this exists: formtools must produce tool definitions byte-identical with Chromium 156, and
hand-written fixtures only hold the cases somebody thought of. The differential test renders
many generated pages in the real browser and compares. Each page is small, so a mismatch is
easy to read, but the corpus as a whole covers every construct the reference notes
(``/work/shared/reference/``) say matters: every input type, selects, groups, labels and the
description fallbacks, disabled/readonly rules, patterns, numeric and date attributes, name
grouping, tool-attribute validity, ``form=`` association and the parser's form pointer.

How it works: a page is drawn from a **weighted grammar**. Each construct is a small function
with the shared signature ``(rng) -> str`` that returns an HTML fragment, and each grammar
level is a table of ``(weight, construct)`` rows (``CONTROLS``, ``SUBMITS``, ``FORMS``,
``EXTRAS``; labels use ``LABELS`` with ``(rng, make) -> str``). To add a case, write a function
and add a row; the weight says how often it shows up. Keep common, well-formed constructs
heavy, so that about four forms in five register a tool and the edge cases stay sprinkled in.

Determinism: everything is drawn from one :class:`PageRng` seeded with the page seed. There is
no global random state, no clock and no iteration over sets, so the same seed gives the same
bytes in every process (whatever ``PYTHONHASHSEED`` is). Page ``gen-0042`` is
``generate_page(42)``, which makes any failure reproducible from its id alone.

Escaping: values meant literally go through :func:`html.escape` and are always double-quoted.
The only raw markup in text pools is deliberate (entities in ``<option>`` text, ``<b>`` inside
labels), and it is built as markup, not smuggled through an attribute.

Parser probe: a few options contain elements (``<option><b>x</b></option>``). Chromium 156's
customizable-select parser keeps the elements, html5lib 1.1 drops the tags but keeps the text, so
the option's textContent (the enum title) agrees; only the tree differs.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

__all__ = ["PageRng", "generate_page", "generate_pages"]

T = TypeVar("T")
Construct = Callable[["PageRng"], T]  # the shared signature: (rng) -> fragment or value
Table = Sequence[tuple[float, Construct[T]]]
Attr = tuple[str, "str | bool | None"]  # None/False: omitted; True: boolean attribute


# ---------------------------------------------------------------------------------------------
# The random source and markup helpers
# ---------------------------------------------------------------------------------------------


class PageRng(random.Random):
    """A :class:`random.Random` that also remembers what the current page holds.

    Cross-form edge cases need page memory: a duplicate ``toolname`` must repeat an earlier
    one, ``form="…"`` should usually point at a form that exists, ``label for=`` needs ids that
    do not collide, and a duplicate control name must repeat one from the same form. Keeping
    that state on the rng lets every construct keep the one-argument signature.
    """

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.form_count = 1  # forms planned for the page (form= targets are drawn from these)
        self.form_index = 0  # ids handed out so far: f1, f2, ...
        self.tool_names: list[str] = []  # every toolname written on the page
        self.form_names: list[str] = []  # control names used in the current form
        self._serial = 0

    def serial(self) -> int:
        """A page-unique number, for ids and names that must not collide by accident."""
        self._serial += 1
        return self._serial

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{self.serial()}"

    def draw(self, table: Table[T]) -> T:
        """Pick a row of a weighted table by weight and run it."""
        weights = [weight for weight, _ in table]
        (construct,) = self.choices([c for _, c in table], weights=weights)
        return construct(self)

    def pick(self, pool: Sequence[tuple[float, T]]) -> T:
        """Pick a plain value from a weighted pool of ``(weight, value)`` rows."""
        (value,) = self.choices([v for _, v in pool], weights=[w for w, _ in pool])
        return value

    def maybe(self, probability: float) -> bool:
        return self.random() < probability


def _attrs(pairs: Sequence[Attr]) -> str:
    """Render attributes, always double-quoted and escaped, in the given order."""
    out = []
    for name, value in pairs:
        if value is None or value is False:
            continue
        if value is True:
            out.append(f" {name}")
        else:
            out.append(f' {name}="{html.escape(value, quote=True)}"')
    return "".join(out)


def _text(value: str) -> str:
    """Escape literal text content (quotes need no escaping outside attributes)."""
    return html.escape(value, quote=False)


def _uniform(values: Sequence[str]) -> list[tuple[float, str]]:
    return [(1.0, v) for v in values]


# ---------------------------------------------------------------------------------------------
# Value pools. Weighted where the common case should dominate; each pool lists its edge cases.
# ---------------------------------------------------------------------------------------------

WORDS = ["q", "query", "email", "city", "qty", "topic", "note", "age", "zip", "phone", "start",
         "guests", "tags", "plan", "level", "code", "size", "origin", "seat", "budget"]

# Tool and parameter descriptions: plain text mostly, then whitespace, markup-looking text,
# quotes, ampersands, newlines, unicode, NBSP (not ASCII whitespace) and combining marks.
DESCRIPTIONS: list[tuple[float, str]] = [
    (10, "Search the catalogue"), (6, "Book a table for dinner"), (6, "Number of guests"),
    (5, "Pick a colour"), (4, "Your e-mail address"), (3, "x"),
    (2, "  padded on both sides  "), (2, "Line one\nline two"), (1, "Tabs\tinside"),
    (2, "Fish & chips"), (2, 'Say "hello" & \'bye\''), (1, "<b>not markup</b>"),
    (2, "Größe wählen"), (2, "日本語の説明"), (2, "Emoji 🚀 launch"), (1, "שלום עולם"),
    (1, "naïve café"), (1, "ends with a dot."), (1, "NBSP\u00a0inside"),
    (1, "Combining e\u0301 accent"), (1, "\u00a0lead and trail nbsp\u00a0"),
]
# Parameter descriptions also need the empty/whitespace values that fall through (§4).
PARAM_DESCRIPTIONS: list[tuple[float, str]] = DESCRIPTIONS + [
    (6, ""), (4, "   "), (1, "\t\n"),
]
LABEL_TEXTS: list[tuple[float, str]] = [
    (10, "Name"), (6, "Destination"), (5, "How many?"), (4, "  Spaced   label  "),
    (2, "Größe"), (2, "名前"), (2, "A & B"), (1, 'The "best" one'), (1, "Emoji ✈️"),
    (1, "Multi\nline"), (2, ""), (1, "   "), (1, "1 < 2"),
]
WORDY: list[tuple[float, str]] = [
    (5, "hello"), (3, "two words"), (2, ""), (2, "Ünïcödé"), (1, "a&b"), (1, '"quoted"'),
    (1, "  spaced  "), (1, "line\nbreak"),
]

# Patterns: valid, empty, invalid under the v flag (including u-valid ones such as `[\w-]+`,
# which real pages use), v-only syntax, and values needing escapes.
PATTERNS: list[tuple[float, str]] = [
    (6, "[a-z]+"), (5, r"\d{3}"), (3, r"[A-Z]{2}-\d+"), (2, ".*"), (2, "abc|def"),
    (2, r"[0-9]{5}(-[0-9]{4})?"), (1, r"(?<year>\d{4})-\d{2}"), (1, r"\w+@\w+\.\w+"),
    (4, ""),
    (2, "[)]"), (1, "(abc"), (1, "a)(b"), (1, "[(]"), (1, "a{2,1}"), (1, "*"), (1, "[a-z-]+"),
    (1, r"[\w-]+"), (1, "[|]"),
    (2, r"[\p{L}--[a-z]]+"), (1, r"\p{RGI_Emoji}"), (1, r"[\q{abc|def}]"),
    (1, r"\u{1F600}+"), (1, r"[[a-z]&&[aeiou]]+"), (1, r"\p{Lu}\p{Ll}+"), (1, r"[\w--\d]+"),
    (1, "a&b"), (1, '"[^"]*"'), (1, r"<\w+>"),
]

# Number/range attributes: integers, decimals, negatives, exponents (big and small), -0,
# overflow, and strings that are not valid floating-point numbers at all.
NUMBERS: list[tuple[float, str]] = [
    (6, "0"), (6, "1"), (5, "10"), (4, "5"), (3, "15"), (3, "100"), (3, "-5"), (2, "11"),
    (3, "0.1"), (3, "0.3"), (2, "0.15"), (2, "2.5"), (1, "-1.5"), (1, "-0"),
    (2, "1e3"), (1, "1E2"), (3, "1e21"), (1, "1e-7"), (2, "2e308"),
    (2, "abc"), (2, ""), (1, " 3"), (1, "+1"), (1, "1."), (1, ".5"),
]
NUMBER_STEPS: list[tuple[float, str]] = [
    (6, "1"), (4, "2"), (4, "10"), (4, "0.1"), (2, "0.01"), (2, "0.5"), (1, "2.5"),
    (4, "any"), (1, "ANY"), (3, "0"), (2, "-1"), (2, "abc"), (1, ""),
    (1, "1e-7"), (1, "1e3"), (1, "3e-15"), (1, "0.003"),
]
TIME_STEPS: list[tuple[float, str]] = [
    (3, "1"), (3, "60"), (2, "0.001"), (2, "0.5"), (2, "30"), (1, "59.9"), (2, "120"),
    (1, "3600"), (2, "any"), (2, "0"), (1, "-1"), (1, "abc"), (1, "1e-3"), (1, "1e2"), (1, ""),
]
# Per date/time type: values for min/max/value, and for step (in the type's own unit).
DATE_ATTRS: dict[str, tuple[list[str], list[tuple[float, str]]]] = {
    "date": (["2024-01-01", "2024-12-31", "1999-02-28", "2024-02-29", "2023-02-29",
              "0001-01-01", "275760-09-13", "2024-1-1", "abc", ""],
             _uniform(["1", "7", "any", "0", "-1", "0.5", "abc", "1e1", "86400"])),
    "time": (["09:00", "17:30", "00:00", "23:59:59.999", "12:00:30", "25:00", "9:00", "abc",
              ""], TIME_STEPS),
    "datetime-local": (["2024-01-01T00:00", "2024-06-30T18:45", "2024-01-01 12:00",
                        "2024-01-01T12:00:00.000", "2024-13-01T00:00", "abc", ""], TIME_STEPS),
    "month": (["2024-01", "2024-12", "1970-01", "2024-13", "24-01", "abc", ""],
              _uniform(["1", "3", "12", "any", "0", "-2", "abc"])),
    "week": (["2024-W01", "2024-W52", "2020-W53", "2021-W53", "2024-W1", "abc", ""],
             _uniform(["1", "2", "any", "0", "-1", "abc"])),
}

# Text-like input types (the schema's string family). None means no type attribute; unknown
# types count as text, including the obsolete "datetime" and the empty string.
TEXT_TYPES: list[tuple[float, str | None]] = [
    (30, "text"), (6, "search"), (6, "tel"), (8, "email"), (6, "url"), (6, "password"),
    (8, None), (2, "bogus"), (1, "datetime"), (1, ""), (1, "text "),
]
SELECT_OPTION_TEXTS: list[tuple[float, str]] = [  # raw HTML: entities are meant to be decoded
    (8, "Alpha"), (6, "Beta"), (5, "Gamma"), (3, "  Alpha   beta "), (2, "\n  Delta\n  "),
    (2, "Fish &amp; chips"), (1, "caf&eacute;"), (1, "&nbsp;Nbsp&nbsp;"), (1, "&#x1F600; smile"),
    (1, "&lt;b&gt;"), (1, "a&b"), (1, "Ünïcödé"), (1, ""), (1, "   "), (1, "Tab\there"),
]
OPTION_VALUES: list[tuple[float, str]] = [
    (10, "a"), (8, "b"), (8, "c"), (4, "1"), (3, ""), (2, " spaced "), (2, "x y"),
    (1, "ü"), (1, "a&b"), (1, '"q"'),
]


def _type_spelling(rng: PageRng, type_: str | None) -> str | None:
    """Usually the canonical keyword; sometimes upper- or title-case (the keyword is ASCII
    case-insensitive, so Chromium treats ``NUMBER`` as ``number``)."""
    if not type_:
        return type_
    roll = rng.random()
    if roll < 0.05:
        return type_.upper()
    if roll < 0.08:
        return type_.capitalize()
    return type_


# ---------------------------------------------------------------------------------------------
# Attribute drawers
# ---------------------------------------------------------------------------------------------


def _fresh_name(rng: PageRng) -> str:
    name = f"{rng.choice(WORDS)}_{rng.serial()}"
    rng.form_names.append(name)
    return name


def _dup_name(rng: PageRng) -> str:
    """Repeat a name already used in this form, making a duplicate (unsupported) group."""
    if not rng.form_names:
        return _fresh_name(rng)
    return rng.choice(rng.form_names)


def _padded_name(rng: PageRng) -> str:
    """Keys are the name with leading/trailing whitespace stripped (§2.4)."""
    return rng.choice(["  {} ", "\t{}\n", " {}"]).format(_fresh_name(rng))


def _unicode_name(rng: PageRng) -> str:
    return f"{rng.choice(['名前', 'naïve', 'größe', '🚀', 'Ωmega'])}{rng.serial()}"


# Control names: fresh and unique mostly; then the grouping edge cases.
NAMES: Table[str | None] = [
    (85, _fresh_name),
    (3, _padded_name),
    (3, _unicode_name),
    (2, lambda rng: ""),
    (3, lambda rng: None),
    (3, _dup_name),
    (1, lambda rng: f"first name {rng.serial()}"),
]


def _description_attrs(rng: PageRng, *, placeholder: bool = False) -> list[Attr]:
    """The description sources and the attributes Chromium ignores (§4), each independently,
    so that all fallback orders get exercised."""
    pairs: list[Attr] = []
    if rng.maybe(0.45):
        pairs.append(("toolparamdescription", rng.pick(PARAM_DESCRIPTIONS)))
    if rng.maybe(0.15):
        pairs.append(("aria-description", rng.pick(PARAM_DESCRIPTIONS)))
    if rng.maybe(0.08):
        pairs.append(("aria-label", rng.pick(DESCRIPTIONS)))
    if rng.maybe(0.08):
        pairs.append(("title", rng.pick(DESCRIPTIONS)))
    if placeholder and rng.maybe(0.2):
        pairs.append(("placeholder", rng.pick(DESCRIPTIONS)))
    if rng.maybe(0.03):
        pairs.append(("toolparamtitle", rng.pick(DESCRIPTIONS)))  # no effect in 156
    return pairs


def _state_attrs(rng: PageRng, *, required: float = 0.15) -> list[Attr]:
    """required / readonly / disabled, on every kind of control (readonly only applies to
    some types, which is the point)."""
    return [("required", rng.maybe(required)), ("readonly", rng.maybe(0.07)),
            ("disabled", rng.maybe(0.05))]


# ---------------------------------------------------------------------------------------------
# Labels: (rng, make) -> str, where make(id_or_None) renders the labelled control
# ---------------------------------------------------------------------------------------------

Make = Callable[[str | None], str]


def _label_text(rng: PageRng) -> str:
    """Label content: escaped text, sometimes with inline markup (its text counts)."""
    text = _text(rng.pick(LABEL_TEXTS))
    if rng.maybe(0.12):
        text += f" <b>{_text(rng.pick(WORDY))}</b>"
    if rng.maybe(0.05):
        text = f"<span>{text}</span> "
    return text


def _no_label(rng: PageRng, make: Make) -> str:
    return make(None)


def _wrap_label(rng: PageRng, make: Make) -> str:
    if rng.maybe(0.7):
        return f"<label>{_label_text(rng)} {make(None)}</label>"
    return f"<label>{make(None)} {_label_text(rng)}</label>"


def _for_label(rng: PageRng, make: Make) -> str:
    id_ = rng.new_id("c")
    label = f'<label for="{id_}">{_label_text(rng)}</label>'
    return f"{label} {make(id_)}" if rng.maybe(0.75) else f"{make(id_)} {label}"


def _several_labels(rng: PageRng, make: Make) -> str:
    """Several labels join with "; " in tree order; a wrapping label counts too."""
    id_ = rng.new_id("c")
    first = f'<label for="{id_}">{_label_text(rng)}</label>'
    if rng.maybe(0.5):
        return f'{first}<label for="{id_}">{_label_text(rng)}</label> {make(id_)}'
    return f"{first} <label>{_label_text(rng)} {make(id_)}</label>"


def _label_with_other_input(rng: PageRng, make: Make) -> str:
    """A label whose text surrounds another labelable control, whose text must be excluded
    (reference §4's `One; Two  bold` example)."""
    id_ = rng.new_id("c")
    other = f'<input{_attrs([("name", _fresh_name(rng)), ("value", rng.pick(WORDY))])}>'
    label = (f'<label for="{id_}">{_label_text(rng)} {other} '
             f"<b>{_text(rng.pick(WORDY))}</b> </label>")
    return f"{label}{make(id_)}"


def _empty_label(rng: PageRng, make: Make) -> str:
    id_ = rng.new_id("c")
    return f'<label for="{id_}">{rng.choice(["", "  ", "<span></span>"])}</label>{make(id_)}'


def _orphan_label(rng: PageRng, make: Make) -> str:
    """A label pointing at no element: it labels nothing."""
    return f'<label for="nope{rng.serial()}">{_label_text(rng)}</label> {make(None)}'


LABELS: Sequence[tuple[float, Callable[[PageRng, Make], str]]] = [
    (38, _no_label),
    (22, _wrap_label),
    (20, _for_label),
    (6, _several_labels),
    (4, _label_with_other_input),
    (3, _empty_label),
    (2, _orphan_label),
]


def _labelled(rng: PageRng, make: Make) -> str:
    return rng.pick(LABELS)(rng, make)


def _input(rng: PageRng, pairs: list[Attr], *, label: bool = True) -> str:
    """An ``<input>`` with the given attributes, maybe labelled (``id`` goes first)."""

    def make(id_: str | None) -> str:
        return f"<input{_attrs([('id', id_), *pairs])}>"

    return _labelled(rng, make) if label else make(None)


# ---------------------------------------------------------------------------------------------
# Control constructs: (rng) -> str, one form-body item each
# ---------------------------------------------------------------------------------------------


def text_input(rng: PageRng) -> str:
    """Text-like inputs: the string schema, pattern, and every description source."""
    type_ = _type_spelling(rng, rng.pick(TEXT_TYPES))
    pairs: list[Attr] = [("type", type_), ("name", rng.draw(NAMES))]
    if rng.maybe(0.25):
        pairs.append(("pattern", rng.pick(PATTERNS)))
    if rng.maybe(0.12):
        pairs.append(("value", rng.pick(WORDY)))
    if rng.maybe(0.05):
        pairs += [("minlength", "2"), ("maxlength", "5")]
    if type_ and type_.lower() == "email" and rng.maybe(0.15):
        pairs.append(("multiple", True))
    pairs += _state_attrs(rng) + _description_attrs(rng, placeholder=True)
    return _input(rng, pairs)


def textarea(rng: PageRng) -> str:
    """Textarea: string schema with no pattern; a leading newline is dropped by the parser."""
    pairs: list[Attr] = [("name", rng.draw(NAMES))]
    if rng.maybe(0.1):
        pairs.append(("pattern", rng.pick(PATTERNS)))  # ignored on textarea
    pairs += _state_attrs(rng) + _description_attrs(rng, placeholder=True)
    body = rng.choice(["", "", "hello", "\nleading newline", "a &lt; b", "two\nlines"])

    def make(id_: str | None) -> str:
        return f"<textarea{_attrs([('id', id_), *pairs])}>{body}</textarea>"

    return _labelled(rng, make)


def _option(rng: PageRng) -> str:
    pairs: list[Attr] = []
    if rng.maybe(0.7):
        pairs.append(("value", rng.pick(OPTION_VALUES)))
    if rng.maybe(0.05):
        pairs.append(("label", rng.pick(DESCRIPTIONS)))  # ignored for the title
    pairs += [("disabled", rng.maybe(0.1)), ("selected", rng.maybe(0.1))]
    text = rng.pick(SELECT_OPTION_TEXTS)
    if rng.maybe(0.03):
        text = f"<b>{text}</b> <span>x</span>"  # elements in <option> (customizable select parser)
    return f"<option{_attrs(pairs)}>{text}</option>"


def select(rng: PageRng) -> str:
    """Select, single and multiple: every option is listed (optgroup, disabled, placeholder);
    const is the value attribute or the collapsed text, title the raw text."""
    multiple = rng.maybe(0.25)
    pairs: list[Attr] = [("name", rng.draw(NAMES)), ("multiple", multiple)]
    if rng.maybe(0.08):
        pairs.append(("size", rng.choice(["1", "3", "0", "abc"])))
    pairs += _state_attrs(rng) + _description_attrs(rng)
    options: list[str] = []
    if rng.maybe(0.25):
        placeholder = rng.choice(["Choose…", "--", "", "Pick one"])
        options.append(f'<option value="">{placeholder}</option>')
    count = rng.choices([0, 1, 2, 3, 4, 5], weights=[3, 6, 20, 25, 12, 5])[0]
    options += [_option(rng) for _ in range(count)]
    if options and rng.maybe(0.2):
        start = rng.randrange(len(options))
        end = rng.randrange(start, len(options)) + 1
        group_attrs = _attrs([("label", rng.pick(LABEL_TEXTS)), ("disabled", rng.maybe(0.3))])
        options[start:end] = [f"<optgroup{group_attrs}>{''.join(options[start:end])}</optgroup>"]
    inner = "".join(options)

    def make(id_: str | None) -> str:
        return f"<select{_attrs([('id', id_), *pairs])}>{inner}</select>"

    return _labelled(rng, make)


def number_input(rng: PageRng) -> str:
    """Number and range: minimum/maximum/multipleOf from min/max/step/value (§3, §6)."""
    type_ = _type_spelling(rng, rng.choice(["number", "number", "range"]))
    pairs: list[Attr] = [("type", type_), ("name", rng.draw(NAMES))]
    if type_.lower() == "range" and rng.maybe(0.1):
        pairs += [("min", "10"), ("max", rng.choice(["5", "-1", "9.99"]))]  # max < min: M = m
    else:
        for attr in ("min", "max"):
            if rng.maybe(0.45):
                pairs.append((attr, rng.pick(NUMBERS)))
    if rng.maybe(0.2):
        pairs.append(("value", rng.pick(NUMBERS)))
    if rng.maybe(0.5):
        pairs.append(("step", rng.pick(NUMBER_STEPS)))
    if rng.maybe(0.05):
        pairs.append(("pattern", rng.pick(PATTERNS)))
    pairs += _state_attrs(rng) + _description_attrs(rng, placeholder=True)
    return _input(rng, pairs)


def date_input(rng: PageRng) -> str:
    """date/time/datetime-local/month/week: formats, the step-dependent time regexes, and the
    date description suffix."""
    kind = rng.choice(list(DATE_ATTRS))
    values, steps = DATE_ATTRS[kind]
    pairs: list[Attr] = [("type", _type_spelling(rng, kind)), ("name", rng.draw(NAMES))]
    for attr, probability in (("min", 0.3), ("max", 0.3), ("value", 0.15)):
        if rng.maybe(probability):
            pairs.append((attr, rng.choice(values)))
    if rng.maybe(0.45):
        pairs.append(("step", rng.pick(steps)))
    pairs += _state_attrs(rng) + _description_attrs(rng)
    return _input(rng, pairs)


def color_input(rng: PageRng) -> str:
    """Color: a format regex only; the value (even an invalid one) never shows in the schema."""
    pairs: list[Attr] = [("type", _type_spelling(rng, "color")), ("name", rng.draw(NAMES))]
    if rng.maybe(0.3):
        pairs.append(("value", rng.choice(["#ff0000", "#FaB000", "crimson", "#fff", "bad"])))
    pairs += _state_attrs(rng) + _description_attrs(rng)
    return _input(rng, pairs)


def checkbox(rng: PageRng) -> str:
    """A single checkbox: boolean schema (a readonly checkbox is kept)."""
    pairs: list[Attr] = [("type", _type_spelling(rng, "checkbox")), ("name", rng.draw(NAMES))]
    if rng.maybe(0.3):
        pairs.append(("value", rng.pick(OPTION_VALUES)))
    pairs += [("checked", rng.maybe(0.2))] + _state_attrs(rng) + _description_attrs(rng)
    return _input(rng, pairs)


def _member(rng: PageRng, kind: str, name: str | None, value: str | None) -> str:
    """One radio/checkbox of a group; a missing value means "on", a label gives the title."""
    pairs: list[Attr] = [("type", kind), ("name", name), ("value", value),
                         ("checked", rng.maybe(0.15)), ("required", rng.maybe(0.08)),
                         ("disabled", rng.maybe(0.04)), ("readonly", rng.maybe(0.03))]
    if rng.maybe(0.1):
        pairs += _description_attrs(rng)  # ignored for groups of two or more
    return _input(rng, pairs)


def _fieldset(rng: PageRng, inner: str, *, description: bool) -> str:
    """A fieldset (maybe with a legend, which Chromium ignores for descriptions)."""
    pairs: list[Attr] = []
    if description:
        pairs.append(("toolparamdescription", rng.pick(PARAM_DESCRIPTIONS)))
    legend = f"<legend>{_label_text(rng)}</legend>" if rng.maybe(0.4) else ""
    return f"<fieldset{_attrs(pairs)}>{legend}{inner}</fieldset>"


def choice_group(rng: PageRng) -> str:
    """Radio and checkbox groups: anyOf/enum, the fieldset description walk (nearest fieldset
    above the members' common ancestor only), member labels as titles."""
    kind = _type_spelling(rng, rng.choice(["radio", "radio", "checkbox"]))
    name = rng.draw(NAMES) if rng.maybe(0.1) else _fresh_name(rng)
    count = rng.choices([1, 2, 3, 4], weights=[2, 6, 5, 2])[0]
    pool = ["a", "b", "c", "d", "yes", "no", "ü", "x y"]
    values: list[str | None] = rng.sample(pool, count)
    for i in range(count):
        if rng.maybe(0.08):
            values[i] = rng.choice([None, "", " pad ", values[0]])  # "on", empty, duplicate
    members = [_member(rng, kind, name, value) for value in values]
    layout = rng.random()
    if layout < 0.25:
        members = [f"<div>{m}</div>" for m in members]
    elif layout < 0.35 and count > 1:
        members = [f"<div><span>{members[0]}</span></div>", *members[1:]]
    inner = "\n".join(members)
    return rng.pick(_GROUP_CONTAINERS)(rng, inner)


_GROUP_CONTAINERS: list[tuple[float, Callable[[PageRng, str], str]]] = [
    (30, lambda rng, inner: inner),
    (30, lambda rng, inner: _fieldset(rng, inner, description=True)),
    (12, lambda rng, inner: _fieldset(rng, inner, description=False)),
    # Nested fieldsets: only the nearest one counts, outer ones are never consulted.
    (6, lambda rng, inner: _fieldset(rng, _fieldset(rng, inner, description=False),
                                     description=True)),
    (6, lambda rng, inner: _fieldset(rng, _fieldset(rng, inner, description=True),
                                     description=True)),
    (3, lambda rng, inner: f'<div{_attrs([("toolparamdescription", "on a div")])}>{inner}</div>'),
]


def hidden_input(rng: PageRng) -> str:
    """Hidden: a parameter only with a non-empty toolparamdescription (then text-like)."""
    pairs: list[Attr] = [("type", _type_spelling(rng, "hidden")), ("name", rng.draw(NAMES)),
                         ("value", rng.pick(WORDY))]
    if rng.maybe(0.6):
        pairs.append(("toolparamdescription", rng.pick(PARAM_DESCRIPTIONS)))
    if rng.maybe(0.12):
        pairs.append(("pattern", rng.pick(PATTERNS)))
    pairs += _state_attrs(rng)
    return _input(rng, pairs, label=False)


def inert_input(rng: PageRng) -> str:
    """file / image / reset / button inputs: never parameters (image is a submit button)."""
    kind = rng.choice(["file", "file", "image", "reset", "button"])
    pairs: list[Attr] = [("type", _type_spelling(rng, kind)), ("name", rng.draw(NAMES))]
    if kind == "image":
        pairs.append(("alt", "Go"))
    elif kind != "file":
        pairs.append(("value", rng.pick(WORDY)))
    pairs += _state_attrs(rng, required=0.05) + _description_attrs(rng)
    return _input(rng, pairs)


_SIMPLE: Table[str] = []  # filled below; controls safe to nest in fieldsets and legends


def _simple(rng: PageRng) -> str:
    return rng.draw(_SIMPLE)


def disabled_fieldset(rng: PageRng) -> str:
    """fieldset[disabled]: controls are skipped unless inside its *first* legend child; a
    second legend, or a legend not a direct child, does not exempt them (§2.2)."""
    parts = []
    if rng.maybe(0.7):
        inside = _simple(rng) if rng.maybe(0.7) else ""
        parts.append(f"<legend>{_label_text(rng)} {inside}</legend>")
    if rng.maybe(0.3):
        parts.append(f"<legend>Second {_simple(rng)}</legend>")
    if rng.maybe(0.15):
        parts.insert(0, f"<div><legend>Not a child {_simple(rng)}</legend></div>")
    parts += [_simple(rng) for _ in range(rng.randint(1, 2))]
    if rng.maybe(0.15):
        parts.append(f"<fieldset>{_simple(rng)}</fieldset>")
    attrs = _attrs([("disabled", True), ("name", rng.draw(NAMES) if rng.maybe(0.1) else None)])
    return f"<fieldset{attrs}>" + "\n".join(parts) + "</fieldset>"


def plain_fieldset(rng: PageRng) -> str:
    """An enabled fieldset around ordinary controls (its description is for groups only)."""
    description = rng.maybe(0.5)
    inner = "\n".join(_simple(rng) for _ in range(rng.randint(1, 2)))
    return _fieldset(rng, inner, description=description)


def shared_name(rng: PageRng) -> str:
    """A button, output or fieldset joins the group of its name, making it unsupported; the
    unnamed case decides whether key "" exists (§2.5)."""
    unnamed = rng.maybe(0.3)
    name = None if unnamed else _fresh_name(rng)
    control = _input(rng, [("type", rng.choice(["text", "checkbox", "number"])),
                           ("name", name)] + _description_attrs(rng))
    other = rng.choice([
        f'<button{_attrs([("type", "button"), ("name", name)])}>Other</button>',
        f'<button{_attrs([("name", name), ("value", "v")])}>Named submit</button>',
        f"<output{_attrs([('name', name)])}>42</output>",
        f"<fieldset{_attrs([('name', name)])}><legend>Same name</legend></fieldset>",
        f'<input{_attrs([("type", "button"), ("name", name), ("value", "Btn")])}>',
    ])
    return f"{control}\n{other}" if rng.maybe(0.7) else f"{other}\n{control}"


def duplicate_names(rng: PageRng) -> str:
    """Two non-group controls with one name: the group is omitted but its key stays known."""
    name = _fresh_name(rng)
    kinds = rng.choice([("text", "text"), ("text", "textarea"), ("select", "text"),
                        ("number", "hidden"), ("text", "checkbox"), ("checkbox", "checkbox")])
    out = []
    for kind in kinds:
        if kind == "textarea":
            out.append(f"<textarea{_attrs([('name', name)])}></textarea>")
        elif kind == "select":
            out.append(f'<select{_attrs([("name", name)])}><option>A</option></select>')
        else:
            pairs: list[Attr] = [("type", kind), ("name", name)]
            if kind == "hidden":
                pairs.append(("toolparamdescription", "hidden twin"))
                out.append(_input(rng, pairs, label=False))
                continue
            if kind == "checkbox":
                pairs.append(("value", rng.choice(["a", "b"])))
            out.append(_input(rng, pairs + _description_attrs(rng)))
    return "\n".join(out)


def mixed_group(rng: PageRng) -> str:
    """Radios mixed with checkboxes or a text input under one name: an omitted group."""
    name = _fresh_name(rng)
    first = rng.choice(["radio", "checkbox"])
    second = rng.choice(["checkbox" if first == "radio" else "radio", "text", "hidden"])
    return "\n".join([
        _input(rng, [("type", first), ("name", name), ("value", "a")]),
        _input(rng, [("type", second), ("name", name), ("value", "b")]),
    ])


def template_controls(rng: PageRng) -> str:
    """Controls inside <template> content are not in the document: never parameters."""
    return f"<template>{_simple(rng)}</template>"


def output_element(rng: PageRng) -> str:
    """A lone <output>: listed but never a parameter; its name group becomes unsupported."""
    return f"<output{_attrs([('name', rng.draw(NAMES))])}>0</output>"


def datalist_input(rng: PageRng) -> str:
    """<datalist> suggestions are never emitted."""
    id_ = rng.new_id("dl")
    field = _input(rng, [("name", _fresh_name(rng)), ("list", id_)])
    return f'{field}<datalist id="{id_}"><option value="one"><option value="two"></datalist>'


def foreign_owner(rng: PageRng) -> str:
    """A control inside this form that belongs elsewhere (form= to another or missing form)."""
    target = rng.choice([_form_ref(rng), "nope", ""])
    return _input(rng, [("name", _fresh_name(rng)), ("form", target)])


def prose(rng: PageRng) -> str:
    """Non-form content, so controls are not always adjacent (and entities appear in text)."""
    return rng.choice(["<p>Fill in the form.</p>", "<h2>Details</h2>", "<br>",
                       "<p>Fish &amp; chips <em>daily</em></p>", "<hr>"])


CONTROLS: Table[str] = [
    (20, text_input),
    (6, textarea),
    (9, select),
    (8, number_input),
    (8, date_input),
    (2, color_input),
    (5, checkbox),
    (10, choice_group),
    (5, hidden_input),
    (4, inert_input),
    (3, disabled_fieldset),
    (2, plain_fieldset),
    (3, shared_name),
    (3, duplicate_names),
    (2, mixed_group),
    (1, template_controls),
    (1, output_element),
    (1, datalist_input),
    (1, foreign_owner),
    (2, prose),
]
_SIMPLE[:] = [
    (5, text_input), (2, textarea), (2, select), (2, number_input), (2, date_input),
    (2, checkbox), (2, choice_group), (1, hidden_input),
]


# ---------------------------------------------------------------------------------------------
# Submit sections: (rng) -> str. The first kept submit button is the tool's submit button.
# ---------------------------------------------------------------------------------------------


def _button_label(rng: PageRng) -> str:
    return _text(rng.choice(["Go", "Search", "Submit", "Book", "Send ✉", "OK"]))


def _named(rng: PageRng) -> list[Attr]:
    if rng.maybe(0.2):
        return [("name", rng.choice(["go", "action", "submit"])), ("value", rng.pick(WORDY))]
    return []


def submit_button(rng: PageRng) -> str:
    """<button> with a missing, submit, uppercased, invalid or empty type: all submit."""
    type_ = rng.pick([(6, None), (4, "submit"), (1, "SUBMIT"), (1, "bogus"), (0.5, "")])
    return f"<button{_attrs([('type', type_), *_named(rng)])}>{_button_label(rng)}</button>"


def submit_input(rng: PageRng) -> str:
    """<input type=submit>, with or without a value (Chromium sends "Submit" without one)."""
    named = _named(rng) or [("value", rng.choice([None, "Go", ""]))]
    return f'<input{_attrs([("type", _type_spelling(rng, "submit")), *named])}>'


def image_submit(rng: PageRng) -> str:
    """<input type=image> is a submit button too (and sends name.x/name.y)."""
    return f'<input{_attrs([("type", "image"), ("alt", "Go"), *_named(rng)])}>'


def several_submits(rng: PageRng) -> str:
    """Multiple submit buttons, some disabled: the first *kept* one is the submitter."""
    out = []
    for _ in range(rng.randint(2, 3)):
        disabled = rng.maybe(0.5)
        if rng.maybe(0.6):
            out.append(f"<button{_attrs([('disabled', disabled), *_named(rng)])}>"
                       f"{_button_label(rng)}</button>")
        else:
            pairs: list[Attr] = [("type", "submit"), ("disabled", disabled), *_named(rng)]
            out.append(f"<input{_attrs(pairs)}>")
    return "\n".join(out)


def no_submit(rng: PageRng) -> str:
    """No submit button (execution needs toolautosubmit), or only non-submitting buttons."""
    return rng.choice(["", "", '<button type="button">Not submit</button>',
                       '<button type="reset">Reset</button>',
                       '<input type="button" value="Nope">'])


def disabled_submit(rng: PageRng) -> str:
    """The only submit button is disabled, so the form has none for execution."""
    return f"<button disabled>{_button_label(rng)}</button>"


SUBMITS: Table[str] = [
    (40, submit_button),
    (18, submit_input),
    (3, image_submit),
    (8, several_submits),
    (12, no_submit),
    (2, disabled_submit),
]


# ---------------------------------------------------------------------------------------------
# The form element: tool attributes and form-level constructs
# ---------------------------------------------------------------------------------------------


def _valid_toolname(rng: PageRng) -> str:
    """1–128 chars of [A-Za-z0-9_.-], made page-unique by a serial so duplicates are chosen."""
    base = rng.choice(["search", "book_table", "find-flights", "v1.2", "Lookup", "a", "x_y.z"])
    name = f"{base}_{rng.serial()}"
    if rng.maybe(0.03):
        name = (name + "_" + "n" * 128)[:128]  # exactly at the length limit
    return name


def _invalid_toolname(rng: PageRng) -> str:
    """Names the 156 binary silently refuses: spaces, other punctuation, non-ASCII, empty."""
    return rng.choice(["has space", " lead", "trail ", "a:b", "a/b", "naïve", "Search flights",
                       "", "tab\there", "emoji🚀", "semi;colon", "q?x"])


def _too_long_toolname(rng: PageRng) -> str:
    """Valid characters, but past the 128-character limit."""
    return "t" * rng.choice([129, 130, 200])


def _duplicate_toolname(rng: PageRng) -> str:
    """Repeat an earlier toolname on the page: the first registration wins."""
    return rng.choice(rng.tool_names) if rng.tool_names else _valid_toolname(rng)


TOOLNAMES: Table[str | None] = [
    (84, _valid_toolname),
    (6, _invalid_toolname),
    (2, _too_long_toolname),
    (5, _duplicate_toolname),
    (3, lambda rng: None),
]
TOOLDESCRIPTIONS: Table[str | None] = [
    (94, lambda rng: rng.pick(DESCRIPTIONS)),
    (3, lambda rng: ""),  # registers: presence is enough
    (3, lambda rng: None),
]


def _form_ref(rng: PageRng) -> str:
    """An id that a form on this page probably has (f1..fN; sometimes one past the end)."""
    return f"f{rng.randint(1, rng.form_count + 1)}"


def _form_open(rng: PageRng) -> str:
    """``<form>`` with tool attributes; attribute-name case varies rarely (it is ignored)."""
    rng.form_names = []
    rng.form_index += 1
    toolname = rng.draw(TOOLNAMES)
    if toolname is not None:
        rng.tool_names.append(toolname)
    pairs: list[Attr] = [
        ("id", f"f{rng.form_index}" if rng.maybe(0.9) else None),
        ("toolname", toolname),
        ("tooldescription", rng.draw(TOOLDESCRIPTIONS)),
        ("tooltitle", rng.pick(DESCRIPTIONS + [(3, "")]) if rng.maybe(0.25) else None),
        # Presence is what counts, so toolautosubmit="false" still autosubmits.
        ("toolautosubmit", rng.maybe(0.25) or (rng.maybe(0.1) and "false")),
    ]
    if rng.maybe(0.03):
        pairs = [(name.upper() if name.startswith("tool") else name, v) for name, v in pairs]
    if rng.maybe(0.1):
        pairs += [("action", "/submit"), ("method", rng.choice(["get", "post", "dialog", "put"]))]
    if rng.maybe(0.05):
        pairs.append(("novalidate", True))
    return f"<form{_attrs(pairs)}>"


def _items(rng: PageRng, low: int = 1, high: int = 5) -> list[str]:
    """A few control constructs: pages stay small, so a mismatch is easy to read."""
    count = rng.choices(range(low, high + 1), weights=[4, 6, 5, 3, 1][: high - low + 1])[0]
    return [rng.draw(CONTROLS) for _ in range(count)]


def _body(rng: PageRng) -> str:
    """Controls plus a submit section, usually last but sometimes first."""
    items = _items(rng)
    submit = rng.draw(SUBMITS)
    items = [submit, *items] if rng.maybe(0.12) else [*items, submit]
    return "\n".join(item for item in items if item)


def plain_form(rng: PageRng) -> str:
    """The common, well-formed case: a form holding its controls and a submit section."""
    return f"{_form_open(rng)}\n{_body(rng)}\n</form>"


def table_form(rng: PageRng) -> str:
    """``<table><form>``: the form is an empty child of the table, but the parser's form
    pointer still owns the cell's controls and the table-level hidden input."""
    head = _form_open(rng)
    foster = f"{text_input(rng)}\n" if rng.maybe(0.2) else ""  # foster-parented, still owned
    tail = ""
    if rng.maybe(0.5):  # a hidden input directly in the table is inserted there, not fostered
        tail = "<input" + _attrs([("type", "hidden"), ("name", _fresh_name(rng)),
                                  ("toolparamdescription", rng.pick(PARAM_DESCRIPTIONS))]) + ">"
    return f"<table>{head}{foster}<tr><td>{_body(rng)}</td></tr>{tail}</form></table>"


def div_pointer_form(rng: PageRng) -> str:
    """``<div><form></div><input>``: </div> pops the form but keeps the pointer, so later
    controls join it. Without a closing </form> the pointer stays set for the rest of the page
    and the next <form> tag is ignored."""
    head = _form_open(rng)
    inside = "\n".join(_items(rng, 1, 3))
    late = "\n".join(_items(rng, 1, 2))
    submit = rng.draw(SUBMITS)
    if rng.maybe(0.5):
        inside += f"\n{submit}"
    else:
        late += f"\n{submit}"
    closer = "</form>" if rng.maybe(0.65) else ""
    return f"<div>{head}\n{inside}</div>\n{late}\n{closer}"


def nested_form(rng: PageRng) -> str:
    """``<form><form>``: the inner tag and its tool attributes are ignored; its </form> closes
    the outer form, and what follows is unowned."""
    outer = _form_open(rng)
    first = "\n".join(_items(rng, 1, 2))
    outer_names = rng.form_names
    inner = _form_open(rng)
    rng.form_names = outer_names
    second = "\n".join(_items(rng, 1, 2))
    third = "\n".join(_items(rng, 1, 2))
    submit = rng.draw(SUBMITS)
    if rng.maybe(0.6):
        first = f"{first}\n{submit}"
    else:
        third = f"{third}\n{submit}"
    return f"{outer}\n{first}\n{inner}\n{second}\n</form>\n{third}\n</form>"


def template_form(rng: PageRng) -> str:
    """A form inside <template> is inert: no tool."""
    return f"<template>{plain_form(rng)}</template>"


def unclosed_form(rng: PageRng) -> str:
    """A form whose end tag never comes: it runs to the end of the document."""
    return f"{_form_open(rng)}\n{_body(rng)}\n"


FORMS: Table[str] = [
    (82, plain_form),
    (6, table_form),
    (5, div_pointer_form),
    (4, nested_form),
    (2, template_form),
]


# ---------------------------------------------------------------------------------------------
# Page extras between forms: (rng) -> str
# ---------------------------------------------------------------------------------------------


def outside_control(rng: PageRng) -> str:
    """A control outside every form with ``form=``: an existing form (maybe later in the
    page), a missing id, ``""``, or an id that belongs to a non-form element."""
    rng.form_names = []
    prefix = ""
    target = rng.pick([(60, "ref"), (12, "nope"), (8, ""), (14, "div")])
    if target == "ref":
        target = _form_ref(rng)
    elif target == "div":
        target = rng.new_id("box")
        prefix = f'<div id="{target}">Not a form</div>\n'
    make = rng.choice([text_input, checkbox, select, number_input, textarea])
    control = make(rng)
    # Attach form= to the first listed element of the fragment (normally the control itself;
    # for a label holding another input, that input, which is just as much an outside control).
    for tag in ("<input", "<select", "<textarea"):
        at = control.find(tag)
        if at != -1:
            end = at + len(tag)
            control = control[:end] + _attrs([("form", target)]) + control[end:]
            break
    return prefix + control


def id_shadow(rng: PageRng) -> str:
    """A non-form element that takes a form's id first: form= then finds it, not the form."""
    return f'<span id="{_form_ref(rng)}">shadow</span>'


def stray_form_end(rng: PageRng) -> str:
    """A lone </form>: a parse error that also clears a pending form pointer."""
    return "</form>"


EXTRAS: Table[str] = [
    (10, outside_control),
    (5, prose),
    (2, template_controls),
    (1, id_shadow),
    (1, stray_form_end),
]


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------


def generate_page(seed: int) -> str:
    """A complete HTML document with 1–4 forms, fully determined by ``seed``."""
    rng = PageRng(seed)
    rng.form_count = rng.choices([1, 2, 3, 4], weights=[30, 35, 22, 13])[0]
    parts = ['<!doctype html><meta charset="utf-8">', f"<title>formgen {seed}</title>"]
    for index in range(rng.form_count):
        if rng.maybe(0.25):
            parts.append(rng.draw(EXTRAS))
        last = index == rng.form_count - 1
        parts.append(unclosed_form(rng) if last and rng.maybe(0.05) else rng.draw(FORMS))
    if rng.maybe(0.2):
        parts.append(rng.draw(EXTRAS))
    return "\n".join(parts) + "\n"


def generate_pages(count: int, seed: int = 0) -> Iterator[tuple[str, str]]:
    """Yield ``(page_id, html)`` for seeds ``seed .. seed+count-1``.

    The id names the page seed (``gen-0042`` is ``generate_page(42)``), so a failing page can
    be regenerated from its id alone.
    """
    for page_seed in range(seed, seed + count):
        yield f"gen-{page_seed:04d}", generate_page(page_seed)


# ---------------------------------------------------------------------------------------------
# Parser pages: where the parser, not the form, decides the answer
# ---------------------------------------------------------------------------------------------
#
# Why: formtools' fast exact path (src/formtools/_fastparse.py) parses with lexbor and must give
# what html5lib gives, so its test needs pages that stress what the two parsers could disagree
# on: the form element pointer (tables, cells, foster parenting, </div>, unclosed and nested
# forms), form=, templates, tag-like text in comments, scripts and attributes, select mode,
# SVG, textarea newlines, labels and headings outside forms, line numbers (CR, CRLF, tags over
# several lines). These pages are for that comparison only: no browser checks them, so they do
# not feed generate_page, whose pages Chromium does check. A few constructs the fast path leaves
# to html5lib (UNMODELLED) are sprinkled in rarely, so that falling back is tested too.


def _ctrl(rng: PageRng) -> str:
    return rng.draw(_SIMPLE)


def _ctrls(rng: PageRng, low: int = 1, high: int = 3) -> str:
    return "\n".join(_ctrl(rng) for _ in range(rng.randint(low, high)))


def _submit(rng: PageRng) -> str:
    return rng.draw(SUBMITS)


def _cell_form(rng: PageRng) -> str:
    """Opened in one cell, used in the next: </td> pops the form, the pointer stays."""
    return (f"<table><tr><td>{_form_open(rng)}{_ctrls(rng)}</td><td>{_ctrls(rng)}</td></tr>"
            f"<tr><td>{_submit(rng)}</td></tr></table>{_ctrls(rng, 0, 2)}"
            f"{rng.choice(['</form>', '', '<p>after</p></form>'])}")


def _foster_form(rng: PageRng) -> str:
    """Controls and text straight in a table are foster-parented before it, still owned."""
    stray = rng.choice([_ctrl(rng), "<textarea name=\"tx\">\nfirst line</textarea>",
                        f"<div>{_ctrl(rng)}</div>", "loose text"])
    hidden = '<input type="hidden" name="h" value="1">'
    return (f"<table>{_form_open(rng)}{stray}{hidden}<tr><td>{_ctrls(rng)}</td></tr>"
            f"{rng.choice(['', _ctrl(rng)])}<tr><td>{_submit(rng)}</td></tr></table></form>")


def _closed_by_end_tag(rng: PageRng) -> str:
    """An ancestor's end tag pops the form: later controls keep joining it."""
    tag = rng.choice(["div", "section", "blockquote", "main", "article", "ul"])
    inner = f"<li>{_ctrls(rng)}" if tag == "ul" else _ctrls(rng)
    return (f"<{tag}>{_form_open(rng)}{inner}</{tag}>\n{_ctrls(rng)}\n{_submit(rng)}"
            f"{rng.choice(['</form>', '', '</form></form>'])}")


def _misnested(rng: PageRng) -> str:
    """Formatting elements across the form's tags (the adoption agency moves things)."""
    tag = rng.choice(["b", "i", "a href=\"#x\"", "em", "font", "nobr"])
    name = tag.split()[0]
    return rng.choice([
        f"<{tag}>{_form_open(rng)}{_ctrls(rng)}</{name}>{_ctrls(rng)}{_submit(rng)}</form>",
        f"<{tag}><div>{_form_open(rng)}{_ctrls(rng)}</{name}>{_submit(rng)}</div></form>",
        f"<p><{tag}>text</p>{_form_open(rng)}{_ctrls(rng)}{_submit(rng)}</form></{name}>",
    ])


def _nested_forms(rng: PageRng) -> str:
    """An ignored inner <form>; or a real nested form, after </form> in a cell left the outer
    one open (the pointer is cleared, the element stays)."""
    if rng.maybe(0.5):
        return (f"{_form_open(rng)}{_ctrls(rng)}{_form_open(rng)}{_ctrls(rng)}</form>"
                f"{_ctrls(rng)}</form>")
    return (f"{_form_open(rng)}<table><tr><td></form>{_form_open(rng)}{_ctrls(rng)}"
            f"{_submit(rng)}</td><td>{_ctrls(rng)}</td></tr></table>{_ctrls(rng)}</form>")


def _fake_end_tags(rng: PageRng) -> str:
    """Tag-like text that is no tag: "</form" in comments, scripts, attributes, RCDATA, CDATA
    (in SVG) and bogus comments, between a form popped early and its real end tag."""
    fake = rng.choice([
        "<!-- </form> -->", "<!--></form>-->", "<!---></form>", "<!-- a --!></form>",
        "<script>var s = '</form><input name=js>';</script>",
        "<script><!-- <script> </form> </script> --></script>",
        "<style>/* </form> */</style>", '<p title="</form><input name=fake>">t</p>',
        "<textarea name=\"ta\"></form></textarea>", "<svg><![CDATA[ </form> ]]></svg>",
        "<? </form> ?>", "<title></form></title>", "<noscript></form></noscript>",
        "<xmp></form></xmp>", "<iframe></form></iframe>", "</ form>",
    ])
    return f"<div>{_form_open(rng)}{_ctrls(rng)}{fake}</div>{_ctrls(rng)}{_submit(rng)}</form>"


def _select_swallows_end(rng: PageRng) -> str:
    """html5lib's select mode ignores </form> (and most start tags)."""
    return (f"<div>{_form_open(rng)}<select name=\"s{rng.serial()}\"><option>a</form>"
            f"<option>b</select></div>{_ctrls(rng)}{_submit(rng)}</form>")


def _template_cases(rng: PageRng) -> str:
    """Template contents are no part of the document and move no pointer."""
    return rng.choice([
        f"<template>{plain_form(rng)}</template>",
        (f"{_form_open(rng)}<template><input name=\"t\"></form><form></template>"
         f"{_ctrls(rng)}{_submit(rng)}</form>"),
        (f"<div>{_form_open(rng)}{_ctrls(rng)}</div><template></form></template>"
         f"{_ctrls(rng)}</form>"),
    ])


def _svg_form(rng: PageRng) -> str:
    """SVG in forms: icon text in buttons, HTML controls in foreignObject."""
    return (f"{_form_open(rng)}<button><svg><title>Go</title><path d=\"M0 0\"/></svg> Go"
            f"</button><svg><foreignObject><input name=\"fo{rng.serial()}\"></foreignObject>"
            f"<desc>d</desc></svg>{_ctrls(rng)}</form>")


def _textarea_newlines(rng: PageRng) -> str:
    """A textarea's leading line feed, dropped in every insertion mode (html5lib 1.1 drops it only
    "in body"; formtools' exact path applies the standard's rule itself)."""
    body = rng.choice(["\nx", "\n\ny", "&#10;z", "&NewLine;w", "\r\nv", "no newline"])
    area = f"<textarea name=\"n{rng.serial()}\">{body}</textarea>"
    return rng.choice([
        f"{_form_open(rng)}{area}{_submit(rng)}</form>",
        f"<table><tr><td>{_form_open(rng)}{area}{_submit(rng)}</form></td></tr></table>",
        f"<table><caption>{_form_open(rng)}{area}</form></caption></table>",
        f"{_form_open(rng)}<table>{area}<tr><td>x</td></tr></table>{_submit(rng)}</form>",
    ])


def _labels_around(rng: PageRng) -> str:
    """Labels, headings and aria-labelledby outside the form; a label around a whole form."""
    ident, heading = rng.new_id("c"), rng.new_id("h")
    name = f"n{rng.serial()}"
    opened = _form_open(rng).replace("<form", f'<form aria-labelledby="{heading} nope"', 1)
    return rng.choice([
        (f"<h2 id=\"{heading}\">Find <b>things</b></h2><div>{opened}<input id=\"{ident}\" "
         f"name=\"{name}\">{_submit(rng)}</form></div><label for=\"{ident}\">Late label</label>"),
        (f"<section><h3>Section</h3><p>x</p><div dir=\"rtl\">{_form_open(rng)}<h4>Inner</h4>"
         f"{_ctrls(rng)}</form></div></section>"),
        f"<label>Outer {_form_open(rng)}<input name=\"{name}\">{_submit(rng)}</form></label>",
        (f"<span id=\"{ident}\">first</span>{_form_open(rng)}<label for=\"{ident}\">L</label>"
         f"<input id=\"{ident}\" name=\"{name}\"></form>"),
    ])


def _fieldsets_around(rng: PageRng) -> str:
    """A disabled fieldset around the form, the form in or out of its first legend."""
    return rng.choice([
        f"<fieldset disabled><legend>L</legend>{plain_form(rng)}</fieldset>",
        f"<fieldset disabled><legend>{plain_form(rng)}</legend></fieldset>",
        f"<fieldset disabled><legend>a</legend><legend>{plain_form(rng)}</legend></fieldset>",
        f"<fieldset disabled><div><legend>{plain_form(rng)}</legend></div></fieldset>",
        f"<datalist id=\"dl{rng.serial()}\">{plain_form(rng)}</datalist>",
    ])


def _form_attribute_cases(rng: PageRng) -> str:
    """form= to this form, a later one, a missing id, a non-form element with the id."""
    target = rng.choice([_form_ref(rng), "nope", "", "f1"])
    list_id = rng.new_id("dl")
    return (f"{plain_form(rng)}<aside><input name=\"o{rng.serial()}\" form=\"{target}\">"
            f"<select name=\"s{rng.serial()}\" form=\"{target}\"><option>a</select>"
            f"<input name=\"l{rng.serial()}\" list=\"{list_id}\" form=\"{target}\"></aside>"
            f"<datalist id=\"{list_id}\"><option value=\"v\"><option value=\"w\" disabled>"
            f"</datalist>")


def _noise(rng: PageRng) -> str:
    """Page content between forms: tag-like text, raw text, entities, attributes over lines."""
    return rng.choice([
        "<script>if (a < b && c > d) { document.write('<form><input>') }</script>",
        "<!-- <form toolname=\"commented\" tooldescription=\"x\"><input name=c></form> -->",
        "<p class=\"x\"\n   title=\"a > b\"\n   data-x='<input name=no>'>para</p>",
        "<style>.a > .b { content: '</form>' }</style>", "<button>page button</button>",
        "<input name=\"loose\" value=\"outside every form\">", "<table><tr><td>1</td></tr></table>",
        "<p>x &#1; y &amp; z</p>", "<br/>", "<plaintext-not>x</plaintext-not>",
    ])


# Constructs the fast path leaves to html5lib: the parsers part ways there (isindex, search,
# dialog, elements in an option), or it does not model them (NUL, form feed, shadow roots).
UNMODELLED: Sequence[str] = (
    "<isindex prompt=\"p\">", "<p>a<search><input name=\"se\"></search></p>",
    "<p>b<dialog open><input name=\"di\"></dialog></p>", "x\x00y", "x\x0cy",
    ("<div><template shadowrootmode=\"open\"><form toolname=\"sh\" tooldescription=\"d\">"
     "<input name=\"s\"></form></template></div>"),
    ("<form toolname=\"opt\" tooldescription=\"d\"><select name=\"o\"><option><b>B</b></option>"
     "</select></form>"),
)

PARSER_FORMS: Table[str] = [
    (10, plain_form),
    (6, table_form),
    (5, _cell_form),
    (5, _foster_form),
    (5, _closed_by_end_tag),
    (4, div_pointer_form),
    (4, _misnested),
    (4, _nested_forms),
    (5, _fake_end_tags),
    (2, _select_swallows_end),
    (3, _template_cases),
    (3, _svg_form),
    (3, _textarea_newlines),
    (4, _labels_around),
    (3, _fieldsets_around),
    (4, _form_attribute_cases),
    (2, unclosed_form),
]


def generate_parser_page(seed: int) -> str:
    """A document of 1–4 parser-stressing form layouts with noise between them, fully
    determined by ``seed``; sometimes with CR or CRLF line ends, upper-case tag names, or (one
    page in 25) a construct the fast path leaves to html5lib."""
    rng = PageRng(seed)
    rng.form_count = rng.randint(1, 4)
    parts = ['<!doctype html><meta charset="utf-8">', f"<title>parser page {seed}</title>"]
    for _ in range(rng.form_count):
        if rng.maybe(0.5):
            parts.append(_noise(rng))
        parts.append(rng.draw(PARSER_FORMS))
    if rng.maybe(0.04):
        parts.insert(rng.randint(2, len(parts)), rng.choice(UNMODELLED))
    page = "\n".join(parts) + "\n"
    if rng.maybe(0.1):
        page = page.replace("<form", "<FORM").replace("<input", "<INPUT")
    if rng.maybe(0.15):
        page = page.replace("\n", rng.choice(["\r\n", "\r"]))
    return page


def generate_parser_pages(count: int, seed: int = 0) -> Iterator[tuple[str, str]]:
    """Yield ``(page_id, html)``; ``parser-0042`` is ``generate_parser_page(42)``."""
    for page_seed in range(seed, seed + count):
        yield f"parser-{page_seed:04d}", generate_parser_page(page_seed)


#: unnamed required controls (no call reaches them), ``{h}`` where a ``hidden`` attribute may go
_UNREACHED = (
    "<input required{h}>",
    "<input type=checkbox required{h}>",
    "<textarea required{h}></textarea>",
    '<select required{h}><option value="">-</option><option>a</option></select>',
)
#: where a hidden attribute ``{h}`` is around the control ``{c}``: on it, on an ancestor in the
#: form, on an element closed before it, on an SVG element (whose hidden is no HTML attribute)
_HIDING_PLACES = (
    "{c}",
    "<div{h}><p>{c}</p></div>",
    "<fieldset{h}><legend>L</legend>{c}</fieldset>",
    "<label{h}>L {c}</label>",
    "<div{h}></div>{c}",
    "<svg{h}><foreignObject>{c}</foreignObject></svg>",
    "<span><div{h}><b>x</b></div>{c}</span>",
)
_HIDDEN_VALUES = (" hidden", ' hidden=""', " hidden=until-found", " HIDDEN=x", " hidden=HIDDEN")


#: the rarer combinations, each once: until-found on a checkbox itself (its box shows; an unnamed
#: radio button is in no group, and valid unchecked) or on a text
#: field (its editor does not), and hidden on a declarative shadow root's template (which hides
#: nothing: the root is its parent's)
UNSEEN_PINNED = (
    "<input type=checkbox required hidden=until-found>",
    "<input TYPE=CHECKBOX required HIDDEN=UNTIL-FOUND>",
    "<input required hidden=until-found>",
    "<div><template shadowrootmode=open hidden><form toolname=s tooldescription=d action=/done>"
    "<input name=q required value=x><input required><button>Send</button></form></template></div>",
)


def unseen_control_page(seed: int) -> str:
    """A tool form (no toolautosubmit) with a named input a call fills, an unnamed required
    control no call can, a ``hidden`` attribute somewhere around it or none, and a submit
    button: whether the person at the keyboard can complete the form is Chromium's to say. A
    negative seed gives one of :data:`UNSEEN_PINNED` instead."""
    if seed < 0:  # -1, -2 …: the pinned ones
        pinned = UNSEEN_PINNED[-seed - 1]
        if pinned.startswith("<div>"):
            return f"<!doctype html><meta charset=utf-8>{pinned}"
        return (
            "<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d action=/done>"
            f"<input name=q required value=x>{pinned}<button>Send</button></form>"
        )
    rng = random.Random(seed)
    control = rng.choice(_UNREACHED)
    place = rng.choice(_HIDING_PLACES)
    hidden = rng.choice(_HIDDEN_VALUES) if rng.random() < 0.85 else ""
    on_control = place == "{c}"
    body = place.format(c=control.format(h=hidden if on_control else ""), h="" if on_control else hidden)
    return (
        "<!doctype html><meta charset=utf-8><form toolname=t tooldescription=d action=/done>"
        f"<input name=q required value=x>{body}<button>Send</button></form>"
    )
