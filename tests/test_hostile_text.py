"""Text from a page or an agent costs work linear in its length and breaks no limit of a library
below: JSON scanned for its depth (``--input``, landing pages' JSON-LD), a ``wrap=hard``
textarea's value, and source lines past what lxml's ``sourceline`` holds.

Each shape comes from a seeded generator, so the class of input is covered, not one spelling.
"""

from __future__ import annotations

import importlib
import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from lxml import etree

import formtools
from formtools._execute import entries
from formtools._execute.redact import MASK, Secrets
from formtools._execute.send import json_ld_of
from formtools._forms.model import forms_of
from formtools._spec.jsjson import nests_deeper
from formtools.cli import _tool_input

# --- JSON depth ----------------------------------------------------------------------------


def _reference_depth_over(text: str, levels: int) -> bool:
    """nests_deeper's meaning, one character at a time: brackets outside strings nest, a
    backslash in a string escapes the next character, an unterminated string runs to the end."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > levels:
                return True
        elif char in "]}":
            depth -= 1
    return False


def test_the_depth_scan_reads_json_as_a_parser_does() -> None:
    """Seeded texts of brackets, quotes, backslashes and newlines (strings closed, left open,
    ending in a backslash): the scan agrees with a character-by-character reading."""
    rng = random.Random(1_171)
    pieces = ['"', "\\", '\\"', "[", "]", "{", "}", "a", "\n", "é", ",", '"["']
    for _ in range(3_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 30)))
        for levels in (0, 1, 3):
            assert nests_deeper(text, levels) == _reference_depth_over(text, levels), (text, levels)


def _hostile_json(rng: random.Random, n: int) -> str:
    """A JSON-like text of about ``n`` units with a string that never closes, full of what
    could open or end one: escaped quotes, backslashes, brackets, text."""
    units = ["\\\\", "[", "{", "a", "\\u00e9", "é", '\\"[', " "]
    chosen = ['\\"', *rng.sample(units, rng.randrange(0, len(units)))]  # (each quote escaped)
    prefix = rng.choice(["[", '{"q": ', '[{"a": [', ""])
    return prefix + '"' + "".join(rng.choice(chosen) for _ in range(n))


def _benign_json(n: int) -> str:
    """As long a text, parsed quickly: an array of short strings."""
    return "[" + ",".join(['"ab"'] * (n // 2)) + "]"


def _seconds(run: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def _json_ld(text: str) -> Callable[[], Any]:
    page = formtools.parse_html(f"<script type=application/ld+json>{text}</script><p>x")
    return lambda: json_ld_of(page)


def _cli_input(text: str) -> Callable[[], Any]:
    def run() -> None:
        try:
            _tool_input(text)
        except formtools.errors.UsageProblem:  # (not JSON: what matters is how long it took)
            pass

    return run


@pytest.mark.parametrize("reader", [_json_ld, _cli_input], ids=["landing JSON-LD", "--input"])
def test_json_a_depth_scan_meets_costs_as_much_as_any_json(reader: Callable[[str], Callable[[], Any]]) -> None:
    """A string left open, ``["\\"\\"\\"…``, failed to match the scan's string pattern and
    was tried again from each escaped quote inside it: 32 KB took 3 s, 1 MB would take about an
    hour (a hostile site's JSON-LD block; an --input file). The work is the regular expression
    engine's, in C, where a line count sees nothing: timed against a text as long that parses
    at once, in the same process, best of three."""
    rng = random.Random(2_026)
    for _ in range(6):
        hostile = _hostile_json(rng, 16_000)
        benign = _benign_json(len(hostile))
        took, baseline = _seconds(reader(hostile)), _seconds(reader(benign))
        assert took < 5 * baseline + 0.05, (hostile[:40], took, baseline)


# --- a wrap=hard textarea ------------------------------------------------------------------


class _CountedSlices(str):
    """A string that counts the characters its slices copy (in C, unseen by a line count)."""

    copied = 0

    def __getitem__(self, index: Any) -> Any:
        piece = str.__getitem__(self, index)
        if isinstance(index, slice):
            _CountedSlices.copied += len(piece)
            return _CountedSlices(piece)
        return piece


def _counted_breakable(monkeypatch: pytest.MonkeyPatch) -> None:
    pattern = entries._BREAKABLE

    class Breakable:
        def findall(self, text: str) -> list[str]:
            return [_CountedSlices(token) for token in pattern.findall(text)]

    monkeypatch.setattr(entries, "_BREAKABLE", Breakable())


def _words(rng: random.Random, n: int) -> str:
    """About ``n`` characters of words, some short, some a good part of the whole."""
    out, length = [], 0
    while length < n:
        word = "x" * rng.choice([1, 7, 50, n // 10, n // 4]) + rng.choice(["", "-", "-1"])
        out.append(word + rng.choice([" ", "  ", "\n"]))
        length += len(out[-1])
    return "".join(out)


@pytest.mark.parametrize("cols", [1, 3, 20])
def test_a_hard_wrapped_value_costs_copies_linear_in_its_length(cols: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A word longer than the line was cut by taking what was left of it each time
    (``token = token[width:]``), copying the rest per line: an 800 KB word at ``cols=1`` took
    4 s, 3.2 MB a minute. The characters sliced must double with the text, and the value sent
    is the same as the textarea's lines joined (each at most ``cols + 1`` wide but for spaces)."""
    page = (
        f"<form toolname=t tooldescription=d action=/x method=post enctype=text/plain>"
        f"<textarea name=q wrap=hard cols={cols}>"
        "</textarea><button>go</button></form>"
    )
    tool = formtools.extract(page, base_url="https://s.example/").tools[0]
    _counted_breakable(monkeypatch)
    copied = []
    for n in (40_000, 80_000):
        text = _words(random.Random(n), n)
        _CountedSlices.copied = 0
        request = formtools.prepare_call(tool, {"q": text}).outcome
        assert isinstance(request, formtools.Request) and request.body is not None
        sent = request.body.decode()[len("q=") : -len("\r\n")]
        copied.append(_CountedSlices.copied)
        assert sent.replace("\r\n", "").replace(" ", "") == text.replace("\n", "").replace(" ", "")
        assert all(len(line.rstrip(" ")) <= cols + 1 for line in sent.split("\r\n"))
    assert copied[1] < 2.3 * copied[0], copied


# --- source lines ---------------------------------------------------------------------------

LXML_LINES = 65_535  # lxml's sourceline is an unsigned short

#: Forms and form-associated elements, each in a form of its own (what the lines are read for).
_ELEMENTS = [
    "<input name=q{i}>",
    "<select name=s{i}><option>a</select>",
    "<textarea name=t{i}>x</textarea>",
    "<button name=b{i}>go</button>",
    "<fieldset name=f{i}></fieldset>",
    "<output name=o{i}></output>",
    "<object name=x{i}></object>",
    "<input\nname=m{i}\n>",  # (the line of its ">")
]


def _page(rng: random.Random, leading: int) -> str:
    body = []
    for i in range(12):
        element = rng.choice(_ELEMENTS).format(i=i)
        gap = "\n" * rng.randrange(0, 3)
        body.append(f"<form toolname=t{i} tooldescription=d>{gap}{element}\n</form>" + "\n" * rng.randrange(0, 4))
    return "\n" * leading + "".join(body)


@pytest.mark.parametrize("parser", ["auto", "html5lib"])
def test_forms_past_line_65535_have_their_lines(parser: str) -> None:
    """A page with a form past line 65,535 failed with an OverflowError (lxml keeps an
    element's line in 16 bits), on both parse paths, in extract, lint and calls alike. The lines
    of the same forms moved down by 70,000 lines are their lines on the short page plus 70,000,
    in diagnostics as in the forms."""
    rng = random.Random(655)
    for _ in range(3):
        seed = rng.randrange(1 << 30)
        short, long = (_page(random.Random(seed), leading) for leading in (0, 70_000))
        near = [form.line for form in forms_of(formtools.parse_html(short, parser=parser))]  # type: ignore[arg-type]
        far = forms_of(formtools.parse_html(long, parser=parser))  # type: ignore[arg-type]
        assert [form.line for form in far] == [line + 70_000 for line in near]
        assert all(control.line and control.line > LXML_LINES for form in far for control in form.controls)
        diagnostics = formtools.extract(long, parser=parser).diagnostics  # type: ignore[arg-type]
        assert [d.line for d in diagnostics] == [
            d.line + 70_000 for d in formtools.extract(short, parser=parser).diagnostics  # type: ignore[arg-type]
        ]


def test_a_callers_tree_keeps_its_own_lines() -> None:
    """A tree the caller built (``from_tree``) has its lines from its own parser."""
    tree = etree.fromstring("<html><body>\n<form>\n<input name='q'/></form></body></html>", etree.HTMLParser())
    (form,) = forms_of(formtools.from_tree(tree))
    assert (form.line, form.controls[0].line) == (2, 3)


# --- secrets masked in what a site sends back ---------------------------------------------


def _case_classes() -> Callable[[int], int]:
    """The regular expression engine's own IGNORECASE class of a code point (its simple lower
    case and its table of extra equivalences), named by its smallest member's lower case."""
    lower: Callable[[int], int] = importlib.import_module("_sre").unicode_tolower
    extra: dict[int, tuple[int, ...]] = importlib.import_module("re._casefix")._EXTRA_CASES
    return lambda code: min((lower(code), *extra.get(lower(code), ())))


def test_secrets_are_matched_in_the_letter_cases_the_engine_matches() -> None:
    """Masking folds the text and the secrets alike and matches them exactly; two characters
    fold alike exactly when IGNORECASE matched one with the other (every code point)."""
    from formtools._execute.redact import _folded

    codes = [*range(0xD800), *range(0xE000, 0x110000)]
    folded = _folded("".join(map(chr, codes)))
    assert len(folded) == len(codes)
    case_class = _case_classes()
    # the code points either side moves, and where to: all the others are classes of one
    moved = {
        code: (ord(fold), case_class(code))
        for code, fold in zip(codes, folded)
        if ord(fold) != code or case_class(code) != code
    }
    every = set(moved) | {target for pair in moved.values() for target in pair}
    folding: dict[int, list[int]] = {}
    engine: dict[int, list[int]] = {}
    for code in sorted(every):
        fold, same = moved.get(code, (code, code))
        folding.setdefault(fold, []).append(code)
        engine.setdefault(same, []).append(code)
    assert sorted(folding.values()) == sorted(engine.values())


def test_secrets_are_masked_as_their_alternation_masks_them() -> None:
    """Seeded secrets and texts over letters whose cases differ oddly (ß, ſ, K, σς, İı, ﬅﬆ,
    ᾈ): the masked text is the one the alternation of every written form, longest first, in
    any letter case, gave."""
    rng = random.Random(4_242)
    letters = "aAéÉßſsSkK\u212aσςΣİiIﬅﬆ%+ ᾈᾀ"
    for _ in range(600):
        values = frozenset("".join(rng.choice(letters) for _ in range(rng.randrange(4, 7))) for _ in range(4))
        secrets = Secrets(frozenset({"p"}), values, rng.choice(["UTF-8", "windows-1252"]))
        text = "".join(rng.choice(letters + "xyz") for _ in range(50))
        for written in secrets._written[:4]:
            at = rng.randrange(0, 50)
            text = text[:at] + rng.choice([str.upper, str.lower, str])(written) + text[at:]
        alternation = re.compile("|".join(map(re.escape, secrets._written)), re.IGNORECASE)
        assert secrets.text(text) == alternation.sub(MASK, text), text


def test_masking_costs_the_same_however_many_secrets_a_page_has() -> None:
    """A page's secret inputs (their default values are secrets too) made one alternative
    each, tried at every character of the landing page: 800 secrets made masking 100 KB take
    0.6 s, 8,000 a landing page of 10 MB minutes. Timed, as the engine's work is in C: 16
    times the secrets must not cost 4 times as much."""
    rng = random.Random(16)
    landing = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(100_000))

    def seconds(n: int) -> float:
        defaults = "".join(f"<input type=password name=p{i} value={rng.randbytes(6).hex()}>" for i in range(n))
        page = f"<form toolname=t tooldescription=d action=/x>{defaults}<button>go</button></form>"
        secrets = formtools.prepare_call(formtools.extract(page, base_url="https://s.example/").tools[0], {}).secrets
        return _seconds(lambda: secrets.text(landing))

    few, many = seconds(50), seconds(800)
    assert many < 4 * few + 0.02, (few, many)
