"""Every error formtools raises on purpose, in one tree::

    FormtoolsError              code            exit
    ├── UsageProblem            usage           2   a request that does not fit (no such tool, input not JSON)
    │   ├── UnknownProfile      unknown-profile 2   a profile name nobody registered
    │   └── UnknownFormat       unknown-format  2   an output format nobody knows
    ├── SourceError             source          2   a page that cannot be read (missing file, bad URL)
    │   └── NetworkError        network         3   a page that cannot be fetched (HTTP error, timeout, refused)
    ├── BrowserError            browser         2   ``formtools diff`` could not drive the installed Chromium
    ├── InputError              invalid-input   1   a tool call's arguments were rejected; nothing was filled
    ├── ValidationError         invalid-form    1   the filled form fails constraint validation; nothing was sent
    ├── SubmissionError         not-submittable 1   the form cannot be submitted as asked
    │   └── NoSubmitButton      no-submit-button 1  no submit button and no ``toolautosubmit``
    └── SendError               send            3   the request could not be sent or its answer read
        └── Refused             refused         3   a destination the caller's policy does not allow

Each error is a value: ``str()`` is its one-line message, :attr:`~FormtoolsError.code` a stable
identifier, :meth:`~FormtoolsError.to_dict` its JSON form and :attr:`~FormtoolsError.problems`
the per-field problems of an input or validation error. The edges (the CLI, the MCP bridge and
the Spark job) render these values; nothing else formats an error.

Problems *in* a page (a form that is not a tool, a control that is not a parameter) are not
exceptions: they are :class:`~formtools.Diagnostic` values, so one odd form never stops a crawl.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, Sequence

__all__ = [
    "FormtoolsError",
    "UsageProblem",
    "UnknownProfile",
    "UnknownFormat",
    "SourceError",
    "NetworkError",
    "BrowserError",
    "InputError",
    "ValidationError",
    "SubmissionError",
    "NoSubmitButton",
    "SendError",
    "Refused",
    "Problem",
]


class Problem(Protocol):
    """One rejected field of a call: the parameter's ``key`` (None for the input as a whole) and
    the browser's ``message`` for it."""

    @property
    def key(self) -> str | None: ...

    @property
    def message(self) -> str: ...


class FormtoolsError(Exception):
    """Base class of every error formtools raises on purpose; ``str()`` is a one-line message."""

    #: A stable identifier of the kind of error (the JSON form's ``"error"``).
    code: ClassVar[str] = "error"
    #: The process exit code the CLI gives it: 1 a rejected call, 2 a usage or input error,
    #: 3 the network.
    exit_code: ClassVar[int] = 2
    #: Per-field problems (input and validation errors), in the order the browser reports them.
    problems: tuple[Problem, ...] = ()

    @property
    def message(self) -> str:
        return str(self)

    def lines(self) -> list[str]:
        """The message as an edge shows it: one line per problem, else the message itself."""
        return [str(problem) for problem in self.problems] or [self.message]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"error": code, "message": …}`` plus ``"problems"`` when it has them."""
        data: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.problems:
            data["problems"] = [{"key": p.key, "message": p.message} for p in self.problems]
        return data


class UsageProblem(FormtoolsError, ValueError):
    code = "usage"


class UnknownProfile(UsageProblem):
    code = "unknown-profile"


class UnknownFormat(UsageProblem):
    code = "unknown-format"


class SourceError(FormtoolsError, OSError):
    code = "source"


class NetworkError(SourceError):
    code = "network"
    exit_code = 3


class BrowserError(FormtoolsError, RuntimeError):
    code = "browser"


class InputError(FormtoolsError, ValueError):
    """A tool call's input was rejected; nothing was filled. ``problems`` has one entry per
    bad key; ``str()`` is Chromium's message for the first."""

    code = "invalid-input"
    exit_code = 1

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(problems[0].message)
        self.problems = tuple(problems)


class ValidationError(FormtoolsError, ValueError):
    """The filled form fails constraint validation; nothing was sent. ``str()`` is Chromium's
    ``Form validation failed: <name>: <message>. …`` text."""

    code = "invalid-form"
    exit_code = 1

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        text = "".join(f"{p.key}: {p.message}. " for p in problems)
        super().__init__(f"Form validation failed: {text}")


class SubmissionError(FormtoolsError, ValueError):
    """The form cannot be submitted as asked (an action URL that cannot be resolved, an unknown
    submitter)."""

    code = "not-submittable"
    exit_code = 1


class NoSubmitButton(SubmissionError):
    """Chromium's refusal of a call on a form with neither a submit button nor ``toolautosubmit``."""

    code = "no-submit-button"

    def __init__(self) -> None:
        super().__init__(
            "No submit button was found, but for a form without `toolautosubmit`, "
            "there must be a submit button"
        )


class SendError(FormtoolsError, OSError):
    """The request could not be sent or its answer read (network error, timeout, too large)."""

    code = "send"
    exit_code = 3


class Refused(SendError):
    """A destination the caller's policy does not allow (a private address, another origin, a
    scheme other than http and https)."""

    code = "refused"
