"""What a tool call does to the world, guessed from the form: MCP-style tool annotations.

Chromium reports no such hints (its only annotation is ``autosubmit``), yet a client deciding
whether to ask a person before a call, or whether to retry one, needs them. The page already
says most of it: a GET form only reads (HTML requires GET submissions to be safe and
idempotent), a form whose name, description, action or button says "delete" changes something
that cannot be taken back, one that says "pay" spends money, and a form that "generates an API
key" hands out a secret.

The guesses err on the side of a person: a word that says the form changes or removes something
outweighs every sign of reading only (GET, "search"), since a wrong ``readOnlyHint`` lets an
agent call a form unasked while a wrong "changes something" only asks a person once more.

Every guess is a row of a table below, and an author can override each hint with a form
attribute (:data:`OVERRIDES`) — ``toolhumanintheloophint`` only upwards for a form without
``toolautosubmit``, which is never submitted without a person.

``sensitiveHint`` is about the tool's *output*, as its proposal defines it (webmcp#110: "the
tool's output may contain sensitive data"); secrets a person types *into* a form are another
matter (``writeOnly`` parameters, :mod:`formtools._forms.sensitive`) and say nothing about what
the landing page holds. A sensitive output is withheld from the agent when the tool is called
(:attr:`formtools._execute.send.ToolResult.secret_reference`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

from formtools._forms.model import Control, Form, submission_attribute, submission_method
from formtools._synth.parameters import parameters_of
from formtools._synth.profile import FragmentBuilder, Group, Profile
from formtools._forms.sensitive import autocomplete_field, boolean_flag, words_of
from formtools._spec.microsyntax import keyword

__all__ = [
    "HUMAN_IN_THE_LOOP_LEVELS",
    "INFERRED_KEY",
    "declared_hints",
    "Hints",
    "OVERRIDES",
    "hints_of",
    "without_guesses",
]

#: From least to most involvement: ``none`` (call freely), ``notify`` (tell the person after),
#: ``review`` (show the call before it is sent), ``confirm`` (an explicit yes is needed).
HUMAN_IN_THE_LOOP_LEVELS = ("none", "notify", "review", "confirm")

# Words that make a state-changing form destructive in MCP's sense ("may perform destructive
# updates", as opposed to only additive ones): what it does removes or overwrites something
# (tokens of the tool name, title and description, the form's id, name and aria-label, its
# action path and its submit button's label).
_DESTRUCTIVE_WORDS = frozenset(
    {
        "delete", "remove", "destroy", "erase", "wipe", "purge", "discard", "drop",
        "cancel", "unsubscribe", "revoke", "terminate", "deactivate", "close", "ban",
        "reset", "uninstall", "withdraw", "clear", "trash",
    }
)
# Words that make a state-changing form overwrite something (MCP's destructiveHint is false only
# for "only additive updates", and defaults to true): in the names only (the tool name, title, id,
# name, aria-label, action path and submit label), as prose ("get updates", "change of plans")
# says them of anything. An outside review found "change_password" and "update_address" called
# non-destructive.
_OVERWRITING_WORDS = frozenset(
    {"update", "change", "edit", "replace", "overwrite", "modify", "rename", "move"}
)
# Words that make it a payment: money leaves (the same sources but the description, whose prose
# says "order" and "charge" of anything; plus any cc-* field). Paying is not a destructive update
# in MCP's sense; it makes formtools ask for a person's yes (humanInTheLoopHint "confirm").
_PAYMENT_WORDS = frozenset(
    {
        "pay", "payment", "purchase", "buy", "checkout", "order", "donate", "donation",
        "transfer", "charge", "billing",
    }
)
# Evidence that the output holds a secret (webmcp#110's cases: "tools that generate secrets
# (API keys, tokens, passwords)"): a credential noun together with a verb that hands one out, or
# "API key" itself, in the tool's name, title, description, id, name, aria-label, action path or
# submit label. Neither word alone is enough — "verify token" reads a token the person typed,
# "create account" hands out nothing — a password only counts when it is generated or shown (a
# person "creates" the one they type), and a form that deletes or searches hands nothing out.
# Private data in general (messages, records) has no word a form reliably carries: its author
# declares it with ``toolsensitivehint``.
_HANDING_OUT_WORDS = frozenset(
    {"generate", "regenerate", "create", "new", "issue", "reveal", "rotate", "roll", "show", "view", "copy", "get", "request"}
)
_SHOWING_WORDS = frozenset({"generate", "regenerate", "reveal", "show", "view", "copy"})
_CREDENTIAL_WORDS = frozenset(
    {"apikey", "apikeys", "token", "tokens", "key", "keys", "secret", "secrets", "credential", "credentials", "codes"}
)
_PASSWORD_WORDS = frozenset({"password", "passwords", "passcode", "passphrase"})
# Words of a form that only looks things up, whatever its method.
_SEARCH_WORDS = frozenset({"search", "find", "lookup", "query", "filter", "browse"})
# Words that say a form changes something: the strong ones outweigh every sign of reading only
# (GET, a search); the weak ones, common in the action paths of searches ("/search/submit"),
# only keep a GET form that is no search from being read-only (a GET "save" link-form).
_CHANGING_WORDS = _DESTRUCTIVE_WORDS | {
    "logout", "signout", "logoff", "subscribe", "vote", "follow", "unfollow", "approve", "reject",
}  # fmt: skip
_WEAK_CHANGING_WORDS = frozenset({"confirm", "send", "post", "submit", "save", "update"})
# Verbs that add or record something, in the names: a GET form saying them changes state ("Add
# to cart" as a GET link-form, "book", "archive": an outside review found them read-only and
# idempotent, which invites a retry that books twice).
# Matched as written, not by stem ("booking" names a thing, "Apply filters" and "text_like"
# are no additions).
_ADDING_WORDS = frozenset(
    {"add", "book", "reserve", "archive", "join", "register", "enroll", "rsvp", "accept", "decline", "create"}
)

#: Form attributes that override a guessed hint: attribute → annotation key. A boolean hint's
#: attribute is true when empty or ``"true"``, false when ``"false"``; any other value is
#: ignored (the guess stays). ``toolhumanintheloophint`` takes a level name.
OVERRIDES: Mapping[str, str] = MappingProxyType(
    {
        "toolreadonlyhint": "readOnlyHint",
        "tooldestructivehint": "destructiveHint",
        "toolidempotenthint": "idempotentHint",
        "toolopenworldhint": "openWorldHint",
        "tooluntrustedcontenthint": "untrustedContentHint",
        "toolhumanintheloophint": "humanInTheLoopHint",
        "toolsensitivehint": "sensitiveHint",
    }
)


#: Where the annotations say which of their hints formtools guessed or set itself (formtools' own
#: keyword): every other hint was declared by the page's author with an attribute of
#: :data:`OVERRIDES`. A parameter whose ``writeOnly`` comes from its name alone lists it there too.
INFERRED_KEY = "x-formtools-inferred-hints"


@dataclass(frozen=True)
class Hints:
    """A tool's annotations, in the order they are written out, and which of them are guesses
    (``inferred``; the rest the author declared)."""

    readOnlyHint: bool
    destructiveHint: bool
    idempotentHint: bool
    openWorldHint: bool
    untrustedContentHint: bool | None  # None: the author said nothing (it is never guessed)
    humanInTheLoopHint: str
    sensitiveHint: bool
    inferred: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The hints (``untrustedContentHint`` only when declared), then :data:`INFERRED_KEY`
        listing the guessed ones (when any is)."""
        data = {
            key: value
            for key, value in asdict(self).items()
            if key != "inferred" and value is not None
        }
        if self.inferred:
            data[INFERRED_KEY] = list(self.inferred)
        return data

    @property
    def needs_person(self) -> bool:
        """Whether a person must see the call before it is sent (``review`` or ``confirm``)."""
        return HUMAN_IN_THE_LOOP_LEVELS.index(self.humanInTheLoopHint) >= 2


def hints_of(form: Form, *, declared: bool = True) -> Hints:
    """The form's annotations: guessed from the page, then (``declared``) the author's overrides
    applied. A client that must not let a page lower its caution (the MCP bridge) asks for the
    guesses alone too, and takes the more cautious of the two."""
    attributes = form.attributes
    button = parameters_of(form).submit_button  # the one a call without a submitter uses
    method = submission_method(attributes, button)
    action = (submission_attribute(attributes, button, "action") or "").strip()
    scheme, path = _scheme_and_path(action, keep_query=method != "get")
    sends_nothing = method == "dialog" or scheme == "mailto"
    written = words_of(
        attributes.get("toolname", ""),
        attributes.get("tooltitle", ""),
        attributes.get("id", ""),  # what names an unannotated form (--all-forms)
        attributes.get("name", ""),
        attributes.get("aria-label", ""),
        path,
        *_button_texts(button),
    )
    names = _with_stems(written)
    # the description is the one text every declarative tool has ("Delete your account")
    words = names | _with_stems(words_of(attributes.get("tooldescription", "")))
    fields = [c for c in form.controls if not c.is_button]
    payment = bool(names & _PAYMENT_WORDS) or any(
        autocomplete_field(c).startswith("cc-") for c in fields
    )
    destroys = bool(words & _DESTRUCTIVE_WORDS)
    searching = (
        keyword(attributes.get("role", "")) == "search"
        or bool(names & _SEARCH_WORDS)
        or any(c.tag == "input" and c.type == "search" for c in fields)
    )
    # GET is meant to be safe (HTML, RFC 9110), but "log out", "unsubscribe" and "delete" forms
    # with method=get exist: GET (or a search) is evidence of reading only when no word says
    # otherwise — "delete_search_history" deletes
    changes_state = (
        payment
        or bool(words & _CHANGING_WORDS)
        or (bool(written & _ADDING_WORDS) and not searching)  # "Find a book", /archive/search
        or bool(words & {"log", "sign"} and words & {"out", "off"})  # "Log out", "sign_off"
    )
    get_only = method == "get" and not names & _WEAK_CHANGING_WORDS
    reads_only = sends_nothing or (not changes_state and (searching or get_only))
    # overwriting is a POST's: a GET "Update" or "Show updates" button refreshes a view
    overwrites = method == "post" and bool(names & _OVERWRITING_WORDS)
    destructive = not reads_only and (destroys or overwrites)
    guessed: dict[str, Any] = {
        "readOnlyHint": reads_only,
        "destructiveHint": destructive,
        "idempotentHint": reads_only,
        "openWorldHint": not sends_nothing,
        # the spec: the output is untrusted "from the perspective of the author registering the
        # tool" — only the author can say that, so it is never guessed and absent unless declared
        # (the MCP bridge marks every result as the site's content its own way,
        # _meta["formtools/untrusted"])
        "untrustedContentHint": None,
        "humanInTheLoopHint": _level(
            destructive or (payment and not sends_nothing), "toolautosubmit" in attributes, reads_only
        ),
        "sensitiveHint": _hands_out_secret(words),
    }
    inferred = [key for key in guessed if key != "untrustedContentHint"]
    for attribute, key in OVERRIDES.items() if declared else ():
        value = attributes.get(attribute)
        if value is None:
            continue
        if key == "humanInTheLoopHint":
            level = keyword(value)
            if level in HUMAN_IN_THE_LOOP_LEVELS:
                floor = "none" if "toolautosubmit" in attributes else "review"
                guessed[key] = max(level, floor, key=HUMAN_IN_THE_LOOP_LEVELS.index)
                if guessed[key] == level:  # raised to the floor: formtools' level, not the page's
                    inferred.remove(key)
        elif (flag := boolean_flag(value)) is not None:
            guessed[key] = flag
            if key in inferred:
                inferred.remove(key)
    return Hints(**guessed, inferred=tuple(inferred))


def _scheme_and_path(action: str, *, keep_query: bool) -> tuple[str, str]:
    """An action's scheme (lowercase) and path, with its query when the submission keeps it
    (a POST to ``/account?op=delete``; a GET replaces the query with the form's), for words:
    urlsplit raises on what browsers take (``http://[bad/`` navigates to about:blank#blocked),
    so such an action is all path."""
    try:
        parts = urlsplit(action)
    except ValueError:
        return "", action
    return parts.scheme.lower(), f"{parts.path} {parts.query}" if keep_query else parts.path


def _button_texts(button: Control | None) -> tuple[str, ...]:
    """What a submit button says: its label, and the name, value, aria-label and title a call
    submits or a person reads (``<button name=op value=delete>``, ``aria-label=Delete``)."""
    if button is None:
        return ()
    extra = (button.attributes.get(name, "") for name in ("name", "value", "aria-label", "title"))
    return (button.button_label, *extra)


def _with_stems(words: frozenset[str]) -> frozenset[str]:
    """The words and their stems, so that the tables' verbs match "deletes" and "deleting" (a
    stem that is no word matches nothing). Not "-ed": it makes adjectives ("a closed form")."""
    stems = set(words)
    for word in words:
        if word.endswith("ing") and len(word) > 5:
            stems.update((word[:-3], word[:-3] + "e"))
        elif word.endswith("es") and len(word) > 4:
            stems.update((word[:-2], word[:-1]))
        elif word.endswith("s") and len(word) > 3:
            stems.add(word[:-1])
    return frozenset(stems)


def _hands_out_secret(words: frozenset[str]) -> bool:
    """Whether a form's words say its output is a secret (see ``_CREDENTIAL_WORDS``)."""
    if words & (_DESTRUCTIVE_WORDS | _SEARCH_WORDS):
        return False
    if words & {"apikey", "apikeys"} or {"api", "key"} <= words or {"api", "keys"} <= words:
        return True
    if words & _PASSWORD_WORDS and words & _SHOWING_WORDS:
        return True
    return bool(words & _CREDENTIAL_WORDS) and bool(words & _HANDING_OUT_WORDS)


def declared_hints(form: Form) -> dict[str, Any]:
    """Only what the page's author declared (``--no-infer``): each hint attribute of
    :data:`OVERRIDES` the form carries with a value formtools reads, nothing guessed."""
    found: dict[str, Any] = {}
    for attribute, key in OVERRIDES.items():
        value = form.attributes.get(attribute)
        if value is None:
            continue
        if key == "humanInTheLoopHint":
            if (level := keyword(value)) in HUMAN_IN_THE_LOOP_LEVELS:
                found[key] = level
        elif (flag := boolean_flag(value)) is not None:
            found[key] = flag
    return found


def without_guesses(profile: Profile) -> Profile:
    """``profile`` with none of formtools' guesses (``--no-infer``): the annotations are
    ``autosubmit`` and what the page declares, and a parameter that is a secret only by its name
    loses ``writeOnly`` (its value stays masked in what formtools shows: hiding a value is not a
    claim about it). The ``chromium`` profile guesses nothing and stays as it is."""
    if profile.name == "chromium":
        return profile

    def unguessed(build: FragmentBuilder) -> FragmentBuilder:
        def fragment(group: Group) -> dict[str, Any]:
            schema = build(group)
            if schema.get(INFERRED_KEY) == ["writeOnly"]:
                del schema[INFERRED_KEY], schema["writeOnly"]
            return schema

        return fragment

    return profile.extend(
        profile.name,
        fragments={kind: unguessed(build) for kind, build in profile.fragments.items()},
        annotations=lambda form: {
            "autosubmit": "toolautosubmit" in form.attributes,
            **declared_hints(form),
        },
    )


def _level(irreversible: bool, autosubmit: bool, reads_only: bool) -> str:
    """formtools' own mapping onto webmcp#198's levels: ``confirm`` for what cannot be taken
    back (a destructive update, a payment), ``review`` for a form the page leaves to a person
    (no ``toolautosubmit``), ``notify`` for other changes, ``none`` for reading only. It
    departs from #198's examples where a form's words cannot tell: #198 wants "sending email"
    confirmed, and a form that sends a message (a contact form) is ``notify`` here unless its
    author says ``toolhumanintheloophint=confirm``."""
    if irreversible:
        return "confirm"
    if not autosubmit:
        return "review"
    return "none" if reads_only else "notify"
