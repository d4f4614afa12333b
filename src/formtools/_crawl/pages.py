"""What a crawl reads, before extraction: a page's bytes, a page that could not be read, and how
URL lists are fetched. Shared by batch (files, archives) and the URL fetcher."""

from __future__ import annotations

from dataclasses import dataclass, field

from formtools._spec.limits import MAX_PAGE_BYTES
from formtools._spec.mime import AnswerHead
from formtools.errors import shown, shown_in_text

__all__ = ["FetchOptions", "Input", "Origin", "Page", "Resumed", "Unreadable"]


@dataclass(frozen=True)
class FetchOptions:
    """How a URL list is fetched: at most ``concurrency`` requests at once, ``per_host`` to one
    host, ``timeout`` seconds for each page's whole fetch (redirects and every byte included),
    bodies over ``max_bytes`` refused (the page size limit, ``formtools._spec.limits``: also the
    cap on a WARC record and on a file of pages)."""

    concurrency: int = 16
    per_host: int = 4
    timeout: float = 30.0
    max_bytes: int = MAX_PAGE_BYTES


@dataclass(frozen=True)
class Input:
    """A command-line input as a page's line names it: its ``name`` as given (as a file's
    page is named by the path as given) and, for a name given more than once, which time this
    is (``copy``, 0 the first). Names, not positions, so that a resumed run may take its inputs
    in another order (a glob that a new archive joined) and still skip exactly the pages
    written."""

    name: str
    copy: int = 0


@dataclass(frozen=True)
class Origin:
    """Where a batch found a page in its input, which tells apart pages of the same name (a URL
    listed twice, a record archived twice, a directory named twice): ``input``, the command-line
    :class:`Input` it came from; ``offset``, where its record begins in an archive (its gzip
    member in a WARC.gz) and ``skip``, the member's decompressed bytes before it (0 unless the
    member holds records before it); ``line``, its line in the URL list. Written on its output
    line, so that ``--resume`` skips exactly the pages written."""

    input: Input | None = None
    offset: int | None = None
    skip: int = 0
    line: int | None = None

    def fields(self) -> dict[str, str | int]:
        """The output line's fields: those known, ``copy`` and ``skip`` only when not 0."""
        given = self.input
        known = {
            "input": given.name if given else None,
            "copy": given.copy or None if given else None,
            "offset": self.offset,
            "skip": self.skip or None,
            "line": self.line,
        }
        return {name: value for name, value in known.items() if value is not None}


@dataclass(frozen=True)
class Resumed:
    """The pages an output file already has lines for (``--resume``): by name and origin
    (``exact``), and by name alone (``named``) for the lines of a formtools that wrote no origin,
    whose every page of that name counts as written, as it did for that version."""

    exact: frozenset[tuple[str, str, Origin]] = field(default_factory=frozenset)
    named: frozenset[tuple[str, str]] = field(default_factory=frozenset)

    def has(self, key: str, name: str, origin: Origin) -> bool:
        return (key, name, origin) in self.exact or (key, name) in self.named

    def __len__(self) -> int:
        return len(self.exact) + len(self.named)


@dataclass(frozen=True)
class Page:
    """A page read, not yet parsed. ``key`` is the output field that names it (``path`` or
    ``url``), ``url`` its document URL, ``content_type`` its HTTP header if it had one."""

    key: str
    name: str
    body: bytes
    url: str | None
    content_type: str | None
    origin: Origin = Origin()
    #: what of its answer's head decides what Chromium makes of it (None: a file, no answer)
    head: AnswerHead | None = None

    def __post_init__(self) -> None:
        """A page named by its URL goes by it without user name and password: the name is what
        every output line, Spark row and resume log shows (``http://user:password@host/``
        fetched from a URL list was echoed whole), the document URL what parsing sees."""
        if self.key == "url":
            object.__setattr__(self, "name", shown(self.name))
        if self.url is not None:
            object.__setattr__(self, "url", shown(self.url))


@dataclass(frozen=True)
class Unreadable:
    """A page (or a whole archive) that could not be read; ``damaged``: an archive that is cut
    short or corrupt (the records before the damage were read)."""

    key: str
    name: str
    error: str
    damaged: bool = False
    origin: Origin = Origin()

    def __post_init__(self) -> None:
        """Named as :class:`Page` names it, and the message quoting its URL likewise: the URL
        as the list wrote it is replaced by its shown name first (a message's URLs are found by
        their ``://`` and end at a space, so ``http:\\\\u:p@h`` or a space in the user name
        left the password in the message)."""
        if self.key == "url":
            named = shown(self.name)
            object.__setattr__(self, "error", self.error.replace(self.name, named))
            object.__setattr__(self, "name", named)
        object.__setattr__(self, "error", shown_in_text(self.error))
