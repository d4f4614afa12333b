"""Seeded select soups: the tags a select can meet, where a select can be.

Chromium 156 parses a select's contents "in body" (the customizable select parser), so any tag
there can make elements, close others, move the form pointer or hold controls. A soup draws
buttons, divs, spans, hrs, datalists, templates, inputs, textareas, keygens, selects, forms,
``</form>``, table bits, scripts, comments, nested and unclosed options and optgroups, raw-text
tags, SVG and MathML, inside a tool form, its table cell, a form in a table (the pointer), a
form a ``</div>`` left open (the pointer) and after a ``</form>``, in a drop-down or list box
select, single or multiple. Used live by ``tests/test_browser_select.py`` and against the
exact path by ``tests/test_fast_path.py``.
"""

from __future__ import annotations

import random

__all__ = ["select_soup"]

#: what goes inside the select ({n}: the bit's place, so names and values stay apart)
BITS = [
    "<option>", "<option value=v{n}>o{n}", "<option selected>p{n}", "</option>", "<optgroup label=g{n}>",
    "<optgroup disabled>", "</optgroup>", "<hr>", "<button name=b{n} value=1>", "</button>", "<div>",
    "</div>", "<span>", "</span>", "<p>", "</p>", "<datalist id=d{n}>", "</datalist>",
    "<template>t{n}</template>", "<template><option>tt{n}</template>", "<input name=i{n}>",
    "<input name=x{n} form=tf>", "<textarea name=t{n}>v{n}", "</textarea>", "<keygen name=k{n}>",
    "<select name=s{n}>", "</select>", "<form id=f{n}>", "</form>", "<table>", "<tr>", "<td>", "</td>",
    "</table>", "<th>", "<caption>", "<script>0</script>", "<!--c-->", "<b>", "</b>", "<a>", "</a>",
    "x{n}", " ", "<label>", "</label>", "<output name=o{n}>", "<fieldset name=fs{n}>", "</fieldset>",
    "<object name=ob{n}>", "</object>", "<svg>", "</svg>", "<math>", "<xmp>", "</xmp>", "<style>",
    "</style>", "<noscript>", "</noscript>", "<plaintext>", "<li>", "<h1>", "<br>", "<img>",
]  # fmt: skip
FORM = "<form id=tf toolname=t tooldescription=d toolautosubmit method=post action=/sink>"
#: where the select is: in the tool form, in its table cell, in a table the form is in (the
#: pointer), after a </div> that left the form open (the pointer), after the form's end
PLACES = [FORM, FORM + "<table><tr><td>", "<table>" + FORM, "<div>" + FORM + "</div>", FORM + "<input name=a></form>"]
ENDS = ["", "</select>", "</select></form>", "</select><input name=after>"]
#: the select's display size: a drop-down (1) or a list box, single or multiple (its first
#: element child, if a button, is its select button in a drop-down: no submit button)
SIZES = ["", " multiple", " size=1", " multiple size=1", " size=2", " size=0"]


def select_soup(rng: random.Random) -> str:
    """A page: a place, a select of a drawn size, 2 to 10 bits, an end and an input after."""
    body = rng.choice(PLACES) + f"<select name=s{rng.choice(SIZES)}>"
    body += "".join(rng.choice(BITS).format(n=n) for n in range(rng.randint(2, 10)))
    return "<!doctype html><meta charset=utf-8>" + body + rng.choice(ENDS) + "<input name=z>"
