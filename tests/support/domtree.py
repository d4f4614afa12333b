"""A document's tree as lines, from the live Chromium and from the exact path, to compare them.

Chromium's comes from DevTools (``DOM.getDocument``, piercing): it holds template contents and
shadow roots, closed ones too, which no script on the page can see. A template's contents are
written under ``#content``, a declarative shadow root as ``#shadow-root(mode)`` first in its
host; the exact path's tree (html5lib's lxml elements, a template's contents as its children,
a ``<template shadowrootmode>`` kept where it was) is written the same way, the template that
attaches a shadow root decided as formtools decides it. DevTools leaves out whitespace-only text
nodes, so both sides do; adjacent text is one node. User-agent shadow roots are left out.
"""

from __future__ import annotations

import warnings
from typing import Any

from lxml import etree

from formtools._conformance.browser import ChromiumOracle
from formtools._forms.model import _attaches_shadow_root
from formtools._parse.exact import parse_exact

__all__ = ["chromium_tree", "exact_tree"]

# (depth, kind, text): kind "element", "text", "comment" or "fragment" (#content, #shadow-root)
_Line = tuple[int, str, str]
_SPACE = " \t\n\f\r"


def _lines(entries: list[_Line]) -> list[str]:
    """Adjacent text at one depth merged, whitespace-only text left out, as indented lines."""
    merged: list[_Line] = []
    for depth, kind, text in entries:
        if kind == "text" and merged and merged[-1][:2] == (depth, "text"):
            merged[-1] = (depth, kind, merged[-1][2] + text)
        else:
            merged.append((depth, kind, text))
    return [
        "  " * depth + (repr(text) if kind == "text" else text)
        for depth, kind, text in merged
        if not (kind == "text" and not text.strip(_SPACE))
    ]


def chromium_tree(oracle: ChromiumOracle) -> list[str]:
    """The tree of the document the oracle's tab has loaded."""
    session = oracle.page.context.new_cdp_session(oracle.page)
    try:
        document = session.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]

        def expanded(node: dict[str, Any]) -> dict[str, Any]:
            """A template's contents come unexpanded: described again, in full."""
            if node.get("childNodeCount") and "children" not in node:
                described = session.send(
                    "DOM.describeNode", {"backendNodeId": node["backendNodeId"], "depth": -1, "pierce": True}
                )
                return dict(described["node"])
            return node

        entries: list[_Line] = []

        def walk(node: dict[str, Any], depth: int) -> None:
            kind = node["nodeType"]
            if kind == 3:
                entries.append((depth, "text", node["nodeValue"]))
            elif kind == 8:
                entries.append((depth, "comment", f"<!--{node['nodeValue']}-->"))
            elif kind == 1:
                local = node["localName"]
                html = node["nodeName"] != local or not any(c.isalpha() for c in local)  # (HTML's is upper-cased)
                pairs = node.get("attributes", [])
                attributes = "".join(f" {pairs[i]}={pairs[i + 1]!r}" for i in range(0, len(pairs), 2))
                entries.append((depth, "element", f"<{'' if html else 'foreign:'}{local}{attributes}>"))
                for root in node.get("shadowRoots", []):
                    if root.get("shadowRootType") != "user-agent":
                        entries.append((depth + 1, "fragment", f"#shadow-root({root['shadowRootType']})"))
                        for child in expanded(root).get("children", []):
                            walk(child, depth + 2)
                if "templateContent" in node:
                    entries.append((depth + 1, "fragment", "#content"))
                    for child in expanded(node["templateContent"]).get("children", []):
                        walk(child, depth + 2)
                for child in node.get("children", []):
                    walk(child, depth + 1)

        for child in document.get("children", []):
            if child["nodeType"] == 1:
                walk(child, 0)
        return _lines(entries)
    finally:
        session.detach()


def exact_tree(html: str) -> list[str]:
    """The tree the exact path builds for ``html``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        root = parse_exact(html, None, None, None).forms_root
    entries: list[_Line] = []
    hosts: set[Any] = set()

    def children(element: etree._Element, depth: int, skip: etree._Element | None = None) -> None:
        if element.text:
            entries.append((depth, "text", element.text))
        for child in element:
            if child is not skip:
                walk(child, depth)
            if child.tail:
                entries.append((depth, "text", child.tail))

    def walk(element: etree._Element, depth: int) -> None:
        if not isinstance(element.tag, str):
            entries.append((depth, "comment", f"<!--{element.text}-->"))
            return
        namespace, _, local = element.tag.rpartition("}")
        attributes = "".join(f" {name.rpartition('}')[2]}={value!r}" for name, value in element.attrib.items())
        entries.append((depth, "element", f"<{'foreign:' if namespace else ''}{local}{attributes}>"))
        shadow = next((c for c in element if c.tag == "template" and _attaches_shadow_root(c, hosts)), None)
        if shadow is not None:
            mode = (shadow.get("shadowrootmode") or "").lower()
            entries.append((depth + 1, "fragment", f"#shadow-root({mode})"))
            children(shadow, depth + 2)
        if element.tag == "template":
            entries.append((depth + 1, "fragment", "#content"))
            children(element, depth + 2, shadow)
        else:
            children(element, depth + 1, shadow)

    walk(root, 0)
    return _lines(entries)
