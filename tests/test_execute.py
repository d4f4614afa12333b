"""Executing tool calls against a real web site on 127.0.0.1 (no mocked transport)."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import pytest

import formtools
from formtools._execute.call import acall_tool, call_tool, prepare_call
from formtools.errors import InputError
from formtools.errors import ValidationError
from tests.conftest import FIXTURES, run_async
from tests.support.site import TestSite


@pytest.fixture()
def site():
    with TestSite() as running:
        yield running


def tool_on(site: TestSite, html: str, name: str, page: str = "p") -> formtools.Tool:
    url = site.put(page, html.encode())
    tools = formtools.extract_tools(formtools.load_page(url))
    found = {t.name: t for t in tools}
    return found[name]


SEARCH = """<!doctype html><meta charset=utf-8>
<form toolname=search tooldescription="Search" toolautosubmit action="/submit?old=1#results">
  <input name=q required><input type=number name=page min=1 value=1>
  <select name=sort><option value=new>Newest</option><option value=old>Oldest</option></select>
  <input type=checkbox name=exact><button name=go value=1>Go</button>
</form>"""


@pytest.mark.spec_step("exec-request-7", "exec-result-3", "exec-submit-3")
def test_get_replaces_the_query_and_returns_the_landing_pages_json_ld(site: TestSite) -> None:
    tool = tool_on(site, SEARCH, "search")
    result = call_tool(tool, {"q": "a b&c", "page": 2, "exact": True})
    assert result.status == "completed" and result.status_code == 200
    (received,) = site.submissions()
    assert received.method == "GET"
    assert received.query == "q=a+b%26c&page=2&sort=new&exact=on&go=1"
    assert result.url == f"{site.origin}/submit?q=a+b%26c&page=2&sort=new&exact=on&go=1#results"
    # every ld+json block in order; the empty and the broken one skipped, the comment allowed
    assert result.json_ld[0]["query"] == received.query
    assert result.json_ld[1:] == ("second",)


@pytest.mark.spec_step("exec-fill-4.1", "exec-fill-6")
def test_invalid_input_sends_nothing_and_names_every_field(site: TestSite) -> None:
    tool = tool_on(site, SEARCH, "search")
    with pytest.raises(InputError) as caught:
        call_tool(tool, {"q": "x", "page": "abc", "sort": "random", "nope": 1})
    assert [str(p) for p in caught.value.problems] == [
        'Invalid value "abc" for parameter page',
        'Invalid value "random" for parameter sort',
        'Input contains a parameter "nope" but there is no such parameter for the tool',
    ]
    assert site.received == [r for r in site.received if r.path != "/submit"]


@pytest.mark.spec_step("exec-submit-4")
def test_constraint_validation_blocks_the_submission(site: TestSite) -> None:
    tool = tool_on(site, SEARCH, "search")
    with pytest.raises(ValidationError) as caught:
        call_tool(tool, {"page": 0})
    assert str(caught.value) == (
        "Form validation failed: q: Please fill out this field.. "
        "page: Value must be greater than or equal to 1.. "
    )
    assert [p.flag for p in caught.value.problems] == ["valueMissing", "rangeUnderflow"]
    assert not site.submissions()


LOGIN = """<!doctype html><meta charset=utf-8>
<form toolname=login tooldescription="Sign in" method=post action=/login>
  <input type=email name=email required><input type=password name=password>
  <button>Sign in</button>
</form>"""


@pytest.mark.spec_step("exec-hitl-2")
def test_a_form_without_toolautosubmit_waits_for_confirmation(site: TestSite) -> None:
    tool = tool_on(site, LOGIN, "login")
    waiting = call_tool(tool, {"email": "ann@example.com", "password": "pw"})
    assert waiting.status == "awaiting-user"
    assert waiting.request is not None and waiting.request.method == "POST"
    # the request shown back masks the password; the prepared one carries it
    assert waiting.request.body == b"email=ann%40example.com&password=%5Bredacted%5D"
    prepared = formtools.prepare_call(tool, {"email": "ann@example.com", "password": "pw"})
    assert prepared.request is not None and prepared.request.body == b"email=ann%40example.com&password=pw"
    assert not site.submissions()


@pytest.mark.spec_step("exec-result-2")
def test_post_redirect_and_cookies_with_a_shared_client(site: TestSite) -> None:
    tool = tool_on(site, LOGIN, "login")
    with httpx.Client() as client:
        result = call_tool(
            tool, {"email": "ann@example.com", "password": "pw"}, confirm=True, client=client
        )
        assert result.redirects == (f"{site.origin}/login",)
        assert result.url == f"{site.origin}/account"
        assert result.json_ld == ({"@type": "Account", "user": "ann@example.com"},)
        again = formtools.send_request(
            formtools.Request("GET", f"{site.origin}/account"), client=client
        )
        assert again.json_ld[0]["user"] == "ann@example.com"
    login = site.submissions()[0]
    assert login.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert login.headers["Origin"] == site.origin
    assert [r.method for r in site.received if r.path == "/account"] == ["GET", "GET"]


def test_async_call(site: TestSite) -> None:
    tool = tool_on(site, SEARCH, "search")

    async def run() -> formtools.ToolResult:
        async with httpx.AsyncClient() as client:
            return await acall_tool(tool, {"q": "async"}, client=client)

    result = run_async(run)
    assert result.json_ld[0]["query"].startswith("q=async&")


def test_multipart_with_a_real_file_and_an_empty_file(site: TestSite, tmp_path) -> None:
    page = """<form toolname=upload tooldescription=Upload toolautosubmit method=post
      enctype=multipart/form-data action=/submit><textarea name=title></textarea>
      <input type=file name=doc><input type=file name=extra><button>Send</button></form>"""
    tool = tool_on(site, page, "upload")
    document = tmp_path / "notes.txt"
    document.write_bytes(b"hello\r\nworld")
    prepared = prepare_call(tool, {"title": "a\nb"}, files={"doc": [document]}, boundary="B")
    assert prepared.request.header("Content-Type") == "multipart/form-data; boundary=B"
    assert prepared.request.body == (
        b'--B\r\nContent-Disposition: form-data; name="title"\r\n\r\na\r\nb\r\n'
        b'--B\r\nContent-Disposition: form-data; name="doc"; filename="notes.txt"\r\n'
        b"Content-Type: text/plain\r\n\r\nhello\r\nworld\r\n"
        b'--B\r\nContent-Disposition: form-data; name="extra"; filename=""\r\n'
        b"Content-Type: application/octet-stream\r\n\r\n\r\n"
        b"--B--\r\n"
    )
    result = formtools.submit(prepared)
    assert site.submissions()[0].body == prepared.request.body
    assert result.json_ld[0]["contentType"] == "multipart/form-data; boundary=B"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "formtools", *args], capture_output=True, timeout=60, stdin=subprocess.DEVNULL
    )


def test_cli_dry_run_and_send_on_a_bundled_fixture(site: TestSite) -> None:
    page = str(FIXTURES / "realistic-search.html")
    done = run_cli("call", page, "site_search", "--input", '{"q": "milk"}', "--base-url", site.origin + "/", "--dry-run")
    assert done.returncode == 0, done.stderr
    request = json.loads(done.stdout)
    assert request["method"] == "GET" and request["body"] is None
    assert request["url"].startswith(f"{site.origin}/submit?q=milk")
    assert not site.submissions()
    sent = run_cli("call", page, "site_search", "--input", '{"q": "milk"}', "--base-url", site.origin + "/")
    assert sent.returncode == 0, sent.stderr
    result = json.loads(sent.stdout)
    assert result["status"] == "completed" and result["result"][0]["method"] == "GET"
    assert len(site.submissions()) == 1


def test_cli_invalid_input_prints_one_line_per_field_and_sends_nothing(site: TestSite) -> None:
    page = str(FIXTURES / "realistic-search.html")
    done = run_cli("call", page, "site_search", "--input", '{"nope": 1, "q": {}}', "--base-url", site.origin + "/")
    assert done.returncode == 1
    assert done.stderr.decode().splitlines() == [
        'formtools: Input contains a parameter "nope" but there is no such parameter for the tool',
        "formtools: Invalid value for parameter q",
    ]
    assert not site.submissions()


def test_cli_needs_yes_for_a_form_without_toolautosubmit(site: TestSite) -> None:
    page = str(FIXTURES / "realistic-login.html")
    arguments = '{"email": "a@b.example", "password": "pw"}'
    done = run_cli("call", page, "sign_in", "--input", arguments, "--base-url", site.origin + "/")
    assert done.returncode == 1 and json.loads(done.stdout)["status"] == "awaiting-user"
    assert not site.submissions()
    done = run_cli("call", page, "sign_in", "--input", arguments, "--base-url", site.origin + "/", "--yes")
    assert done.returncode == 0, done.stderr
    assert site.submissions()[0].method == "POST"


def test_answers_over_the_size_limit_and_dead_servers_are_clear_errors(site: TestSite) -> None:
    tool = tool_on(site, SEARCH, "search")
    with pytest.raises(formtools.SendError, match="larger than 10 bytes"):
        call_tool(tool, {"q": "x"}, max_bytes=10)
    dead = formtools.prepare_call(tool, {"q": "x"}).request
    unreachable = formtools.Request(dead.method, "http://127.0.0.1:9/submit")
    with pytest.raises(formtools.SendError, match="Could not fetch http://127.0.0.1:9/submit: .*Connection refused"):
        formtools.send_request(unreachable, timeout=2)


def test_cli_sends_files_and_reports_an_unreadable_one(site: TestSite, tmp_path) -> None:
    url = site.put("upload", b"""<form toolname=upload tooldescription=Upload toolautosubmit method=post
      enctype=multipart/form-data action=/submit><input type=file name=doc><button>Send</button></form>""")
    document = tmp_path / "a.txt"
    document.write_bytes(b"file body")
    done = run_cli("call", url, "upload", "--file", f"doc={document}")
    assert done.returncode == 0, done.stderr
    body = site.submissions()[0].body
    assert b'name="doc"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n' in body
    missing = run_cli("call", url, "upload", "--file", f"doc={tmp_path / 'nope.txt'}")
    assert missing.returncode == 2 and b"nope.txt: no such file or directory" in missing.stderr
    assert len(site.submissions()) == 1


def test_a_landing_page_too_costly_to_parse_is_a_completed_call_without_a_result(
    site: TestSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A submission's landing page is read whole with html5lib (its JSON-LD), whose cost a page
    can make outgrow its size (nested misnested formatting elements: minutes for 40 KB): the
    parse stops at its time limit, and the call, already sent, says its result is unreadable
    (a review found the landing parse unbounded, holding the bridge's parser threads)."""
    from formtools._execute import send

    monkeypatch.setattr(send, "DEFAULT_TIME_LIMIT", 0.5)
    costly = "<script type=application/ld+json>{\"a\": 1}</script>" + "".join(
        f"<b id=a{i}><div>" for i in range(1_500)
    ) + "</b>x" * 1_500
    landing = site.put("landing", costly.encode())
    page = f'<form toolname=go tooldescription=d toolautosubmit action="{landing}"><input name=q><button>Go</button></form>'
    result = call_tool(tool_on(site, page, "go"), {"q": "x"})  # (unbounded: minutes)
    assert result.status == "completed" and result.result is None
    assert "longer than 0.5 s to parse (its time limit)" in (result.reason or ""), result.reason  # the limit stopped it
    assert result.reason == "the landing page could not be read: the page took longer than 0.5 s to parse (its time limit)"


def test_files_go_only_to_enabled_file_inputs(tmp_path) -> None:
    """``files=`` (``--file NAME=PATH``) named by a typo, a text field or a disabled file input
    was ignored without a word: the form went without the file the caller meant. Over every
    fixture tool, each control's name, each file input's name mistyped, and each file input's
    name: attached iff an enabled file input has the name, else refused by prepare_call,
    validate_input and the CLI (exit 2) alike."""
    attachment = formtools.File("a.txt", "text/plain", b"a")
    checked = refused = 0
    for page in sorted(FIXTURES.glob("*.html")):
        for tool in formtools.extract_tools(page.read_bytes(), base_url="https://shop.example/", profile="html"):
            controls = tool.form.controls
            files = [c for c in controls if c.tag == "input" and c.type == "file"]
            enabled = {c.attributes.get("name", "") for c in files if not c.disabled}
            names = {c.attributes.get("name", "") for c in controls} | {c.attributes.get("name", "") + "x" for c in files}
            for name in sorted(names - {""}):
                checked += 1
                try:
                    formtools.validate_input(tool, {}, files=[name])
                    prepare_call(tool, {}, files={name: [attachment]})
                except formtools.SubmissionError as error:
                    if "file input" in str(error):
                        assert name not in enabled, (page.name, name, error)
                        refused += 1
                        continue
                except (InputError, ValidationError):
                    pass
                assert name in enabled, f"{page.name} {tool.name}: files={name!r} accepted"
    assert checked > 100 and refused > 50
    saved = tmp_path / "contact.html"
    saved.write_bytes((FIXTURES / "realistic-contact.html").read_bytes())
    done = subprocess.run(
        [sys.executable, "-m", "formtools", "validate", str(saved), "contact_firm", "--file", f"attachmnt={saved}"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--file: the form has no file input named 'attachmnt'" in done.stderr, done


def test_python_values_json_cannot_hold_are_input_errors() -> None:
    """A newcomer passes a ``datetime.date`` for a date field, a ``Decimal`` for a price, a
    tuple for checkboxes: fill read them as numbers and raised Python's TypeError or
    ValueError (AttributeError for an int key), which ``except formtools.FormtoolsError`` does
    not catch. Every parameter of every fixture tool, under every profile, given each kind:
    prepare_call raises InputError naming the key and validate_input says the same."""
    import datetime
    import decimal

    kinds = [
        datetime.date(2026, 3, 1), decimal.Decimal("2"), ("a",), b"x", object(), {"a", "b"},
        ["ok", {"x": {1: "y"}}], float, datetime.datetime(2026, 3, 1, 9, 30),
    ]
    checked = 0
    wrong: list[str] = []
    for page in sorted(FIXTURES.glob("*.html")):
        for profile in ("chromium", "html", "portable"):
            for tool in formtools.extract_tools(page.read_bytes(), base_url="https://shop.example/", profile=profile):
                for key in list(tool.input_schema["properties"])[:3]:
                    for value in kinds:
                        checked += 1
                        try:
                            prepare_call(tool, {key: value})
                            wrong.append(f"{page.name} {tool.name} {key}={value!r}: accepted")
                        except InputError as error:
                            if [p.key for p in error.problems] != [key]:
                                wrong.append(f"{page.name} {tool.name} {key}={value!r}: {error.problems}")
                        except Exception as error:  # noqa: BLE001 - the class of bug: anything else
                            wrong.append(f"{page.name} {tool.name} {key}={value!r}: {type(error).__name__}: {error}")
                        if [(p.field, p.flag) for p in formtools.validate_input(tool, {key: value})] != [(key, "badInput")]:
                            wrong.append(f"{page.name} {tool.name} {key}={value!r}: validate_input")
    assert checked > 3000 and not wrong, f"{len(wrong)} of {checked}: {wrong[:5]}"
    with pytest.raises(InputError, match="a Python int key"):
        prepare_call(formtools.extract_tools((FIXTURES / "realistic-search.html").read_bytes())[0], {1: "x"})


@pytest.mark.parametrize("profile", ["chromium", "html", "portable"])
def test_validate_says_a_number_json_cannot_spell_reaches_chromium_as_null(profile: str) -> None:
    """NaN, ±Infinity and whole numbers beyond the doubles reach Chromium's fill as null (its
    JSON round trip), which a call refuses: validation says so, for every control kind, in a
    value or an array's item, where it described the number as text Chromium fills ("Chromium
    fills NaN as "NaN"", "the browser would change "-Infinity" to "50"") or as a step mismatch."""
    from formtools._execute.fill import BEYOND_JSON

    page = (
        "<form toolname=t tooldescription=d toolautosubmit><input name=n type=number>"
        "<input name=r type=range><input name=s><input type=checkbox name=c value=a>"
        "<select name=m multiple><option>a</option></select></form>"
    )
    tool = formtools.extract(page, profile=profile).tool("t")
    assert tool is not None
    for number in (float("nan"), float("inf"), -float("inf"), 10**400, -(10**400)):
        given = {"n": number, "r": number, "s": number, "c": number, "m": ["a", number]}
        problems = formtools.validate_input(tool, given)
        assert [(p.field, p.flag, p.message) for p in problems] == [(key, "badInput", BEYOND_JSON) for key in given]
        for key, value in given.items():
            with pytest.raises(InputError):
                prepare_call(tool, {key: value})
