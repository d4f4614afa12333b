"""Facts from the HTML Standard that the stages share, each with the section it comes from."""

from __future__ import annotations

import re

# #category-listed: elements that have a form owner and appear in form.elements.
LISTED = frozenset({"button", "fieldset", "input", "object", "output", "select", "textarea"})

# #form-element-pointer: elements the parser associates with the pointer's form
# (form-associated elements: the listed ones plus img).
FORM_POINTER_ASSOCIATED = LISTED | {"img"}

# The event handler content attributes a call of a form's tool sets off: Chromium 156's
# executeTool fires input and change at each control it fills, then formdata and submit at the
# form (#fire-an-event, #constructing-the-form-data-set, #concept-form-submit). All four bubble,
# to every ancestor of their target up to the document; input alone is composed, so it also
# crosses a shadow root to its host and on (measured live: tests/test_lint_truth.py). Any
# element's attribute is a handler (GlobalEventHandlers: HTML's, SVG's and MathML's elements);
# none of the four is one of <body>'s window-reflecting handlers, so there it is <body>'s own.
CONTROL_EVENT_HANDLERS = ("oninput", "onchange")
FORM_EVENT_HANDLERS = ("onsubmit", "onformdata")
COMPOSED_EVENT_HANDLERS = frozenset({"oninput"})
CALL_EVENT_HANDLERS = FORM_EVENT_HANDLERS + CONTROL_EVENT_HANDLERS

# #category-label: elements a <label> can label.
LABELABLE = frozenset({"button", "input", "meter", "output", "progress", "select", "textarea"})

# #attr-input-type: the keywords a browser knows; anything else is the Text state.
INPUT_TYPES = frozenset(
    {
        "hidden", "text", "search", "tel", "url", "email", "password", "date", "month", "week",
        "time", "datetime-local", "number", "range", "color", "checkbox", "radio", "file",
        "submit", "image", "reset", "button",
    }
)  # fmt: skip

# #attr-input-readonly: the input types where readonly applies (textarea has it too).
READONLY_APPLIES = frozenset(
    {"text", "search", "url", "tel", "email", "password", "date", "month", "week", "time",
     "datetime-local", "number"}
)  # fmt: skip

# #attr-button-type: <button> states.
BUTTON_TYPES = frozenset({"submit", "reset", "button"})

# #space-character: ASCII whitespace.
ASCII_WHITESPACE = "\t\n\f\r "

# MIME Sniffing's "HTTP whitespace", stripped around a header's tokens (a no-break space, U+3000
# or a vertical tab is none: ``text/html\u00a0`` is no HTML type to Chromium 156).
HTTP_WHITESPACE = "\t\n\r "

# Chromium's String::StripWhiteSpace: ASCII spaces (U+0009–U+000D, U+0020) and the characters
# whose bidi class is WS. Used wherever Chromium trims names and label text.
CHROMIUM_WHITESPACE = (
    "\t\n\v\f\r \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u205f\u3000"
)

# WebMCP (Chromium 156): a declarative tool name.
TOOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")

# What a secret (the value of a sensitive field) is shown as (see _redact).
MASK = "[redacted]"

#: runs of ASCII white space, what Infra splits on
ASCII_WHITESPACE_RUNS = re.compile(f"[{ASCII_WHITESPACE}]+")

_ASCII_UPPER_TO_LOWER = {ord(c): ord(c) + 32 for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}


def ascii_lowercase(text: str) -> str:
    """Infra's "ASCII lowercase": A–Z only (``str.lower`` also folds other letters, and the
    Kelvin sign K becomes an ASCII ``k``)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_UPPER_TO_LOWER)
