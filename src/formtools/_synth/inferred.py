"""Unannotated forms as tools (``--all-forms``): a name and a description inferred from the page.

WebMCP registers a form only when its author wrote ``toolname`` and ``tooldescription``. Crawlers
and bridges also want the other forms (a site's search box, its login, its newsletter sign-up),
so with ``all_forms`` synthesis turns every form *without* a ``toolname`` attribute into a tool
too, flagged as inferred. What the author declared is never overridden: a form with
``toolname`` registers or not by WebMCP's rules, and its name is reserved.

The name must be

- **valid**: it matches ``_constants.TOOL_NAME`` (lower-case ASCII words joined by ``_``, at most
  64 characters, so OpenAI function names accept it too);
- **stable**: it comes from the form itself (attributes, submit button, action) or the text
  around it, never from the form's position, so another form added elsewhere does not rename it;
- **unique**: every valid ``toolname`` on the page is reserved (registered or not, in any letter
  case), and a base name that is taken gets ``_2``, ``_3`` … in document order.

The sources are tables (:data:`NAME_SOURCES`, :data:`DESCRIPTION_SOURCES`), tried in order; the
README lists them. A form that cannot be submitted usefully is left out with a reason
(:func:`not_submittable`), which synthesis reports as a diagnostic.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import unquote

from formtools._spec.constants import ASCII_WHITESPACE, TOOL_NAME
from formtools._forms.model import Control, Form, submission_attribute, submission_method
from formtools._spec.microsyntax import collapse_whitespace, keyword
from formtools._spec.url import Url
from formtools._spec.url import parse as parse_url
from formtools._spec.url import same_origin
from formtools._synth.tool import PageContext

__all__ = ["DESCRIPTION_SOURCES", "NAME_SOURCES", "Inferred", "Namer", "implicitly_submittable"]

_MAX_LENGTH = 64  # OpenAI's limit on function names; TOOL_NAME allows 128
_MAX_WORDS = 5
_MAX_TEXT = 200  # a heading or label quoted in a description
_FALLBACK = "form"

# Words that say nothing about what a form does: "login-form" names the same tool as "login".
_FORM_WORDS = frozenset({"form", "forms", "frm"})
# Words that alone make a poor name ("Submit", "Go", "/index.php"): a source made only of these,
# numbers and single letters is passed over for the next one.
_GENERIC = frozenset(
    {"action", "apply", "bin", "btn", "button", "cgi", "change", "continue", "default", "do",
     "done", "enter", "get", "go", "handler", "index", "main", "next", "ok", "page", "post",
     "process", "save", "send", "set", "submit", "update"}
)  # fmt: skip
# Left out of a name that would have more than _MAX_WORDS words ("Sign up for our weekly
# newsletter" → sign_up_weekly_newsletter; "Add to cart" stays add_to_cart).
_STOPWORDS = frozenset(
    {"a", "an", "and", "at", "be", "by", "for", "from", "in", "is", "it", "me", "my", "of", "on",
     "our", "the", "this", "to", "us", "we", "when", "will", "with", "you", "your"}
)  # fmt: skip
# Script and page extensions in an action path segment (/search.php → search).
_EXTENSION = re.compile(r"\.(?:php\d?|html?|aspx?|jsp|cgi|pl|py|do|action)$", re.IGNORECASE)
# word boundaries inside identifiers: searchForm, HTMLForm, form2
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])")
_WORD = re.compile(r"[A-Za-z0-9]+")
# URL parsing strips C0 controls and space from the ends of an action (see formtools._forms.action.action_url).
_URL_ENDS = "".join(map(chr, range(0x21)))

# #implicit-submission: the input types that stop Enter from submitting a form that has no
# submit button when more than one of them is present.
_BLOCKS_IMPLICIT_SUBMISSION = frozenset(
    {"text", "search", "url", "tel", "email", "password", "date", "month", "week", "time",
     "datetime-local", "number"}
)  # fmt: skip


@dataclass(frozen=True)
class Facts:
    """What the sources read about one form: the submit button a call uses (None: implicit
    submission), its label, and the method and action that button submits with."""

    form: Form
    button: Control | None
    button_label: str
    method: str
    action: str
    page: PageContext


@dataclass(frozen=True)
class Inferred:
    """An unannotated form's tool name and description, and which sources they came from."""

    name: str
    description: str
    name_source: str
    description_source: str

    @property
    def detail(self) -> str:
        named = (
            f"named {self.name!r} from its {self.name_source}"
            if self.name_source != "fallback"
            else f"named {self.name!r} (no source had a useful word)"
        )
        return f"{named}, described from its {self.description_source}"


Source = tuple[str, Callable[[Facts], str]]


def _attribute(name: str) -> Callable[[Facts], str]:
    return lambda facts: collapse_whitespace(facts.form.attributes.get(name, ""))


def _identifier(text: str) -> str:
    """An author's identifier as words: ``searchForm`` → ``search Form``, ``form2`` → ``form 2``
    (only identifiers: in visible text, "GitHub" is one word)."""
    return _CAMEL.sub(" ", text)


def _identifier_attribute(name: str) -> Callable[[Facts], str]:
    return lambda facts: _identifier(facts.form.attributes.get(name, ""))


def _words(text: str) -> list[str]:
    """Lower-case ASCII words: accents dropped (é → e); other scripts vanish."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return [word.lower() for word in _WORD.findall(plain)]


def _name_words(text: str) -> list[str]:
    """The words of a name made from ``text``, or [] when ``text`` says nothing useful."""
    words = [w for w in _words(text) if w not in _FORM_WORDS]
    if not any(len(w) > 1 and w not in _GENERIC and not w.isdigit() for w in words):
        return []
    if len(words) > _MAX_WORDS:
        words = [w for w in words if w not in _STOPWORDS] or words
    return words[:_MAX_WORDS]


def _role(form: Form) -> str:
    return keyword(form.attributes.get("role", ""))


def _action_segment(facts: Facts) -> str:
    """The last segment of the action's path that names something (``/cart/add.php`` → ``add``,
    ``/search?q=`` → ``search``, ``/subscribe/post`` → ``subscribe``)."""
    url = _resolved(facts)
    path = url.pathname if url is not None else facts.action.partition("?")[0].partition("#")[0]
    for segment in reversed(path.split("/")):
        segment = _identifier(_EXTENSION.sub("", unquote(segment)))
        if _name_words(segment):
            return segment
    return ""


def _only_field(facts: Facts) -> str:
    """The label (else aria-label, else name) of the form's one field, when it has exactly one
    an agent fills: a currency or language switcher is named by what it switches."""
    fields = [
        c
        for c in facts.form.controls
        if c.name
        and not c.disabled
        and not c.is_button
        and c.type != "hidden"
        and c.tag != "output"
    ]
    if len(fields) != 1:
        return ""
    field = fields[0]
    label = next((collapse_whitespace(text) for text in field.labels if collapse_whitespace(text)), "")
    return (
        label or collapse_whitespace(field.attributes.get("aria-label", "")) or _identifier(field.name or "")
    )


# The order in which a name is looked for: the first source with a useful word wins; else "form".
NAME_SOURCES: tuple[Source, ...] = (
    ("id", _identifier_attribute("id")),
    ("name", _identifier_attribute("name")),
    ("aria-label", _attribute("aria-label")),
    ("aria-labelledby", lambda facts: facts.form.labelledby),
    ("title", _attribute("title")),
    ("role", lambda facts: "search" if _role(facts.form) == "search" else ""),
    ("submit button", lambda facts: facts.button_label),
    ("action", _action_segment),
    ("only field", _only_field),
    ("heading", lambda facts: facts.form.heading),
)

# The order in which a description's first sentence is looked for. A form's own tooldescription
# (a form that has one but no toolname) is used as it is; otherwise the description is that
# sentence, if any, followed by the heading, the submit button's label and where it submits.
DESCRIPTION_SOURCES: tuple[Source, ...] = (
    ("aria-description", _attribute("aria-description")),
    ("aria-label", _attribute("aria-label")),
    ("aria-labelledby", lambda facts: facts.form.labelledby),
    ("title", _attribute("title")),
)


def _first(
    sources: Iterable[Source], facts: Facts, usable: Callable[[str], object]
) -> tuple[str, str]:
    for source, read in sources:
        text = read(facts)
        if text and usable(text):
            return source, text
    return "", ""


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1].rstrip() + "…"


def _resolved(facts: Facts) -> Url | None:
    """The action resolved as the submission resolves it (WHATWG, against the page's base URL):
    urllib read ``\\\\evil.example/x`` as a path of this page, where a browser goes to
    evil.example, and raised on ``http://[::1.2.3.]``, failing the whole page."""
    base = facts.page.base_url or facts.page.url
    return parse_url(facts.action, base) if base else parse_url(facts.action)


def _target(facts: Facts) -> str:
    """Where the form submits, for a person: the action's path on the page's own origin, the
    URL without query elsewhere, "this page" for an empty action."""
    if not facts.action:
        return "this page"
    url = _resolved(facts)
    if url is None:
        return facts.action
    page = parse_url(facts.page.url or "")
    if url.host and not (page is not None and same_origin(url, page)):
        return f"{url.scheme}://{url.host}{url.pathname}"
    return url.pathname or "/"


def _description(facts: Facts) -> tuple[str, str]:
    """The description and the sources it was made from (for the ``inferred-tool`` diagnostic)."""
    own = facts.form.attributes.get("tooldescription", "")
    if own.strip(ASCII_WHITESPACE):
        return own, "tooldescription"
    source, headline = _first(DESCRIPTION_SOURCES, facts, bool)
    sentences, used = ([_clip(headline)], [source]) if headline else ([], [])
    heading, label = facts.form.heading, facts.button_label
    if heading and heading != headline:
        sentences.append(f"Heading: {_clip(heading)}")
        used.append("heading")
    if label and label not in (headline, heading):
        sentences.append(f"Submit button: {_clip(label)}")
        used.append("submit button")
    sentences.append(f"Submits: {facts.method.upper()} {_target(facts)}")
    description = ". ".join(s.rstrip(".") for s in sentences) + "."
    return description, ", ".join(used) + (" and " if used else "") + "action"


def _slug(words: list[str], limit: int = _MAX_LENGTH) -> str:
    while len(words) > 1 and len("_".join(words)) > limit:
        words = words[:-1]
    return "_".join(words)[:limit]


def _suffixed(base: str, n: int) -> str:
    """``base`` with the suffix ``_n``, its words shortened so that the name stays in bounds."""
    return _slug(base.split("_"), _MAX_LENGTH - len(f"_{n}")) + f"_{n}"


def implicitly_submittable(form: Form) -> bool:
    """#implicit-submission: a form without a submit button is submitted by Enter when at most
    one of its fields blocks implicit submission. (With submit buttons, Enter clicks the first;
    when that one is disabled nothing happens.)"""
    if any(control.is_submit_button for control in form.controls):
        return False
    blocking = sum(
        c.tag == "input" and c.type in _BLOCKS_IMPLICIT_SUBMISSION for c in form.controls
    )
    return blocking <= 1


def facts_of(form: Form, button: Control | None, page: PageContext) -> Facts:
    action = (submission_attribute(form.attributes, button, "action") or "").strip(_URL_ENDS)
    method = submission_method(form.attributes, button)
    return Facts(form, button, button.button_label if button is not None else "", method, action, page)


def not_submittable(facts: Facts) -> str | None:
    """Why calling the form as a tool could do nothing useful, or None when it can."""
    url = _resolved(facts)
    scheme = url.scheme if url is not None else ""
    if facts.method == "dialog":
        return "method=dialog: submitting it closes a dialog and sends nothing"
    if scheme == "javascript":
        return "its action is a javascript: URL, which formtools never runs"
    if scheme == "mailto":
        return "its action is a mailto: URL: submitting it opens a mail client"
    if facts.button is None and not implicitly_submittable(facts.form):
        if any(control.is_submit_button for control in facts.form.controls):
            return "its submit buttons are disabled"
        return "it has no submit button and several text fields, so Enter does not submit it"
    if not facts.action and not any(c.name for c in facts.form.controls if not c.disabled):
        return "it has no named controls and no action: submitting it sends nothing anywhere"
    return None


class Namer:
    """Names and describes the unannotated forms of one page, in document order."""

    def __init__(self, forms: Iterable[Form]) -> None:
        # every name an author wrote is reserved, registered or not: fixing a broken declaration
        # later must not rename an inferred tool (compared case-insensitively, for people)
        self._taken = {
            form.attributes["toolname"].lower()
            for form in forms
            if TOOL_NAME.fullmatch(form.attributes.get("toolname", ""))
        }
        # base name → the suffix its last inferred name took: names are only ever added to
        # ``_taken``, so every smaller suffix is still taken and the search resumes there
        # (counting from 2 for each form made n forms of one base cost n²)
        self._last_suffix: dict[str, int] = {}

    def infer(self, form: Form, button: Control | None, page: PageContext) -> Inferred | str:
        """The form's name and description, or why it is not made a tool. ``button`` is the
        submit button a call would use (``parameters_of(form, profile).submit_button``)."""
        facts = facts_of(form, button, page)
        reason = not_submittable(facts)
        if reason is not None:
            return reason
        source, text = _first(NAME_SOURCES, facts, _name_words)
        base = _slug(_name_words(text)) if source else _FALLBACK
        n = self._last_suffix.get(base, 1)
        name = base if n == 1 else _suffixed(base, n)
        while name.lower() in self._taken:
            n += 1
            name = _suffixed(base, n)
        self._taken.add(name)
        self._last_suffix[base] = n
        description, described_by = _description(facts)
        return Inferred(name, description, source or "fallback", described_by)
