"""``type=color`` values: any CSS colour Chromium can resolve without an element (hex, keywords,
system colours, rgb() to color(), with calc()), kept as ``#rrggbb``.

Part of :mod:`formtools._forms.values`; see it for how these rules were measured.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable


# --- colors ----------------------------------------------------------------------------------------

_NAMED_COLORS = {
    name: int(rgb, 16)
    for name, rgb in (
        entry.split(":")
        for entry in """aliceblue:f0f8ff antiquewhite:faebd7 aqua:00ffff aquamarine:7fffd4 azure:f0ffff
        beige:f5f5dc bisque:ffe4c4 black:000000 blanchedalmond:ffebcd blue:0000ff blueviolet:8a2be2
        brown:a52a2a burlywood:deb887 cadetblue:5f9ea0 chartreuse:7fff00 chocolate:d2691e coral:ff7f50
        cornflowerblue:6495ed cornsilk:fff8dc crimson:dc143c cyan:00ffff darkblue:00008b darkcyan:008b8b
        darkgoldenrod:b8860b darkgray:a9a9a9 darkgreen:006400 darkgrey:a9a9a9 darkkhaki:bdb76b
        darkmagenta:8b008b darkolivegreen:556b2f darkorange:ff8c00 darkorchid:9932cc darkred:8b0000
        darksalmon:e9967a darkseagreen:8fbc8f darkslateblue:483d8b darkslategray:2f4f4f
        darkslategrey:2f4f4f darkturquoise:00ced1 darkviolet:9400d3 deeppink:ff1493 deepskyblue:00bfff
        dimgray:696969 dimgrey:696969 dodgerblue:1e90ff firebrick:b22222 floralwhite:fffaf0
        forestgreen:228b22 fuchsia:ff00ff gainsboro:dcdcdc ghostwhite:f8f8ff gold:ffd700
        goldenrod:daa520 gray:808080 green:008000 greenyellow:adff2f grey:808080 honeydew:f0fff0
        hotpink:ff69b4 indianred:cd5c5c indigo:4b0082 ivory:fffff0 khaki:f0e68c lavender:e6e6fa
        lavenderblush:fff0f5 lawngreen:7cfc00 lemonchiffon:fffacd lightblue:add8e6 lightcoral:f08080
        lightcyan:e0ffff lightgoldenrodyellow:fafad2 lightgray:d3d3d3 lightgreen:90ee90 lightgrey:d3d3d3
        lightpink:ffb6c1 lightsalmon:ffa07a lightseagreen:20b2aa lightskyblue:87cefa
        lightslategray:778899 lightslategrey:778899 lightsteelblue:b0c4de lightyellow:ffffe0 lime:00ff00
        limegreen:32cd32 linen:faf0e6 magenta:ff00ff maroon:800000 mediumaquamarine:66cdaa
        mediumblue:0000cd mediumorchid:ba55d3 mediumpurple:9370db mediumseagreen:3cb371
        mediumslateblue:7b68ee mediumspringgreen:00fa9a mediumturquoise:48d1cc mediumvioletred:c71585
        midnightblue:191970 mintcream:f5fffa mistyrose:ffe4e1 moccasin:ffe4b5 navajowhite:ffdead
        navy:000080 oldlace:fdf5e6 olive:808000 olivedrab:6b8e23 orange:ffa500 orangered:ff4500
        orchid:da70d6 palegoldenrod:eee8aa palegreen:98fb98 paleturquoise:afeeee palevioletred:db7093
        papayawhip:ffefd5 peachpuff:ffdab9 peru:cd853f pink:ffc0cb plum:dda0dd powderblue:b0e0e6
        purple:800080 rebeccapurple:663399 red:ff0000 rosybrown:bc8f8f royalblue:4169e1
        saddlebrown:8b4513 salmon:fa8072 sandybrown:f4a460 seagreen:2e8b57 seashell:fff5ee sienna:a0522d
        silver:c0c0c0 skyblue:87ceeb slateblue:6a5acd slategray:708090 slategrey:708090 snow:fffafa
        springgreen:00ff7f steelblue:4682b4 tan:d2b48c teal:008080 thistle:d8bfd8 tomato:ff6347
        turquoise:40e0d0 violet:ee82ee wheat:f5deb3 white:ffffff whitesmoke:f5f5f5 yellow:ffff00
        yellowgreen:9acd32""".split()
    )
}
# System colors as Chromium 156 resolves them for a light color scheme on Linux (recorded).
_SYSTEM_COLORS = {
    name: int(rgb, 16)
    for name, rgb in (
        entry.split(":")
        for entry in """activeborder:767676 activecaption:ffffff activetext:ff0000 appworkspace:ffffff
        background:ffffff buttonborder:767676 buttonface:efefef buttonhighlight:efefef
        buttonshadow:efefef buttontext:000000 canvas:ffffff canvastext:000000 captiontext:000000
        field:ffffff fieldtext:000000 graytext:808080 highlight:0041c6 highlighttext:ffffff
        inactiveborder:767676 inactivecaption:ffffff inactivecaptiontext:808080 infobackground:ffffff
        infotext:000000 linktext:0000ee mark:ffff00 marktext:000000 menu:ffffff menutext:000000
        scrollbar:ffffff selecteditem:1967d2 selecteditemtext:ffffff threeddarkshadow:767676
        threedface:efefef threedhighlight:767676 threedlightshadow:767676 threedshadow:767676
        visitedtext:551a8b window:ffffff windowframe:767676 windowtext:000000""".split()
    )
}


@dataclass(frozen=True)
class _Token:
    kind: str  # ws, ident, function, hash, number, percentage, dimension, delim, "(" or ")"
    text: str = ""  # name, hash value, unit or delimiter
    value: float = 0.0


_CSS_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_CSS_SPACE = " \t\n"


def _css_tokens(text: str) -> list[_Token] | None:  # noqa: C901 - a tokenizer is one big switch
    """CSS Syntax tokens, enough for colors: None for strings, urls and bad escapes."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n").replace("\0", "\ufffd")
    tokens: list[_Token] = []
    index = 0

    def name_char(ch: str) -> bool:
        return ch.isascii() and (ch.isalnum() or ch in "_-") or not ch.isascii()

    def name_start(ch: str) -> bool:
        return name_char(ch) and not "0" <= ch <= "9" and ch != "-"

    def escape_at(pos: int) -> bool:
        return pos + 1 < len(text) and text[pos] == "\\" and text[pos + 1] != "\n"

    def ident_starts(pos: int) -> bool:
        ch = text[pos : pos + 1]
        if ch == "-":
            nxt = text[pos + 1 : pos + 2]
            return bool(nxt) and (nxt == "-" or name_start(nxt) or escape_at(pos + 1))
        return bool(ch) and (name_start(ch) or escape_at(pos))

    def read_name(pos: int) -> tuple[str, int]:
        out = []
        while pos < len(text):
            ch = text[pos]
            if name_char(ch):
                out.append(ch)
                pos += 1
            elif escape_at(pos):
                hexdigits = re.match(r"[0-9a-fA-F]{1,6}", text[pos + 1 :])
                if hexdigits:
                    code = int(hexdigits.group(), 16)
                    pos += 1 + len(hexdigits.group())
                    if pos < len(text) and text[pos] in _CSS_SPACE:
                        pos += 1
                    valid = 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF
                    out.append(chr(code) if valid else "\ufffd")
                else:
                    out.append(text[pos + 1])
                    pos += 2
            else:
                break
        return "".join(out), pos

    while index < len(text):
        ch = text[index]
        if text.startswith("/*", index):
            end = text.find("*/", index + 2)
            index = len(text) if end < 0 else end + 2
        elif ch in _CSS_SPACE:
            while index < len(text) and text[index] in _CSS_SPACE:
                index += 1
            tokens.append(_Token("ws"))
        elif ch in "\"'":
            return None
        elif ch == "#" and index + 1 < len(text) and (name_char(text[index + 1]) or escape_at(index + 1)):
            name, index = read_name(index + 1)
            tokens.append(_Token("hash", name))
        elif number := _CSS_NUMBER.match(text, index):
            value = float(number.group())
            index = number.end()
            if ident_starts(index):
                unit, index = read_name(index)
                tokens.append(_Token("dimension", unit.lower(), value))
            elif text[index : index + 1] == "%":
                index += 1
                tokens.append(_Token("percentage", "", value))
            else:
                tokens.append(_Token("number", "", value))
        elif ident_starts(index):
            name, index = read_name(index)
            if text[index : index + 1] == "(":
                if name.lower() == "url":
                    return None
                index += 1
                tokens.append(_Token("function", name.lower()))
            else:
                tokens.append(_Token("ident", name))
        elif ch == "\\":
            return None  # an escape at the end of the input or before a newline: a parse error
        elif ch in "()":
            tokens.append(_Token(ch))
            index += 1
        else:
            tokens.append(_Token("delim", ch))
            index += 1
    return tokens


@dataclass(frozen=True)
class _Block:
    """A function (``name``) or a parenthesized block (``name=""``) and its component values."""

    name: str
    items: tuple[_Token | _Block, ...]


def _component_values(tokens: list[_Token], start: int, closing: bool) -> tuple[list[_Token | _Block], int]:
    items: list[_Token | _Block] = []
    index = start
    while index < len(tokens):
        token = tokens[index]
        if token.kind == ")":
            if closing:
                return items, index + 1
            items.append(token)
            index += 1
        elif token.kind in ("function", "("):
            inner, index = _component_values(tokens, index + 1, True)
            items.append(_Block(token.text if token.kind == "function" else "", tuple(inner)))
        else:
            items.append(token)
            index += 1
    return items, index  # unclosed blocks close at the end of the input


# Typed numbers inside color functions: (value, kind) where kind is number, percentage or angle.
_Typed = tuple[float, str]
_ANGLE_UNITS = {"deg": 1.0, "grad": 0.9, "rad": 180 / math.pi, "turn": 360.0}
_MATH_FUNCTIONS = frozenset(
    "calc min max clamp round abs sign sqrt pow exp log hypot mod rem sin cos tan".split()
)
_CONSTANTS = {"e": math.e, "pi": math.pi, "infinity": math.inf, "-infinity": -math.inf, "nan": math.nan}


def _split(items: tuple[_Token | _Block, ...], separator: str) -> list[list[_Token | _Block]]:
    groups: list[list[_Token | _Block]] = [[]]
    for item in items:
        if isinstance(item, _Token) and item.kind == "delim" and item.text == separator:
            groups.append([])
        else:
            groups[-1].append(item)
    return groups


def _strip_ws(items: list[_Token | _Block]) -> list[_Token | _Block]:
    start, end = 0, len(items)
    while start < end and isinstance(items[start], _Token) and items[start].kind == "ws":  # type: ignore[union-attr]
        start += 1
    while end > start and isinstance(items[end - 1], _Token) and items[end - 1].kind == "ws":  # type: ignore[union-attr]
        end -= 1
    return items[start:end]


def _math(block: _Block) -> _Typed | None:
    """The value of a math function (calc(), min(), round(), ...), or None if it is invalid."""
    arguments = [_strip_ws(group) for group in _split(block.items, ",")]
    name = block.name
    if name == "calc":
        return _sum(arguments[0]) if len(arguments) == 1 else None
    strategy = "nearest"
    first = arguments[0]
    if name == "round" and len(first) == 1 and isinstance(first[0], _Token) and first[0].kind == "ident":
        strategy = first[0].text.lower()
        if strategy not in ("nearest", "up", "down", "to-zero"):
            return None
        arguments = arguments[1:]
    values = [_sum(argument) for argument in arguments]
    if not values or any(value is None for value in values):
        return None
    typed: list[_Typed] = values  # type: ignore[assignment]
    kinds = {kind for _, kind in typed}
    numbers = [number for number, _ in typed]
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    if len(numbers) not in _ARITY.get(name, (1, 2, 3, 4, 5, 6, 7, 8)):
        return None
    if name == "min":
        return min(numbers), kind
    if name == "max":
        return max(numbers), kind
    if name == "clamp":
        return max(numbers[0], min(numbers[1], numbers[2])), kind
    if name == "hypot":
        return math.hypot(*numbers), kind
    if name == "abs":
        return abs(numbers[0]), kind
    if name == "sign":
        return (math.copysign(1.0, numbers[0]) if numbers[0] else numbers[0]), "number"
    if name in ("mod", "rem", "round"):
        value, interval = numbers[0], abs(numbers[1]) if len(numbers) == 2 else 1.0
        if name == "round":
            return _round(strategy, value, interval), kind
        if not interval or math.isinf(value):
            return math.nan, kind
        result = math.fmod(value, numbers[1])
        if name == "mod" and result and (result < 0) != (numbers[1] < 0):
            result += numbers[1]
        return result, kind
    if name in ("sin", "cos", "tan"):
        if kind == "percentage":
            return None
        radians = math.radians(numbers[0]) if kind == "angle" else numbers[0]
        return (getattr(math, name)(radians) if math.isfinite(radians) else math.nan), "number"
    if kind != "number":
        return None
    if name == "sqrt":
        return (math.sqrt(numbers[0]) if numbers[0] >= 0 else math.nan), "number"
    if name == "exp":
        return (math.exp(numbers[0]) if numbers[0] < 710 else math.inf), "number"
    if name == "pow":
        try:
            return math.pow(numbers[0], numbers[1]), "number"
        except (OverflowError, ValueError):
            return math.nan, "number"
    # log(value) or log(value, base)
    logs = [math.log(n) if n > 0 else (-math.inf if n == 0 else math.nan) for n in numbers]
    return (logs[0] / logs[1] if len(logs) == 2 else logs[0]), "number"


_ARITY = {
    "clamp": (3,),
    "hypot": (1, 2, 3, 4, 5, 6, 7, 8),
    "abs": (1,),
    "sign": (1,),
    "mod": (2,),
    "rem": (2,),
    "round": (1, 2),
    "sin": (1,),
    "cos": (1,),
    "tan": (1,),
    "sqrt": (1,),
    "exp": (1,),
    "pow": (2,),
    "log": (1, 2),
}


def _round(strategy: str, value: float, interval: float) -> float:
    if not interval:
        return math.nan
    if math.isinf(interval):
        return value if math.isinf(value) else (0.0 if strategy != "up" or value <= 0 else math.inf)
    lower = math.floor(value / interval) * interval
    upper = lower + interval if lower != value else lower
    if strategy == "up":
        return upper
    if strategy == "down":
        return lower
    if strategy == "to-zero":
        return upper if value < 0 else lower
    return upper if value - lower >= upper - value else lower


def _leaf(item: _Token | _Block) -> _Typed | None:
    if isinstance(item, _Block):
        if not item.name:
            return _sum(_strip_ws(list(item.items)))
        return _math(item) if item.name in _MATH_FUNCTIONS else None
    if item.kind == "number":
        return item.value, "number"
    if item.kind == "percentage":
        return item.value, "percentage"
    if item.kind == "dimension" and item.text in _ANGLE_UNITS:
        return item.value * _ANGLE_UNITS[item.text], "angle"
    if item.kind == "ident" and item.text.lower() in _CONSTANTS:
        return _CONSTANTS[item.text.lower()], "number"
    return None


def _sum(items: list[_Token | _Block]) -> _Typed | None:
    """A calc sum: products joined by `` + `` / `` - `` (whitespace required around them)."""
    terms: list[tuple[str, list[_Token | _Block]]] = [("+", [])]
    index = 0
    while index < len(items):
        item = items[index]
        if (
            isinstance(item, _Token)
            and item.kind == "delim"
            and item.text in "+-"
            and 0 < index < len(items) - 1
            and isinstance(items[index - 1], _Token)
            and items[index - 1].kind == "ws"  # type: ignore[union-attr]
            and isinstance(items[index + 1], _Token)
            and items[index + 1].kind == "ws"  # type: ignore[union-attr]
        ):
            terms.append((item.text, []))
        else:
            terms[-1][1].append(item)
        index += 1
    total: _Typed | None = None
    for operator, term in terms:
        value = _product(_strip_ws(term))
        if value is None:
            return None
        if total is None:
            total = value
        elif total[1] != value[1]:
            return None
        else:
            total = (total[0] + value[0] if operator == "+" else total[0] - value[0], total[1])
    return total


def _product(items: list[_Token | _Block]) -> _Typed | None:
    operands = [item for item in items if not (isinstance(item, _Token) and item.kind == "ws")]
    if not operands or len(operands) % 2 == 0:
        return None
    result = _leaf(operands[0])
    for index in range(1, len(operands), 2):
        operator, operand = operands[index], _leaf(operands[index + 1])
        if result is None or operand is None:
            return None
        if not isinstance(operator, _Token) or operator.kind != "delim" or operator.text not in "*/":
            return None
        if operator.text == "*":
            if result[1] != "number" and operand[1] != "number":
                return None
            kind = result[1] if result[1] != "number" else operand[1]
            result = (result[0] * operand[0], kind)
        else:
            if operand[1] != "number":
                return None
            if operand[0] == 0:
                value = (
                    math.nan
                    if result[0] == 0 or math.isnan(result[0])
                    else math.copysign(math.inf, result[0]) * math.copysign(1, operand[0])
                )
            else:
                value = result[0] / operand[0]
            result = (value, result[1])
    return result


def _channel(item: list[_Token | _Block], kinds: str, *, math_ok: bool = True) -> _Typed | None:
    """One argument of a color function: ``none`` or a value of one of ``kinds`` (n, p, a)."""
    if len(item) != 1:
        return None
    only = item[0]
    if isinstance(only, _Token) and only.kind == "ident" and only.text.lower() == "none":
        return (0.0, "none") if "x" in kinds else None
    if isinstance(only, _Block) and not math_ok:
        return None
    if isinstance(only, _Block) and only.name not in _MATH_FUNCTIONS:
        return None
    if isinstance(only, _Token) and only.kind == "ident":
        return None
    value = _leaf(only)
    if value is None:
        return None
    wanted = {"number": "n", "percentage": "p", "angle": "a"}[value[1]]
    if wanted not in kinds:
        return None
    number = value[0]
    if math.isnan(number):
        number = 0.0
    return number, value[1]


_Vector = tuple[float, float, float]
_Matrix = tuple[_Vector, _Vector, _Vector]


def _f32(value: float) -> float:
    """Round to single precision, as Chromium's color math does at each step."""
    if not math.isfinite(value):
        return value
    try:
        return float(struct.unpack("f", struct.pack("f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def _hue(value: _Typed) -> float:
    return 0.0 if math.isinf(value[0]) else value[0] % 360.0


def _hsl_to_srgb(hue: float, saturation: float, lightness: float) -> _Vector:
    """gfx::HSLToSRGB, in single precision."""
    h, s, lum = _f32(hue), _f32(saturation), _f32(lightness)
    if not s:
        return lum, lum, lum
    a = _f32(s * min(lum, _f32(1.0 - lum)))

    def channel(n: float) -> float:
        k = _f32(math.fmod(_f32(n + _f32(h / 30.0)), 12.0))
        return _f32(lum - _f32(a * max(-1.0, min(_f32(k - 3.0), _f32(9.0 - k), 1.0))))

    return channel(0), channel(8), channel(4)


def _hwb_to_srgb(hue: float, white: float, black: float) -> _Vector:
    """gfx::HWBToSRGB, in single precision."""
    white, black = _f32(white), _f32(black)
    total = _f32(white + black)
    if total >= 1:
        gray = _f32(white / total)
        return gray, gray, gray
    red, green, blue = _hsl_to_srgb(hue, 1.0, 0.5)
    return (
        _f32(red + _f32(white - _f32(total * red))),
        _f32(green + _f32(white - _f32(total * green))),
        _f32(blue + _f32(white - _f32(total * blue))),
    )


def _apply(m: _Matrix, v: _Vector) -> _Vector:
    return (
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    )


def _inverse(m: _Matrix) -> _Matrix:
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return (
        ((e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det),
        ((f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det),
        ((d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det),
    )


def _concat(m: _Matrix, n: _Matrix) -> _Matrix:
    """The matrix product m × n."""
    columns = tuple(zip(*n))

    def row(r: _Vector) -> _Vector:
        return (
            sum(x * y for x, y in zip(r, columns[0])),
            sum(x * y for x, y in zip(r, columns[1])),
            sum(x * y for x, y in zip(r, columns[2])),
        )

    return row(m[0]), row(m[1]), row(m[2])


def _diagonal(v: _Vector) -> _Matrix:
    return ((v[0], 0.0, 0.0), (0.0, v[1], 0.0), (0.0, 0.0, v[2]))


def _adapt_to_d50(wx: float, wy: float) -> _Matrix:
    """skcms_AdaptToXYZD50: Bradford adaptation from the white point (wx, wy) to D50."""
    to_lms: _Matrix = ((0.8951, 0.2664, -0.1614), (-0.7502, 1.7135, 0.0367), (0.0389, -0.0685, 1.0296))
    from_lms: _Matrix = (
        (0.9869929, -0.1470543, 0.1599627),
        (0.4323053, 0.5183603, 0.0492912),
        (-0.0085287, 0.0400428, 0.9684867),
    )
    source = _apply(to_lms, (wx / wy, 1.0, (1 - wx - wy) / wy))
    target = _apply(to_lms, (0.96422, 1.0, 0.82521))
    scale = _diagonal((target[0] / source[0], target[1] / source[1], target[2] / source[2]))
    return _concat(from_lms, _concat(scale, to_lms))


def _primaries_to_d50(primaries: tuple[float, ...], white: tuple[float, float]) -> _Matrix:
    """skcms_PrimariesToXYZD50: a gamut given by its primaries' and white point's xy."""
    rx, ry, gx, gy, bx, by = primaries
    wx, wy = white
    to_xyz: _Matrix = ((rx, gx, bx), (ry, gy, by), (1 - rx - ry, 1 - gx - gy, 1 - bx - by))
    scale = _apply(_inverse(to_xyz), (wx / wy, 1.0, (1 - wx - wy) / wy))
    return _concat(_adapt_to_d50(wx, wy), _concat(to_xyz, _diagonal(scale)))


# skcms' named gamuts (linear RGB to XYZ D50) and sRGB-like transfer functions (g, a, b, c, d).
_SRGB_GAMUT: _Matrix = (
    (0.436065674, 0.385147095, 0.143066406),
    (0.222488403, 0.716873169, 0.060607910),
    (0.013916016, 0.097076416, 0.714096069),
)
_FROM_D50_TO_SRGB = _inverse(_SRGB_GAMUT)
_P3_GAMUT: _Matrix = (
    (0.515102, 0.291965, 0.157153),
    (0.241182, 0.692236, 0.0665819),
    (-0.00104941, 0.0418818, 0.784378),
)
_A98_GAMUT: _Matrix = ((0.60974, 0.20528, 0.14919), (0.31111, 0.62567, 0.06322), (0.01947, 0.06087, 0.74457))
_REC2020_GAMUT: _Matrix = (
    (0.673459, 0.165661, 0.125100),
    (0.279033, 0.675338, 0.0456288),
    (-0.00193139, 0.0299794, 0.797162),
)
_PROPHOTO_GAMUT = _primaries_to_d50((0.7347, 0.2653, 0.1596, 0.8404, 0.0366, 0.0001), (0.34567, 0.35850))
_D65_TO_D50 = _adapt_to_d50(0.3127, 0.3290)
_IDENTITY = _diagonal((1.0, 1.0, 1.0))
_SRGB_TF = (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
_REC2020_TF = (2.22222, 0.909672, 0.0903276, 0.222222, 0.0812429)
_XYZ_TO_LMS: _Matrix = (
    (0.8190224432164319, 0.3619062562801221, -0.12887378261216414),
    (0.0329836671980271, 0.9292868468965546, 0.03614466816999844),
    (0.048177199566046255, 0.26423952494422764, 0.6335478258136937),
)
_LMS_TO_XYZ = _inverse(_XYZ_TO_LMS)
_OKLAB_TO_LMS: _Matrix = (
    (0.99999999845051981432, 0.39633779217376785678, 0.21580375806075880339),
    (1.0000000088817607767, -0.1055613423236563494, -0.063854174771705903402),
    (1.0000000546724109177, -0.089484182094965759684, -1.2914855378640917399),
)


def _linearize(tf: tuple[float, ...], value: float) -> float:
    g, a, b, c, d = tf
    x = abs(value)
    return math.copysign(c * x if x < d else (a * x + b) ** g, value)


def _gamma(exponent: float) -> Callable[[float], float]:
    return lambda value: math.copysign(abs(value) ** exponent, value)


def _encode_srgb(value: float) -> float:
    g, a, b, c, d = _SRGB_TF
    x = abs(value)
    return math.copysign(x / c if x < c * d else (x ** (1 / g) - b) / a, value)


# color() spaces: the gamut to XYZ D50 and the transfer function to linear light
_RGB_SPACES: dict[str, tuple[_Matrix, Callable[[float], float]]] = {
    "srgb-linear": (_SRGB_GAMUT, float),
    "display-p3": (_P3_GAMUT, lambda v: _linearize(_SRGB_TF, v)),
    "display-p3-linear": (_P3_GAMUT, float),
    "a98-rgb": (_A98_GAMUT, _gamma(2.2)),
    "prophoto-rgb": (_PROPHOTO_GAMUT, _gamma(1.8)),
    "rec2020": (_REC2020_GAMUT, lambda v: _linearize(_REC2020_TF, v)),
    "xyz-d50": (_IDENTITY, float),
    "xyz-d65": (_D65_TO_D50, float),
    "xyz": (_D65_TO_D50, float),
}


def _lab_to_d50(lightness: float, a: float, b: float) -> _Vector:
    y = (lightness + 16) / 116
    x, z = y + a / 500, y - b / 200

    def inverse(t: float) -> float:
        return (108 / 841) * (t - 16 / 116) if t <= 24 / 116 else t**3

    return inverse(x) * 0.9642, inverse(y), inverse(z) * 0.8251


def _oklab_to_d50(lightness: float, a: float, b: float) -> _Vector:
    l_, m, s = _apply(_OKLAB_TO_LMS, (lightness, a, b))
    return _apply(_D65_TO_D50, _apply(_LMS_TO_XYZ, (l_**3, m**3, s**3)))


def _d50_to_srgb(xyz: _Vector) -> _Vector:
    red, green, blue = _apply(_FROM_D50_TO_SRGB, xyz)
    return _encode_srgb(red), _encode_srgb(green), _encode_srgb(blue)


_COLOR_FUNCTIONS = frozenset("rgb rgba hsl hsla hwb lab lch oklab oklch color".split())
_COLOR_SPACES = frozenset(_RGB_SPACES) | {"srgb"}
_LAB_LIKE = frozenset("lab lch oklab oklch".split())  # Chromium 156 rejects math in these


def _color_arguments(block: _Block) -> tuple[str, list[_Typed], bool] | None:
    """The color space and three channels of a color function, and whether it used commas."""
    items = _strip_ws(list(block.items))
    space = block.name
    if space == "color":
        first = items[0] if items else None
        known = isinstance(first, _Token) and first.kind == "ident" and first.text.lower() in _COLOR_SPACES
        if not known:
            return None
        space, items = first.text.lower(), items[1:]  # type: ignore[union-attr]
    commas = [_strip_ws(part) for part in _split(tuple(items), ",")]
    if len(commas) > 1:  # the legacy syntax: rgb(), rgba(), hsl() and hsla() only, no none
        if space not in ("rgb", "rgba", "hsl", "hsla") or len(commas) not in (3, 4):
            return None
        kinds = ("np", "np", "np") if space.startswith("rgb") else ("na", "p", "p")
        channels = [_channel(part, kind) for part, kind in zip(commas, kinds)]
        if len(commas) == 4 and _channel(commas[3], "np") is None:
            return None
        if space.startswith("rgb") and len({c[1] for c in channels if c}) != 1:
            return None  # all numbers or all percentages
        legacy = True
    else:
        slashes = [_strip_ws(part) for part in _split(tuple(items), "/")]
        math_ok = space not in _LAB_LIKE
        if len(slashes) > 2 or (len(slashes) == 2 and _channel(slashes[1], "npx", math_ok=math_ok) is None):
            return None
        values = [item for item in slashes[0] if not (isinstance(item, _Token) and item.kind == "ws")]
        if len(values) != 3:
            return None
        hue_at = 0 if space in ("hsl", "hsla", "hwb") else 2 if space in ("lch", "oklch") else -1
        channels = [
            _channel([item], "nax" if i == hue_at else "npx", math_ok=math_ok)
            for i, item in enumerate(values)
        ]
        legacy = False
    if any(channel is None for channel in channels):
        return None
    return space, [channel for channel in channels if channel], legacy


def _to_srgb(space: str, channels: list[_Typed], clamp: bool) -> _Vector:
    """Gamma-encoded sRGB, not yet clipped, as Chromium converts each space."""
    (v1, k1), (v2, k2), (v3, k3) = channels
    if space in ("rgb", "rgba"):
        rgb = [_f32(min(max(v * 2.55 if k == "percentage" else v, 0.0), 255.0)) for v, k in channels]
        return _f32(rgb[0] / 255), _f32(rgb[1] / 255), _f32(rgb[2] / 255)
    if space in ("hsl", "hsla", "hwb"):
        second, third = max(v2 / 100, 0.0), max(v3 / 100, 0.0)
        if space == "hwb":
            return _hwb_to_srgb(_hue(channels[0]), second, third)
        if clamp:
            second, third = min(second, 1.0), min(third, 1.0)
        return _hsl_to_srgb(_hue(channels[0]), second, third)
    if space in ("lab", "lch"):
        lightness = min(max(v1, 0.0), 100.0)
        if space == "lab":
            a, b = v2 * (1.25 if k2 == "percentage" else 1), v3 * (1.25 if k3 == "percentage" else 1)
        else:
            chroma, hue = max(v2 * (1.5 if k2 == "percentage" else 1), 0.0), math.radians(_hue(channels[2]))
            a, b = chroma * math.cos(hue), chroma * math.sin(hue)
        return _d50_to_srgb(_lab_to_d50(lightness, a, b))
    if space in ("oklab", "oklch"):
        lightness = min(max(v1 / (100 if k1 == "percentage" else 1), 0.0), 1.0)
        if space == "oklab":
            a, b = v2 * (0.004 if k2 == "percentage" else 1), v3 * (0.004 if k3 == "percentage" else 1)
        else:
            chroma, hue = max(v2 * (0.004 if k2 == "percentage" else 1), 0.0), math.radians(_hue(channels[2]))
            a, b = chroma * math.cos(hue), chroma * math.sin(hue)
        return _d50_to_srgb(_oklab_to_d50(lightness, a, b))
    r, g, b = (v / 100 if k == "percentage" else v for v, k in channels)
    if space == "srgb":
        return r, g, b
    gamut, linearize = _RGB_SPACES[space]
    return _d50_to_srgb(_apply(gamut, (linearize(r), linearize(g), linearize(b))))


# Chromium first tries a fast path for simple rgb() and hsl() strings, and it differs from the
# full CSS parser in two ways: it clamps hsl() saturation and lightness to [0%, 100%] (as the
# legacy comma syntax always does; otherwise only negative values are raised to 0, so
# hsl(0 117% 11%) is #380000 but hsl(0 117% 11% / 50%) is #3d0000), and after an alpha and its
# ")" it ignores anything up to a final digit and ")" (rgba(1,2,3,0)x9) is #010203). Its
# grammar, as observed:
_S = "[ \t\n\r\f]"
_N = r"-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
_HUE = _N + r"(?:(?i:deg|grad|rad|turn))?"
_LEGACY_END = rf"{_S}*(?:,{_S}*{_N}%?\)(?:.*[0-9]\))?|\))"
_MODERN_END = rf"{_S}*(?:/{_S}*{_N}\)(?:.*[0-9]\))?|\))"
_FAST_PATH = re.compile(
    rf"rgba?\({_S}*(?:{_N}(?:{_S}*,{_S}*{_N}){{2}}|{_N}%(?:{_S}*,{_S}*{_N}%){{2}}){_LEGACY_END}"
    rf"|rgba?\({_S}*{_N}%?(?:{_S}+{_N}%?){{2}}{_MODERN_END}"
    rf"|hsla?\({_S}*{_HUE}(?:{_S}*,{_S}*{_N}%){{2}}{_LEGACY_END}"
    rf"|hsla?\({_S}*{_HUE}(?:{_S}+{_N}%){{2}}{_MODERN_END}",
    re.DOTALL,
)


@lru_cache(maxsize=4096)
def _sanitize_color(value: str) -> str:
    """The color input's value: any CSS color Chromium resolves, as ``#rrggbb``, alpha dropped."""
    keyword = value.lower() if value.isascii() else ""
    if keyword in _NAMED_COLORS or keyword in _SYSTEM_COLORS:
        return "#%06x" % _NAMED_COLORS.get(keyword, _SYSTEM_COLORS.get(keyword, 0))
    fast = _FAST_PATH.fullmatch(value) is not None
    if fast:
        value = value[: value.index(")") + 1]
    tokens = _css_tokens(value)
    if tokens is None:
        return "#000000"
    items = _strip_ws(_component_values(tokens, 0, False)[0])
    if len(items) != 1:
        return "#000000"
    item = items[0]
    if isinstance(item, _Token):
        digits = item.text
        if (
            item.kind != "hash"
            or len(digits) not in (3, 4, 6, 8)
            or not re.fullmatch(r"[0-9a-fA-F]+", digits)
        ):
            return "#000000"
        if len(digits) < 6:
            digits = "".join(ch * 2 for ch in digits)
        return "#" + digits[:6].lower()
    arguments = _color_arguments(item) if item.name in _COLOR_FUNCTIONS else None
    if arguments is None:
        return "#000000"
    space, channels, legacy = arguments
    # SkColor4f::toSkColor: clip to [0, 1], then round half up, in single precision
    return "#" + "".join(
        "%02x" % int(_f32(_f32(min(max(_f32(channel), 0.0), 1.0) * 255.0) + 0.5))
        for channel in _to_srgb(space, channels, clamp=fast or legacy)
    )


