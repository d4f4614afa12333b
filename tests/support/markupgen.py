"""Seeded random pages of *ordinary* markup around valid, annotated forms, for lint's no-false-error
property.

Why this exists: ``formtools lint`` once reported an error on 8 of the 10 bundled realistic pages,
because an unnamed ``<fieldset>`` and an unnamed ``<button>`` share the empty name. The hand-made
fixtures and :mod:`tests.support.formgen` are built to probe Chromium's edge cases, so nobody noticed
that lint's *errors* were false on markup that every real site has. This generator writes what
authors actually write around a correctly annotated form — labels (wrapping and ``<label for>``),
fieldsets with legends (unnamed, named, described), unnamed and named buttons (several sharing a
name, ``type=button``/``reset``), outputs, hidden inputs (tokens, repeated names), nested layout
``<div>``/``<p>``/``<table>``, images, links, unnamed helper controls, disabled and readonly
controls, a form-associated submit button outside the form, and forms without tool attributes next
to the tool forms. Every tool form it writes registers and works as its author means, so lint may
give warnings (advice: a missing description, an unnamed control) but never an error.

It also writes an unnamed, required "I accept the terms" checkbox in forms without
``toolautosubmit``: no call can tick it, and none needs to, since such a form waits for the person,
who ticks it and submits (lint once called every form no call can make valid an error).

What it must not write, because an error would then be true: a named control sharing its name
with a button or another kind of control, a required control no call can fill in a form with
``toolautosubmit``, a duplicate or invalid ``toolname``, a tool form without a way to submit it.

Determinism: one :class:`random.Random` per page, seeded with the page number; page ``ord-0042``
is ``ordinary_page(42)``.
"""

from __future__ import annotations

import html
import random
from collections.abc import Iterator

__all__ = ["ordinary_page", "ordinary_pages"]

_WORDS = (
    "name", "email", "city", "query", "size", "colour", "notes", "phone", "guests", "topic",
    "company", "street", "zip", "country", "budget", "date", "quantity", "message", "plan", "team",
)
_DESCRIPTIONS = (
    "Search the catalogue.", "Send a message to the team.", "Book a table.", "Create an account.",
    "Subscribe to the newsletter.", "Filter the results.", "Update your profile.", "Request a quote.",
)
_IMAGE = "data:image/gif;base64,R0lGODlhAQABAAAAACw="


class _Page:
    """What one page has used so far: ids, tool names and the current form's control names."""

    def __init__(self, rng: random.Random, later: random.Random) -> None:
        self.rng = rng
        # constructs added to the generator later draw from their own stream, so every page
        # keeps the markup the tests' seeded pages were chosen for
        self.later = later
        self.serial = 0
        self.names: set[str] = set()

    def fresh(self, prefix: str) -> str:
        self.serial += 1
        return f"{prefix}{self.serial}"

    def name(self) -> str:
        """A control name not used by another control of the current form."""
        return self.fresh(self.rng.choice(_WORDS) + "_")


def _attrs(**attributes: str | bool | None) -> str:
    out = []
    for key, value in attributes.items():
        key = key.rstrip("_").replace("_", "-")
        if value is True:
            out.append(f" {key}")
        elif value:
            out.append(f' {key}="{html.escape(value)}"')
    return "".join(out)


def _maybe_description(page: _Page) -> str | None:
    return page.rng.choice([None, None, "The value to use, as a person would type it."])


def _labelled(page: _Page, control: str, text: str) -> str:
    """A control with its label: wrapped, ``<label for>``, a table row, or no label at all."""
    rng = page.rng
    how = rng.randrange(5)
    if how == 0:
        return f"<label>{text} {control}</label>"
    if how == 1:
        ident = page.fresh("c")
        control = control.replace("<input", f'<input id="{ident}"', 1).replace(
            "<select", f'<select id="{ident}"', 1
        ).replace("<textarea", f'<textarea id="{ident}"', 1)
        return f'<div class="row"><label for="{ident}">{text}</label> {control}</div>'
    if how == 2:
        return f"<p><span class=\"hint\">{text}</span><br>{control}</p>"
    if how == 3:
        return f"<table><tr><td>{text}</td><td>{control}</td></tr></table>"
    return f"<div><div class=\"field\"><label>{text}<br>{control}</label></div></div>"


# ---- parameters: named, well-formed controls -----------------------------------------------------


def _text_input(page: _Page) -> str:
    rng = page.rng
    kind = rng.choice(["text", "email", "search", "tel", "url", "password", "number", "date", "range"])
    extra: dict[str, str | bool | None] = {
        "required": rng.random() < 0.3,
        "placeholder": rng.choice([None, "e.g. something"]),
        "aria-label": rng.choice([None, None, "Your value"]),  # what authors write for a label
        "autocomplete": rng.choice([None, "off", "name", "email"]),
        "toolparamdescription": _maybe_description(page),
    }
    if kind == "number":
        extra.update(min="1", max="20", value=rng.choice([None, "2"]))
    if kind == "range":
        extra.update(min="0", max="100", step="5", value="50")
    if kind == "text" and rng.random() < 0.2:
        extra["pattern"] = "[A-Za-z ]+"
    control = f'<input type="{kind}" name="{page.name()}"{_attrs(**extra)}>'
    return _labelled(page, control, kind.capitalize())


def _textarea(page: _Page) -> str:
    name = page.name()
    desc = _maybe_description(page)
    return _labelled(page, f'<textarea name="{name}" rows="3"{_attrs(toolparamdescription=desc)}></textarea>', "Notes")


def _select(page: _Page) -> str:
    rng = page.rng
    options = "".join(f'<option value="v{i}">Choice {i}</option>' for i in range(rng.randint(1, 5)))
    if rng.random() < 0.3:
        options = '<option value="">Choose…</option>' + options
    multiple = rng.random() < 0.2
    control = f'<select name="{page.name()}"{_attrs(multiple=multiple)}>{options}</select>'
    return _labelled(page, control, "Pick one")


def _choice_fieldset(page: _Page) -> str:
    """Radios or checkboxes in a fieldset with a legend; the fieldset is unnamed or named."""
    rng = page.rng
    kind = rng.choice(["radio", "checkbox"])
    name = page.name()
    # Some authors describe each radio (GOV.UK's and Django's choice components carry per-item
    # attributes); drawn from the name, so that the page's other draws stay as they were
    described = random.Random(name).random() < 0.5
    boxes = "".join(
        f'<label><input type="{kind}" name="{name}" value="o{i}"'
        f'{_attrs(checked=i == 0 and kind == "radio", toolparamdescription=f"Option {i}" if described else None)}> '
        f"Option {i}</label><br>"
        for i in range(rng.randint(1, 4))
    )
    fieldset_attrs = _attrs(
        name=page.name() if rng.random() < 0.2 else None,
        toolparamdescription=rng.choice([None, "Which options apply."]),
        class_=rng.choice([None, "group"]),
    )
    return f"<fieldset{fieldset_attrs}><legend>Options</legend>{boxes}</fieldset>"


def _single_checkbox(page: _Page) -> str:
    return f'<label><input type="checkbox" name="{page.name()}" value="yes"> I agree</label>'


def _described_hidden(page: _Page) -> str:
    return f'<input type="hidden" name="{page.name()}" value="x1" toolparamdescription="An identifier.">'


# ---- ordinary non-parameters ---------------------------------------------------------------------


def _hidden_token(page: _Page) -> str:
    """A hidden input without a description (never a parameter), sometimes repeated by name."""
    name = page.rng.choice(["csrf_token", "_method", "utm_source", "ref"])
    token = f'<input type="hidden" name="{name}" value="abc123">'
    return token * page.rng.choice([1, 1, 2])


def _helper_buttons(page: _Page) -> str:
    rng = page.rng
    return rng.choice(
        [
            '<button type="button" class="toggle">Show password</button>',
            '<button type="reset">Clear</button>',
            '<input type="button" value="Preview">',
            '<input type="reset">',
            '<button type="button" aria-label="Help"><img src="' + _IMAGE + '" alt=""></button>',
        ]
    )


def _output(page: _Page) -> str:
    name = page.name() if page.rng.random() < 0.5 else None
    return f'<p>Total: <output{_attrs(name=name)}>0</output></p>'


def _unnamed_helper(page: _Page) -> str:
    """Controls a script reads but the form never submits: they have no name."""
    return page.rng.choice(
        [
            '<label><input type="checkbox" class="select-all"> Select all</label>',
            '<input type="text" class="filter" placeholder="Filter the list">',
            '<select class="jump"><option>Jump to…</option></select>',
        ]
    )


def _disabled_or_readonly(page: _Page) -> str:
    name = page.name()
    if page.rng.random() < 0.5:
        return f'<label>Code <input name="{name}" value="AB-12" readonly></label>'
    return f'<label>Legacy <input name="{name}" disabled></label>'


def _decoration(page: _Page) -> str:
    rng = page.rng
    return rng.choice(
        [
            f'<img src="{_IMAGE}" alt="" width="16" height="16">',
            '<a href="/help">Need help?</a>',
            '<p class="small">We never share your data. <a href="/privacy">Privacy</a></p>',
            "<hr>",
            '<span class="badge">New</span>',
            "<h3>Details</h3>",
        ]
    )


def _nested(page: _Page, inner: str) -> str:
    """Layout around a fragment: divs, a section, a table cell."""
    for _ in range(page.rng.randint(0, 3)):
        inner = page.rng.choice(
            [
                f'<div class="col">{inner}</div>',
                f"<section>{inner}</section>",
                f"<table class=\"layout\"><tbody><tr><td>{inner}</td></tr></tbody></table>",
                f'<div class="row"><div class="cell">{inner}</div></div>',
            ]
        )
    return inner


_PARAMETERS = (_text_input, _text_input, _textarea, _select, _choice_fieldset, _single_checkbox, _described_hidden)
_OTHERS = (_hidden_token, _helper_buttons, _output, _unnamed_helper, _disabled_or_readonly, _decoration)


def _submit(page: _Page) -> str:
    """The ways a real form is submitted: unnamed buttons, several named ones sharing a name."""
    rng = page.rng
    how = rng.randrange(5)
    if how == 0:
        return "<button>Send</button>"
    if how == 1:
        return '<button type="submit" class="primary">Continue <img src="' + _IMAGE + '" alt=""></button>'
    if how == 2:
        return '<input type="submit" value="Go">'
    if how == 3:
        name = page.rng.choice(["action", "intent", "op"])
        return (
            f'<button type="submit" name="{name}" value="save">Save</button> '
            f'<button type="submit" name="{name}" value="draft">Save as draft</button>'
        )
    return '<div class="actions"><button type="submit" name="submit">Submit</button> <a href="/">Cancel</a></div>'


def _tool_form(page: _Page, tool_name: str) -> str:
    rng = page.rng
    parts = [_nested(page, rng.choice(_PARAMETERS)(page)) for _ in range(rng.randint(1, 5))]
    parts += [_nested(page, rng.choice(_OTHERS)(page)) for _ in range(rng.randint(0, 4))]
    rng.shuffle(parts)
    autosubmit = rng.random() < 0.2
    if not autosubmit and page.later.random() < 0.2:  # the person ticks it before submitting
        parts.append('<label><input type="checkbox" required> I accept the terms</label>')
    outside = None
    if autosubmit and rng.random() < 0.5:
        pass  # toolautosubmit: no button needed
    elif rng.random() < 0.1:
        outside = page.fresh("form")  # the submit button sits outside, associated by form=
    else:
        parts.append(_submit(page))
    if rng.random() < 0.3:  # an outer fieldset around everything, unnamed, as many sites do
        parts = [f"<fieldset><legend>Your details</legend>{''.join(parts)}</fieldset>"]
    attributes = _attrs(
        id=outside,
        action=rng.choice(["/submit", "/search", ""]) or None,
        method=rng.choice(["get", "post", None]),
        toolname=tool_name,
        tooldescription=rng.choice(_DESCRIPTIONS),
        tooltitle=rng.choice([None, "A tool"]),
        toolautosubmit=autosubmit,
        class_=rng.choice([None, "form card"]),
    )
    form = f"<form{attributes}>\n  " + "\n  ".join(parts) + "\n</form>"
    if outside is not None:
        form += f'\n<p><button type="submit" form="{outside}">Send</button></p>'
    return form


def _plain_form(page: _Page) -> str:
    """A form without tool attributes (a header search, a language picker)."""
    return page.rng.choice(
        [
            '<form action="/search"><input type="search" name="q" aria-label="Search"><button>Search</button></form>',
            (
                '<form method="post"><select name="lang"><option>en</option><option>fr</option></select>'
                "<button>Set</button></form>"
            ),
        ]
    )


def ordinary_page(seed: int) -> str:
    """Page ``ord-NNNN``: a header, one to three tool forms in layout, maybe a plain form, a footer."""
    rng = random.Random(seed)
    page = _Page(rng, random.Random(-1 - seed))
    body = [
        f'<header><a href="/"><img src="{_IMAGE}" alt="Home"></a> <nav><a href="/a">About</a></nav></header>'
    ]
    if rng.random() < 0.5:
        body.append(_plain_form(page))
    for number in range(rng.randint(1, 3)):
        body.append(_nested(page, _tool_form(page, f"tool_{number}.{rng.choice(_WORDS)}")))
    if rng.random() < 0.3:
        body.append(_plain_form(page))
    body.append('<footer><p>© Example <a href="/terms">Terms</a></p></footer>')
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Page</title></head>\n<body>\n'
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def ordinary_pages(count: int, seed: int = 0) -> Iterator[tuple[str, str]]:
    """``count`` pages as ``(page id, markup)``, starting at page ``seed``."""
    for number in range(seed, seed + count):
        yield f"ord-{number:04d}", ordinary_page(number)
