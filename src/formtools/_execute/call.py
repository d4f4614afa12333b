"""Executing a tool call: the stages after synthesis, strung together as Chromium runs them.

fill (every key checked before any is applied) → the submit-button rule → constraint validation
(unless ``novalidate`` / ``formnovalidate``) → entry list → encoding → request, all pure; then,
only for a form with ``toolautosubmit`` or a call the user confirmed, the send. A form without
``toolautosubmit`` is never submitted silently: the result is ``awaiting-user`` and holds the
prepared request. Constraint validation is the submission's, as in Chromium 156: a call of a form
with ``toolautosubmit`` that fails it is refused ("Form validation failed"), while a form without
it is filled and waits for the person, whose submission validation then stops (the problems are
kept in :attr:`PreparedCall.problems`, and a confirmed submit raises them).

What comes back is fit to show: the values of sensitive fields (passwords, card numbers, one-time
codes) are masked in the shown request, the result and the HTTP client's log records
(:mod:`formtools._execute.redact`); only the request on the wire carries them. And a tool whose
*output* is sensitive (``sensitiveHint``) hands the agent a secret reference, not the output.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from formtools._execute.encode import File, new_boundary
from formtools._execute.fill import OMITTED, check_file_names, fill, require_object
from formtools._forms.state import FormState
from formtools._forms.model import Control, submission_attribute
from formtools._synth.inferred import implicitly_submittable
from formtools._execute.redact import MASK, Secrets, hide_in_logs, scrubbed_result, printable_request, without_queries
from formtools._execute.request import NoRequest, Request, build_request
from formtools._execute.send import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    ToolResult,
    asend_request,
    landed,
    not_sent,
    send_request,
    withheld_as_secret,
)
from formtools._synth.hints import hints_of
from formtools._synth.parameters import parameters_of
from formtools._synth.tool import Tool, require_tool
from formtools._forms.validity import invalid_controls
from formtools._parse.sources import read_path
from formtools._spec.encoding import form_encoding
from formtools._spec.limits import MAX_UPLOAD_BYTES
from formtools._spec.microsyntax import pattern_budget
from formtools.errors import InputError, NoSubmitButton, Problem, SendError, SourceError, SubmissionError, UsageProblem, ValidationError

if TYPE_CHECKING:  # loaded with the first send (see formtools._execute.send)
    import anyio
    import httpx

    from formtools._net import AsyncFetcher

__all__ = [
    "Finishing",
    "PreparedCall",
    "prepare_call",
    "submit",
    "asubmit",
    "call_tool",
    "acall_tool",
]

FileSource = str | Path | File


@dataclass(frozen=True)
class PreparedCall:
    """A validated, filled tool call and what submitting it does (``outcome``), not yet sent.

    ``shown`` is ``outcome`` with the values of sensitive fields masked and its URL without user
    name and password: the one to print, log or hand to a model. ``secrets`` are those values, masked in the result too. ``repr()``
    shows ``shown`` only: a call printed or logged whole (a REPL, a test's assertion, a log
    line with ``%r``) carried the password in ``state`` and ``outcome``.
    """

    tool: Tool
    state: FormState = field(repr=False)
    submitter: Control | None
    outcome: Request | NoRequest = field(repr=False)
    shown: Request | NoRequest
    secrets: Secrets
    #: constraint validation's problems with the filled form of a tool without ``toolautosubmit``
    #: (a form with it is refused instead): Chromium fills such a form and waits for the person,
    #: so the call is not refused, but the person's submission is stopped until they are fixed
    problems: tuple[Problem, ...] = ()

    @property
    def autosubmit(self) -> bool:
        return "toolautosubmit" in self.tool.form.attributes

    @property
    def landing(self) -> str:
        """Which browsing context the submission navigates: ``self``, ``frame`` or ``new``
        (#the-rules-for-choosing-a-navigable, for a top-level page: ``_parent`` and ``_top`` are
        the page itself; a name no child navigable of the page has, an iframe's or an object's:
        ``Document.frame_names``, opens a new window)."""
        target = submission_attribute(self.tool.form.attributes, self.submitter, "target")
        if target is None:
            target = self.tool.page.base_target or ""
        keyword = target.lower()  # the keywords are ASCII case-insensitive, names are not
        if keyword in ("", "_self", "_parent", "_top"):
            return "self"
        if keyword != "_blank" and target in self.tool.page.frame_names:
            return "frame"
        return "new"

    @property
    def request(self) -> Request | None:
        return self.outcome if isinstance(self.outcome, Request) else None

    @property
    def sensitive_output(self) -> bool:
        """Whether the tool's output is sensitive: its ``sensitiveHint`` as the profile wrote it
        (the author's word, or formtools' guess unless ``--no-infer``), and for a profile whose
        annotations have none (``chromium``) the form's own hints."""
        declared = self.tool.annotations.get("sensitiveHint")
        return declared if isinstance(declared, bool) else hints_of(self.tool.form).sensitiveHint

    def finishing(self, *, sensitive: bool | None = None) -> Finishing:
        """What turns the send's answer into this call's result (``sensitive``: override
        :attr:`sensitive_output`, as a client more cautious than the page may)."""
        withheld = self.sensitive_output if sensitive is None else sensitive
        label = (self.tool.title or self.tool.name) if withheld else None
        return Finishing(self.landing, self.tool.page.url, self.secrets, self.shown, label)


@dataclass(frozen=True)
class Finishing:
    """What turns a send's answer into the result an agent may see: landed where the form's
    target says (``landing`` from the page at ``page_url``), the input's ``secrets`` masked (the
    ``shown`` request in place of the sent one), and a sensitive output replaced by a secret
    reference labelled ``sensitive_label`` (None: the output is not sensitive). Plain data, so a
    crawler can carry it with its request (``formtools.scrapy``)."""

    landing: str
    page_url: str | None
    secrets: Secrets
    shown: Request | NoRequest
    sensitive_label: str | None = None

    def apply(self, result: ToolResult) -> ToolResult:
        result = landed(result, self.landing, self.page_url)
        result = scrubbed_result(result, self.secrets, self.shown)
        if self.sensitive_label is not None:
            result = withheld_as_secret(result, self.sensitive_label)
        return result


@dataclass(frozen=True)
class _SchemaProblem:
    """A key the tool's input schema rejects (a profile that enforces its schema), shown as
    ``key: message`` like a constraint validation problem."""

    key: str | None
    flag: str
    message: str

    def __str__(self) -> str:
        return self.message if self.key is None else f"{self.key}: {self.message}"


# what a fill would refuse (a value of the wrong kind, a key that is no parameter); the other
# flags are constraint validation's, reported as Chromium reports a form that fails it
_INPUT_FLAGS = frozenset({"badInput", "unknownParameter"})


def _schema_problems(tool: Tool, tool_input: dict[str, Any], *, constraints: bool) -> list[_SchemaProblem]:
    """What :func:`validate_input` finds, split as a Chromium call splits it: values of the
    wrong kind raised as :class:`InputError`, the rest (constraint validation's) returned —
    none when the call skips constraint validation (``constraints`` false: a ``formnovalidate``
    submitter)."""
    from formtools._execute.validate import validate_input  # jsonschema: only these profiles need it

    found = [_SchemaProblem(p.field, p.flag, p.message) for p in validate_input(tool, tool_input)]
    wrong = [p for p in found if p.flag in _INPUT_FLAGS]
    if wrong:
        raise InputError(wrong)
    return found if constraints else []


def _submitter(tool: Tool, name: str | None) -> Control | None:
    kept = parameters_of(tool.form, tool.profile)
    if name is None:
        return kept.submit_button
    for control in tool.form.controls:
        if control.is_submit_button and name in (control.attributes.get("name"), control.attributes.get("id")):
            if control.disabled:
                raise SubmissionError(f"the submit button {name!r} is disabled")
            return control
    buttons = [c for c in tool.form.controls if c.is_submit_button and not c.disabled]
    known = ", ".join(repr(c.attributes.get("name") or c.attributes.get("id")) for c in buttons
                      if c.attributes.get("name") or c.attributes.get("id")) or "none"
    raise SubmissionError(f"the form has no submit button named {name!r} (submit buttons with a name or id: {known})")


def check_submitter(tool: Tool, name: str) -> None:
    """Refuse a submitter name (the CLI's ``--submitter``) that no enabled submit button of the
    tool's form has, by name or id, before anything else is done: a caller's typo, which the
    CLI reports as the usage mistake it is (exit 2), as it reports an unknown ``--file`` name."""
    _submitter(tool, name)


def _file_sources(files: Any) -> dict[str, Sequence[FileSource]]:
    """``files`` as file input name → its sources. One source for a name stands for itself: a
    path given as a string was read character by character ("/: cannot read the file: Is a
    directory"), and a ``Path`` or anything but a mapping raised TypeError or AttributeError."""
    if files is None:
        return {}
    if not isinstance(files, Mapping):
        raise UsageProblem(f"files maps file input names to files, not a {type(files).__name__}")
    sources: dict[str, Sequence[FileSource]] = {}
    for name, given in files.items():
        listed = [given] if isinstance(given, (str, PathLike, File)) else given
        if not isinstance(listed, (list, tuple)) or not all(isinstance(f, (str, PathLike, File)) for f in listed):
            raise UsageProblem(
                f"files[{name!r}] is a path, a formtools.File or a list of them, not {type(given).__name__}"
                + (f" of {', '.join(sorted({type(f).__name__ for f in listed}))}" if isinstance(listed, (list, tuple)) else "")
            )
        sources[name] = listed
    return sources


#: RFC 2046's boundary characters that a Content-Type parameter holds without quotes, 1 to 70
#: of them (Chromium's own are 38: ``----WebKitFormBoundary`` and 16 alphanumerics)
_BOUNDARY = re.compile(r"[0-9A-Za-z'+_.-]{1,70}")


def _boundary(boundary: Any) -> str:
    """The caller's multipart boundary, which goes into the header and the body as it is: one
    with a CR LF added a header line to ``Content-Type``, and a non-ASCII one raised
    UnicodeEncodeError."""
    if boundary is None:
        return new_boundary()
    if not isinstance(boundary, str) or not _BOUNDARY.fullmatch(boundary):
        raise UsageProblem(f"boundary {boundary!r} is not 1 to 70 of A-Z, a-z, 0-9 and '+_.-")
    return boundary


def _files_read(sources: Mapping[str, Sequence[FileSource]]) -> dict[str, list[File]]:
    """Each name's files, those given by path read within :data:`MAX_UPLOAD_BYTES` together:
    ``/dev/zero`` or a file larger than the rest of the budget is one line naming the file and
    the limit, and nothing is read beyond it."""
    left = MAX_UPLOAD_BYTES
    chosen: dict[str, list[File]] = {}
    for name, given in sources.items():
        files = chosen[name] = []
        for source in given:
            if isinstance(source, File):
                files.append(source)
            else:
                files.append(_file(source, left))
                left -= len(files[-1].data)
    return chosen


def _file(source: str | PathLike[str], most: int) -> File:
    """The file at ``source`` as an upload, refused beyond ``most`` bytes (what the upload limit
    leaves of it)."""
    path = Path(source)
    data = read_path(str(path), "a file to upload", most)
    if len(data) > most:
        raise SourceError(
            f"{path}: the call's files are larger than {MAX_UPLOAD_BYTES:,} bytes together, the upload limit; not read"
        )
    content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return File(filename=path.name, content_type=content_type, data=data)


def prepare_call(
    tool: Tool,
    tool_input: Any = OMITTED,
    *,
    submitter: str | None = None,
    state: FormState | None = None,
    files: Mapping[str, FileSource | Sequence[FileSource]] | None = None,
    boundary: str | None = None,
) -> PreparedCall:
    """Validate and fill ``tool_input``, validate the form, and build its request. No I/O
    except reading ``files`` (file input name → a path or :class:`File`, or a list of them).
    ``boundary``: a multipart body's (1 to 70 of ``A-Za-z0-9'+_.-``), else a random one of
    Chromium's shape; ``state``: a previous call's :attr:`PreparedCall.state` of this form.

    Raises :class:`~formtools.InputError` (bad input; nothing filled),
    :class:`NoSubmitButton`, :class:`~formtools.ValidationError` (the filled form of a tool with
    ``toolautosubmit`` is invalid; nothing sent) or :class:`~formtools.SubmissionError` (also
    for a ``files`` name no enabled file input has). A form without ``toolautosubmit`` that
    fails constraint validation is prepared with its :attr:`~PreparedCall.problems`: Chromium
    validates at the submission, which is the person's.
    """
    require_tool(tool, "prepare_call")
    # Chromium 156's order: an input that is no object, then a missing submit button, then the
    # keys and values (exec-submit-1)
    require_object(tool_input)
    button = _submitter(tool, submitter)
    skip_validation = "novalidate" in tool.form.attributes or (
        button is not None and "formnovalidate" in button.attributes
    )
    # an inferred tool without a submit button is submitted as Enter submits its form
    implicit = tool.inferred and implicitly_submittable(tool.form)
    autosubmit = "toolautosubmit" in tool.form.attributes
    if button is None and not autosubmit and not implicit:
        raise NoSubmitButton()
    problems: list[Problem] = []
    # validate ⇔ call: the schema's patterns and the form's share one budget and its verdicts
    with pattern_budget():
        if tool.profile.enforces_schema and isinstance(tool_input, dict):
            # the schema holds for the default submitter, novalidate or not (validate ⇔ call); a
            # submitter the caller picked for its formnovalidate ("Save draft") skips constraints
            chosen_without_validation = submitter is not None and button is not None and "formnovalidate" in button.attributes
            problems += _schema_problems(tool, tool_input, constraints=not chosen_without_validation)
            if problems and autosubmit:
                raise ValidationError(problems)
        filled = fill(tool.form, tool_input, state, profile=tool.profile)
        sources = _file_sources(files)
        check_file_names(tool.form, sources)
        chosen = _files_read(sources)
        if not skip_validation and not problems:
            # a file input's files are the call's (files=), not the form state's: a required one
            # given a file is not missing
            problems += [
                p for p in invalid_controls(filled)
                if not (p.control.type == "file" and chosen.get(p.control.attributes.get("name", "")))
            ]
        if problems and autosubmit:
            raise ValidationError(problems)
    building = partial(
        build_request,
        filled,
        button,
        document_url=tool.page.url,
        base_url=tool.page.base_url,
        document_encoding=tool.page.encoding,
        boundary=_boundary(boundary),
        files=chosen,
        referrer_policy=tool.page.referrer_policy,
        forms_sandboxed=tool.page.forms_sandboxed,
        form_action=tool.page.form_action,
    )
    outcome = building()
    secrets = Secrets.of(filled, form_encoding(tool.form.attributes.get("accept-charset"), tool.page.encoding))
    shown = outcome
    if secrets.names:
        shown = building(masked=dict.fromkeys(secrets.names, MASK))
    return PreparedCall(tool, filled, button, outcome, printable_request(shown), secrets, tuple(problems))


def _unsent(prepared: PreparedCall, confirm: bool, sensitive: bool | None) -> ToolResult | None:
    """The result of a call that sends nothing: no request to make (a ``NoRequest``; one that
    navigates the page to an empty ``about:blank`` document completes, landed where the form's
    target says, exactly as a sent one), or a submission that waits for a person. What is no
    prepared call is refused (a tool given to ``submit``, meant for :func:`call_tool`, raised
    AttributeError). A confirmed submission of a form that fails constraint validation raises
    it: the person's submit is stopped, nothing is sent."""
    if not isinstance(prepared, PreparedCall):
        raise UsageProblem(
            f"submit takes a PreparedCall (prepare_call's), not a {type(prepared).__name__}: "
            "call_tool(tool, input) prepares and submits"
        )
    if confirm and prepared.problems:
        raise ValidationError(prepared.problems)
    if isinstance(prepared.outcome, NoRequest):
        result = not_sent(prepared.outcome, prepared.landing)
        if result.status != "completed":
            return result
        if not (prepared.autosubmit or confirm):
            return ToolResult(status="awaiting-user", reason=_awaiting(prepared))
        return prepared.finishing(sensitive=sensitive).apply(result)
    if not (prepared.autosubmit or confirm):
        return ToolResult(
            status="awaiting-user",
            request=prepared.shown,  # type: ignore[arg-type]
            reason=_awaiting(prepared),
        )
    return None


_AWAITING = "the form has no toolautosubmit: a person must confirm the submission"


def _awaiting(prepared: PreparedCall) -> str:
    """Why a call waits, and what will stop the person's submission if the form is invalid."""
    if not prepared.problems:
        return _AWAITING
    found = "; ".join(ValidationError(prepared.problems).lines())
    return prepared.secrets.message(f"{_AWAITING}, and as filled it fails constraint validation: {found}")


@contextmanager
def _scrubbed_errors(finishing: Finishing) -> Iterator[None]:
    """A failed send names URLs: the request's, which holds a GET form's secrets, and a
    redirect's, which may hold a sensitive output (``/done?key=…``: its query goes)."""
    try:
        yield
    except SendError as error:
        message = finishing.secrets.message(str(error)) if finishing.secrets else str(error)
        if finishing.sensitive_label is not None:
            message = without_queries(message)
        if message == str(error):
            raise
        raise type(error)(message) from None


def submit(
    prepared: PreparedCall,
    *,
    confirm: bool = False,
    client: httpx.Client | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    include_text: bool = False,
    sensitive: bool | None = None,
) -> ToolResult:
    """Send a prepared call. A form without ``toolautosubmit`` is only submitted with
    ``confirm=True``; otherwise the result is ``awaiting-user`` with the prepared request
    (as :attr:`PreparedCall.shown`). ``sensitive`` overrides the tool's ``sensitiveHint``
    (None: the tool's)."""
    unsent = _unsent(prepared, confirm, sensitive)
    if unsent is not None:
        return unsent
    finishing = prepared.finishing(sensitive=sensitive)
    with hide_in_logs(prepared.secrets), _scrubbed_errors(finishing):
        result = send_request(
            prepared.outcome,  # type: ignore[arg-type]
            client=client,
            timeout=timeout,
            max_bytes=max_bytes,
            include_text=include_text,
        )
    return finishing.apply(result)


async def asubmit(
    prepared: PreparedCall,
    *,
    confirm: bool = False,
    client: httpx.AsyncClient | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    include_text: bool = False,
    fetcher: AsyncFetcher | None = None,
    sensitive: bool | None = None,
    parsers: anyio.CapacityLimiter | None = None,
) -> ToolResult:
    """:func:`submit` for asyncio (``fetcher``: a guarded fetcher of the caller's, with its own
    cookie jar and policy, as the MCP bridge keeps one per session; ``parsers``: its limit on
    the landing pages parsed at once, in worker threads)."""
    unsent = _unsent(prepared, confirm, sensitive)
    if unsent is not None:
        return unsent
    finishing = prepared.finishing(sensitive=sensitive)
    with hide_in_logs(prepared.secrets), _scrubbed_errors(finishing):
        result = await asend_request(
            prepared.outcome,  # type: ignore[arg-type]
            client=client,
            timeout=timeout,
            max_bytes=max_bytes,
            include_text=include_text,
            fetcher=fetcher,
            parsers=parsers,
        )
    return finishing.apply(result)


def call_tool(
    tool: Tool,
    tool_input: Any = OMITTED,
    *,
    confirm: bool = False,
    submitter: str | None = None,
    state: FormState | None = None,
    files: Mapping[str, FileSource | Sequence[FileSource]] | None = None,
    boundary: str | None = None,
    client: httpx.Client | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    include_text: bool = False,
    sensitive: bool | None = None,
) -> ToolResult:
    """Execute a tool call as Chromium does and return the landing page's JSON-LD.

    The keywords are :func:`prepare_call`'s (``submitter``, ``state``, ``files``,
    ``boundary``) and :func:`submit`'s (``client``, ``timeout``, ``max_bytes``,
    ``include_text``, ``sensitive``), each named here so that a type checker catches a
    misspelt one (``timout=5``) before it runs.
    """
    prepared = prepare_call(tool, tool_input, submitter=submitter, state=state, files=files, boundary=boundary)
    return submit(
        prepared, confirm=confirm, client=client, timeout=timeout, max_bytes=max_bytes,
        include_text=include_text, sensitive=sensitive,
    )


async def acall_tool(
    tool: Tool,
    tool_input: Any = OMITTED,
    *,
    confirm: bool = False,
    submitter: str | None = None,
    state: FormState | None = None,
    files: Mapping[str, FileSource | Sequence[FileSource]] | None = None,
    boundary: str | None = None,
    client: httpx.AsyncClient | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    include_text: bool = False,
    fetcher: AsyncFetcher | None = None,
    sensitive: bool | None = None,
    parsers: anyio.CapacityLimiter | None = None,
) -> ToolResult:
    """:func:`call_tool` for asyncio (``client`` is an ``httpx.AsyncClient``; ``fetcher`` and
    ``parsers`` as for :func:`asubmit`)."""
    prepared = prepare_call(tool, tool_input, submitter=submitter, state=state, files=files, boundary=boundary)
    return await asubmit(
        prepared, confirm=confirm, client=client, timeout=timeout, max_bytes=max_bytes,
        include_text=include_text, fetcher=fetcher, sensitive=sensitive, parsers=parsers,
    )
