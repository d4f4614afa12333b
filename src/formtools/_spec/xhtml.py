"""Whether formtools reads an XHTML answer's forms as Chromium does.

Chromium parses an ``application/xhtml+xml`` document with its XML parser (libxml2, internal
entities expanded, decoded by the ``Content-Type`` charset over the XML declaration): a document
that is not well-formed shows a parse error, and only elements in the XHTML namespace, named in
lower case, are HTML elements (``<form>`` without ``xmlns``, or ``<FORM>``, is no form).
formtools reads forms with its HTML parser, which builds the XML tree again only where nothing
in the markup means one thing to XML and another to HTML. It reads a document when libxml2
finds it well-formed (decoded as Chromium decodes it) and none of these holds, and otherwise
says "an XML document formtools does not read" rather than give a form Chromium reads with other
fields, or no form where Chromium reads one (the README's XML gap):

- a form element in another namespace or case (Chromium: no such field);
- an entity declared in its DTD (``<!ENTITY e "q">``: Chromium's ``&e;`` is ``q``, HTML's stays
  ``&e;``);
- an element other than HTML's void ones written self-closed (``<form/>``, ``<textarea/>``:
  XML closes it, HTML opens it and nests, or swallows, what follows);
- an XHTML element written with a prefix (``<h:form>``: XML's ``form``, HTML's ``h:form``);
- a void element with content (XML nests it, HTML does not), or a form in a form (XML keeps
  both, HTML drops the inner one);
- elements nested deeper than :data:`MAX_DEPTH` (HTML's parser stops nesting at 513).

Chromium keeps the document built before a fatal error, so a form before the first error still
registers there: that is the part formtools gives up, with the HTML tree construction rules
this list does not name (a table's foster parenting, ``<p>``'s implied end tags).
"""

from __future__ import annotations

import codecs
import re

import webencodings
from lxml import etree

from formtools._spec.content_type import transport_charset
from formtools._spec.decoding import decode_until_error

__all__ = ["MAX_DEPTH", "XHTML_NAMESPACE", "XHTML_TYPE", "unread_xhtml"]

XHTML_TYPE = "application/xhtml+xml"
XHTML_NAMESPACE = "http://www.w3.org/1999/xhtml"

# the elements whose names decide a form's tool: an XML spelling of one that is no XHTML element
# (another namespace, another case) is where the two parsers part
_FORM_ELEMENTS = frozenset(
    {"form", "input", "button", "select", "option", "optgroup", "textarea", "label", "fieldset", "legend", "datalist", "output"}
)


# HTML's void elements (its tree builder's, the legacy ones too): the only ones a self-closing
# tag closes in HTML as in XML
_VOID_ELEMENTS = frozenset(
    {"area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen",
     "link", "meta", "param", "source", "track", "wbr"}
)  # fmt: skip
#: The deepest nesting formtools reads in an XHTML document: the HTML parser that reads its
#: forms stops nesting at 513 open elements (Blink's limit), and may add html, head and body
MAX_DEPTH = 500
_BYTE_ORDER_MARKS = (codecs.BOM_UTF8, codecs.BOM_UTF16_BE, codecs.BOM_UTF16_LE)
# the markup of a well-formed document without entities, in order: what is no element (a
# comment, CDATA, a processing instruction, a doctype, a declaration of its internal subset, an
# end tag) and start tags, whose group is "/" when self-closed (a quoted value may hold ">", "/")
_MARKUP = re.compile(
    r"""<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<!DOCTYPE(?:[^>"']|"[^"]*"|'[^']*')*>|</[^>]*>"""
    r"""|<[^\s/>]+(?:[^>"'/]|"[^"]*"|'[^']*'|/(?!>))*(/?)>""",
    re.DOTALL,
)


def _unread(why: str) -> str:
    """The one line every refusal shares, which readers and tests know it by."""
    return f"an XML document formtools does not read (application/xhtml+xml: {why})"


def _chromiums_text(body: bytes, content_type: str | None) -> tuple[bytes, str | None]:
    """The bytes libxml2 is given and their encoding (None: libxml2 finds it as Chromium does,
    by a BOM, UTF-16's ``<?x``, the XML declaration, else UTF-8): without a BOM, the
    ``Content-Type`` charset decides over the declaration, decoded by the Encoding Standard's
    decoder up to its first error, a fatal error of the document (as ``xml_json_ld_of``)."""
    charset = None if body.startswith(_BYTE_ORDER_MARKS) else transport_charset(content_type)
    if charset is None:
        return body, None
    text = decode_until_error(body, webencodings.lookup(charset).name)
    return text.encode("utf-8", "surrogatepass"), "utf-8"


def _self_closed(source: str) -> list[bool]:
    """For each start tag of a well-formed document without entities, in order (the order of
    its elements), whether it is self-closed."""
    return [bool(tag[1]) for tag in _MARKUP.finditer(source) if tag[0][1] not in "!?/"]


def unread_xhtml(body: bytes, content_type: str | None = None) -> str | None:
    """Why formtools does not read this ``application/xhtml+xml`` body (served with
    ``content_type``) as Chromium does, in a few words, or ``None`` when it does (see the
    module). External entities and DTDs are never loaded; the parse (libxml2's, as Chromium's)
    and every check are linear in the body."""
    data, encoding = _chromiums_text(body, content_type)
    parser = etree.XMLParser(
        recover=True, resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True, encoding=encoding
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        root = None
    # libxml2, Chromium's XML parser too, only warns of an undeclared entity where a DTD it did
    # not load might declare it (an XHTML doctype's &nbsp;): a warning stops neither
    errors = [error for error in parser.error_log if error.level >= etree.ErrorLevels.ERROR]
    if root is None or errors:
        where = f": {errors[0].message.strip()[:100]} (line {errors[0].line})" if errors else ""
        return _unread(f"not well-formed{where}")
    tree = root.getroottree()
    subset = tree.docinfo.internalDTD
    if subset is not None and next(subset.iterentities(), None) is not None:
        return _unread("its DTD declares entities, which Chromium expands")
    try:
        source = data.decode(encoding or tree.docinfo.encoding or "utf-8", "surrogatepass")
    except LookupError:
        return _unread(f"encoding {tree.docinfo.encoding!r} unknown to formtools")
    return _unread_element(etree.iterwalk(root, events=("start", "end")), _self_closed(source))


def _unread_element(walk: etree.iterwalk, self_closed: list[bool]) -> str | None:
    """Why one element of the ``walk`` (start and end events) is read otherwise by HTML (see the
    module), ``self_closed`` telling each start tag's spelling; None for none."""
    depth, forms, starts = 0, 0, iter(self_closed)
    for event, element in walk:
        if not isinstance(element.tag, str):  # a comment or processing instruction
            continue
        name = etree.QName(element)
        form = name.namespace == XHTML_NAMESPACE and name.localname == "form"
        if event == "end":
            depth, forms = depth - 1, forms - form
            continue
        depth, forms = depth + 1, forms + form
        closed = next(starts, None)
        if closed is None:
            return _unread("markup formtools cannot follow")
        shown = name.localname[:40]
        if name.localname.lower() in _FORM_ELEMENTS and (
            name.namespace != XHTML_NAMESPACE or name.localname not in _FORM_ELEMENTS
        ):
            return _unread(f"<{shown}> is no XHTML element, Chromium's XML parser makes no form field of it")
        if name.namespace == XHTML_NAMESPACE and element.prefix is not None:
            return _unread(f"<{element.prefix[:40]}:{shown}> is an XHTML element with a prefix, no element of HTML's")
        if closed and name.localname not in _VOID_ELEMENTS:
            return _unread(f"<{shown}/> is self-closed, where HTML opens it")
        if name.localname in _VOID_ELEMENTS and (len(element) or element.text):
            return _unread(f"<{shown}> holds content, which HTML puts after it")
        if forms > 1:
            return _unread("a form in a form, which HTML drops")
        if depth > MAX_DEPTH:
            return _unread(f"elements nested deeper than {MAX_DEPTH}")
    return None
