"""Seeded select soups: the tags a select can meet, where a select can be.

Chromium 156 parses a select's contents "in body" (the customizable select parser), so any tag
there can make elements, close others, move the form pointer or hold controls. A soup draws
buttons, divs, spans, hrs, datalists, templates, inputs, textareas, keygens, selects, forms,
``</form>``, table bits, scripts, comments, nested and unclosed options and optgroups, raw-text
tags, SVG and MathML, inside a tool form, its table cell, a form in a table (the pointer), a
form a ``</div>`` left open (the pointer) and after a ``</form>``, in a drop-down or list box
select, single or multiple, owned as parsed or by ``form=``. Used live by ``tests/test_browser_select.py`` and against the
exact path by ``tests/test_fast_path.py``.
"""

from __future__ import annotations

import random

__all__ = ["option_list_soup", "select_soup"]

#: the soups' one script: it computes nothing, so a soup's document is the same at every load
SCRIPT = "<script>0</script>"

#: what goes inside the select ({n}: the bit's place, so names and values stay apart)
BITS = [
    "<option>", "<option value=v{n}>o{n}", "<option selected>p{n}", "</option>", "<optgroup label=g{n}>",
    "<optgroup disabled>", "</optgroup>", "<hr>", "<button name=b{n} value=1>", "</button>", "<div>",
    "</div>", "<span>", "</span>", "<p>", "</p>", "<datalist id=d{n}>", "</datalist>",
    "<template>t{n}</template>", "<template><option>tt{n}</template>", "<input name=i{n}>",
    "<input name=x{n} form=tf>", "<textarea name=t{n}>v{n}", "</textarea>", "<keygen name=k{n}>",
    "<select name=s{n}>", "</select>", "<form id=f{n}>", "</form>", "<table>", "<tr>", "<td>", "</td>",
    "</table>", "<th>", "<caption>", SCRIPT, "<!--c-->", "<b>", "</b>", "<a>", "</a>",
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
#: its owner: as parsed, or by form= (the tool form, or no form: then nothing copies the select
#: into the fast path's skeleton, and a </form> in it must still clear the pointer)
OWNERS = ["", "", " form=tf", " form=nowhere"]


def select_soup(rng: random.Random, *, holding: str = "", owner: str | None = None) -> str:
    """A page: a place, a select of a drawn size and owner (``owner``: this one), 2 to 10 bits
    (and ``holding`` among them), an end and an input after."""
    owned = rng.choice(OWNERS) if owner is None else owner
    bits = [rng.choice(BITS).format(n=n) for n in range(rng.randint(2, 10))]
    bits.insert(rng.randint(0, len(bits)), holding)
    body = rng.choice(PLACES) + f"<select name=s{rng.choice(SIZES)}{owned}>" + "".join(bits)
    return "<!doctype html><meta charset=utf-8>" + body + rng.choice(ENDS) + "<input name=z>"


#: what a select's list of options and list items are made of, where an option can hide ({n}:
#: the piece's place): wrapped, separated, grouped, nested, in a datalist or a template
PIECES = [
    "<option>o{n}</option>", "<hr>", "<div><option>w{n}</option></div>", "<span><hr></span>",
    "<optgroup label=g{n}><option>x{n}</option><div><option>y{n}</option></div></optgroup>",
    "<optgroup disabled><span><option>q{n}</option></span></optgroup>",
    "<datalist><option>d{n}</option></datalist>", "<template><option>t{n}</option></template>",
    "<option>a{n}<span><option>b{n}</option></span></option>", "<!--c-->",
    "<optgroup><div><optgroup><option>n{n}</option></optgroup></div><option>m{n}</option></optgroup>",
    "<optgroup><hr><option>h{n}</option></optgroup>", "<option value=''>e{n}</option>",
]  # fmt: skip


def option_list_soup(rng: random.Random) -> str:
    """A tool form with one select of 3 to 6 pieces: multiple (executeTool picks its options by
    their place among the list items), or a required drop-down (a placeholder option or not)."""
    kind = rng.choice([" multiple", " required", ""])
    pieces = "".join(rng.choice(PIECES).format(n=n) for n in range(rng.randint(3, 6)))
    return f"<!doctype html><meta charset=utf-8>{FORM}<select name=s{kind}>{pieces}</select></form>"
