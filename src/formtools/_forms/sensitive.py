"""Which controls hold secrets: a password, a card number, a one-time code.

Such values are written to the site and never shown back: not in a schema's examples, a
request shown to a person, a result, an error or a log line.
"""

from __future__ import annotations

import re

from formtools._forms.model import Control, Form
from formtools._spec.microsyntax import ASCII_WHITESPACE_RUNS, keyword
from formtools._spec.memo import IdentityMemo

__all__ = [
    "autocomplete_field",
    "boolean_flag",
    "is_sensitive",
    "secret_by_name_only",
    "sensitive_keys",
    "words_of",
]

# autocomplete tokens (the field name, last token of the attribute) whose values are secrets.
_SECRET_AUTOCOMPLETE = re.compile(r"cc-.+|current-password|new-password|one-time-code")
# control names that hold secrets when nothing else says so (words of the name)
_SECRET_NAME_WORDS = frozenset(
    {"password", "passwd", "passcode", "pin", "otp", "cvv", "cvc", "csc", "ssn", "secret"}
)


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")

def words_of(*texts: str) -> frozenset[str]:
    return frozenset(word.lower() for text in texts for word in _WORD.findall(text))


def boolean_flag(value: str | None) -> bool | None:
    if value is None:
        return None
    return {"": True, "true": True, "false": False}.get(keyword(value))


def autocomplete_field(control: Control) -> str:
    """The field name of the ``autocomplete`` attribute: its last token (HTML splits it on
    ASCII white space: ``section-a\u00a0cc-csc`` is one token, no card code), ASCII-lowercased,
    after the optional ``webauthn`` token that may follow it, which the autofill processing
    model takes off first (``cc-csc webauthn`` is a card code: its value was shown in clear)."""
    tokens = ASCII_WHITESPACE_RUNS.split(keyword(control.attributes.get("autocomplete", "")))
    if len(tokens) > 1 and tokens[-1] == "webauthn":
        tokens.pop()
    return tokens[-1]


def is_sensitive(control: Control) -> bool:
    """Whether the control's value is a secret (a password, a card number, a one-time code)."""
    declared = boolean_flag(control.attributes.get("toolparamsensitive"))
    if declared is not None:
        return declared
    if control.tag == "input" and control.type == "password":
        return True
    if _SECRET_AUTOCOMPLETE.fullmatch(autocomplete_field(control)):
        return True
    return _secret_name(control)


def _secret_name(control: Control) -> bool:
    return bool(words_of(control.key) & _SECRET_NAME_WORDS) and control.type != "hidden"


def secret_by_name_only(control: Control) -> bool:
    """Whether only the control's name makes it a secret (``pin``, ``ssn``): formtools' guess,
    where a password input, a secret ``autocomplete`` token or ``toolparamsensitive`` is the
    page's own word. (A PIN code may be a postal code: the guess keeps the value masked all the
    same, and says it is one.)"""
    return (
        control.attributes.get("toolparamsensitive") is None
        and not (control.tag == "input" and control.type == "password")
        and not _SECRET_AUTOCOMPLETE.fullmatch(autocomplete_field(control))
        and _secret_name(control)
    )


def sensitive_keys(form: Form) -> frozenset[str]:
    """The parameter names that carry a secret: such values are never shown back. Kept while
    the form lives: every call of its tool asks."""
    return _SENSITIVE_KEYS(form, None)


def _sensitive_keys(form: Form, _: None) -> frozenset[str]:
    return frozenset(c.key for c in form.controls if not c.is_button and is_sensitive(c))


_SENSITIVE_KEYS = IdentityMemo(_sensitive_keys)
