"""Record which code points Chromium takes for a strong direction, for ``dir=auto``.

HTML's auto directionality takes the first character whose bidi class is L, R or AL, and
Chromium reads the class from its own ICU's Unicode data: a newer Unicode than the one of
Python's ``unicodedata`` (14.0 in Python 3.11, and another in each Python), with an
unassigned code point's class by its block (L, or R/AL in a right-to-left block). For every
code point ``c`` the browser sets a ``dir=auto`` input's value to ``c`` then a Hebrew letter
(``ltr``: ``c`` is L) and, if not, to ``c`` then a Latin one (``rtl``: ``c`` is R or AL);
the answers, as runs of code points of one answer, go to
``src/formtools/_spec/strong_directions.json`` with the browser they come from.

    PYTHONPATH=src python scripts/record_strong_directions.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "src" / "formtools" / "_spec" / "strong_directions.json"
PLANE = 0x10000

# Runs in the page: one letter per code point of [start, end): L, R (R or AL) or - (neither).
ASK_JS = """
([start, end]) => {
  const input = document.createElement("input");
  input.dir = "auto";
  document.body.append(input);
  let answers = "";
  for (let codePoint = start; codePoint < end; codePoint++) {
    const character = String.fromCodePoint(codePoint);
    input.value = character + "\\u05d0";
    if (input.matches(":dir(ltr)")) {
      answers += "L";
      continue;
    }
    input.value = character + "a";
    answers += input.matches(":dir(rtl)") ? "R" : "-";
  }
  input.remove();
  return answers;
}
"""


def runs(answers: str) -> tuple[list[int], str]:
    """Where each run of one answer starts, and the runs' answers."""
    starts, letters = [], ""
    for code_point, letter in enumerate(answers):
        if not letters or letters[-1] != letter:
            starts.append(code_point)
            letters += letter
    return starts, letters


def main() -> None:
    from formtools._conformance.browser import ChromiumOracle

    with ChromiumOracle() as chromium:
        chromium.page.goto(chromium.site.put("/strong.html", b"<!doctype html><body>", "text/html"))
        answers = "".join(
            chromium.page.evaluate(ASK_JS, [start, start + PLANE]) for start in range(0, 0x110000, PLANE)
        )
        browser = chromium.stamp["product"]
    starts, letters = runs(answers)
    recorded = {
        "source": f"{browser}: scripts/record_strong_directions.py",
        "starts": starts,
        "directions": letters,
    }
    OUTPUT.write_text(json.dumps(recorded, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{len(starts)} runs from {browser} -> {OUTPUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
