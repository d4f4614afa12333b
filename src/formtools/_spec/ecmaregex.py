"""Decide whether an HTML ``pattern`` attribute compiles, exactly as Chromium 156's V8 decides.

HTML compiles the ``pattern`` attribute as ``new RegExp(pattern, "v")`` (unicodeSets mode); a
pattern that does not compile is ignored, so the control gets no pattern constraint at all.
formtools must make the same call without a browser. The ``regress`` package that formtools uses
for matching cannot make it: its parser accepts many patterns that V8 rejects in ``v`` mode
(``a{``, ``}``, ``\\-``, ``\\k<nope>``, ``(?=a)*``, ``\\u{110000}``, ...). This module therefore
has its own parser, written from the ECMAScript 2025 grammar ``Pattern[+UnicodeMode,
+UnicodeSetsMode, +NamedCaptureGroups]`` and its early errors, which only answers yes or no.

What it checks, in spec terms:

- Disjunction / Alternative / Term / Atom, with u-mode's strict rules: ``{``, ``}`` and ``]`` are
  never literal, assertions (``^ $ \\b \\B`` and all lookarounds) take no quantifier, a quantifier
  takes at most one lazy ``?``, ``{n,m}`` needs ``n <= m``.
- AtomEscape: only the u-mode escapes (``\\d \\s \\w \\p{} \\f \\n \\r \\t \\v \\cX \\0 \\xHH
  \\uHHHH \\u{H...}``, syntax characters and ``/``); ``\\N`` must name an existing capturing
  group and ``\\k<name>`` an existing group name.
- Groups: capturing, named (RegExpIdentifierName, ``\\u`` escapes included), ``(?:``, the four
  lookarounds and the ES2025 modifiers ``(?ims-ims:...)``. Duplicate names are allowed only in
  different alternatives (ES2025 duplicate named groups).
- CharacterClass in v-mode: ClassUnion, ClassIntersection ``&&``, ClassSubtraction ``--``,
  nested classes, ``\\q{...}`` string disjunctions, ClassSetSyntaxCharacter,
  ClassSetReservedDoublePunctuator and ClassSetReservedPunctuator, range order, and
  MayContainStrings (no strings in ``[^...]`` or ``\\P{...}``).
- ``\\p{...}``: exact names only; General_Category and Script values, binary properties and the
  properties of strings, from the tables below.

Where V8 is not the spec, this follows V8 (each was measured in Chromium 156.0.8078.79):

- Quantifier bounds are clamped to 2**31 - 1 before they are compared, so ``a{3000000000,
  2999999999}`` compiles.
- At most 32,767 capturing groups.
- V8 parses nested classes recursively and throws "Maximum call stack size exceeded" once its
  parser stack is spent (about 1,700 levels); this is modelled in ``_CLASS_STACK_BUDGET``. The
  level where it happens moves by one with the state of the calling JavaScript (how hot its
  code is), so within one level of that limit the answer is V8's usual one, not a certain one.
  V8 parses groups without recursion, so they nest without limit.

Groups and nested classes are parsed with explicit stacks rather than Python recursion, because
V8 accepts nesting far deeper than Python's recursion limit; everything else is plain
recursive descent, one method per production.

The tables were read from that same browser: every property name and value that ICU knows was
tried in ``\\p{...}``, and every code point as the first and as a later character of a group
name. They are facts about V8's Unicode data (Unicode 17), not code.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Final, NoReturn

__all__ = ["compiles_with_v_flag", "v_flag_syntax_error"]


def compiles_with_v_flag(pattern: str) -> bool:
    """Whether ``new RegExp(pattern, "v")`` succeeds in Chromium 156's V8.

    ``pattern`` is read as a JavaScript string would be: its UTF-16 code units, where a surrogate
    pair is one code point and a lone surrogate stays a code point of its own.
    """
    return v_flag_syntax_error(pattern) is None


def v_flag_syntax_error(pattern: str) -> str | None:
    """Why ``pattern`` does not compile with the ``v`` flag, or None when it does."""
    try:
        _PatternParser(_code_points(pattern)).parse()
    except _PatternError as error:
        return str(error)
    return None


def _code_points(pattern: str) -> str:
    """Join surrogate pairs (two Python characters) into the code point they encode."""
    return pattern.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class _PatternError(Exception):
    """The pattern is not a valid ``v``-mode Pattern."""


# --- V8's limits ----------------------------------------------------------------------------------

_MAX_QUANTIFIER_BOUND: Final = 2**31 - 1  # RegExpTree::kInfinity; larger bounds are clamped to it
_MAX_CAPTURES: Final = 32767

# V8 recurses once per class operand and gives up when its parser stack is spent. An operand
# (a nested class or anything else) costs one frame, a right-hand operand of ``&&`` or ``--`` a
# larger one. These byte counts reproduce the depths measured in Chromium 156 with a cold caller:
# 1,728 levels of ``[[[...]]]``, 1,727 of ``[[[a]]]``, 1,516 of ``[a&&[a&&...a]]`` and the mixtures
# in between (with a hot caller V8 sometimes manages one level more).
_CLASS_STACK_BUDGET: Final = 248_864
_OPERAND_FRAME: Final = 144
_SET_OPERAND_FRAME: Final = 164

# --- characters -------------------------------------------------------------------------------
# Sets of one-character strings; peek() returns "" at the end of the pattern, which is in none.

_SYNTAX_CHARACTERS: Final = frozenset("^$\\.*+?()[]{}|")
_CONTROL_ESCAPES: Final = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_CHARACTER_CLASS_ESCAPES: Final = frozenset("dDsSwW")
_DECIMAL_DIGITS: Final = frozenset("0123456789")
_NONZERO_DIGITS: Final = frozenset("123456789")
_HEX_DIGITS: Final = frozenset("0123456789abcdefABCDEF")
_ASCII_LETTERS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_MODIFIER_FLAGS: Final = frozenset("ims")
_CLASS_SET_SYNTAX_CHARACTERS: Final = frozenset("()[]{}/-\\|")
_CLASS_SET_RESERVED_PUNCTUATORS: Final = frozenset("&-!#%,:;<=>@`~")
_CLASS_SET_RESERVED_DOUBLE_PUNCTUATORS: Final = frozenset(c + c for c in "&!#$%*+,.:;<=>?@^`~")
_BACKSPACE: Final = 0x08

# --- Unicode tables, as V8 in Chromium 156 accepts them -----------------------------------------

# Code points (hex, ranges inclusive) that may start a group name: ID_Start, "$" and "_".
_NAME_START_RANGES = """
24 41-5A 5F 61-7A AA B5 BA C0-D6 D8-F6 F8-2C1 2C6-2D1 2E0-2E4 2EC 2EE 370-374 376-377 37A-37D
37F 386 388-38A 38C 38E-3A1 3A3-3F5 3F7-481 48A-52F 531-556 559 560-588 5D0-5EA 5EF-5F2 620-64A
66E-66F 671-6D3 6D5 6E5-6E6 6EE-6EF 6FA-6FC 6FF 710 712-72F 74D-7A5 7B1 7CA-7EA 7F4-7F5 7FA
800-815 81A 824 828 840-858 860-86A 870-887 889-88F 8A0-8C9 904-939 93D 950 958-961 971-980
985-98C 98F-990 993-9A8 9AA-9B0 9B2 9B6-9B9 9BD 9CE 9DC-9DD 9DF-9E1 9F0-9F1 9FC A05-A0A A0F-A10
A13-A28 A2A-A30 A32-A33 A35-A36 A38-A39 A59-A5C A5E A72-A74 A85-A8D A8F-A91 A93-AA8 AAA-AB0
AB2-AB3 AB5-AB9 ABD AD0 AE0-AE1 AF9 B05-B0C B0F-B10 B13-B28 B2A-B30 B32-B33 B35-B39 B3D B5C-B5D
B5F-B61 B71 B83 B85-B8A B8E-B90 B92-B95 B99-B9A B9C B9E-B9F BA3-BA4 BA8-BAA BAE-BB9 BD0 C05-C0C
C0E-C10 C12-C28 C2A-C39 C3D C58-C5A C5C-C5D C60-C61 C80 C85-C8C C8E-C90 C92-CA8 CAA-CB3 CB5-CB9
CBD CDC-CDE CE0-CE1 CF1-CF2 D04-D0C D0E-D10 D12-D3A D3D D4E D54-D56 D5F-D61 D7A-D7F D85-D96
D9A-DB1 DB3-DBB DBD DC0-DC6 E01-E30 E32-E33 E40-E46 E81-E82 E84 E86-E8A E8C-EA3 EA5 EA7-EB0
EB2-EB3 EBD EC0-EC4 EC6 EDC-EDF F00 F40-F47 F49-F6C F88-F8C 1000-102A 103F 1050-1055 105A-105D
1061 1065-1066 106E-1070 1075-1081 108E 10A0-10C5 10C7 10CD 10D0-10FA 10FC-1248 124A-124D
1250-1256 1258 125A-125D 1260-1288 128A-128D 1290-12B0 12B2-12B5 12B8-12BE 12C0 12C2-12C5
12C8-12D6 12D8-1310 1312-1315 1318-135A 1380-138F 13A0-13F5 13F8-13FD 1401-166C 166F-167F
1681-169A 16A0-16EA 16EE-16F8 1700-1711 171F-1731 1740-1751 1760-176C 176E-1770 1780-17B3 17D7
17DC 1820-1878 1880-18A8 18AA 18B0-18F5 1900-191E 1950-196D 1970-1974 1980-19AB 19B0-19C9
1A00-1A16 1A20-1A54 1AA7 1B05-1B33 1B45-1B4C 1B83-1BA0 1BAE-1BAF 1BBA-1BE5 1C00-1C23 1C4D-1C4F
1C5A-1C7D 1C80-1C8A 1C90-1CBA 1CBD-1CBF 1CE9-1CEC 1CEE-1CF3 1CF5-1CF6 1CFA 1D00-1DBF 1E00-1F15
1F18-1F1D 1F20-1F45 1F48-1F4D 1F50-1F57 1F59 1F5B 1F5D 1F5F-1F7D 1F80-1FB4 1FB6-1FBC 1FBE
1FC2-1FC4 1FC6-1FCC 1FD0-1FD3 1FD6-1FDB 1FE0-1FEC 1FF2-1FF4 1FF6-1FFC 2071 207F 2090-209C 2102
2107 210A-2113 2115 2118-211D 2124 2126 2128 212A-2139 213C-213F 2145-2149 214E 2160-2188
2C00-2CE4 2CEB-2CEE 2CF2-2CF3 2D00-2D25 2D27 2D2D 2D30-2D67 2D6F 2D80-2D96 2DA0-2DA6 2DA8-2DAE
2DB0-2DB6 2DB8-2DBE 2DC0-2DC6 2DC8-2DCE 2DD0-2DD6 2DD8-2DDE 3005-3007 3021-3029 3031-3035
3038-303C 3041-3096 309B-309F 30A1-30FA 30FC-30FF 3105-312F 3131-318E 31A0-31BF 31F0-31FF
3400-4DBF 4E00-A48C A4D0-A4FD A500-A60C A610-A61F A62A-A62B A640-A66E A67F-A69D A6A0-A6EF
A717-A71F A722-A788 A78B-A7DC A7F1-A801 A803-A805 A807-A80A A80C-A822 A840-A873 A882-A8B3
A8F2-A8F7 A8FB A8FD-A8FE A90A-A925 A930-A946 A960-A97C A984-A9B2 A9CF A9E0-A9E4 A9E6-A9EF
A9FA-A9FE AA00-AA28 AA40-AA42 AA44-AA4B AA60-AA76 AA7A AA7E-AAAF AAB1 AAB5-AAB6 AAB9-AABD AAC0
AAC2 AADB-AADD AAE0-AAEA AAF2-AAF4 AB01-AB06 AB09-AB0E AB11-AB16 AB20-AB26 AB28-AB2E AB30-AB5A
AB5C-AB69 AB70-ABE2 AC00-D7A3 D7B0-D7C6 D7CB-D7FB F900-FA6D FA70-FAD9 FB00-FB06 FB13-FB17 FB1D
FB1F-FB28 FB2A-FB36 FB38-FB3C FB3E FB40-FB41 FB43-FB44 FB46-FBB1 FBD3-FD3D FD50-FD8F FD92-FDC7
FDF0-FDFB FE70-FE74 FE76-FEFC FF21-FF3A FF41-FF5A FF66-FFBE FFC2-FFC7 FFCA-FFCF FFD2-FFD7 FFDA-
FFDC 10000-1000B 1000D-10026 10028-1003A 1003C-1003D 1003F-1004D 10050-1005D 10080-100FA
10140-10174 10280-1029C 102A0-102D0 10300-1031F 1032D-1034A 10350-10375 10380-1039D 103A0-103C3
103C8-103CF 103D1-103D5 10400-1049D 104B0-104D3 104D8-104FB 10500-10527 10530-10563 10570-1057A
1057C-1058A 1058C-10592 10594-10595 10597-105A1 105A3-105B1 105B3-105B9 105BB-105BC 105C0-105F3
10600-10736 10740-10755 10760-10767 10780-10785 10787-107B0 107B2-107BA 10800-10805 10808
1080A-10835 10837-10838 1083C 1083F-10855 10860-10876 10880-1089E 108E0-108F2 108F4-108F5
10900-10915 10920-10939 10940-10959 10980-109B7 109BE-109BF 10A00 10A10-10A13 10A15-10A17
10A19-10A35 10A60-10A7C 10A80-10A9C 10AC0-10AC7 10AC9-10AE4 10B00-10B35 10B40-10B55 10B60-10B72
10B80-10B91 10C00-10C48 10C80-10CB2 10CC0-10CF2 10D00-10D23 10D4A-10D65 10D6F-10D85 10E80-10EA9
10EB0-10EB1 10EC2-10EC7 10F00-10F1C 10F27 10F30-10F45 10F70-10F81 10FB0-10FC4 10FE0-10FF6
11003-11037 11071-11072 11075 11083-110AF 110D0-110E8 11103-11126 11144 11147 11150-11172 11176
11183-111B2 111C1-111C4 111DA 111DC 11200-11211 11213-1122B 1123F-11240 11280-11286 11288
1128A-1128D 1128F-1129D 1129F-112A8 112B0-112DE 11305-1130C 1130F-11310 11313-11328 1132A-11330
11332-11333 11335-11339 1133D 11350 1135D-11361 11380-11389 1138B 1138E 11390-113B5 113B7 113D1
113D3 11400-11434 11447-1144A 1145F-11461 11480-114AF 114C4-114C5 114C7 11580-115AE 115D8-115DB
11600-1162F 11644 11680-116AA 116B8 11700-1171A 11740-11746 11800-1182B 118A0-118DF 118FF-11906
11909 1190C-11913 11915-11916 11918-1192F 1193F 11941 119A0-119A7 119AA-119D0 119E1 119E3 11A00
11A0B-11A32 11A3A 11A50 11A5C-11A89 11A9D 11AB0-11AF8 11BC0-11BE0 11C00-11C08 11C0A-11C2E 11C40
11C72-11C8F 11D00-11D06 11D08-11D09 11D0B-11D30 11D46 11D60-11D65 11D67-11D68 11D6A-11D89 11D98
11DB0-11DDB 11EE0-11EF2 11F02 11F04-11F10 11F12-11F33 11FB0 12000-12399 12400-1246E 12480-12543
12F90-12FF0 13000-1342F 13441-13446 13460-143FA 14400-14646 16100-1611D 16800-16A38 16A40-16A5E
16A70-16ABE 16AD0-16AED 16B00-16B2F 16B40-16B43 16B63-16B77 16B7D-16B8F 16D40-16D6C 16E40-16E7F
16EA0-16EB8 16EBB-16ED3 16F00-16F4A 16F50 16F93-16F9F 16FE0-16FE1 16FE3 16FF2-16FF6 17000-18CD5
18CFF-18D1E 18D80-18DF2 1AFF0-1AFF3 1AFF5-1AFFB 1AFFD-1AFFE 1B000-1B122 1B132 1B150-1B152 1B155
1B164-1B167 1B170-1B2FB 1BC00-1BC6A 1BC70-1BC7C 1BC80-1BC88 1BC90-1BC99 1D400-1D454 1D456-1D49C
1D49E-1D49F 1D4A2 1D4A5-1D4A6 1D4A9-1D4AC 1D4AE-1D4B9 1D4BB 1D4BD-1D4C3 1D4C5-1D505 1D507-1D50A
1D50D-1D514 1D516-1D51C 1D51E-1D539 1D53B-1D53E 1D540-1D544 1D546 1D54A-1D550 1D552-1D6A5
1D6A8-1D6C0 1D6C2-1D6DA 1D6DC-1D6FA 1D6FC-1D714 1D716-1D734 1D736-1D74E 1D750-1D76E 1D770-1D788
1D78A-1D7A8 1D7AA-1D7C2 1D7C4-1D7CB 1DF00-1DF1E 1DF25-1DF2A 1E030-1E06D 1E100-1E12C 1E137-1E13D
1E14E 1E290-1E2AD 1E2C0-1E2EB 1E4D0-1E4EB 1E5D0-1E5ED 1E5F0 1E6C0-1E6DE 1E6E0-1E6E2 1E6E4-1E6E5
1E6E7-1E6ED 1E6F0-1E6F4 1E6FE-1E6FF 1E7E0-1E7E6 1E7E8-1E7EB 1E7ED-1E7EE 1E7F0-1E7FE 1E800-1E8C4
1E900-1E943 1E94B 1EE00-1EE03 1EE05-1EE1F 1EE21-1EE22 1EE24 1EE27 1EE29-1EE32 1EE34-1EE37 1EE39
1EE3B 1EE42 1EE47 1EE49 1EE4B 1EE4D-1EE4F 1EE51-1EE52 1EE54 1EE57 1EE59 1EE5B 1EE5D 1EE5F
1EE61-1EE62 1EE64 1EE67-1EE6A 1EE6C-1EE72 1EE74-1EE77 1EE79-1EE7C 1EE7E 1EE80-1EE89 1EE8B-1EE9B
1EEA1-1EEA3 1EEA5-1EEA9 1EEAB-1EEBB 20000-2A6DF 2A700-2B81D 2B820-2CEAD 2CEB0-2EBE0 2EBF0-2EE5D
2F800-2FA1D 30000-3134A 31350-33479
"""
# Code points that may continue a group name but not start it (the rest of ID_Continue, ZWNJ and
# ZWJ). A later character may be any code point of either table.
_NAME_PART_EXTRA_RANGES = """
30-39 3E B7 300-36F 387 483-487 591-5BD 5BF 5C1-5C2 5C4-5C5 5C7 610-61A 64B-669 670 6D6-6DC
6DF-6E4 6E7-6E8 6EA-6ED 6F0-6F9 711 730-74A 7A6-7B0 7C0-7C9 7EB-7F3 7FD 816-819 81B-823 825-827
829-82D 859-85B 897-89F 8CA-8E1 8E3-903 93A-93C 93E-94F 951-957 962-963 966-96F 981-983 9BC
9BE-9C4 9C7-9C8 9CB-9CD 9D7 9E2-9E3 9E6-9EF 9FE A01-A03 A3C A3E-A42 A47-A48 A4B-A4D A51 A66-A71
A75 A81-A83 ABC ABE-AC5 AC7-AC9 ACB-ACD AE2-AE3 AE6-AEF AFA-AFF B01-B03 B3C B3E-B44 B47-B48
B4B-B4D B55-B57 B62-B63 B66-B6F B82 BBE-BC2 BC6-BC8 BCA-BCD BD7 BE6-BEF C00-C04 C3C C3E-C44
C46-C48 C4A-C4D C55-C56 C62-C63 C66-C6F C81-C83 CBC CBE-CC4 CC6-CC8 CCA-CCD CD5-CD6 CE2-CE3
CE6-CEF CF3 D00-D03 D3B-D3C D3E-D44 D46-D48 D4A-D4D D57 D62-D63 D66-D6F D81-D83 DCA DCF-DD4 DD6
DD8-DDF DE6-DEF DF2-DF3 E31 E34-E3A E47-E4E E50-E59 EB1 EB4-EBC EC8-ECE ED0-ED9 F18-F19 F20-F29
F35 F37 F39 F3E-F3F F71-F84 F86-F87 F8D-F97 F99-FBC FC6 102B-103E 1040-1049 1056-1059 105E-1060
1062-1064 1067-106D 1071-1074 1082-108D 108F-109D 135D-135F 1369-1371 1712-1715 1732-1734
1752-1753 1772-1773 17B4-17D3 17DD 17E0-17E9 180B-180D 180F-1819 18A9 1920-192B 1930-193B
1946-194F 19D0-19DA 1A17-1A1B 1A55-1A5E 1A60-1A7C 1A7F-1A89 1A90-1A99 1AB0-1ABD 1ABF-1ADD
1AE0-1AEB 1B00-1B04 1B34-1B44 1B50-1B59 1B6B-1B73 1B80-1B82 1BA1-1BAD 1BB0-1BB9 1BE6-1BF3
1C24-1C37 1C40-1C49 1C50-1C59 1CD0-1CD2 1CD4-1CE8 1CED 1CF4 1CF7-1CF9 1DC0-1DFF 200C-200D
203F-2040 2054 20D0-20DC 20E1 20E5-20F0 2CEF-2CF1 2D7F 2DE0-2DFF 302A-302F 3099-309A 30FB
A620-A629 A66F A674-A67D A69E-A69F A6F0-A6F1 A802 A806 A80B A823-A827 A82C A880-A881 A8B4-A8C5
A8D0-A8D9 A8E0-A8F1 A8FF-A909 A926-A92D A947-A953 A980-A983 A9B3-A9C0 A9D0-A9D9 A9E5 A9F0-A9F9
AA29-AA36 AA43 AA4C-AA4D AA50-AA59 AA7B-AA7D AAB0 AAB2-AAB4 AAB7-AAB8 AABE-AABF AAC1 AAEB-AAEF
AAF5-AAF6 ABE3-ABEA ABEC-ABED ABF0-ABF9 FB1E FE00-FE0F FE20-FE2F FE33-FE34 FE4D-FE4F FF10-FF19
FF3F FF65 101FD 102E0 10376-1037A 104A0-104A9 10A01-10A03 10A05-10A06 10A0C-10A0F 10A38-10A3A
10A3F 10AE5-10AE6 10D24-10D27 10D30-10D39 10D40-10D49 10D69-10D6D 10EAB-10EAC 10EFA-10EFF
10F46-10F50 10F82-10F85 11000-11002 11038-11046 11066-11070 11073-11074 1107F-11082 110B0-110BA
110C2 110F0-110F9 11100-11102 11127-11134 11136-1113F 11145-11146 11173 11180-11182 111B3-111C0
111C9-111CC 111CE-111D9 1122C-11237 1123E 11241 112DF-112EA 112F0-112F9 11300-11303 1133B-1133C
1133E-11344 11347-11348 1134B-1134D 11357 11362-11363 11366-1136C 11370-11374 113B8-113C0 113C2
113C5 113C7-113CA 113CC-113D0 113D2 113E1-113E2 11435-11446 11450-11459 1145E 114B0-114C3
114D0-114D9 115AF-115B5 115B8-115C0 115DC-115DD 11630-11640 11650-11659 116AB-116B7 116C0-116C9
116D0-116E3 1171D-1172B 11730-11739 1182C-1183A 118E0-118E9 11930-11935 11937-11938 1193B-1193E
11940 11942-11943 11950-11959 119D1-119D7 119DA-119E0 119E4 11A01-11A0A 11A33-11A39 11A3B-11A3E
11A47 11A51-11A5B 11A8A-11A99 11B60-11B67 11BF0-11BF9 11C2F-11C36 11C38-11C3F 11C50-11C59
11C92-11CA7 11CA9-11CB6 11D31-11D36 11D3A 11D3C-11D3D 11D3F-11D45 11D47 11D50-11D59 11D8A-11D8E
11D90-11D91 11D93-11D97 11DA0-11DA9 11DE0-11DE9 11EF3-11EF6 11F00-11F01 11F03 11F34-11F3A
11F3E-11F42 11F50-11F5A 13440 13447-13455 1611E-16139 16A60-16A69 16AC0-16AC9 16AF0-16AF4
16B30-16B36 16B50-16B59 16D70-16D79 16F4F 16F51-16F87 16F8F-16F92 16FE4 16FF0-16FF1 1BC9D-1BC9E
1CCF0-1CCF9 1CF00-1CF2D 1CF30-1CF46 1D165-1D169 1D16D-1D172 1D17B-1D182 1D185-1D18B 1D1AA-1D1AD
1D242-1D244 1D7CE-1D7FF 1DA00-1DA36 1DA3B-1DA6C 1DA75 1DA84 1DA9B-1DA9F 1DAA1-1DAAF 1E000-1E006
1E008-1E018 1E01B-1E021 1E023-1E024 1E026-1E02A 1E08F 1E130-1E136 1E140-1E149 1E2AE 1E2EC-1E2F9
1E4EC-1E4F9 1E5EE-1E5EF 1E5F1-1E5FA 1E6E3 1E6E6 1E6EE-1E6EF 1E6F5 1E8D0-1E8D6 1E944-1E94A
1E950-1E959 1FBF0-1FBF9 E0100-E01EF
"""
# General_Category values and aliases: ``\p{Lu}``, ``\p{gc=Lu}``, ``\p{General_Category=Lu}``.
_GENERAL_CATEGORY_VALUES = """
C Cased_Letter Cc Cf Close_Punctuation Cn Co Combining_Mark Connector_Punctuation Control Cs
Currency_Symbol Dash_Punctuation Decimal_Number Enclosing_Mark Final_Punctuation Format
Initial_Punctuation L LC Letter Letter_Number Line_Separator Ll Lm Lo Lowercase_Letter Lt Lu M
Mark Math_Symbol Mc Me Mn Modifier_Letter Modifier_Symbol N Nd Nl No Nonspacing_Mark Number
Open_Punctuation Other Other_Letter Other_Number Other_Punctuation Other_Symbol P
Paragraph_Separator Pc Pd Pe Pf Pi Po Private_Use Ps Punctuation S Sc Separator Sk Sm So
Space_Separator Spacing_Mark Surrogate Symbol Titlecase_Letter Unassigned Uppercase_Letter Z Zl
Zp Zs cntrl digit punct
"""

# Binary properties and their aliases, usable as ``\p{...}`` and ``\P{...}``.
_BINARY_PROPERTIES = """
AHex ASCII ASCII_Hex_Digit Alpha Alphabetic Any Assigned Bidi_C Bidi_Control Bidi_M
Bidi_Mirrored CI CWCF CWCM CWKCF CWL CWT CWU Case_Ignorable Cased Changes_When_Casefolded
Changes_When_Casemapped Changes_When_Lowercased Changes_When_NFKC_Casefolded
Changes_When_Titlecased Changes_When_Uppercased DI Dash Default_Ignorable_Code_Point Dep
Deprecated Dia Diacritic EBase EComp EMod EPres Emoji Emoji_Component Emoji_Modifier
Emoji_Modifier_Base Emoji_Presentation Ext ExtPict Extended_Pictographic Extender Gr_Base Gr_Ext
Grapheme_Base Grapheme_Extend Hex Hex_Digit IDC IDS IDSB IDST IDS_Binary_Operator
IDS_Trinary_Operator ID_Continue ID_Start Ideo Ideographic Join_C Join_Control LOE
Logical_Order_Exception Lower Lowercase Math NChar Noncharacter_Code_Point Pat_Syn Pat_WS
Pattern_Syntax Pattern_White_Space QMark Quotation_Mark RI Radical Regional_Indicator SD STerm
Sentence_Terminal Soft_Dotted Term Terminal_Punctuation UIdeo Unified_Ideograph Upper Uppercase
VS Variation_Selector WSpace White_Space XIDC XIDS XID_Continue XID_Start space
"""

# Properties of strings: only ``\p{...}``, never negated nor inside a negated class.
_STRING_PROPERTIES = """
Basic_Emoji Emoji_Keycap_Sequence RGI_Emoji RGI_Emoji_Flag_Sequence RGI_Emoji_Modifier_Sequence
RGI_Emoji_Tag_Sequence RGI_Emoji_ZWJ_Sequence
"""

# Script values and aliases, for Script / sc and Script_Extensions / scx.
_SCRIPT_VALUES = """
Adlam Adlm Aghb Ahom Anatolian_Hieroglyphs Arab Arabic Armenian Armi Armn Avestan Avst Bali
Balinese Bamu Bamum Bass Bassa_Vah Batak Batk Beng Bengali Berf Beria_Erfe Bhaiksuki Bhks Bopo
Bopomofo Brah Brahmi Brai Braille Bugi Buginese Buhd Buhid Cakm Canadian_Aboriginal Cans Cari
Carian Caucasian_Albanian Chakma Cham Cher Cherokee Chorasmian Chrs Common Copt Coptic Cpmn Cprt
Cuneiform Cypriot Cypro_Minoan Cyrillic Cyrl Deseret Deva Devanagari Diak Dives_Akuru Dogr Dogra
Dsrt Dupl Duployan Egyp Egyptian_Hieroglyphs Elba Elbasan Elym Elymaic Ethi Ethiopic Gara Garay
Geor Georgian Glag Glagolitic Gong Gonm Goth Gothic Gran Grantha Greek Grek Gujarati Gujr Gukh
Gunjala_Gondi Gurmukhi Guru Gurung_Khema Han Hang Hangul Hani Hanifi_Rohingya Hano Hanunoo Hatr
Hatran Hebr Hebrew Hira Hiragana Hluw Hmng Hmnp Hung Imperial_Aramaic Inherited
Inscriptional_Pahlavi Inscriptional_Parthian Ital Java Javanese Kaithi Kali Kana Kannada
Katakana Kawi Kayah_Li Khar Kharoshthi Khitan_Small_Script Khmer Khmr Khoj Khojki Khudawadi
Kirat_Rai Kits Knda Krai Kthi Lana Lao Laoo Latin Latn Lepc Lepcha Limb Limbu Lina Linb Linear_A
Linear_B Lisu Lyci Lycian Lydi Lydian Mahajani Mahj Maka Makasar Malayalam Mand Mandaic Mani
Manichaean Marc Marchen Masaram_Gondi Medefaidrin Medf Meetei_Mayek Mend Mende_Kikakui Merc Mero
Meroitic_Cursive Meroitic_Hieroglyphs Miao Mlym Modi Mong Mongolian Mro Mroo Mtei Mult Multani
Myanmar Mymr Nabataean Nag_Mundari Nagm Nand Nandinagari Narb Nbat New_Tai_Lue Newa Nko Nkoo
Nshu Nushu Nyiakeng_Puachue_Hmong Ogam Ogham Ol_Chiki Ol_Onal Olck Old_Hungarian Old_Italic
Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur
Onao Oriya Orkh Orya Osage Osge Osma Osmanya Ougr Pahawh_Hmong Palm Palmyrene Pau_Cin_Hau Pauc
Perm Phag Phags_Pa Phli Phlp Phnx Phoenician Plrd Prti Psalter_Pahlavi Qaac Qaai Rejang Rjng
Rohg Runic Runr Samaritan Samr Sarb Saur Saurashtra Sgnw Sharada Shavian Shaw Shrd Sidd Siddham
Sidetic Sidt SignWriting Sind Sinh Sinhala Sogd Sogdian Sogo Sora Sora_Sompeng Soyo Soyombo Sund
Sundanese Sunu Sunuwar Sylo Syloti_Nagri Syrc Syriac Tagalog Tagb Tagbanwa Tai_Le Tai_Tham
Tai_Viet Tai_Yo Takr Takri Tale Talu Tamil Taml Tang Tangsa Tangut Tavt Tayo Telu Telugu Tfng
Tglg Thaa Thaana Thai Tibetan Tibt Tifinagh Tirh Tirhuta Tnsa Todhri Todr Tolong_Siki Tols Toto
Tulu_Tigalari Tutg Ugar Ugaritic Unknown Vai Vaii Vith Vithkuqi Wancho Wara Warang_Citi Wcho
Xpeo Xsux Yezi Yezidi Yi Yiii Zanabazar_Square Zanb Zinh Zyyy Zzzz
"""


def _code_point_ranges(*tables: str) -> tuple[list[int], list[int]]:
    """Sorted range starts and ends from whitespace-separated ``HEX`` / ``HEX-HEX`` tables."""
    ranges = []
    for table in tables:
        for item in table.split():
            first, _, last = item.partition("-")
            ranges.append((int(first, 16), int(last or first, 16)))
    ranges.sort()
    return [first for first, _ in ranges], [last for _, last in ranges]


class _CodePointSet:
    def __init__(self, *tables: str) -> None:
        self._starts, self._ends = _code_point_ranges(*tables)

    def __contains__(self, code_point: int) -> bool:
        index = bisect.bisect_right(self._starts, code_point) - 1
        return index >= 0 and code_point <= self._ends[index]


_NAME_START: Final = _CodePointSet(_NAME_START_RANGES)
_NAME_PART: Final = _CodePointSet(_NAME_START_RANGES, _NAME_PART_EXTRA_RANGES)
_GENERAL_CATEGORIES: Final = frozenset(_GENERAL_CATEGORY_VALUES.split())
_BINARY: Final = frozenset(_BINARY_PROPERTIES.split())
_OF_STRINGS: Final = frozenset(_STRING_PROPERTIES.split())
_SCRIPTS: Final = frozenset(_SCRIPT_VALUES.split())
_GENERAL_CATEGORY_NAMES: Final = frozenset({"General_Category", "gc"})
_SCRIPT_NAMES: Final = frozenset({"Script", "sc", "Script_Extensions", "scx"})


# --- the parser -----------------------------------------------------------------------------------


@dataclass
class _Scope:
    """The pattern itself or one open group, for the duplicate-name rule.

    Capturing groups are numbered in order. Those numbered ``captures_before + 1`` up to
    ``captures_before_alternative`` sit in earlier alternatives of this scope, so they cannot
    participate in a match together with anything in its current alternative.
    """

    captures_before: int
    is_lookaround: bool = False
    captures_before_alternative: int = field(init=False)

    def __post_init__(self) -> None:
        self.captures_before_alternative = self.captures_before

    def in_earlier_alternative(self, capture: int) -> bool:
        return self.captures_before < capture <= self.captures_before_alternative


@dataclass
class _ClassFrame:
    """One open ``[...]`` of a class set expression."""

    negated: bool
    stack_in_use: int  # V8's parser stack spent on this class and the classes around it
    operator: str | None = None  # "" for a ClassUnion, "&&" or "--"; None while one item is known
    item_count: int = 0
    first_item_is_range: bool = False
    awaiting_operand: bool = False  # just after "&&" or "--"
    may_contain_strings: bool = False


class _PatternParser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.pos = 0
        self.capture_count = 0
        self.latest_capture_named: dict[str, int] = {}
        self.highest_backreference = 0
        self.named_references: set[str] = set()

    # -- helpers

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.source[index] if index < len(self.source) else ""

    def eat(self, text: str) -> bool:
        if self.source.startswith(text, self.pos):
            self.pos += len(text)
            return True
        return False

    def expect(self, text: str, message: str) -> None:
        if not self.eat(text):
            self.fail(message)

    def fail(self, message: str) -> NoReturn:
        raise _PatternError(f"{message} at offset {self.pos}")

    # -- Pattern, Disjunction, Alternative, Term

    def parse(self) -> None:
        """Pattern :: Disjunction, then the early errors that need the whole pattern."""
        scopes = [_Scope(captures_before=0)]
        can_quantify = False  # the previous Term is an Atom, and has no quantifier yet
        while self.pos < len(self.source):
            char = self.source[self.pos]
            if char == "|":
                self.pos += 1
                scopes[-1].captures_before_alternative = self.capture_count
                can_quantify = False
            elif char == "(":
                scopes.append(self.group_opening(scopes))
                can_quantify = False
            elif char == ")":
                if len(scopes) == 1:
                    self.fail("unmatched ')'")
                self.pos += 1
                can_quantify = not scopes.pop().is_lookaround
            elif char in "*+?{":
                if not can_quantify:
                    self.fail("nothing to repeat")
                self.quantifier()
                can_quantify = False
            else:
                can_quantify = self.term()
        if len(scopes) > 1:
            self.fail("unterminated group")
        if self.highest_backreference > self.capture_count:
            self.fail(f"no capturing group {self.highest_backreference}")
        missing = sorted(self.named_references - self.latest_capture_named.keys())
        if missing:
            self.fail(f"no group named {missing[0]!r}")

    def term(self) -> bool:
        """An Assertion or Atom that is not a group; True when a quantifier may follow."""
        char = self.source[self.pos]
        if char in "^$":
            self.pos += 1
            return False
        if char == "\\":
            return self.atom_escape()
        if char == "[":
            self.character_class()
            return True
        if char in "]}":
            self.fail(f"lone {char!r}")
        self.pos += 1  # "." or a PatternCharacter
        return True

    def quantifier(self) -> None:
        """Quantifier :: QuantifierPrefix ``?``opt, with QuantifierPrefix's bound check."""
        if self.eat("{"):
            low = self.decimal_digits()
            if low is None:
                self.fail("incomplete quantifier")
            high: int | None = low
            if self.eat(","):
                high = self.decimal_digits()
            self.expect("}", "incomplete quantifier")
            if high is not None and low > high:
                self.fail("numbers out of order in {} quantifier")
        else:
            self.pos += 1
        self.eat("?")

    def decimal_digits(self) -> int | None:
        """DecimalDigits as a number, clamped to ``_MAX_QUANTIFIER_BOUND`` as V8 clamps it."""
        start = self.pos
        while self.peek() in _DECIMAL_DIGITS:
            self.pos += 1
        if self.pos == start:
            return None
        significant = self.source[start : self.pos].lstrip("0")
        if len(significant) > len(str(_MAX_QUANTIFIER_BOUND)):
            return _MAX_QUANTIFIER_BOUND
        return min(int(significant or "0"), _MAX_QUANTIFIER_BOUND)

    # -- groups

    def group_opening(self, scopes: list[_Scope]) -> _Scope:
        """The head of a group, up to its Disjunction; returns the new scope."""
        self.pos += 1  # "("
        if not self.eat("?"):
            self.add_capture()
            return _Scope(self.capture_count)
        if self.eat(":"):
            return _Scope(self.capture_count)
        if self.eat("=") or self.eat("!"):
            return _Scope(self.capture_count, is_lookaround=True)
        if self.eat("<"):
            if self.eat("=") or self.eat("!"):
                return _Scope(self.capture_count, is_lookaround=True)
            name = self.group_name()
            self.add_capture()
            self.declare_group_name(name, scopes)
            return _Scope(self.capture_count)
        self.modifiers()
        return _Scope(self.capture_count)

    def add_capture(self) -> None:
        self.capture_count += 1
        if self.capture_count > _MAX_CAPTURES:
            self.fail("too many captures")

    def declare_group_name(self, name: str, scopes: list[_Scope]) -> None:
        """Two groups may share a name only if they sit in different alternatives.

        Checking the latest earlier group of that name is enough: any earlier one that could
        participate together with this group could also have participated with the latest.
        """
        earlier = self.latest_capture_named.get(name)
        if earlier is not None and not any(
            scope.in_earlier_alternative(earlier) for scope in reversed(scopes)
        ):
            self.fail(f"duplicate group name {name!r}")
        self.latest_capture_named[name] = self.capture_count

    def modifiers(self) -> None:
        """``(? RegularExpressionModifiers [- RegularExpressionModifiers] :``."""
        adding = self.modifier_flags()
        removing = ""
        if self.eat("-"):
            removing = self.modifier_flags()
            if not adding and not removing:
                self.fail("empty modifiers")
        flags = adding + removing
        if len(set(flags)) != len(flags):
            self.fail("repeated modifier flag")
        self.expect(":", "invalid group")

    def modifier_flags(self) -> str:
        start = self.pos
        while self.peek() in _MODIFIER_FLAGS:
            self.pos += 1
        return self.source[start : self.pos]

    def group_name(self) -> str:
        """GroupName after its ``<``: RegExpIdentifierName ``>``, returned decoded."""
        name: list[str] = []
        while not self.eat(">"):
            if self.pos >= len(self.source):
                self.fail("unterminated group name")
            if self.eat("\\"):
                self.expect("u", "invalid escape in group name")
                code_point = self.unicode_escape_body()
            else:
                code_point = ord(self.source[self.pos])
                self.pos += 1
            allowed = _NAME_PART if name else _NAME_START
            if code_point not in allowed:
                self.fail("invalid character in group name")
            name.append(chr(code_point))
        if not name:
            self.fail("empty group name")
        return "".join(name)

    # -- escapes

    def atom_escape(self) -> bool:
        """``\\`` AtomEscape or ``\\b`` / ``\\B``; True when a quantifier may follow."""
        self.pos += 1  # "\"
        char = self.peek()
        if char in ("b", "B"):
            self.pos += 1
            return False
        if char in _CHARACTER_CLASS_ESCAPES:
            self.pos += 1
        elif char in ("p", "P"):
            self.property_escape()
        elif char == "k":
            self.pos += 1
            self.expect("<", "invalid named reference")
            self.named_references.add(self.group_name())
        elif char in _NONZERO_DIGITS:
            number = self.decimal_digits()
            assert number is not None
            self.highest_backreference = max(self.highest_backreference, number)
        else:
            self.character_escape()
        return True

    def character_escape(self) -> int:
        """CharacterEscape[+UnicodeMode] after its ``\\``; returns the code point."""
        char = self.peek()
        if not char:
            self.fail("\\ at end of pattern")
        self.pos += 1
        if char in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[char]
        if char == "c":
            letter = self.peek()
            if letter not in _ASCII_LETTERS:
                self.fail("invalid control escape")
            self.pos += 1
            return ord(letter) % 32
        if char == "0":
            if self.peek() in _DECIMAL_DIGITS:
                self.fail("invalid decimal escape")
            return 0
        if char == "x":
            value = self.hex_digits(2)
            if value is None:
                self.fail("invalid \\x escape")
            return value
        if char == "u":
            return self.unicode_escape_body()
        if char in _SYNTAX_CHARACTERS or char == "/":
            return ord(char)  # IdentityEscape[+UnicodeMode]
        self.fail(f"invalid escape \\{char}")

    def unicode_escape_body(self) -> int:
        """RegExpUnicodeEscapeSequence[+UnicodeMode] after its ``u``; returns the code point."""
        if self.eat("{"):
            start = self.pos
            while self.peek() in _HEX_DIGITS:
                self.pos += 1
            digits = self.source[start : self.pos]
            if not digits or not self.eat("}") or int(digits, 16) > 0x10FFFF:
                self.fail("invalid Unicode escape")
            return int(digits, 16)
        value = self.hex_digits(4)
        if value is None:
            self.fail("invalid Unicode escape")
        if 0xD800 <= value <= 0xDBFF and self.source.startswith("\\u", self.pos):
            # u HexLeadSurrogate \u HexTrailSurrogate is one code point
            after_lead = self.pos
            self.pos += 2
            trail = self.hex_digits(4)
            if trail is not None and 0xDC00 <= trail <= 0xDFFF:
                return 0x10000 + ((value - 0xD800) << 10) + (trail - 0xDC00)
            self.pos = after_lead
        return value

    def hex_digits(self, count: int) -> int | None:
        digits = self.source[self.pos : self.pos + count]
        if len(digits) != count or not all(digit in _HEX_DIGITS for digit in digits):
            return None
        self.pos += count
        return int(digits, 16)

    def property_escape(self) -> bool:
        """``\\p{...}`` or ``\\P{...}`` from its letter; True for a property of strings."""
        negated = self.source[self.pos] == "P"
        self.pos += 1
        self.expect("{", "invalid property name")
        end = self.source.find("}", self.pos)
        if end < 0:
            self.fail("invalid property name")
        body = self.source[self.pos : end]
        self.pos = end + 1
        name, equals, value = body.partition("=")
        if equals:
            if name in _GENERAL_CATEGORY_NAMES and value in _GENERAL_CATEGORIES:
                return False
            if name in _SCRIPT_NAMES and value in _SCRIPTS:
                return False
        elif body in _GENERAL_CATEGORIES or body in _BINARY:
            return False
        elif body in _OF_STRINGS and not negated:
            return True
        self.fail(f"invalid property name {body!r}")

    # -- CharacterClass[+UnicodeSetsMode]

    def character_class(self) -> None:
        """A whole ``[...]`` with its nested classes, from its ``[``."""
        frames: list[_ClassFrame] = []
        self.open_class(frames)
        while True:
            frame = frames[-1]
            char = self.peek()
            if not char:
                self.fail("unterminated character class")
            if char == "]":
                self.pos += 1
                contains_strings = self.close_class(frame)
                frames.pop()
                if not frames:
                    return
                self.add_class_item(frames[-1], False, contains_strings)
            elif self.source.startswith(("&&", "--"), self.pos):
                self.class_set_operator(frame)
            elif char == "[":
                self.open_class(frames)
            else:
                self.spend_class_stack(frames)
                is_range, contains_strings = self.class_union_item()
                self.add_class_item(frame, is_range, contains_strings)

    def spend_class_stack(self, frames: list[_ClassFrame]) -> int:
        """V8's parser stack in use with one more operand here; fail where V8 runs out."""
        in_use = frames[-1].stack_in_use if frames else 0
        awaiting = bool(frames) and frames[-1].awaiting_operand
        in_use += _SET_OPERAND_FRAME if awaiting else _OPERAND_FRAME
        if in_use > _CLASS_STACK_BUDGET:
            self.fail("maximum call stack size exceeded")
        return in_use

    def open_class(self, frames: list[_ClassFrame]) -> None:
        in_use = self.spend_class_stack(frames)
        self.pos += 1  # "["
        frames.append(_ClassFrame(negated=self.eat("^"), stack_in_use=in_use))

    def close_class(self, frame: _ClassFrame) -> bool:
        """Early errors of a finished class; True when it may contain strings."""
        if frame.awaiting_operand:
            self.fail("missing operand in character class")
        if frame.negated and frame.may_contain_strings:
            self.fail("negated character class may contain strings")
        return frame.may_contain_strings and not frame.negated

    def class_set_operator(self, frame: _ClassFrame) -> None:
        """``&&`` or ``--``: turns the class into a ClassIntersection or ClassSubtraction."""
        operator = self.source[self.pos : self.pos + 2]
        if frame.awaiting_operand or frame.item_count == 0:
            self.fail("invalid set operation in character class")
        if frame.operator is None:
            if frame.first_item_is_range:
                self.fail("a range cannot be a set operand")
            frame.operator = operator
        elif frame.operator != operator:
            self.fail("invalid set operation in character class")
        self.pos += 2
        if operator == "&&" and self.peek() == "&":
            self.fail("invalid set operation in character class")
        frame.awaiting_operand = True

    def add_class_item(self, frame: _ClassFrame, is_range: bool, contains_strings: bool) -> None:
        """Add an operand (or, in a union, a range) to the class and track MayContainStrings."""
        if frame.operator in ("&&", "--"):
            if not frame.awaiting_operand or is_range:
                self.fail("invalid set operation in character class")
            if frame.operator == "&&":
                frame.may_contain_strings = frame.may_contain_strings and contains_strings
        elif frame.item_count == 0:
            frame.first_item_is_range = is_range
            frame.may_contain_strings = contains_strings
        else:
            frame.operator = ""
            frame.may_contain_strings = frame.may_contain_strings or contains_strings
        frame.item_count += 1
        frame.awaiting_operand = False

    def class_union_item(self) -> tuple[bool, bool]:
        """A ClassSetRange or a ClassSetOperand other than a nested ``[...]``.

        Returns (is a range, may contain strings).
        """
        if self.peek() == "\\":
            escaped = self.peek(1)
            if escaped == "q":
                self.pos += 2
                self.expect("{", "invalid escape")
                return False, self.class_string_disjunction()
            if escaped in _CHARACTER_CLASS_ESCAPES:
                self.pos += 2
                return False, False
            if escaped in ("p", "P"):
                self.pos += 1
                return False, self.property_escape()
        low = self.class_set_character()
        if self.peek() == "-" and self.peek(1) != "-":
            self.pos += 1
            high = self.class_set_character()
            if low > high:
                self.fail("range out of order in character class")
            return True, False
        return False, False

    def class_string_disjunction(self) -> bool:
        """ClassStringDisjunctionContents ``}`` after ``\\q{``; True when a string is not one
        code point long."""
        may_contain_strings = False
        length = 0
        while True:
            char = self.peek()
            if char in ("|", "}"):
                self.pos += 1
                may_contain_strings = may_contain_strings or length != 1
                if char == "}":
                    return may_contain_strings
                length = 0
            else:
                self.class_set_character()
                length += 1

    def class_set_character(self) -> int:
        """ClassSetCharacter; returns its code point."""
        char = self.peek()
        if not char:
            self.fail("unterminated character class")
        if char == "\\":
            self.pos += 1
            escaped = self.peek()
            if escaped == "b":
                self.pos += 1
                return _BACKSPACE
            if escaped in _CLASS_SET_RESERVED_PUNCTUATORS:
                self.pos += 1
                return ord(escaped)
            return self.character_escape()
        if self.source[self.pos : self.pos + 2] in _CLASS_SET_RESERVED_DOUBLE_PUNCTUATORS:
            self.fail("invalid set operation in character class")
        if char in _CLASS_SET_SYNTAX_CHARACTERS:
            self.fail(f"invalid character {char!r} in character class")
        self.pos += 1
        return ord(char)
