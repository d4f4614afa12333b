"""``ChromiumOracle.execute`` against the real browser: what a tool call sends, or how it fails.

``chromium`` is the session's oracle (tests/conftest.py).
"""

from __future__ import annotations

from typing import Any

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle, ExecuteAnswer, SubmittedRequest
from formtools.errors import FormtoolsError

PAGE = """<!doctype html><meta charset="utf-8">
<form toolname="find" tooldescription="Search" toolautosubmit action="/search?old=1#top">
  <input name="q" value="default"><input type="number" name="n" min="5">
  <button name="go" value="1">Go</button>
</form>
<form toolname="order" tooldescription="Order" toolautosubmit method="post" action="/order">
  <input name="item" required><input type="checkbox" name="gift" value="yes">
  <input type="hidden" name="token" value="t 1">
</form>
<form toolname="upload" tooldescription="Upload" toolautosubmit method="post"
      enctype="multipart/form-data" action="/upload">
  <input name="title" value="x"><input type="file" name="file"><input type="submit">
</form>
"""


@pytest.mark.spec_step("exec-request-5", "exec-request-7")
@pytest.mark.browser
def test_get_replaces_the_query_and_sends_the_submitter(chromium: ChromiumOracle) -> None:
    answer = chromium.execute(PAGE, "find", {"q": "a b&c", "n": 7})
    assert answer == ExecuteAnswer(
        error=None,
        request=SubmittedRequest(
            method="GET", url="/search?q=a+b%26c&n=7&go=1", content_type=None, body=b""
        ),
        result=None,
        navigated_to="/search?q=a+b%26c&n=7&go=1#top",
    )


@pytest.mark.spec_step("exec-fill-5.5", "exec-fill-6", "exec-request-8")
@pytest.mark.browser
def test_post_urlencoded_sends_hidden_and_unmentioned_fields(chromium: ChromiumOracle) -> None:
    answer = chromium.execute(PAGE, "order", {"item": "tea", "gift": "TRUE"})
    assert answer.error is None
    assert answer.request == SubmittedRequest(
        method="POST",
        url="/order",
        content_type="application/x-www-form-urlencoded",
        body=b"item=tea&gift=yes&token=t+1",
    )


@pytest.mark.spec_step("exec-request-8")
@pytest.mark.browser
def test_multipart_boundary_is_replaced(chromium: ChromiumOracle) -> None:
    answer = chromium.execute(PAGE, "upload", {})
    assert answer.request is not None
    assert answer.request.content_type == "multipart/form-data; boundary=BOUNDARY"
    assert answer.request.body == (
        b'--BOUNDARY\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n'
        b'--BOUNDARY\r\nContent-Disposition: form-data; name="file"; filename=""\r\n'
        b"Content-Type: application/octet-stream\r\n\r\n\r\n--BOUNDARY--\r\n"
    )


@pytest.mark.spec_step("exec-fill-6", "exec-submit-4")
@pytest.mark.browser
def test_validation_failure_sends_nothing(chromium: ChromiumOracle) -> None:
    answer = chromium.execute(PAGE, "find", {"n": 4})
    assert answer.error == "Form validation failed: n: Value must be greater than or equal to 5.. "
    assert answer.error_name == "UnknownError"
    assert answer.request is None
    # transactional: a bad value anywhere means nothing is filled, and the form is not submitted
    order = chromium.execute(PAGE, "order", {"gift": True})
    assert order.error == "Form validation failed: item: Please fill out this field.. "


@pytest.mark.spec_step("exec-fill-1", "exec-fill-4.1", "exec-fill-4.3")
@pytest.mark.browser
def test_binding_errors(chromium: ChromiumOracle) -> None:
    unknown = chromium.execute(PAGE, "find", {"q": "x", "nope": 1})
    assert unknown.error == (
        'Input contains a parameter "nope" but there is no such parameter for the tool'
    )
    assert unknown.request is None
    assert chromium.execute(PAGE, "find", {"n": "+1"}).error == (
        'Invalid value "+1" for parameter n'
    )
    assert chromium.execute(PAGE, "find", {"q": None}).error == "Invalid value for parameter q"
    not_object = chromium.execute(PAGE, "find", "q=x")
    assert not_object.error_name == "TypeError"
    assert not_object.error == (
        "Failed to execute 'executeTool' on 'ModelContext': invalid input object:"
        " value is not an object"
    )
    assert chromium.execute(PAGE, "find", [1]).error == "JSON input arguments must be an object"


@pytest.mark.spec_step("exec-fill-2")
@pytest.mark.browser
def test_each_call_starts_from_the_initial_page(chromium: ChromiumOracle) -> None:
    chromium.execute(PAGE, "find", {"q": "first"}, path="/same")
    again = chromium.execute(PAGE, "find", {}, path="/same")
    assert again.request is not None
    assert again.request.url == "/search?q=default&n=&go=1"


@pytest.mark.spec_step("exec-hitl-2", "exec-request-1", "exec-submit-1")
@pytest.mark.browser
def test_no_request_outcomes(chromium: ChromiumOracle) -> None:
    dialog = """<!doctype html><dialog open><form toolname="d" tooldescription="d"
        toolautosubmit method="dialog"><input name="a"><button value="ok">OK</button></form>
        </dialog>"""
    answer = chromium.execute(dialog, "d", {"a": "x"})
    assert (answer.error, answer.request, answer.result) == (None, None, None)
    manual = '<!doctype html><form toolname="m" tooldescription="m"><input name="a"></form>'
    assert chromium.execute(manual, "m", {}).error == (
        "No submit button was found, but for a form without `toolautosubmit`,"
        " there must be a submit button"
    )
    waiting = '<!doctype html><form toolname="w" tooldescription="w"><button>b</button></form>'
    assert chromium.execute(waiting, "w", {}, wait_for_user=0.2).waiting_for_user


# Radio buttons whose validity is not their parameter's alone (found by review: an unnamed
# required radio made formtools refuse a call Chromium submits).
RADIO_PAGES = {
    "unnamed": "<input type=radio required>",
    "disabled-checked": "<input type=radio name=r value=a required><input type=radio name=r value=b checked disabled>",
    "disabled-required": "<input type=radio name=r value=a required disabled><input type=radio name=r value=b>",
    "spaced-names": "<input type=radio name=' r' value=a required><input type=radio name=r value=b>",
    "readonly-required": "<input type=radio name=r value=a required readonly><input type=checkbox name=c required readonly>",
    "readonly-member": "<input type=radio name=r value=a required readonly><input type=radio name=r value=b>",
}


@pytest.mark.spec_step("exec-submit-4")
@pytest.mark.browser
@pytest.mark.parametrize("page", sorted(RADIO_PAGES))
@pytest.mark.parametrize("tool_input", [{"q": "x"}, {"q": "x", "r": "a"}, {"q": "x", "r": "b"}])
def test_radio_groups_validate_as_chromium_does(
    chromium: ChromiumOracle, page: str, tool_input: dict[str, Any]
) -> None:
    """The call under the chromium profile sends what executeTool sends, or neither sends."""
    html = (
        f'<!doctype html><form toolname=t tooldescription=d toolautosubmit action="/land">'
        f"<input name=q>{RADIO_PAGES[page]}</form>"
    )
    path = f"/radio-{page}.html"
    answer = chromium.execute(html, "t", tool_input, path=path)
    tool = formtools.extract(html, base_url=chromium.site.origin + path).tool("t")
    try:
        request = formtools.prepare_call(tool, tool_input).request
    except FormtoolsError:
        request = None
    sent = None if request is None else request.url.removeprefix(chromium.site.origin)
    assert sent == (answer.request.url if answer.request is not None else None), answer


@pytest.mark.browser
def test_a_child_navigables_load_is_not_taken_for_a_top_level_submission(chromium: ChromiumOracle) -> None:
    """The oracle counts a submission into an iframe (a child navigable's navigation request),
    and so took any child's load for the submission: a submit handler that adds an iframe, an
    ``<object>`` or an ``<embed>`` sent its request before the window's own navigation, and
    the oracle reported ``GET /other`` for a call that navigated the window to
    ``/landing?q=…``; a submission into a new window (``target=_blank``) likewise. A
    top-level document request is now the submission whenever one arrived, a child's only
    otherwise (a form whose target is an iframe). Seeded: 8 pages (method x container x this
    window or a new one, the landing page holding children too); the request reported is the
    one to the form's action, with its method (in this window: the URL it navigated to)."""
    import random

    pick = random.Random(404)
    for number in range(8):
        method = pick.choice(["get", "post"])
        target = pick.choice(["_self", "_blank"])
        container = pick.choice([("iframe", "src"), ("object", "data"), ("embed", "src")])
        add = (f"const c = document.createElement('{container[0]}'); c.{container[1]} = '/other{number}';"
               " document.body.append(c);")
        page = (f"<form toolname=t tooldescription=d toolautosubmit method={method} target={target} "
                f"action=/landing{number}>"
                f"<input name=q><button>Go</button></form>"
                f"<script>document.forms[0].addEventListener('submit', () => {{ {add} }});</script>")
        chromium.site.put(f"/other{number}", b"<p>other")
        chromium.site.put(f"/landing{number}", f"<{container[0]} {container[1]}=/other{number}>".encode())
        answer = chromium.execute(page, "t", {"q": f"v{number}"})
        assert answer.request is not None, answer
        assert answer.request.method == method.upper(), answer
        assert answer.request.url.startswith(f"/landing{number}"), answer
        if target == "_self":
            assert answer.request.url == answer.navigated_to, answer
