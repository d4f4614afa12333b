"""Stage 1 — parse: markup → an lxml tree plus the form owners only the parser can know.

A browser associates some controls with a form that is not their ancestor: the HTML parser's
*form element pointer* survives ``</div>`` and table foster-parenting, so in
``<div><form id=f></div><input>`` the input belongs to ``f``, while the identical tree built from
``<div><form id=f></form></div><input>`` leaves it unowned. No Python parser exposes that
association, so :class:`_OwnerRecordingTreeBuilder` records it while html5lib builds the tree
(html5lib is the pure-Python parser that builds the browser's tree).

html5lib 1.1 predates ``<template>``: inside a template a browser neither sets nor clears the form
pointer, so the two handlers below restore that behaviour; the controls a template holds are not
part of the document and are skipped by the next stage.

This is the exact path, and the reference. :func:`parse_html` first tries the fast exact path
(:mod:`._fastparse`: lexbor, with the pointer recovered), which gives the same forms wherever it
takes a page, and comes here for the pages it leaves.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Callable, Iterator, Literal, Mapping
from urllib.parse import urljoin, urlsplit

import html5lib
import webencodings
from html5lib._tokenizer import HTMLTokenizer
from html5lib.constants import DataLossWarning
from html5lib.treebuilders import getTreeBuilder
from lxml import etree

from ._constants import FORM_POINTER_ASSOCIATED
from ._encode import encoding_name
from ._errors import UsageProblem

__all__ = ["Document", "Parser", "parse_html", "from_tree"]

#: ``"auto"``: the fast exact path where it can vouch for the answer, html5lib elsewhere;
#: ``"html5lib"``: always html5lib (the reference the fast path is tested against).
Parser = Literal["auto", "html5lib"]

_LxmlTreeBuilder = getTreeBuilder("lxml")
_HTML_NAMESPACES = (None, "http://www.w3.org/1999/xhtml")
_CHARSET_IN_CONTENT_TYPE = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.IGNORECASE)


@dataclass(frozen=True, eq=False)
class Document:
    """A parsed page: the tree, where it came from, and the parser-recorded form owners.

    ``forms_root`` is the tree form extraction reads and ``parser_owners`` maps its control
    elements to the form the parser's form pointer gave them (empty for trees the caller built:
    their owners come from the final tree only). After html5lib it is the whole document. After
    the fast path (:mod:`._fastparse`) it holds only what extraction reads, so ``root``, the whole
    document, is then parsed with html5lib the first time somebody asks for it (``whole``).
    """

    forms_root: etree._Element
    url: str | None = None
    base_url: str | None = None
    encoding: str = "UTF-8"
    source: str = "<string>"
    parser_owners: Mapping[Any, Any] = field(default_factory=lambda: MappingProxyType({}))
    escaped: bool = False
    whole: Callable[[], etree._Element] | None = field(default=None, repr=False)

    @cached_property
    def root(self) -> etree._Element:
        """The whole document tree, as html5lib builds it."""
        return self.forms_root if self.whole is None else self.whole()

    def restore(self, text: str) -> str:
        """The page's own characters for a string read from the tree (see :func:`_escape`)."""
        return text.translate(_RESTORE) if self.escaped else text


class _OwnerRecordingTreeBuilder(_LxmlTreeBuilder):  # type: ignore[misc, valid-type]
    """html5lib's lxml builder, plus the form-pointer association of #form-element-pointer."""

    current_line: Any = staticmethod(lambda: 0)

    def reset(self) -> None:
        super().reset()
        self.parser_owners: dict[Any, Any] = {}

    def _template_open(self) -> bool:
        return any(node.name == "template" for node in self.openElements)

    def _record(self, element: Any, token: dict) -> Any:
        name = element.name
        if name in FORM_POINTER_ASSOCIATED and element.namespace in _HTML_NAMESPACES:
            lxml_element = element._element
            lxml_element.sourceline = self.current_line()
            pointer = self.formPointer
            if pointer is not None and "form" not in token["data"] and not self._template_open():
                self.parser_owners[lxml_element] = pointer._element
        elif name == "form":
            element._element.sourceline = self.current_line()
        return element

    def insertElementNormal(self, token: dict) -> Any:
        return self._record(super().insertElementNormal(token), token)

    def insertElementTable(self, token: dict) -> Any:
        return self._record(super().insertElementTable(token), token)


# lxml refuses characters XML cannot hold (most C0 controls, U+FFFE/U+FFFF, lone surrogates) and
# html5lib's lxml builder turns U+000C into a space. Pages contain them, and they matter (a form
# feed in a label is not a space to the browser), so they are parked in Supplementary Private Use
# Area-A while the tree is built and restored whenever text leaves the tree.
_PARKED = [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF]
_ESCAPE = {code: 0xF0000 + i for i, code in enumerate(_PARKED)}
_RESTORE = {parked: code for code, parked in _ESCAPE.items()}
_NEEDS_ESCAPE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


class _EscapingTokenizer(HTMLTokenizer):
    """html5lib's tokenizer, handing on tokens with unrepresentable characters parked."""

    def __iter__(self) -> Iterator[dict]:
        for token in super().__iter__():
            data = token.get("data")
            if isinstance(data, str):
                if _NEEDS_ESCAPE.search(data):
                    token["data"] = data.translate(_ESCAPE)
                    self.parser.escaped = True
            elif isinstance(data, dict):
                for name, value in data.items():
                    if _NEEDS_ESCAPE.search(value):
                        data[name] = value.translate(_ESCAPE)
                        self.parser.escaped = True
            yield token


class _Parser(html5lib.HTMLParser):
    """html5lib's parser with the template-aware form pointer handling of the current standard,
    and characters lxml cannot hold parked (see above)."""

    escaped = False

    def mainLoop(self) -> None:
        self.tokenizer.__class__ = _EscapingTokenizer
        super().mainLoop()

    def __init__(self) -> None:
        super().__init__(tree=_OwnerRecordingTreeBuilder, namespaceHTMLElements=False)
        tree = self.tree
        tree.current_line = lambda: self.tokenizer.stream.position()[0]
        self.phases["inBody"] = _template_aware_in_body(type(self.phases["inBody"]))(self, tree)
        self.phases["inTable"] = _template_aware_in_table(type(self.phases["inTable"]))(self, tree)


def _template_aware_in_body(in_body: type) -> type:
    class InBody(in_body):  # type: ignore[misc, valid-type]
        __slots__ = ()

        def processStartTag(self, token: dict) -> Any:
            if token["name"] == "form" and self.tree._template_open():
                # "in body", <form> with a template open: insert it, leave the pointer alone.
                if self.tree.elementInScope("p", variant="button"):
                    self.processEndTag({"type": 4, "name": "p", "data": {}, "selfClosing": False})
                self.tree.insertElement(token)
                return None
            return super().processStartTag(token)

        def processEndTag(self, token: dict) -> Any:
            if token["name"] == "template" and self.tree._template_open():
                # html5lib treats </template> as an ordinary end tag, which an open form or
                # fieldset blocks; the standard pops everything up to the template.
                self.tree.generateImpliedEndTags()
                while self.tree.openElements.pop().name != "template":
                    pass
                self.parser.resetInsertionMode()
                return None
            if token["name"] == "form" and self.tree._template_open():
                # "in body", </form> with a template open: pop to the form if one is in scope.
                if self.tree.elementInScope("form"):
                    self.tree.generateImpliedEndTags()
                    while self.tree.openElements.pop().name != "form":
                        pass
                return None
            return super().processEndTag(token)

    return InBody


def _template_aware_in_table(in_table: type) -> type:
    class InTable(in_table):  # type: ignore[misc, valid-type]
        __slots__ = ()

        def processStartTag(self, token: dict) -> Any:
            if token["name"] == "form" and self.tree._template_open():
                return None  # "in table", <form> with a template open is ignored
            return super().processStartTag(token)

    return InTable


def _sniffed_charset(content_type: str | None) -> str | None:
    if not content_type:
        return None
    match = _CHARSET_IN_CONTENT_TYPE.search(content_type)
    if match and webencodings.lookup(match.group(1)) is not None:
        return match.group(1)
    return None


def parse_html(
    markup: str | bytes,
    *,
    url: str | None = None,
    content_type: str | None = None,
    source: str | None = None,
    parser: Parser = "auto",
) -> Document:
    """Parse markup the way a browser does and record parser-assigned form owners.

    Bytes are decoded as a browser decodes them: a BOM wins, then the ``charset`` of
    ``content_type`` (the HTTP header), then a ``<meta charset>`` prescan, else windows-1252.
    ``parser="auto"`` takes the fast exact path (lexbor, see :mod:`._fastparse`) wherever it can
    vouch for html5lib's answer and html5lib elsewhere; ``parser="html5lib"`` always uses
    html5lib. Forms, tools and diagnostics come out the same either way.
    """
    if parser == "auto":
        from ._fastparse import fast_document

        document = fast_document(markup, url=url, content_type=content_type, source=source)
        if document is not None:
            return document
    elif parser != "html5lib":
        raise UsageProblem(f"unknown parser {parser!r}: use 'auto' or 'html5lib'")
    return _parse_exact(markup, url, content_type, source)


def _parse_exact(
    markup: str | bytes, url: str | None, content_type: str | None, source: str | None
) -> Document:
    """html5lib with the form-pointer hook: the reference answer."""
    parser = _Parser()
    with warnings.catch_warnings():
        # html5lib reports each lxml naming coercion; those never touch form markup
        warnings.simplefilter("ignore", DataLossWarning)
        lxml_tree = _run(parser, markup, content_type)
    root = lxml_tree.getroot()
    if isinstance(markup, bytes):
        encoding = encoding_name(parser.documentEncoding or "windows-1252")
    else:
        encoding = "UTF-8"
    owners = MappingProxyType(dict(parser.tree.parser_owners))
    return Document(
        forms_root=root,
        url=url,
        base_url=_base_url(root, url),
        encoding=encoding,
        source=source or (url or "<string>"),
        parser_owners=owners,
        escaped=parser.escaped,
    )


def _run(parser: _Parser, markup: str | bytes, content_type: str | None) -> Any:
    if isinstance(markup, bytes):
        return parser.parse(
            markup,
            transport_encoding=_sniffed_charset(content_type),
            useChardet=False,
            scripting=True,
        )
    return parser.parse(markup, scripting=True)


def _base_url(root: etree._Element, url: str | None) -> str | None:
    """The document base URL: the first ``<base href>`` resolved against the document URL."""
    for base in root.iter("base"):
        href = base.get("href")
        if href is not None:
            return resolve_base(href, url)
    return url


def resolve_base(href: str, url: str | None) -> str | None:
    """A ``<base href>`` value resolved against the document URL (#set-the-frozen-base-url)."""
    href = href.strip()
    if url is None:
        return href if urlsplit(href).scheme else url
    return urljoin(url, href)


def from_tree(tree: Any, *, url: str | None = None, source: str | None = None) -> Document:
    """Wrap a tree the caller already has (lxml or BeautifulSoup).

    Such a tree no longer says which controls the parser's form pointer associated, so owners come
    from ``form=`` attributes and ancestors only; parse the markup with :func:`parse_html` when the
    exact browser answer matters.
    """
    if type(tree).__module__.startswith("bs4"):
        root = _lxml_from_soup(tree)
        return Document(
            forms_root=root, url=url, base_url=_base_url(root, url), source=source or (url or "<soup>")
        )
    if isinstance(tree, etree._ElementTree):
        tree = tree.getroot()
    if isinstance(tree, etree._Element):
        root = tree.getroottree().getroot()
        return Document(
            forms_root=root, url=url, base_url=_base_url(root, url), source=source or (url or "<tree>")
        )
    raise TypeError(f"expected an lxml or BeautifulSoup tree, got {type(tree).__name__}")


def _lxml_from_soup(soup: Any) -> etree._Element:
    """Copy a BeautifulSoup tree into lxml elements, keeping its structure as it is."""
    from bs4 import NavigableString, Tag
    from bs4.element import Comment, ProcessingInstruction, Doctype

    root = etree.Element("html")

    def copy_children(source: Any, target: etree._Element) -> None:
        last: etree._Element | None = None
        for child in source.children:
            if isinstance(child, Tag):
                try:
                    element = etree.SubElement(target, child.name.lower())
                except ValueError:
                    continue  # a name lxml cannot hold; its subtree has no tool markup we can use
                for name, value in child.attrs.items():
                    try:
                        element.set(name, " ".join(value) if isinstance(value, list) else value)
                    except ValueError:
                        pass
                copy_children(child, element)
                last = element
            elif isinstance(child, NavigableString) and not isinstance(
                child, (Comment, ProcessingInstruction, Doctype)
            ):
                if last is None:
                    target.text = (target.text or "") + str(child)
                else:
                    last.tail = (last.tail or "") + str(child)

    top = soup.find("html") if soup.name == "[document]" else soup
    if top is not None and top.name == "html":
        for name, value in top.attrs.items():
            root.set(name, " ".join(value) if isinstance(value, list) else value)
        copy_children(top, root)
    else:
        copy_children(soup, root)
    return root
