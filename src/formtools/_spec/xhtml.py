"""Whether formtools reads an XHTML answer's forms as Chromium does.

Chromium parses an ``application/xhtml+xml`` document with its XML parser: a document that is
not well-formed shows a parse error, and only elements in the XHTML namespace, named in lower
case, are HTML elements (``<form>`` without ``xmlns``, or ``<FORM>``, is no form). formtools
reads forms with its HTML parser alone, which agrees with the XML parser on a well-formed
document whose form elements are XHTML ones; for any other XHTML document it says it does not
read it rather than give tools Chromium does not register, or a form Chromium reads with other
fields (the README's XML gap). Chromium keeps the document built before a fatal error, so a
form before the first error still registers there: that is the part formtools gives up.
"""

from __future__ import annotations

from lxml import etree

__all__ = ["XHTML_NAMESPACE", "XHTML_TYPE", "unread_xhtml"]

XHTML_TYPE = "application/xhtml+xml"
XHTML_NAMESPACE = "http://www.w3.org/1999/xhtml"

# the elements whose names decide a form's tool: an XML spelling of one that is no XHTML element
# (another namespace, another case) is where the two parsers part
_FORM_ELEMENTS = frozenset(
    {"form", "input", "button", "select", "option", "optgroup", "textarea", "label", "fieldset", "legend", "datalist", "output"}
)


def unread_xhtml(body: bytes) -> str | None:
    """Why formtools does not read this ``application/xhtml+xml`` body as Chromium does, in a
    few words, or ``None`` when it does: a well-formed XML document whose form elements are
    all in the XHTML namespace and in lower case. External entities and DTDs are never
    loaded; the parse (libxml2's, as Chromium's) is linear in the body."""
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError:
        root = None
    # libxml2, Chromium's XML parser too, only warns of an undeclared entity where a DTD it did
    # not load might declare it (an XHTML doctype's &nbsp;): a warning stops neither
    errors = [error for error in parser.error_log if error.level >= etree.ErrorLevels.ERROR]
    if root is None or errors:
        where = f": {errors[0].message.strip()[:100]} (line {errors[0].line})" if errors else ""
        return f"an XML document formtools does not read (application/xhtml+xml, not well-formed{where})"
    for element in root.iter(etree.Element):
        name = etree.QName(element)
        if name.localname.lower() in _FORM_ELEMENTS and (
            name.namespace != XHTML_NAMESPACE or name.localname not in _FORM_ELEMENTS
        ):
            return (
                "an XML document formtools does not read (application/xhtml+xml: "
                f"<{name.localname[:40]}> is no XHTML element, Chromium's XML parser makes no form field of it)"
            )
    return None
