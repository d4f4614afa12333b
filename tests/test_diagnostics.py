"""`lint` explains every form that is not a tool and every control that is not a parameter."""

from __future__ import annotations

import pytest

import formtools
from formtools import Severity
from tests.conftest import FIXTURES

PAGES = sorted(FIXTURES.glob("*.html"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_every_loss_on_a_fixture_is_explained(page) -> None:
    extraction = formtools.extract(page.read_bytes())
    registered = {id(tool.form): tool for tool in extraction.tools}
    explained_forms = {d.form for d in extraction.diagnostics if d.field is None}
    explained_fields = {(d.form, d.field) for d in extraction.diagnostics}
    for form in extraction.forms:
        tool = registered.get(id(form))
        if tool is None:
            assert form.describe in explained_forms, f"{form.describe} dropped without a reason"
            continue
        properties = tool.input_schema["properties"]
        for control in form.controls:
            if control.key in properties and not control.disabled and not control.readonly:
                continue
            reasons = {(form.describe, repr(control.key)), (form.describe, control.describe)}
            assert reasons & explained_fields, f"{control.describe} in {form.describe} dropped without a reason"


def test_diagnostic_codes_and_severities() -> None:
    page = (
        "<form toolname=t tooldescription=d>"
        "<input name=a><input name=a>"  # duplicate
        "<input name=m><input type=checkbox name=m>"  # mixed
        "<input name=b disabled><input name=r readonly>"
        "<input type=hidden name=h><input type=file name=f>"
        "<input name=p pattern='[)]' toolparamdescription=x>"
        "</form>"
        "<form toolname=t tooldescription=again></form>"
        "<form toolname='no good' tooldescription=d></form>"
        "<form toolname=x></form><form tooldescription=y></form><form></form>"
    )
    found = {(d.code, d.field) for d in formtools.extract(page).diagnostics}
    assert {
        ("duplicate-name", "'a'"),
        ("mixed-types", "'m'"),
        ("hidden-without-description", "'h'"),
        ("unsupported-type", "'f'"),
        ("invalid-pattern", "'p'"),
        ("no-submit-button", None),
        ("duplicate-toolname", None),
        ("invalid-toolname", None),
        ("missing-tooldescription", None),
        ("missing-toolname", None),
        ("not-a-tool", None),
    } <= found
    codes = {d.code: d for d in formtools.extract(page).diagnostics}
    assert codes["disabled"].severity is Severity.INFO
    assert codes["duplicate-name"].severity is Severity.ERROR
    assert "line" in codes["disabled"].field or codes["disabled"].field.startswith("<input")
    assert str(codes["invalid-toolname"]).startswith("error: form #3 (toolname='no good'")


def test_a_blocked_action_is_named_in_one_bounded_line_without_its_credentials() -> None:
    """``form-action-blocked`` and the call's ``not-sent`` name the directive and the action in
    one line: a seeded policy of hundreds of sources is cut, an action's user name and password
    are not shown. Before, the lint line carried the action's password."""
    import random

    rng = random.Random(2026112923)
    sources = " ".join(f"h{rng.randrange(10**6)}.example" for _ in range(rng.randrange(100, 400)))
    secret = f"pw{rng.randrange(10**9)}"
    page = formtools.parse_html(
        f'<meta http-equiv=content-security-policy content="form-action {sources}">'
        f'<form toolname=t tooldescription=d toolautosubmit action="http://u:{secret}@shop.example/s"><input name=q></form>',
        url="http://shop.example/p",
    )
    extraction = formtools.extract(page)
    (warning,) = [d for d in extraction.diagnostics if d.code == "form-action-blocked"]
    result = formtools.call_tool(extraction.tools[0], {"q": "x"}, confirm=True)
    assert result.status == "not-sent"
    for line in (str(warning), result.reason or ""):
        assert secret not in line and "\n" not in line and len(line) < 1000, line
        assert "form-action h" in line and "shop.example/s" in line, line


def test_a_blocked_or_insecure_action_of_any_length_is_named_in_one_bounded_line() -> None:
    """A seeded action of 100,000 characters or more, refused by ``form-action`` (lint and the
    call) or as mixed content from an https page: each message quotes its first 200
    characters. Before, the call's ``not-sent`` reason quoted it whole (100,188 characters)."""
    import random

    rng = random.Random(2026112923)
    action = f"http://shop.example/{'a' * rng.randrange(100_000, 200_000)}"
    for policy, page_url, reason in (("'none'", "http://shop.example/p", "form-action 'none'"), ("*", "https://shop.example/p", "Mixed Content")):
        page = formtools.parse_html(
            f'<meta http-equiv=content-security-policy content="form-action {policy}">'
            f'<form toolname=t tooldescription=d toolautosubmit action="{action}"><input name=q></form>',
            url=page_url,
        )
        extraction = formtools.extract(page)
        result = formtools.call_tool(extraction.tools[0], {"q": "x"}, confirm=True)
        assert result.status == "not-sent" and reason in (result.reason or ""), result.reason
        lines = [result.reason or "", *(str(d) for d in extraction.diagnostics if d.code == "form-action-blocked")]
        for line in lines:
            assert len(line) < 1000 and "shop.example/aaa" in line, (reason, len(line))
