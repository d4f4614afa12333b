"""Seeded template soups: templates around, inside and between forms, where a template can be.

A template's contents are a document fragment of their own, parsed with a stack of template
insertion modes; a template bounds every scope, holds a marker in the list of active formatting
elements, keeps the form element pointer (a ``<form>`` in one does not set it, a ``</form>`` in
one closes only a form opened in it), runs to the end of the page when unclosed, and ends with
implied end tags "thoroughly". A soup draws templates (plain, nested, unclosed, declarative
shadow roots open or closed), forms, ``</form>``, controls owned as parsed or by ``form=``, table
parts, selects, options, formatting elements, list items, ``</body>``, ``<body>``, ``<html>``,
``<frameset>``, raw-text tags, SVG and MathML, in a tool form, its table, a form a ``</div>`` left
open (the pointer), the head, after the body or the html end tag, and ends in one of a few ways.
Used live by ``tests/test_browser_template.py`` and against the exact path by
``tests/test_fast_path.py``.
"""

from __future__ import annotations

import random

__all__ = ["template_soup"]

#: the soups' one script: it computes nothing, so a soup's document is the same at every load
SCRIPT = "<script>0</script>"

#: what the soup is made of ({n}: the bit's place, so names and values stay apart)
BITS = [
    "<template>", "<template>", "</template>", "</template>", "<template>t{n}</template>",
    "<template shadowrootmode=open>", "<template shadowrootmode=closed>", "<template id=q{n}><input name=q{n}>",
    "<form id=f{n}>", "<form id=g{n} toolname=u{n} tooldescription=e{n}>", "</form>", "</form>",
    "<input name=i{n}>", "<input name=x{n} form=tf>", "<button name=b{n} value=1>", "</button>",
    "<select name=s{n}>", "<option>o{n}", "</select>", "<optgroup label=g{n}>", "<textarea name=t{n}>v{n}",
    "</textarea>", "<fieldset name=fs{n}>", "</fieldset>", "<output name=o{n}>", "<keygen name=k{n}>",
    "<object name=ob{n}>", "</object>", "<table>", "</table>", "<tr>", "</tr>", "<td>", "</td>", "<th>",
    "<caption>", "</caption>", "<colgroup>", "</colgroup>", "<col>", "<tbody>", "</tbody>", "<thead>",
    "<div>", "</div>", "<p>", "</p>", "<b>", "</b>", "<a>", "</a>", "<nobr>", "<li>", "<dd>", "<label>",
    "</label>", "x{n}", " ", "</body>", "<body>", "</html>", "<html>", "<frameset>", "<head>", "</head>",
    "<meta name=m{n}>", "<title>t</title>", "<style></style>", SCRIPT, "<!--c-->", "<svg>",
    "</svg>", "<math>", "<hr>", "<br>", "<h1>", "<ul>", "<span>", "<my-el>", "<marquee>",
]  # fmt: skip
FORM = "<form id=tf toolname=t tooldescription=d toolautosubmit method=post action=/sink>"
#: where the soup starts: in the tool form, its table, a table the form is in (the pointer), a
#: form a </div> left open (the pointer), after the form's end, in the head, in a template, after
#: the body, after the html end tag, in a frameset, in a select
PLACES = [
    FORM, FORM + "<table><tr><td>", "<table>" + FORM, "<div>" + FORM + "</div>", FORM + "<input name=a></form>",
    "<head>", "<head>" + FORM, FORM + "<template>", "<template>" + FORM, FORM + "</body>", FORM + "</html>",
    "<frameset>", FORM + "<select name=s>", FORM + "<table><template>", "<div>" + FORM + "<template></div>",
]  # fmt: skip
ENDS = ["", "</template>", "</template></form>", "</template><input name=after>", "<input name=end>"]


def template_soup(rng: random.Random) -> str:
    """A page: a place, 2 to 12 bits (a template among them, at least), an end and an input."""
    bits = [rng.choice(BITS).format(n=n) for n in range(rng.randint(2, 12))]
    bits.insert(rng.randint(0, len(bits)), rng.choice(BITS[:8]).format(n=len(bits)))
    body = rng.choice(PLACES) + "".join(bits) + rng.choice(ENDS)
    return "<!doctype html><meta charset=utf-8>" + body + "<input name=z>"
