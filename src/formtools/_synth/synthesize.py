"""Stage 3 — synthesize: forms → tool definitions under a profile, with a reason for every loss.

The driver is profile-agnostic: it applies the WebMCP registration rules (a connected form with
``toolname`` and ``tooldescription``, a valid and unused name), groups the kept controls by
parameter name in order of first appearance, and asks the profile's table for each group's
schema fragment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from formtools._spec.constants import TOOL_NAME
from formtools._spec.csp import form_action_applies, form_action_blocker, form_action_lists, sandbox_flags
from formtools._spec.limits import MAX_PAGE_BYTES
from formtools._synth.diagnostics import Diagnostic, Severity
from formtools._forms.action import ActionBlocked, action_url
from formtools._forms.model import Control, Form, forms_of, submission_method
from formtools._synth.inferred import Namer
from formtools._spec.microsyntax import compiles_as_v_flag_regex
from formtools._parse.document import Document, Parser
from formtools.errors import UnknownDocumentURL, quoted, require
from formtools._parse.sources import PageSource, document_of
from formtools._synth.profile import Group, Profile, get_profile
from formtools._synth.parameters import Parameter, Parameters, parameters_of, skips_validation, unsatisfiable
from formtools._synth.chromium import group_fieldset
from formtools._synth.spelling import false_booleans, unknown_attributes
from formtools._synth.tool import PageContext, Tool

__all__ = ["Extraction", "Parameter", "Parameters", "extract", "extract_tools", "parameters_of", "synthesize"]


@dataclass(frozen=True)
class Extraction:
    """What one page yields: its tools (sorted by name, as ``getTools()`` lists them), every
    diagnostic, and the parsed forms."""

    tools: tuple[Tool, ...]
    diagnostics: tuple[Diagnostic, ...]
    forms: tuple[Form, ...]
    document: Document

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity is Severity.ERROR)

    def tool(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)


def synthesize(
    document: Document, profile: str | Profile = "chromium", *, all_forms: bool = False
) -> Extraction:
    """Every tool the document's forms register under ``profile``.

    ``all_forms``: also a tool for every form without ``toolname`` that can be submitted, named
    and described from the page and flagged ``inferred`` (see :mod:`._inferred`); the forms
    left out get a ``not-inferred`` diagnostic saying why.
    """
    require(document, Document, "synthesize", "a formtools.Document (parse_html's or load_page's; extract takes markup)")
    rules = get_profile(profile)
    forms = forms_of(document)
    tools: list[Tool] = []
    diagnostics: list[Diagnostic] = []
    registered: set[str] = set()
    page = PageContext(
        document.url,
        document.base_url,
        document.encoding,
        document.base_target,
        document.frame_names,
        document.referrer_policy,
        any("allow-forms" not in allowed for allowed in sandbox_flags(document.security_policies)),
        form_action_lists(document.security_policies, document.meta_policies),
    )
    namer = Namer(forms) if all_forms else None
    if document.encoding_guessed and forms:
        diagnostics.append(Diagnostic("undeclared-encoding", "the page"))
    for form in forms:
        diagnostics.extend(unknown_attributes(form))
        diagnostics.extend(false_booleans(form))
        problems = _registration_problems(form, registered)
        problem = problems[0] if problems else None
        inferred = problem is not None
        if problem is not None:
            if namer is None or problem != "not-a-tool":
                diagnostics.extend(Diagnostic(p, form.describe, line=form.line) for p in problems)
            if namer is None or "toolname" in form.attributes:
                if problem != "not-a-tool":  # meant as a tool: also what would fail once registered
                    _input_schema(form, rules, diagnostics)
                continue
            named = namer.infer(form, parameters_of(form, rules).submit_button, page)
            if isinstance(named, str):
                diagnostics.append(Diagnostic("not-inferred", form.describe, None, form.line, named))
                continue
            diagnostics.append(Diagnostic("inferred-tool", form.describe, None, form.line, named.detail))
            name, description = named.name, named.description
        else:
            name, description = form.attributes["toolname"], form.attributes["tooldescription"]
            registered.add(name)
        schema_diagnostics: list[Diagnostic] = []
        schema = _input_schema(form, rules, schema_diagnostics, needs_button=not inferred)
        diagnostics.extend(schema_diagnostics)
        handlers = _call_event_handlers(form)
        if handlers:
            diagnostics.append(Diagnostic("event-handler", form.describe, line=form.line, detail=handlers))
        blocked = _blocked_action(form, parameters_of(form, rules).submit_button, page) if page.form_action else None
        if blocked:
            diagnostics.append(Diagnostic("form-action-blocked", form.describe, line=form.line, detail=blocked))
        tools.append(
            Tool(
                name=name,
                title=form.attributes.get("tooltitle", ""),
                description=description,
                input_schema=schema,  # (the tool keeps a frozen copy)
                annotations=rules.annotations(form),
                form=form,
                profile=rules,
                page=page,
                inferred=inferred,
            )
        )
    tools.sort(key=lambda tool: tool.name)
    return Extraction(tuple(tools), tuple(diagnostics), forms, document)


def _registration_problems(form: Form, registered: set[str]) -> list[str]:
    """Every reason the form registers no tool (all of them, so that one lint run says what to
    fix), or none."""
    has_name = "toolname" in form.attributes
    has_description = "tooldescription" in form.attributes
    if not has_name and not has_description:
        return ["not-a-tool"]
    problems = []
    if not has_name:
        problems.append("missing-toolname")
    if not has_description:
        problems.append("missing-tooldescription")
    if has_name:
        name = form.attributes["toolname"]
        if not TOOL_NAME.fullmatch(name):
            problems.append("invalid-toolname")
        elif name in registered:
            problems.append("duplicate-toolname")
    return problems


def _blocked_action(form: Form, submitter: Control | None, page: PageContext) -> str | None:
    """The page's ``form-action`` directive that does not allow a call's submission of ``form``
    (by its default ``submitter``) and the action it blocks, or None: Chromium registers the
    tool, and every call of it submits nothing, as ``formtools._execute.request`` refuses it."""
    if submission_method(form.attributes, submitter) == "dialog":
        return None
    try:
        action = action_url(form.attributes, submitter, page.url, page.base_url or page.url, page.encoding).href
    except (ActionBlocked, UnknownDocumentURL):
        return None  # no URL to check: the call has its own answer for that
    if not form_action_applies(page.url, action):
        return None
    blocker = form_action_blocker(page.form_action, page.url, action)
    return None if blocker is None else f"{blocker} does not allow {quoted(action)}"


def _call_event_handlers(form: Form) -> str | None:
    """Where the page's markup has a handler a call of the form's tool sets off (``onsubmit on
    the form; oninput on <div> around <input name=q>``), or None: formtools runs no script, and
    such a handler can change what a call sends, or cancel it. (One a script adds is not in
    the markup.)"""
    found = []
    for handler in form.call_handlers:
        where = handler.element if handler.element == handler.target else f"{handler.element} around {handler.target}"
        further = f" (and {handler.further} more further up)" if handler.further else ""
        found.append(f"{handler.attribute} on {where}{further}")
    return "; ".join(found) or None


def _input_schema(
    form: Form, rules: Profile, diagnostics: list[Diagnostic], *, needs_button: bool = True
) -> dict[str, Any]:
    """``needs_button``: a call fails without a submit button (an inferred tool's form was
    checked already: it is submitted implicitly, as Enter submits it)."""
    sorted_out = parameters_of(form, rules)
    for control, reason in sorted_out.skipped:
        diagnostics.append(Diagnostic(reason, form.describe, control.describe, control.line))
    no_button = sorted_out.submit_button is None and "toolautosubmit" not in form.attributes
    if no_button and needs_button:
        diagnostics.append(Diagnostic("no-submit-button", form.describe, line=form.line))

    diagnostics.extend(_ignored_fieldset_descriptions(form, sorted_out))
    properties: dict[str, dict[str, Any]] = {}
    required: list[str] = []
    for parameter in sorted_out.parameters:
        group = parameter.group
        if parameter.kind is None:
            diagnostics.extend(_dropped(form, rules, group, parameter.problem or "unsupported-type"))
            continue
        fragment = rules.fragments[parameter.kind](group)
        properties[group.key] = fragment
        if rules.required(group):
            required.append(group.key)
        diagnostics.extend(_parameter_warnings(form, group, fragment))
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
    if rules.closed:
        schema["additionalProperties"] = False
    why = unsatisfiable(form, sorted_out)
    if why is not None:
        if not skips_validation(form, sorted_out):  # else a call submits it anyway: no error
            # a call of a form without toolautosubmit fills it and waits for the person, who
            # submits it, so what only a call cannot fill is theirs to complete
            waits = why.person_can_complete and "toolautosubmit" not in form.attributes
            code = "needs-person" if waits else "never-valid"
            diagnostics.append(Diagnostic(code, form.describe, line=form.line, detail=str(why)))
        if rules.says_unsatisfiable:
            schema["not"] = {}  # JSON Schema's "accepts nothing"
            schema["x-formtools-unsatisfiable"] = str(why)
    return schema


def _dropped(form: Form, rules: Profile, group: Group, problem: str) -> Iterator[Diagnostic]:
    """Why a group is not a parameter, as true as the loss is.

    Chromium groups controls by name before it looks at them, so a group can be dropped that
    nobody meant as a parameter: several unnamed controls (a fieldset and a button, say) share
    the name ``""``, named submit buttons share theirs, a token is repeated in hidden inputs.
    The group's problem is the author's only when a member would be a parameter on its own
    (that parameter is what is lost: an error). Controls without a name (missing or empty) are
    never submitted, so losing them is a warning. Otherwise each member is explained as if it
    were alone.
    """
    alone = {c.index: rules.classify(Group(group.key, (c,))) for c in group.controls}
    meant = {c.index for c in group.controls if alone[c.index][0]}
    # a name of spaces is submitted (only a missing or empty name is not), though its key is ""
    unnamed = all(not c.attributes.get("name") for c in group.controls if c.index in meant)
    members = _members(group)
    if meant and not unnamed:
        detail = _with_fallback(group, meant, members)
        yield Diagnostic(problem, form.describe, repr(group.key), group.first.line, detail)
        return
    for control in group.controls:
        field = repr(group.key) if group.key else control.describe
        if control.index in meant:
            detail = f"{_UNNAMED_GROUP_DROPPED.get(problem, f'dropped as {problem}')}; {members}"
            yield Diagnostic("unnamed-dropped", form.describe, field, control.line, detail)
        else:
            yield Diagnostic(alone[control.index][1] or "unsupported-type", form.describe, field, control.line)


#: why the group of unnamed controls (all under the name "") is dropped, in an author's words:
#: the bare rule code ("dropped as shares-name-with-button") told a newcomer with no button of
#: that name nothing
_UNNAMED_GROUP_DROPPED = {
    "shares-name-with-button": "the form's unnamed controls include a button, output or fieldset",
    "mixed-types": "the form's unnamed controls are of different kinds",
    "duplicate-name": "the form has several unnamed controls, and only radio buttons or checkboxes may share a name",
}


def _with_fallback(group: Group, meant: set[int], members: str | None) -> str | None:
    """The detail of a dropped group, saying so when its only other kind is a hidden input: the
    value sent when no box is checked, which Rails' ``check_box`` and ``collection_check_boxes``,
    its multiple ``select``, Laravel's ``checkBox``, ASP.NET MVC's ``CheckBoxFor`` and Phoenix's
    checkbox input write beside every such field. The error is true (Chromium drops the name,
    so no call can set the boxes), but "controls of different kinds" left a framework's author
    guessing which kinds and what to change."""
    fallbacks = [c for c in group.controls if c.type == "hidden" and c.index not in meant]
    choices = {c.type for c in group.controls if c.index in meant}
    if not fallbacks or not choices <= {"checkbox", "radio", "select-multiple"}:
        return members
    return (
        f"{members}; the hidden input is the value sent when nothing is chosen, as the form helpers of "
        "Rails, Laravel, ASP.NET MVC and Phoenix write it: to make the field a parameter, leave that input "
        "out or give it another name"
    )


def _ignored_fieldset_descriptions(form: Form, sorted_out: Parameters) -> Iterator[Diagnostic]:
    """A ``<fieldset toolparamdescription>`` describes a group of radios or checkboxes whose
    nearest common fieldset it is, and nothing else: around text fields (a "Shipping address"
    block) or a single checkbox, no profile reads it, and the author's words were lost without
    a word."""
    used = {
        fieldset.index
        for parameter in sorted_out.parameters
        if parameter.kind is not None and len(parameter.group.controls) > 1
        for fieldset in [group_fieldset(parameter.group)]
        if fieldset is not None
    }
    seen: set[int] = set()
    for control in form.controls:
        for container in control.containers:
            described = container.tag == "fieldset" and container.attributes.get("toolparamdescription", "").strip()
            if described and container.index not in used and container.index not in seen:
                seen.add(container.index)
                detail = f"around {control.describe}"
                yield Diagnostic("ignored-fieldset-description", form.describe, None, control.line, detail)


# a group's detail names this many of its members: each member of a large unnamed group gets
# its own diagnostic, and listing every member in each made the diagnostics quadratic in size
_MEMBERS_SHOWN = 5


def _members(group: Group) -> str | None:
    """The group's members, as a diagnostic detail names them (the first few of a large group)."""
    controls = group.controls
    if len(controls) < 2:
        return None
    shown = ", ".join(c.describe for c in controls[:_MEMBERS_SHOWN])
    unshown = len(controls) - _MEMBERS_SHOWN
    return f"controls: {shown}" + (f" and {unshown} more" if unshown > 0 else "")


def _parameter_warnings(form: Form, group: Group, fragment: dict[str, Any]) -> Iterator[Diagnostic]:
    field = repr(group.key)
    if group.key == "":
        yield Diagnostic("empty-name", form.describe, field, group.first.line, _why_empty(group))
    for control in group.controls:
        pattern = control.attributes.get("pattern")
        if pattern is not None and control.tag == "input" and not compiles_as_v_flag_regex(pattern):
            yield Diagnostic("invalid-pattern", form.describe, field, control.line, repr(pattern))
    if "description" not in fragment:
        yield Diagnostic("missing-description", form.describe, field, group.first.line, _why_undescribed(group))


#: attributes authors write to name a field that no profile reads as its description
#: (``aria-label`` is the ``html`` profile's ``title``; the others are read by none or only there)
_NOT_DESCRIPTIONS = ("aria-label", "aria-labelledby", "aria-describedby", "placeholder", "title")


def _why_empty(group: Group) -> str:
    """What becomes of an agent's value for the parameter ``""``: the entry list leaves out a
    control whose name attribute is missing or empty (HTML's "constructing the entry list"), so
    the value is filled and never sent, while a name of white space is sent as written. The
    warning used to say only that the parameter is called ``""``, and cli.md that such a
    parameter works: on USWDS's unnamed masked inputs the agent's answer silently vanished."""
    written = sorted({c.attributes["name"] for c in group.controls if c.attributes.get("name")})
    if not written:
        return (
            "an agent's value for it is filled but never submitted: "
            "the form data leaves out a control without a name"
        )
    return f"an agent's value for it is submitted under the name {' or '.join(map(repr, written))}"


def _why_undescribed(group: Group) -> str | None:
    """What an author who wrote ordinary markup needs to know to fix a missing description: a
    group of radios or checkboxes is described by its ``<fieldset>``'s ``toolparamdescription``
    alone (its members' labels name the options), and ``aria-label`` or ``placeholder`` are not
    descriptions. Without this, the warning read as wrong on a group whose every radio had a
    ``<label>``, or on a search box with an ``aria-label``; and on a group whose radios carry
    ``toolparamdescription`` themselves (Chromium reads it on a lone radio, not on a group's
    members), the warning named toolparamdescription as the fix the author had already made."""
    if len(group.controls) > 1:
        kind = "radio buttons" if group.first.type == "radio" else "checkboxes"
        on_members = [c for c in group.controls if c.attributes.get("toolparamdescription", "").strip()]
        members = f", nor the toolparamdescription on {len(on_members)} of them" if on_members else ""
        # (a newcomer's group often has no fieldset at all: "the <fieldset> around them" sent
        # them looking for one)
        around = "the <fieldset> around them"
        if group_fieldset(group) is None:
            around = "a <fieldset> around them (they have none)"
        return (
            f"a group of {len(group.controls)} {kind} takes its description from toolparamdescription "
            f"on {around}; their labels are not read{members}"
        )
    written = [name for name in _NOT_DESCRIPTIONS if group.first.attributes.get(name, "").strip()]
    if not written:
        return None
    return f"its {' and '.join(written)} {'is' if len(written) == 1 else 'are'} not read as one: add toolparamdescription or a <label>"


def extract(
    page: PageSource,
    *,
    base_url: str | None = None,
    profile: str | Profile = "chromium",
    all_forms: bool = False,
    parser: Parser = "auto",
    max_bytes: int = MAX_PAGE_BYTES,
) -> Extraction:
    """Tools and diagnostics of a page.

    ``page`` is markup (``str``, or ``bytes`` decoded as a browser would), a path, an open file,
    a URL object (fetched), a :class:`~formtools.Document` from :func:`~formtools.parse_html` /
    :func:`~formtools.load_page`, or an lxml / BeautifulSoup tree (owners then come from the
    final tree only: see :func:`~formtools.from_tree`). ``base_url`` is the document's URL (a
    path's is its ``file:`` URL, a fetched page's its final URL). ``all_forms``: forms without
    ``toolname`` become tools too, with an inferred name and description (``Tool.inferred``).
    ``parser="html5lib"`` parses markup with html5lib even where the fast exact path would do
    (see :func:`~formtools.parse_html`); the answer is the same. ``max_bytes``: the page size
    limit of a page read from a path, an open file or a URL (markup given is never refused).

    >>> extract('<form toolname="s" tooldescription="Search"><input name="q"></form>').tools[0].name
    's'
    """
    document = document_of(page, base_url=base_url, parser=parser, max_bytes=max_bytes)
    return synthesize(document, profile, all_forms=all_forms)


def extract_tools(
    page: PageSource,
    *,
    base_url: str | None = None,
    profile: str | Profile = "chromium",
    all_forms: bool = False,
    parser: Parser = "auto",
    max_bytes: int = MAX_PAGE_BYTES,
) -> list[Tool]:
    """The tools a page registers, sorted by name as ``document.modelContext.getTools()`` is
    (``all_forms``: and the inferred tools of its unannotated forms, sorted in with them;
    ``max_bytes``: as :func:`extract`'s)."""
    extraction = extract(page, base_url=base_url, profile=profile, all_forms=all_forms, parser=parser, max_bytes=max_bytes)
    return list(extraction.tools)
