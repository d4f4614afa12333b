"""Submission rules that need no server: what is sent, what is refused, what is not sent."""

from __future__ import annotations

import pytest

import formtools


def tool(html: str, name: str = "t", url: str = "https://site.example/dir/page?x=1") -> formtools.Tool:
    found = formtools.extract(html, base_url=url).tool(name)
    assert found is not None
    return found


@pytest.mark.spec_step("exec-request-3", "exec-request-6", "exec-result-1")
def test_dialog_mailto_javascript_data_and_about_send_nothing() -> None:
    """No error is invented where Chromium completes or leaves the call pending
    (``fixtures/expected/results.json`` records what the browser answers the agent)."""
    dialog = tool("<dialog open><form toolname=t tooldescription=d method=dialog toolautosubmit>"
                  "<input name=q><button value=ok>OK</button></form></dialog>")
    assert formtools.call_tool(dialog, {"q": "x"}).status == "not-sent"
    mailto = tool("<form toolname=t tooldescription=d action='mailto:a@b.example' toolautosubmit>"
                  "<input name=q><button>Go</button></form>")
    result = formtools.call_tool(mailto, {"q": "x"})
    assert result.status == "not-sent" and "mailto:" in result.reason
    script = tool("<form toolname=t tooldescription=d action='javascript:alert(1)' toolautosubmit>"
                  "<button>Go</button></form>")
    ran = formtools.call_tool(script, {})
    assert (ran.status, ran.result) == ("not-sent", None) and "javascript:" in ran.reason
    data = tool("<form toolname=t tooldescription=d action='data:text/html,x' toolautosubmit></form>")
    blocked = formtools.call_tool(data, {})
    assert (blocked.status, blocked.result) == ("not-sent", None) and "data:" in blocked.reason
    blank = tool("<form toolname=t tooldescription=d action='about:blank' toolautosubmit></form>")
    emptied = formtools.call_tool(blank, {})
    assert (emptied.status, emptied.result, emptied.request) == ("completed", [], None)
    # a GET replaces the query of about:blank as of any URL (Chromium lands on about:blank?q=x)
    assert emptied.to_dict()["url"] == "about:blank?"


@pytest.mark.spec_step("exec-request-2", "exec-request-6", "exec-result-1", "exec-result-4")
@pytest.mark.parametrize(
    ("action", "method", "target", "reason", "status", "url"),
    [
        ("about:blank", "get", "", "about", "completed", "about:blank?q=x"),
        ("ABOUT:blank#f", "post", "", "about", "completed", "about:blank#f"),
        ("about:blank", "get", "_blank", "about", "completed", None),  # a new window: no result
        ("ABOUT:BLANK", "get", "", "navigation-blocked", "completed", "about:blank#blocked"),
        ("about:version", "post", "", "navigation-blocked", "completed", "about:blank#blocked"),
        ("http://1.2.3.4.5/", "post", "", "navigation-blocked", "completed", "about:blank#blocked"),
        ("about:srcdoc", "get", "", "error-page", "not-sent", None),
        ("ws://127.0.0.1:9/ws", "get", "", "error-page", "not-sent", None),
        ("wss://127.0.0.1:9/ws", "post", "", "error-page", "not-sent", None),
        ("file:///etc/passwd", "get", "", "blocked", "not-sent", None),
        ("blob:https://site.example/x", "get", "", "blocked", "not-sent", None),
    ],
)  # fmt: skip
def test_actions_chromium_does_not_fetch(action: str, method: str, target: str, reason: str, status: str, url: str | None) -> None:
    """What Chromium 156 does with each (recorded in fixtures/expected/results.json, and the
    whole class by its generator): the call validates and fills, and its result says what
    happened; no request, and no error of formtools' own."""
    page = (f"<form toolname=t tooldescription=d toolautosubmit action='{action}' method={method}"
            f" target='{target}'><input name=q></form>")
    prepared = formtools.prepare_call(tool(page), {"q": "x"})
    assert prepared.request is None and prepared.outcome.reason == reason
    result = formtools.call_tool(tool(page), {"q": "x"})
    assert (result.status, result.request) == (status, None) and result.reason
    assert result.result == ([] if status == "completed" and not target else None)
    if url is not None:
        assert result.url == url


@pytest.mark.spec_step("exec-request-2")
def test_an_unparseable_base_blocks_relative_actions_only() -> None:
    """Chromium's base URL is invalid when ``<base href>`` does not parse: a relative action
    ends on about:blank#blocked (a GET) or does nothing (a POST); absolute and empty ones
    submit as usual."""
    def outcome(action: str, method: str = "get") -> object:
        page = (f"<base href='http://[bad/'><form toolname=t tooldescription=d toolautosubmit "
                f"action='{action}' method={method}><input name=q></form>")
        return formtools.prepare_call(tool(page), {"q": "x"}).outcome

    assert outcome("land").reason == "navigation-blocked"  # type: ignore[attr-defined]
    assert outcome("land", "post").reason == "unresolved"  # type: ignore[attr-defined]
    assert outcome("#f").reason == "navigation-blocked"  # type: ignore[attr-defined]
    assert outcome("https://other.example/x").url == "https://other.example/x?q=x"  # type: ignore[attr-defined]
    assert outcome("").url == "https://site.example/dir/page?q=x"  # type: ignore[attr-defined]


@pytest.mark.spec_step("exec-request-6")
@pytest.mark.parametrize("host", ["localhost.", "foo.localhost.", "LOCALHOST.", "localhost", "127.0.0.1"])
def test_trailing_dot_localhost_is_trustworthy(host: str) -> None:
    """Chromium drops one trailing dot before asking whether a host is localhost: an https
    page submits to http://localhost.:9/ (no mixed content)."""
    page = (f"<form toolname=t tooldescription=d toolautosubmit method=post action='http://{host}:9/x'>"
            "<input name=q></form>")
    (found,) = formtools.extract_tools(page, base_url="https://127.0.0.1:8443/p")
    assert formtools.prepare_call(found, {"q": "x"}).request is not None


@pytest.mark.spec_step("exec-request-1", "exec-request-2", "exec-submit-1")
def test_action_resolution_submitter_overrides_and_named_submitter() -> None:
    page = ("<base href='/base/'><form toolname=t tooldescription=d action='go?old=1#frag' method=get>"
            "<input name=q><button>Search</button>"
            "<button name=alt formaction='' formmethod=post formenctype=text/plain>Alt</button></form>")
    first = formtools.prepare_call(tool(page), {"q": "a b"}).request
    assert (first.method, first.url) == ("GET", "https://site.example/base/go?q=a+b#frag")
    alt = formtools.prepare_call(tool(page), {"q": "a b"}, submitter="alt").request
    # formaction="" means the document URL (not the base), query kept; labelled text/plain, the
    # body is urlencoded as Chromium 156 sends it for a GET form (measured:
    # tests/test_browser_engines_corpus.py)
    assert (alt.method, alt.url) == ("POST", "https://site.example/dir/page?x=1")
    assert alt.header("Content-Type") == "text/plain" and alt.body == b"q=a+b&alt="
    with pytest.raises(formtools.SubmissionError, match="no submit button named 'nope'"):
        formtools.prepare_call(tool(page), {}, submitter="nope")


@pytest.mark.spec_step("synth-2.3", "exec-submit-1")
def test_missing_submit_button_is_chromiums_error_only_without_autosubmit() -> None:
    with pytest.raises(formtools.NoSubmitButton, match="there must be a submit button"):
        formtools.prepare_call(tool("<form toolname=t tooldescription=d><input name=q></form>"), {})
    request = formtools.prepare_call(
        tool("<form toolname=t tooldescription=d toolautosubmit><input name=q></form>"), {"q": "1"}
    ).request
    assert request.url == "https://site.example/dir/page?q=1"


@pytest.mark.spec_step("exec-fill-2")
def test_keys_not_given_keep_the_state_of_an_earlier_call() -> None:
    page = "<form toolname=t tooldescription=d><input name=a value=A><input name=b><button>Go</button></form>"
    first = formtools.prepare_call(tool(page), {"b": "one"})
    second = formtools.prepare_call(tool(page), {"a": "two"}, state=first.state)
    assert second.request.url.endswith("?a=two&b=one")


@pytest.mark.spec_step("exec-request-5")
def test_entry_list_details() -> None:
    page = (
        "<form toolname=t tooldescription=d accept-charset=windows-1252>"
        "<input type=hidden name=_charset_><input type=checkbox name=c checked>"
        "<input type=checkbox name=e value='' checked><select name=s size=3><option>x</select>"
        "<datalist><input name=in_list value=1></datalist><textarea name=ta>a\nb</textarea>"
        "<input name=n value='\u0259'><input type=image name=img><input type=submit></form>"
    )
    request = formtools.prepare_call(tool(page), {}).request
    # (the standard skips a control with a datalist ancestor; Chromium 156 submits it:
    # tests/test_browser_heldout_calls.py measures that live)
    assert request.url.split("?")[1] == (
        "_charset_=windows-1252&c=on&e=&in_list=1&ta=a%0D%0Ab&n=%26%23601%3B&img.x=0&img.y=0"
    )


@pytest.mark.spec_step("exec-hitl-2", "exec-submit-5")
def test_awaiting_user_holds_the_prepared_request_without_sending() -> None:
    page = "<form toolname=t tooldescription=d method=post action=/x><input name=q><button>Go</button></form>"
    result = formtools.call_tool(tool(page), {"q": "1"})
    assert result.status == "awaiting-user"
    assert result.to_dict()["request"] == {
        "method": "POST",
        "url": "https://site.example/x",
        "headers": {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": "https://site.example",
            "Referer": "https://site.example/dir/page?x=1",
        },
        "body": "q=1",
    }


@pytest.mark.spec_step("exec-request-6")
def test_an_https_page_never_submits_to_an_insecure_endpoint() -> None:
    """Mixed Content: Chromium 156 submits nothing when an https page's form targets http on a
    host that is not potentially trustworthy (its ``executeTool`` resolves ``null``)."""
    form = tool("<form toolname=t tooldescription=d action='http://site.example/a' toolautosubmit><input name=q></form>",
                url="https://site.example/p")
    prepared = formtools.prepare_call(form, {"q": "1"})
    assert prepared.request is None and prepared.outcome.reason == "mixed-content"
    result = formtools.submit(prepared)
    assert result.status == "not-sent" and "Mixed Content" in (result.reason or "")


@pytest.mark.spec_step("exec-request-9")
@pytest.mark.parametrize(
    ("page", "action", "expected"),
    [
        # userinfo and fragment never leave; a default port is not part of the origin
        ("http://ada:s3cret@Site.example:80/p?x#f", "/a", ("http://site.example", "http://site.example/p?x")),
        # another origin sees only the page's origin (strict-origin-when-cross-origin)
        ("https://site.example/p?x", "https://other.example/a", ("https://site.example", "https://site.example/")),
        ("https://site.example/p?x", "https://site.example:8443/a", ("https://site.example", "https://site.example/")),
        # https to http (here a loopback address, which Mixed Content lets through): no Referer,
        # and Origin null (Fetch's downgrade rule; tests/test_browser_urls.py measures both live)
        ("https://site.example/p?x", "http://127.0.0.1/a", ("null", None)),
        # a referrer over 4096 bytes is cut to its origin
        ("https://site.example/" + "x" * 5000, "/a", ("https://site.example", "https://site.example/")),
        # a page that is not http(s) has an opaque origin: no Referer, Origin null (measured live
        # by tests/test_browser_urls.py::test_a_page_of_no_http_origin_posts_with_origin_null)
        ("file:///tmp/page.html", "https://site.example/a", ("null", None)),
    ],
)
def test_origin_and_referer_follow_the_default_referrer_policy(
    page: str, action: str, expected: tuple[str | None, str | None]
) -> None:
    """Fetch's Origin header and Referrer Policy's default (Chromium's):
    ``tests/test_browser_urls.py`` holds the cases a loopback server can observe to the live browser."""
    form = tool(f"<form toolname=t tooldescription=d method=post action='{action}' toolautosubmit><input name=q></form>",
                url=page)
    request = formtools.prepare_call(form, {"q": "1"}).request
    assert request is not None
    headers = dict(request.headers)
    assert (headers.get("Origin"), headers.get("Referer")) == expected
    assert "s3cret" not in repr(request.headers)


@pytest.mark.parametrize("profile", ["chromium", "html", "portable"])
@pytest.mark.parametrize("tool_input", [{"q": "a\ud800b"}, {"q\udc00": "x"}, {"s": ["a", "\ud83d"]}])
def test_a_lone_surrogate_is_refused_by_validate_as_by_call(profile: str, tool_input: dict) -> None:
    """Chromium's JSON round trip refuses a lone surrogate anywhere in the input; call refused
    it and validate said valid (a review's finding: validate ⇔ call)."""
    page = "<form toolname=t tooldescription=d><input name=q><select name=s multiple><option>a</select><button>Go</button></form>"
    (found,) = formtools.extract_tools(page, profile=profile)
    assert [(p.field, p.message) for p in formtools.validate_input(found, tool_input)] == [
        (None, "Failed to parse input string as JSON")
    ]
    with pytest.raises(formtools.InputError, match="Failed to parse input string as JSON"):
        formtools.prepare_call(found, tool_input)
