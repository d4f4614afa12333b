"""Record which code points have a strong direction (``dir=auto``) as Chromium reads them.

Every other class formtools reads comes from ``unicodedata2`` at Chromium's Unicode version
(``formtools._spec.unicode_classes``), but that gives an unassigned code point no Bidi_Class,
where Chromium's ICU gives it that of its block (L, or R/AL in a right-to-left block:
``U+05FF`` is R), and ``dir=auto`` reads any text. For every code point ``c`` the browser sets a
``dir=auto`` input's value to ``c`` then a Hebrew letter (``ltr``: ``c`` is L) and, if not, to
``c`` then a Latin one (``rtl``: ``c`` is R or AL). The answers, as runs of code points of one
answer, go to ``src/formtools/_spec/unicode_classes.json`` with the browser they come from.

    PYTHONPATH=src python scripts/record_unicode_classes.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "src" / "formtools" / "_spec" / "unicode_classes.json"
PLANE = 0x10000

# Runs in the page, for the code points of [start, end): the strong direction of each, L, R (R
# or AL) or - (neither).
ASK_JS = """
([start, end]) => {
  const input = document.createElement("input");
  input.dir = "auto";
  document.body.append(input);
  let strong = "";
  for (let codePoint = start; codePoint < end; codePoint++) {
    const character = String.fromCodePoint(codePoint);
    input.value = character + "\\u05d0";
    if (input.matches(":dir(ltr)")) {
      strong += "L";
      continue;
    }
    input.value = character + "a";
    strong += input.matches(":dir(rtl)") ? "R" : "-";
  }
  input.remove();
  return strong;
}
"""


def runs(answers: str) -> dict[str, list[int] | str]:
    """Where each run of one answer starts, and the runs' answers."""
    starts: list[int] = []
    values = ""
    for code_point, answer in enumerate(answers):
        if not values or values[-1] != answer:
            starts.append(code_point)
            values += answer
    return {"starts": starts, "values": values}


def main() -> None:
    from formtools._conformance.browser import ChromiumOracle

    strong = ""
    with ChromiumOracle() as chromium:
        chromium.page.goto(chromium.site.put("/unicode.html", b"<!doctype html><body>", "text/html"))
        for start in range(0, 0x110000, PLANE):
            strong += chromium.page.evaluate(ASK_JS, [start, start + PLANE])
        browser = chromium.stamp["product"]
    recorded = {
        "source": f"{browser}: scripts/record_unicode_classes.py",
        "strong": runs(strong),
    }
    OUTPUT.write_text(json.dumps(recorded, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{browser} -> {OUTPUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
