"""Record which patterns Chromium's V8 compiles with the ``v`` flag.

HTML compiles the ``pattern`` attribute as ``new RegExp(pattern, "v")``; ``formtools._spec.ecmaregex``
claims to decide the same way without a browser. This script builds a corpus of patterns (edge
cases written by hand for every grammar production and early error, then seeded random patterns
and mutations of them), asks the real browser about each one and writes
``fixtures/expected/regex-v-flag.json``: ``{"browser": STAMP, "rows": [...]}``, where ``STAMP``
is the browser the answers come from (the oracle's product string and flags, which must equal
``fixtures/expected/BROWSER.json``: see ``scripts/_recording.py``, ``stamped``) and each row,
one per line, is ``{"pattern": ..., "valid": ...}``. Lone surrogates are written as ``\\udXXX``
escapes, which Python's ``json`` reads back exactly (a surrogate pair is stored as the one code
point it encodes). The browser is the oracle's (``formtools._conformance.browser``), launched
with the same flags as every other recording.

    python scripts/record_regex_validity.py [--random N]

The corpus and the random generator are deterministic (seeded, no clock, no set iteration), and
``tests/test_ecmaregex.py`` imports them for its live test.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the shared helpers live in the scripts package
    sys.path.insert(0, str(ROOT))

from scripts._recording import STAMP, evaluate_in_batches, stamped  # noqa: E402

OUTPUT = ROOT / "fixtures" / "expected" / "regex-v-flag.json"

# Seeds of the random patterns in the recorded corpus; the live test uses other seeds.
RECORDED_SEEDS = range(1400)

# --- asking the browser -------------------------------------------------------------------------

_VALIDATE_JS = """
(patterns) => patterns.map((units) => {
  let pattern = "";
  for (let i = 0; i < units.length; i += 4096) {
    pattern += String.fromCharCode.apply(null, units.slice(i, i + 4096));
  }
  try {
    new RegExp(pattern, "v");
    return null;
  } catch (error) {
    return String(error && error.message);
  }
})
"""


def utf16_units(pattern: str) -> list[int]:
    """The UTF-16 code units a JavaScript string holding ``pattern`` would have."""
    data = pattern.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def ask_chromium(patterns: Sequence[str], page: Any, batch: int = 500) -> list[str | None]:
    """For each pattern, None when ``new RegExp(pattern, "v")`` succeeds, else V8's message.

    ``page`` is a Playwright page (the oracle's). Patterns travel as UTF-16 code units, so lone
    surrogates reach the browser unchanged.
    """
    return _ask(page, patterns, batch)


def _ask(page: Any, patterns: Sequence[str], batch: int) -> list[str | None]:
    return evaluate_in_batches(page, _VALIDATE_JS, [utf16_units(p) for p in patterns], batch)


# --- hand-written edge cases --------------------------------------------------------------------

# Every printable ASCII character, plus a few others, alone and in each escape / class position.
_ASCII = [chr(c) for c in range(0x20, 0x7F)]
_OTHER_CHARACTERS = ["\t", "\n", "\u2028", "é", "ß", "€", "\u200d", "😀", "\U000e0001", "\x00"]
_DOUBLE_PUNCTUATORS = [c + c for c in "&!#$%*+,.:;<=>?@^`~"]

_GENERAL_CATEGORY_SAMPLE = [
    "L", "Letter", "LC", "Cased_Letter", "Lu", "Uppercase_Letter", "Ll", "Lt", "Lm", "Lo", "M",
    "Mark", "Combining_Mark", "Mn", "Mc", "Me", "N", "Number", "Nd", "digit", "Nl", "No", "P",
    "punct", "Punctuation", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "S", "Symbol", "Sm", "Sc",
    "Sk", "So", "Z", "Separator", "Zs", "Zl", "Zp", "C", "Other", "Cc", "cntrl", "Control", "Cf",
    "Cs", "Co", "Cn", "Unassigned", "Surrogate", "Private_Use", "Format",
]
_BINARY_SAMPLE = [
    "ASCII", "ASCII_Hex_Digit", "AHex", "Alphabetic", "Alpha", "Any", "Assigned", "Bidi_Control",
    "Bidi_C", "Bidi_Mirrored", "Bidi_M", "Case_Ignorable", "CI", "Cased",
    "Changes_When_Casefolded", "CWCF", "Changes_When_Casemapped", "CWCM",
    "Changes_When_Lowercased", "CWL", "Changes_When_NFKC_Casefolded", "CWKCF",
    "Changes_When_Titlecased", "CWT", "Changes_When_Uppercased", "CWU", "Dash",
    "Default_Ignorable_Code_Point", "DI", "Deprecated", "Dep", "Diacritic", "Dia", "Emoji",
    "Emoji_Component", "EComp", "Emoji_Modifier", "EMod", "Emoji_Modifier_Base", "EBase",
    "Emoji_Presentation", "EPres", "Extended_Pictographic", "ExtPict", "Extender", "Ext",
    "Grapheme_Base", "Gr_Base", "Grapheme_Extend", "Gr_Ext", "Hex_Digit", "Hex",
    "IDS_Binary_Operator", "IDSB", "IDS_Trinary_Operator", "IDST", "ID_Continue", "IDC",
    "ID_Start", "IDS", "Ideographic", "Ideo", "Join_Control", "Join_C",
    "Logical_Order_Exception", "LOE", "Lowercase", "Lower", "Math", "Noncharacter_Code_Point",
    "NChar", "Pattern_Syntax", "Pat_Syn", "Pattern_White_Space", "Pat_WS", "Quotation_Mark",
    "QMark", "Radical", "Regional_Indicator", "RI", "Sentence_Terminal", "STerm", "Soft_Dotted",
    "SD", "Terminal_Punctuation", "Term", "Unified_Ideograph", "UIdeo", "Uppercase", "Upper",
    "Variation_Selector", "VS", "White_Space", "space", "WSpace", "XID_Continue", "XIDC",
    "XID_Start", "XIDS",
]
_STRING_PROPERTIES = [
    "Basic_Emoji", "Emoji_Keycap_Sequence", "RGI_Emoji_Modifier_Sequence",
    "RGI_Emoji_Flag_Sequence", "RGI_Emoji_Tag_Sequence", "RGI_Emoji_ZWJ_Sequence", "RGI_Emoji",
]
_SCRIPT_SAMPLE = [
    "Latin", "Latn", "Greek", "Grek", "Cyrillic", "Cyrl", "Han", "Hani", "Common", "Zyyy",
    "Inherited", "Zinh", "Qaai", "Qaac", "Unknown", "Zzzz", "Coptic", "Copt", "Hiragana", "Kana",
    "Katakana", "Arabic", "Hebrew", "Nko", "Nkoo", "Old_Italic", "Ital", "SignWriting", "Sgnw",
    "Nag_Mundari", "Kawi", "Garay", "Gara", "Gurung_Khema", "Kirat_Rai", "Ol_Onal", "Sunuwar",
    "Todhri", "Tulu_Tigalari", "Tutg", "Beria_Erfe", "Berf", "Sidetic", "Sidt", "Tai_Yo", "Tayo",
    "Tolong_Siki", "Tols",
]
_BAD_PROPERTY_NAMES = [
    "", "any", "ascii", "lu", "LU", "Latin", "Latn", "Script", "sc", "gc", "General_Category",
    "Script_Extensions", "L ", " L", "L_", "Lu=", "=Lu", "IsLatin", "InBasic_Latin", "Hyphen",
    "Other_Alphabetic", "Full_Composition_Exclusion", "Prepended_Concatenation_Mark",
    "ID_Compat_Math_Start", "IDS_Unary_Operator", "Modifier_Combining_Mark", "InCB", "Hrkt",
    "Katakana_Or_Hiragana", "Aran", "Chisoi", "emoji", "RGI_emoji", "Emoji_Keycap",
    "White-Space", "Letter\u0301", "L\u0000", "\\u004C",
]


def _property_cases() -> list[str]:
    cases: list[str] = []
    for value in _GENERAL_CATEGORY_SAMPLE:
        cases += [f"\\p{{{value}}}", f"\\P{{{value}}}", f"\\p{{gc={value}}}"]
        cases += [f"\\p{{General_Category={value}}}", f"[^\\p{{{value}}}]"]
    for name in _BINARY_SAMPLE:
        cases += [f"\\p{{{name}}}", f"\\P{{{name}}}", f"[\\P{{{name}}}a]"]
    for name in _STRING_PROPERTIES:
        cases += [f"\\p{{{name}}}", f"\\P{{{name}}}", f"[\\p{{{name}}}]", f"[^\\p{{{name}}}]"]
        cases += [f"[\\P{{{name}}}]", f"[^\\p{{{name}}}&&a]", f"[^a&&\\p{{{name}}}]"]
        cases += [f"[^\\p{{{name}}}--a]", f"[^a--\\p{{{name}}}]", f"[^[\\p{{{name}}}]]"]
        cases += [f"\\p{{{name}}}+", f"[\\p{{{name}}}--\\q{{a}}]"]
    for value in _SCRIPT_SAMPLE:
        for name in ("Script", "sc", "Script_Extensions", "scx"):
            cases.append(f"\\p{{{name}={value}}}")
        cases += [f"\\p{{{value}}}", f"\\P{{sc={value}}}", f"[^\\p{{scx={value}}}]"]
    for bad in _BAD_PROPERTY_NAMES:
        cases += [f"\\p{{{bad}}}", f"\\p{{sc={bad}}}", f"\\p{{gc={bad}}}", f"[\\p{{{bad}}}]"]
    cases += [
        "\\p", "\\P", "\\pL", "\\p{", "\\p{L", "\\p{L}}", "\\p{Lu=gc}", "\\p{gc=Latin}",
        "\\p{sc=Lu}", "\\p{Script=Latin=x}", "\\p{Block=Basic_Latin}", "\\p{blk=ASCII}",
        "\\p{ASCII=Y}", "\\p{Alphabetic=True}", "\\p{sc=}", "\\p{=}", "\\p{gc=L}\\P{sc=Grek}",
        "[\\p]", "[\\p{L]", "[\\p{L}-a]", "[a-\\p{L}]", "\\p{Lu}{2}", "\\p{Lu}{2,1}",
        "\\p{RGI_Emoji}|[\\q{ab}]", "\\p{scx=Latin}\\p{scx=Zinh}",
    ]
    return cases


def _escape_cases() -> list[str]:
    cases: list[str] = []
    for char in _ASCII + _OTHER_CHARACTERS:
        cases += [char, "\\" + char, "[" + char + "]", "[\\" + char + "]", "[\\q{" + char + "}]"]
        cases += ["a" + char + "*", "[a" + char + "b]", "[\\q{\\" + char + "}]"]
    for double in _DOUBLE_PUNCTUATORS:
        cases += ["[" + double + "]", "[a" + double + "b]", "[\\q{" + double + "}]"]
        cases += ["[\\" + double + "]", "[" + double[0] + "\\" + double[1] + "]"]
        cases += ["[" + double[0] + "a" + double[1] + "]", double, "[^" + double + "]"]
    cases += [
        "\\c", "\\c1", "\\c_", "\\ca", "\\cz", "\\cA", "\\cZ", "\\c@", "\\c[", "[\\c_]",
        "[\\c1]", "[\\c]", "[\\cJ]", "\\x", "\\x1", "\\x41", "\\xg1", "\\x4G", "[\\x4]",
        "[\\x41-\\x5A]", "\\u", "\\u1", "\\u12", "\\u123", "\\u1234", "\\u123g", "\\u{",
        "\\u{}", "\\u{0}", "\\u{61}", "\\u{000000000000061}", "\\u{10FFFF}", "\\u{110000}",
        "\\u{FFFFFFFFFF}", "\\u{ 1}", "\\u{-1}", "\\u{1F600", "\\u{G}", "[\\u{110000}]",
        "\\uD83D\\uDE00", "\\uD83D", "\\uDE00", "\\uD83D\\u{DE00}", "\\u{D83D}\\u{DE00}",
        "\\uD83D\\uDE00+", "\\0", "\\0a", "\\00", "\\01", "\\08", "\\09", "[\\0]", "[\\00]",
        "[\\01]", "[\\08]", "\\1", "\\8", "\\9", "\\10", "(a)\\1", "(a)\\01", "(a)\\2",
        "(a)\\1\\2", "(a)(b)\\2", "\\1(a)", "\\2(a)(b)", "(?:)\\1", "(?=(a))\\1", "()\\1",
        "()()()()()()()()()()\\10", "()()()()()()()()()\\10", "\\99999999999",
        "(a)\\4294967297", "\\t\\n\\v\\f\\r", "\\k", "\\k<", "\\k<a", "\\k<a>", "\\k<>",
        "\\k<1>", "(?<a>x)\\k<a>", "\\k<a>(?<a>x)", "(?<a>x)\\k<b>", "(?<a>x)\\k",
        "(?<a>x)\\k<a", "(?<a>x)\\k<\\u0061>", "(?<\\u0061>x)\\k<a>", "(?<a>x)[\\k<a>]",
        "(?<a>x)|\\k<a>", "\\k<a>*(?<a>)", "\\1*()", "\\b", "\\B", "\\b+", "\\B*", "\\b{1}",
        "[\\b]", "[\\B]", "[\\b-\\n]", "[\\n-\\b]", "[\\d]", "[\\D-\\w]", "[a-\\d]", "[\\d-a]",
        "\\d+\\D?\\s*\\S{2}\\w{1,}\\W{0,1}", "\\/", "[\\/]", "/", "a//b", "\\", "a\\",
        "[\\", "[a\\", "\\q", "\\q{a}", "[\\q]", "[\\q{]", "[\\q{a]", "[\\q{a}]", "[\\q{}]",
        "[\\q{|}]", "[\\q{a|bc|}]", "[\\q{abc}]", "[^\\q{a}]", "[^\\q{a|b}]", "[^\\q{ab}]",
        "[^\\q{}]", "[^\\q{a|}]", "[\\q{\\q{a}}]", "[\\q{\\d}]", "[\\q{\\p{L}}]", "[\\q{[a]}]",
        "[\\q{a-b}]", "[\\q{\\-}]", "[\\q{\\|}]", "[\\q{\\}}]", "[\\q{\\b}]", "[\\q{\\u{61}}]",
        "[\\q{\\uD83D\\uDE00}]", "[^\\q{\\uD83D\\uDE00}]", "[^\\q{😀}]", "[^\\q{\\u{1F600}}]",
        "[\\q{a}-b]", "[a-\\q{b}]", "[\\q{a}\\q{b}]", "[\\q{a}--\\q{a}]", "[\\q{a}&&\\q{a}]",
    ]
    return cases


def _quantifier_cases() -> list[str]:
    cases = [
        "a*", "a+", "a?", "a*?", "a+?", "a??", "a???", "a*+", "a**", "a+?+", "a{1}", "a{1}?",
        "a{1}+", "a{1}??", "a{1,}", "a{1,2}", "a{2,1}", "a{1,1}", "a{0}", "a{0,0}", "a{01}",
        "a{001,002}", "a{,}", "a{,5}", "a{1", "a{1,", "a{1,2", "a{", "a}", "a{}", "a{a}",
        "a{ 1}", "a{1 }", "a{1, 2}", "a{1_0}", "a{1}}", "a{1,2}{3}", "a{-1}", "a{1.5}",
        "a{99999999999,1}", "a{99999999999,99999999998}", "a{2147483647,2147483646}",
        "a{2147483648,2147483647}", "a{2147483647}", "a{0,2147483647}",
        "a{3000000000,2999999999}", "a{2147483646,2147483647}", "a{2147483647,2147483647}",
        "a{1,99999999999999999999999999}", "{", "}", "{1}", "a|*", "*", "+a", "?", "(*)",
        "(|a)*", "()*", "(?:)*", "(?<x>)*", "[]*", "[^]+", ".*", "^*", "$+", "^?", "(^)*",
        "x(?=a)*", "(?=a)*", "(?!a)+", "(?<=a)?", "(?<!a){1}", "(?=a){", "(?=a)", "(?!)",
        "(?<=)", "(?<!)", "(?i:a)*", "(?-i:a)+",
    ]
    return cases


def _group_cases() -> list[str]:
    cases = [
        "(", ")", "()", "(()", "())", "a)", "(a|)", "|", "||", "a|", "(?", "(?)", "(?:", "(?:)",
        "(?=", "(?<", "(?<=", "(?<!a", "(?'a'x)", "(?P<a>x)", "(?P=a)", "(?#c)", "(?>a)",
        "(?|a)", "(?i)", "(?-i)", "(?i:a)", "(?m:a)", "(?s:a)", "(?x:a)", "(?u:a)", "(?I:a)",
        "(?i-:a)", "(?-i:a)", "(?-:a)", "(?--i:a)", "(?i-m-s:a)", "(?ii:a)", "(?i-i:a)",
        "(?is-mi:a)", "(?ims:a)", "(?ims-:a)", "(?-ims:a)", "(?i:)", "(?i:(?-i:a))",
        "(?ms-i:a|b)", "(?i :a)", "(?i-", "(?i-m", "(?i-m:", "(?imsi:a)", "(?sm-:a)",
        "(?<a>)", "(?<a>", "(?<a", "(?<>a)", "(?<1a>a)", "(?<a1>a)", "(?<$>a)", "(?<_>a)",
        "(?<$_$>a)", "(?<a-b>a)", "(?<a b>a)", "(?<a.b>a)", "(?<\\u0061>a)", "(?<\\u{61}>a)",
        "(?<a\\u{62}>a)", "(?<\\u{1d49c}>a)", "(?<\\uD835\\uDC9C>a)", "(?<\\uD835\\u{DC9C}>a)",
        "(?<\\u{D835}\\u{DC9C}>a)", "(?<\\uD835>a)", "(?<a\\u200c>a)", "(?<a\\u200d>a)",
        "(?<\\u200c>a)", "(?<a\u200c>a)", "(?<\u00e4>a)", "(?<𝒜>a)", "(?<a𝒜>a)", "(?<😀>a)",
        "(?<\\x61>a)", "(?<\\u0031>a)", "(?<a\\u0031>a)", "(?<a\\u{}>a)", "(?<a\\u{110000}>a)",
        "(?<\\a>a)", "(?<a\\>a)", "(?<ǅ>a)", "(?<ᢅ>a)", "(?<a\u0301>a)", "(?<\u0301>a)",
        "(?<a·>a)", "(?<·>a)", "(?<℘>a)", "(?<a℘>a)", "(?<゛>a)", "(?<a゛>a)", "(?<ⅰ>a)",
        "(?<a٣>a)", "(?<٣>a)", "(?<a\u2118>a)", "(?<\U0001e4d0>a)", "(?<\U000323b0>a)",
        "(?<a\U000e0100>a)", "(?<\U000e0100>a)", "(?<\U00016ff0>a)",
        "(?<a>x)|(?<a>y)", "(?<a>x)(?<a>y)", "(?<a>x)|(?<a>y)|(?<a>z)",
        "(?:(?<a>x)|(?<a>y))\\k<a>", "(?:(?<a>x)|(?<a>y))(?<a>z)",
        "(?<a>x)|(?:(?<a>y)|(?<a>z))", "(?<a>x)(?:(?<a>y)|z)", "((?<a>x)|(?<a>y))|(?<a>z)",
        "(?:(?<a>x)|y)|(?<a>z)", "(?<a>x(?<a>y))", "(?<a>x)|(?<b>y)(?<a>z)",
        "(?=(?<a>x))|(?<a>y)", "(?i:(?<a>x))|(?<a>y)", "(?<a>x)*|(?<a>y)",
        "((?<a>x)|(?<a>y))((?<b>x)|(?<b>y))", "(?<a>x)|((?<a>y))", "((?<a>x))|(?<a>y)(?<b>z)",
        "(?<a>.)(?:(?<b>.)|(?<a>.))", "(?:(?<a>.)|(?<b>.))(?:(?<a>.)|(?<b>.))",
        "(?<\\u0061>x)|(?<a>y)", "(?<\\u0061>x)(?<a>y)", "(?<a>x)(?<A>y)",
        "(?<a>x)(?=(?<a>y))", "(?<a>(?:x|(?<a>y)))", "(?:x|(?<a>y))|(?:(?<a>z)|w)",
        "(?<=(?<a>x))(?<!(?<b>y))\\k<a>\\k<b>", "(?<a>a)(?<b>b)\\k<b>\\2",
        "(?<a>x)\\2",
    ]
    return cases


def _class_cases() -> list[str]:
    cases = [
        "[", "[a", "[[a]", "[a]]", "]", "[]", "[^]", "[^^]", "[^^^]", "[^a^]", "[a^^b]", "[^-]",
        "[a&b]", "[a&]", "[&a]", "[&&a]", "[a&&]", "[a&&&b]", "[a&&b&&c]", "[a--b--c]",
        "[a&&b--c]", "[a--b&&c]", "[ab--c]", "[a-b--c]", "[a--b-c]", "[a--[b-c]]",
        "[[a-z]--[aeiou]]", "[a-z&&q]", "[\\d--\\w]", "[\\p{L}&&\\p{Lu}]", "[a--]", "[--a]",
        "[a---b]", "[a----b]", "[a-&&b]", "[a&&-b]", "[a&&[b]]", "[[a]&&b]", "[[a][b]]",
        "[[a]b[c]]", "[[a]--[b]--[c]]", "[[a]&&[b]--[c]]", "[a&&b&&]", "[a--b--]",
        "[a&&b c]", "[a b]", "[a-]", "[-a]", "[a-\\-]", "[\\--a]", "[a-b-c]", "[z-a]",
        "[a-a]", "[\\uD83D\\uDE00-\\uD83D\\uDE01]", "[\\uDE00-\\uD83D]",
        "[\\u{1F600}-\\u{1F601}]", "[\\u{D83D}\\u{DE00}-\\u{D83D}\\u{DE01}]",
        "[\\uD83D\\uDE00-\\uD83D]", "[\\uD83D-\\uDE00]", "[😀-😁]", "[😁-😀]", "[a-😀]",
        "[\\q{a}-b]", "[a-[b]]", "[[a]-b]", "[^[^a]]", "[^[^\\p{RGI_Emoji}]]",
        "[[^\\q{ab}]]", "[^\\q{ab}--\\q{ab}]", "[^\\q{ab}&&\\q{ab}]", "[^\\q{ab}&&[\\q{ab}]]",
        "[^[\\q{ab}]&&[\\q{ab}]]", "[^[\\q{ab}&&a]]", "[^[\\q{ab}--a]]", "[^[a--\\q{ab}]]",
        "[^\\p{RGI_Emoji}&&\\p{RGI_Emoji}]", "[^[\\p{RGI_Emoji}\\q{a}]&&\\q{ab}]",
        "[^\\q{a|b}\\q{c}]", "[^\\q{a|bc}&&\\q{bc}]", "[^\\q{a|bc}&&\\q{b}]",
        "[(]", "[)]", "[{]", "[}]", "[/]", "[|]", "[\\(]", "[\\)]", "[\\{]", "[\\}]", "[\\|]",
        "[\\[]", "[\\]]", "[a[]", "[a]b]", "[[]]", "[[[]]]", "[[^]]", "[^[]]",
        "[[a]&&[b]&&[c]]", "[[a]--[b]]&&c", "[a&&b]*", "[a--b]{2}", "[^a--b]",
        "[\\w--\\d]", "[\\w&&\\d]", "[\\w--[\\d_]]", "[\\s\\S]", "[.]", "[$]", "[^$]", "[*]",
        "[+]", "[?]", "[,]", "[!]", "[#]", "[%]", "[:]", "[;]", "[<]", "[=]", "[>]", "[@]",
        "[`]", "[~]", "[-]", "[\\-]", "[&]", "[^&]", "[a&&&]", "[&&&&]",
    ]
    return cases


def _nesting_cases() -> list[str]:
    cases = [
        "(" * 1000 + ")" * 1000,
        "(?:" * 5000 + ")" * 5000,
        "(?=" * 3000 + "a" + ")" * 3000,
        "(" * 100 + ")" * 99,
        "[" * 100 + "]" * 100,
        "[" * 100 + "]" * 99,
        "[" * 1000 + "]" * 1000,
        "[^" * 1000 + "]" * 1000,
        "[a&&" * 1000 + "a" + "]" * 1000,
        "[" * 3000 + "]" * 3000,
        "[a--" * 2000 + "a" + "]" * 2000,
        "()" * 32767,  # V8's limit on capturing groups
        "()" * 32768,
        # Around V8's parser stack limit (see _CLASS_STACK_BUDGET), two levels either side:
        # the exact level moves by one with the state of the calling JavaScript.
        "[" * 1726 + "]" * 1726,
        "[" * 1730 + "]" * 1730,
        "[" * 1725 + "a" + "]" * 1725,
        "[" * 1729 + "a" + "]" * 1729,
        "[a&&" * 1514 + "a" + "]" * 1514,
        "[a--" * 1519 + "a" + "]" * 1519,
        "a{" + "9" * 5000 + "}",  # longer than Python's int() takes
        "a{" + "0" * 5000 + "1,0}",
        "a{" + "0" * 5000 + "1," + "0" * 5000 + "2}",
        "()\\" + "1" * 5000,
        "\\u{" + "0" * 6000 + "41}",
        "()" * 100 + "\\100",
        "()" * 100 + "\\101",
    ]
    return cases


def _surrogate_cases() -> list[str]:
    lead, trail = "\ud83d", "\ude00"
    return [
        lead, trail, lead + trail, trail + lead, lead + "*", "[" + lead + "]", "[" + trail + "]",
        "[" + lead + "-" + trail + "]", "[" + trail + "-" + lead + "]",
        "[" + lead + trail + "-" + lead + "]", "[\\q{" + lead + "}]", "[^\\q{" + lead + "}]",
        "[^\\q{" + lead + trail + "}]", "(?<" + lead + ">a)", "(?<a" + trail + ">a)",
        lead + "\\uDE00", "\\uD83D" + trail, "[\\uD83D" + trail + "]",
        "[" + lead + "\\uDE00-\\uDE01]", "\\" + lead, "[\\" + lead + "]",
        "\\p{" + lead + "}", "a{1," + lead + "}",
    ]


def hand_written_patterns() -> list[str]:
    """Edge cases for every production and early error of the ``v``-mode grammar."""
    return (
        _escape_cases()
        + _quantifier_cases()
        + _group_cases()
        + _class_cases()
        + _property_cases()
        + _nesting_cases()
        + _surrogate_cases()
    )


# --- seeded random patterns ---------------------------------------------------------------------

_LITERALS = list("abcxyz019_ -,:;!#%&=<>@~`'\"") + ["é", "ß", "😀", "\u200d", "\u0301", "Ω"]
_NAMES = ["a", "b", "ab", "x1", "$", "_a", "é", "\\u0061", "\\u{62}", "1", "a-b", ""]
_ATOM_ESCAPES = [
    "\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "\\n", "\\t", "\\f", "\\v", "\\r", "\\0", "\\cA",
    "\\x41", "\\u0041", "\\u{1F600}", "\\uD83D\\uDE00", "\\.", "\\*", "\\(", "\\[", "\\]",
    "\\{", "\\}", "\\|", "\\/", "\\^", "\\$", "\\\\", "\\-", "\\&", "\\!", "\\a", "\\e",
    "\\_", "\\c", "\\c1", "\\x1", "\\u12", "\\u{110000}", "\\01", "\\00", "\\8", "\\q{a}",
]
_CLASS_CHARACTERS = list("abcdxyz09_ é😀&!#%,:;<=>@`~^$.*+?'\"") + [
    "\\-", "\\&", "\\!", "\\#", "\\%", "\\,", "\\:", "\\;", "\\<", "\\=", "\\>", "\\@", "\\`",
    "\\~", "\\^", "\\$", "\\.", "\\*", "\\+", "\\?", "\\(", "\\)", "\\[", "\\]", "\\{", "\\}",
    "\\|", "\\/", "\\\\", "\\b", "\\n", "\\0", "\\x41", "\\u0062", "\\u{1F600}", "\\cJ",
]
_CLASS_OPERANDS = [
    "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "\\p{L}", "\\p{Lu}", "\\P{Ll}", "\\p{ASCII}",
    "\\p{sc=Greek}", "\\p{scx=Latn}", "\\p{RGI_Emoji}", "\\p{Basic_Emoji}", "\\P{RGI_Emoji}",
    "\\p{Emoji_Keycap_Sequence}", "\\q{}", "\\q{a}", "\\q{ab}", "\\q{a|b}", "\\q{ab|c}",
    "\\q{😀}", "\\q{a|}", "\\q{\\-|\\|}",
]
_PROPERTY_BODIES = (
    _GENERAL_CATEGORY_SAMPLE[:12] + _BINARY_SAMPLE[:12] + _STRING_PROPERTIES
    + [f"sc={s}" for s in _SCRIPT_SAMPLE[:10]] + [f"gc={g}" for g in _GENERAL_CATEGORY_SAMPLE[:6]]
    + ["Lu=gc", "Script", "lu", "sc=Lu", "Hrkt", "scx=Zzzz", "General_Category=Lm"]
)
_MUTATION_TOKENS = [
    "(", ")", "[", "]", "{", "}", "|", "\\", "^", "$", ".", "*", "+", "?", "-", "--", "&", "&&",
    "\\q{", "\\p{", "\\k<", "<", ">", ",", ":", "=", "!", "0", "1", "2", "9", "a", "\\u",
    "\\x", "\\c", "(?", "(?<", "(?:", "[^", "\\1", "{2}", "{1,", "\\b", "/", "😀", "\ud83d",
]


class _PatternGenerator:
    """Grammar-shaped random patterns, with deliberate near-misses."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.depth = 0

    def pick(self, options: Sequence[str]) -> str:
        return options[self.rng.randrange(len(options))]

    def disjunction(self) -> str:
        count = self.rng.choice([1, 1, 1, 2, 2, 3])
        return "|".join(self.alternative() for _ in range(count))

    def alternative(self) -> str:
        count = self.rng.choice([0, 1, 1, 2, 2, 3, 4]) if self.depth < 3 else 1
        return "".join(self.term() for _ in range(count))

    def term(self) -> str:
        roll = self.rng.random()
        if roll < 0.08:
            return self.pick(["^", "$", "\\b", "\\B"]) + self.maybe_quantifier(0.15)
        if roll < 0.30:
            return self.pick(_LITERALS) + self.maybe_quantifier(0.3)
        if roll < 0.38:
            return "." + self.maybe_quantifier(0.4)
        if roll < 0.50:
            return self.pick(_ATOM_ESCAPES) + self.maybe_quantifier(0.3)
        if roll < 0.55:
            return self.backreference() + self.maybe_quantifier(0.2)
        if roll < 0.62:
            return "\\" + self.pick(["p", "p", "P"]) + "{" + self.pick(_PROPERTY_BODIES) + "}"
        if roll < 0.80:
            return self.character_class() + self.maybe_quantifier(0.3)
        if self.depth >= 3:
            return self.pick(_LITERALS)
        return self.group() + self.maybe_quantifier(0.3)

    def backreference(self) -> str:
        if self.rng.random() < 0.5:
            return "\\" + str(self.rng.choice([1, 1, 2, 3, 10]))
        return "\\k<" + self.pick(_NAMES[:6]) + ">"

    def maybe_quantifier(self, probability: float) -> str:
        if self.rng.random() >= probability:
            return ""
        roll = self.rng.random()
        if roll < 0.5:
            text = self.pick(["*", "+", "?"])
        else:
            low = self.rng.choice([0, 1, 2, 3, 10])
            high = self.rng.choice([0, 1, 2, 5, 10])
            text = self.pick([f"{{{low}}}", f"{{{low},}}", f"{{{low},{high}}}"])
        if self.rng.random() < 0.25:
            text += "?"
        return text

    def group(self) -> str:
        self.depth += 1
        try:
            inner = self.disjunction()
        finally:
            self.depth -= 1
        roll = self.rng.random()
        if roll < 0.25:
            return "(" + inner + ")"
        if roll < 0.50:
            return "(?<" + self.pick(_NAMES) + ">" + inner + ")"
        if roll < 0.60:
            return "(?:" + inner + ")"
        if roll < 0.75:
            return "(" + self.pick(["?=", "?!", "?<=", "?<!"]) + inner + ")"
        flags = "".join(self.rng.choice("imsims") for _ in range(self.rng.randrange(3)))
        if self.rng.random() < 0.5:
            flags += "-" + "".join(self.rng.choice("imsx") for _ in range(self.rng.randrange(3)))
        return "(?" + flags + ":" + inner + ")"

    def character_class(self) -> str:
        self.depth += 1
        try:
            negated = "^" if self.rng.random() < 0.25 else ""
            roll = self.rng.random()
            if roll < 0.5:
                count = self.rng.randrange(4)
                body = "".join(self.union_item() for _ in range(count))
            else:
                operator = self.pick(["&&", "--"])
                count = self.rng.choice([2, 2, 3])
                body = operator.join(self.set_operand() for _ in range(count))
            return "[" + negated + body + "]"
        finally:
            self.depth -= 1

    def union_item(self) -> str:
        roll = self.rng.random()
        if roll < 0.25:
            return self.pick(_CLASS_CHARACTERS) + "-" + self.pick(_CLASS_CHARACTERS)
        return self.set_operand()

    def set_operand(self) -> str:
        roll = self.rng.random()
        if roll < 0.45:
            return self.pick(_CLASS_CHARACTERS)
        if roll < 0.80 or self.depth >= 3:
            return self.pick(_CLASS_OPERANDS)
        return self.character_class()

    def mutate(self, pattern: str) -> str:
        position = self.rng.randrange(len(pattern) + 1)
        roll = self.rng.random()
        if roll < 0.4 or not pattern:
            return pattern[:position] + self.pick(_MUTATION_TOKENS) + pattern[position:]
        if roll < 0.7:
            end = min(len(pattern), position + self.rng.choice([1, 1, 2, 3]))
            return pattern[:position] + pattern[end:]
        if roll < 0.85:
            end = min(len(pattern), position + self.rng.randrange(1, 6))
            return pattern[:end] + pattern[position:end] + pattern[end:]
        return pattern[:position] + self.pick(_MUTATION_TOKENS) + pattern[position + 1 :]


def random_pattern(seed: int) -> str:
    """One random pattern, the same for the same seed in every process."""
    rng = random.Random(f"formtools-ecmaregex-{seed}")
    generator = _PatternGenerator(rng)
    pattern = generator.disjunction()
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3])):
        pattern = generator.mutate(pattern)
    return pattern


def random_patterns(seeds: Iterable[int]) -> list[str]:
    return [random_pattern(seed) for seed in seeds]


# --- the corpus and its file --------------------------------------------------------------------


def normalise(pattern: str) -> str:
    """Join surrogate pairs, so each pattern has one spelling (as JavaScript sees it)."""
    return pattern.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def corpus(random_count: int = len(RECORDED_SEEDS)) -> list[str]:
    """Hand-written cases, then random ones; normalised, without repeats, in a stable order."""
    patterns = hand_written_patterns() + random_patterns(RECORDED_SEEDS[:random_count])
    return list(dict.fromkeys(normalise(p) for p in patterns))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps_rows(rows: Sequence[tuple[str, bool]], browser: dict[str, Any]) -> str:
    """The fixture text: the ``browser`` stamp, then one ``{"pattern", "valid"}`` object per
    line, lone surrogates escaped."""
    lines = [json.dumps({"pattern": p, "valid": v}, ensure_ascii=False) for p, v in rows]
    head = '{"browser": ' + json.dumps(browser, ensure_ascii=False) + ',\n"rows": [\n'
    text = head + ",\n".join(lines) + "\n]}\n"
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def load_recording(path: Path = OUTPUT) -> tuple[dict[str, Any], list[tuple[str, bool]]]:
    """The stamp and the rows of a recording, as written."""
    recording = json.loads(path.read_text("utf-8"))
    rows = [(row["pattern"], row["valid"]) for row in recording["rows"]]
    return recording["browser"], rows


def load_rows(path: Path = OUTPUT) -> list[tuple[str, bool]]:
    """The recorded rows; refused unless they come from the browser ``BROWSER.json`` names."""
    browser, rows = load_recording(path)
    expected = json.loads(STAMP.read_text("utf-8"))
    if browser != expected:
        raise ValueError(
            f"{path.name} was recorded with {browser}, not the stamped browser {expected}:"
            " record it again with scripts/record_regex_validity.py"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    from formtools._conformance.browser import BrowserUnavailable, ChromiumOracle

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--random", type=int, default=len(RECORDED_SEEDS),
                        help="how many random patterns to add (default: %(default)s)")
    args = parser.parse_args(argv)
    patterns = corpus(args.random)
    try:
        with ChromiumOracle() as oracle:
            browser = stamped(oracle)
            oracle.page.goto(oracle.site.put("/regex.html", b"<!doctype html><title>regex</title>"))
            answers = ask_chromium(patterns, oracle.page)
    except BrowserUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    rows = [(pattern, answer is None) for pattern, answer in zip(patterns, answers)]
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(dumps_rows(rows, browser), encoding="utf-8")
    valid = sum(1 for _, is_valid in rows if is_valid)
    print(f"{len(rows)} patterns ({valid} valid, {len(rows) - valid} invalid) -> "
          f"{OUTPUT.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
