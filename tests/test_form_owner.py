"""Form ownership as the HTML parser assigns it (#form-element-pointer, #reset-the-form-owner)."""

from __future__ import annotations

import pytest

import formtools
from formtools._forms.model import forms_of


def owners(markup: str) -> dict[str, list[str]]:
    """form id (or #index) → names of the controls it owns."""
    result = {}
    for form in forms_of(formtools.parse_html(markup)):
        label = form.attributes.get("id", f"#{form.index}")
        result[label] = [c.attributes.get("name", "") for c in form.controls]
    return result


@pytest.mark.spec_step("synth-2.1")
@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        # nested <form> tags: the inner one never exists; z lands after form a, unowned
        (
            "<form id=a><input name=x><form id=b><input name=y></form><input name=z></form>",
            {"a": ["x", "y"]},
        ),
        # a form in a table is an empty child of the table; the pointer owns the rest
        (
            "<table><form id=f><tr><td><input name=q></td></tr>"
            "<input type=hidden name=h></form></table>",
            {"f": ["q", "h"]},
        ),
        # </div> pops the form but keeps the pointer; the second <form> tag is ignored
        ("<div><form id=f></div><input name=late><form id=g><input name=g1>", {"f": ["late", "g1"]}),
        # </form> clears the pointer
        ("<div><form id=f></form></div><input name=n>", {"f": []}),
        # form= with no matching form gives no owner, and no ancestor fallback
        ("<form id=f><input name=x form=nope><input name=y form=''></form>", {"f": []}),
        ("<form id=f></form><input name=e form=f>", {"f": ["e"]}),
        ("<p id=f></p><form id=g><input name=x form=f></form>", {"g": []}),
        # form= wins over both the ancestor and the pointer
        ("<form id=a><input name=x form=b></form><form id=b></form>", {"a": [], "b": ["x"]}),
        # template contents are not in the document, and do not move the pointer
        (
            "<form id=o><template><input name=t><form id=in></form></template>"
            "<input name=after></form>",
            {"o": ["after"]},
        ),
        ("<template><form id=t></template><form id=u><input name=uu></form>", {"u": ["uu"]}),
    ],
)
def test_owner(markup: str, expected: dict[str, list[str]]) -> None:
    assert owners(markup) == expected


def test_tree_from_caller_uses_final_tree_only() -> None:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(
        "<form toolname=t tooldescription=d><input name=a></form><input name=b form=x>"
        "<form id=x></form>",
        "html.parser",
    )
    extraction = formtools.extract(soup)
    assert [t.name for t in extraction.tools] == ["t"]
    assert list(extraction.tools[0].input_schema["properties"]) == ["a"]
    assert [c.attributes["name"] for c in extraction.forms[1].controls] == ["b"]


def test_lxml_tree_is_accepted() -> None:
    import lxml.html

    tree = lxml.html.fromstring(
        "<html><body><form toolname=t tooldescription=d><input name=a></form></body></html>"
    )
    assert [t.name for t in formtools.extract_tools(tree)] == ["t"]
