"""The exceptions formtools raises, one tree::

    FormtoolsError
    ├── UnknownProfile      a profile name nobody registered
    ├── UnknownFormat       an output format nobody knows
    ├── UsageProblem        a request that does not fit the page (no such tool, input not JSON)
    ├── SourceError         a page that cannot be read: missing file, bad URL, network failure
    └── BrowserError        ``formtools diff`` could not drive the installed Chromium

Problems *in* a page (a form that is not a tool, a control that is not a parameter) are not
exceptions: they are :class:`~formtools.Diagnostic` values, so one odd form never stops a crawl.
"""

from __future__ import annotations

__all__ = [
    "FormtoolsError",
    "UnknownProfile",
    "UnknownFormat",
    "UsageProblem",
    "SourceError",
    "BrowserError",
]


class FormtoolsError(Exception):
    """Base class of every error formtools raises on purpose; ``str()`` is a one-line message."""


class UnknownProfile(FormtoolsError, ValueError):
    pass


class UnknownFormat(FormtoolsError, ValueError):
    pass


class UsageProblem(FormtoolsError, ValueError):
    pass


class SourceError(FormtoolsError, OSError):
    pass


class BrowserError(FormtoolsError, RuntimeError):
    pass
