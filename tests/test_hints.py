"""Annotations and sensitivity hints (``_hints``) and the masking of secrets (``_redact``).

Execution tests run against the real test site (tests/support/site.py), whose ``/submit`` page
echoes what it received as JSON-LD: the secret reaches the site, and never comes back.
"""

from __future__ import annotations

import json
import logging
import socket
from typing import Any

import pytest
from support.site import TestSite
from typer.testing import CliRunner

import formtools
from formtools.cli import app

HINT_KEYS = [
    "autosubmit", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint",
    "humanInTheLoopHint", "sensitiveHint", "x-formtools-inferred-hints",
]
GUESSED = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "humanInTheLoopHint", "sensitiveHint"]


def annotations(form: str, profile: str = "html") -> dict[str, Any]:
    (tool,) = formtools.extract_tools(form, base_url="https://shop.example/", profile=profile)
    return dict(tool.annotations)


@pytest.mark.spec_step("synth-6.2")
def test_a_get_form_reads_only_and_can_be_repeated() -> None:
    hints = annotations('<form toolname=s tooldescription=d toolautosubmit action=/find><input name=q></form>')
    assert list(hints) == HINT_KEYS
    assert hints == {
        "autosubmit": True, "readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
        "openWorldHint": True, "humanInTheLoopHint": "none",
        "sensitiveHint": False, "x-formtools-inferred-hints": tuple(GUESSED),
    }


def test_untrusted_content_is_the_authors_word_and_guesses_are_marked() -> None:
    """untrustedContentHint: "the tool's output contains data that is untrusted, from the
    perspective of the author registering the tool" (WebMCP, ToolAnnotations) — never guessed.
    Every hint formtools guessed is listed in x-formtools-inferred-hints; a declared one is not."""
    declared = annotations(
        '<form toolname=s tooldescription=d toolautosubmit tooluntrustedcontenthint toolreadonlyhint=false'
        ' action=/find><input name=q></form>'
    )
    assert declared["untrustedContentHint"] is True and declared["readOnlyHint"] is False
    assert declared["x-formtools-inferred-hints"] == tuple(k for k in GUESSED if k != "readOnlyHint")
    silent = annotations('<form toolname=s tooldescription=d action=/find><input name=q></form>')
    assert "untrustedContentHint" not in silent  # not declared: absent, never a guessed false
    false = annotations('<form toolname=s tooldescription=d tooluntrustedcontenthint=false><input name=q></form>')
    assert false["untrustedContentHint"] is False


@pytest.mark.spec_step("exec-hitl-1")
def test_a_level_raised_to_formtools_floor_is_formtools_own() -> None:
    """A page may declare humanInTheLoopHint "none", but a form without toolautosubmit is
    reviewed by formtools whatever it says: the level shown is formtools', so it is listed as
    inferred; a declared level at or above the floor is the page's."""
    raised = annotations('<form toolname=s tooldescription=d toolhumanintheloophint=none><input name=q></form>')
    assert raised["humanInTheLoopHint"] == "review"
    assert "humanInTheLoopHint" in raised["x-formtools-inferred-hints"]
    kept = annotations('<form toolname=s tooldescription=d toolhumanintheloophint=confirm><input name=q></form>')
    assert kept["humanInTheLoopHint"] == "confirm"
    assert "humanInTheLoopHint" not in kept["x-formtools-inferred-hints"]


@pytest.mark.spec_step("synth-6.2")
@pytest.mark.parametrize(
    "form",
    [
        # a search word never outweighs a word that says the form removes something
        '<form toolname=delete_search_history tooldescription="Forget searches" method=post'
        ' action=/history/delete toolautosubmit><button>Delete</button></form>',
        '<form toolname=delete_filter tooldescription=d role=search toolautosubmit><input name=q></form>',
        # the description is the one text every declarative tool has
        '<form toolname=account_tool tooldescription="Delete your account permanently" toolautosubmit>'
        '<input name=user></form>',
        '<form toolname=leave_list tooldescription="Unsubscribe this address from the list" toolautosubmit>'
        '<input name=email></form>',
    ],
)
def test_words_that_remove_something_outweigh_get_and_search(form: str) -> None:
    """Found by review: these were readOnlyHint true and humanInTheLoopHint "none" (an agent
    would have called them unasked). A wrong "changes something" only asks a person once more."""
    hints = annotations(form)
    assert hints["readOnlyHint"] is False and hints["idempotentHint"] is False
    assert hints["destructiveHint"] is True and hints["humanInTheLoopHint"] == "confirm"


@pytest.mark.spec_step("synth-6.2")
def test_a_secret_by_name_alone_is_a_marked_guess(tmp_path) -> None:
    """``writeOnly`` from a password input, an autocomplete token or toolparamsensitive is the
    page's word; from the name alone (pin, ssn, secret) formtools' guess, listed as such, and
    gone with --no-infer (the value stays masked in what formtools shows)."""
    form = (
        '<form toolname=ship tooldescription=d><input name=pin_code><input type=password name=pw>'
        '<input name=code autocomplete=one-time-code></form>'
    )
    (tool,) = formtools.extract_tools(form, profile="html")
    properties = tool.to_dict()["inputSchema"]["properties"]
    assert properties["pin_code"]["writeOnly"] and properties["pin_code"]["x-formtools-inferred-hints"] == ["writeOnly"]
    for key in ("pw", "code"):
        assert properties[key]["writeOnly"] and "x-formtools-inferred-hints" not in properties[key]
    page = tmp_path / "p.html"
    page.write_text(form)
    done = CliRunner().invoke(app, ["extract", str(page), "--profile", "html", "--no-infer"])
    assert done.exit_code == 0, done.output
    properties = json.loads(done.output)[0]["inputSchema"]["properties"]
    assert "writeOnly" not in properties["pin_code"] and "x-formtools-inferred-hints" not in properties["pin_code"]
    assert properties["pw"]["writeOnly"] and properties["code"]["writeOnly"]


@pytest.mark.parametrize(
    "form",
    [
        '<form toolname=logout tooldescription=d action=/logout><button>Log out</button></form>',
        '<form toolname=mail tooldescription=d action=/u><button>Unsubscribe</button></form>',
        '<form toolname=x tooldescription=d action=/session><button>Sign out</button></form>',
        '<form toolname=add_to_cart tooldescription="Add this product to the cart" action=/shop/><input type=hidden name=add-to-cart value=42><button>Add</button></form>',
        '<form toolname=archive tooldescription="Archive this conversation" action=/c/1><button>Archive</button></form>',
        '<form toolname=book_table tooldescription="Book a table" action=/r><input name=time><button>Book</button></form>',
    ],
)
def test_a_get_form_that_says_it_changes_something_is_not_read_only(form: str) -> None:
    """GET is meant to be safe, but such GET forms exist: GET is evidence of reading only when
    no word of the form says otherwise (adding, booking and archiving were read-only and
    idempotent, which invites a retry that books twice: an outside review's finding)."""
    found = annotations(form)
    assert found["readOnlyHint"] is False and found["idempotentHint"] is False


@pytest.mark.parametrize(
    "form",
    [
        '<form toolname=change_password tooldescription="Change your password" method=post><input type=password name=p><button>Save</button></form>',
        '<form toolname=update_address tooldescription="Update the shipping address on file" method=post><input name=a><button>Save</button></form>',
        '<form toolname=replace_file tooldescription="Upload a new version" method=post><input name=f><button>Replace</button></form>',
    ],
)
def test_a_form_that_overwrites_something_is_destructive(form: str) -> None:
    """MCP: destructiveHint false means "only additive updates" (default true); a form named for
    changing, updating or replacing what is on file overwrites it (an outside review found such
    forms published as non-destructive and submitted with a notice only)."""
    found = annotations(form)
    assert found["destructiveHint"] is True and found["humanInTheLoopHint"] == "confirm"


@pytest.mark.parametrize(
    "form",
    [
        '<form toolname=sort tooldescription="Sort the list" action=/list><select name=by><option>price</select><button>Update</button></form>',
        '<form toolname=news tooldescription="News" action=/update-view><button>Show updates</button></form>',
    ],
)
def test_a_get_form_that_updates_a_view_is_not_destructive(form: str) -> None:
    """Overwriting is a POST's: a GET "Update" button refreshes what is shown (a review of the
    overwrite words found such forms made destructive, and confirmed)."""
    found = annotations(form)
    assert found["destructiveHint"] is False and found["humanInTheLoopHint"] != "confirm"


@pytest.mark.parametrize(
    "form",
    [
        '<form toolname=s tooldescription=d role=search action=/archive/search><input name=q><button>Search</button></form>',
        '<form toolname=find_a_book tooldescription="Find a book in the catalogue" action=/book><input name=q><button>Find</button></form>',
    ],
)
def test_a_search_that_names_an_adding_verb_stays_read_only(form: str) -> None:
    assert annotations(form)["readOnlyHint"] is True


def test_prose_about_updates_makes_no_form_destructive() -> None:
    form = '<form toolname=signup tooldescription="Sign up to get updates and change alerts" method=post><input name=e><button>Join</button></form>'
    assert annotations(form)["destructiveHint"] is False


def test_no_infer_leaves_only_what_the_page_declares(tmp_path) -> None:
    page = tmp_path / "p.html"
    page.write_text('<form toolname=s tooldescription=d toolautosubmit tooldestructivehint=false><input name=q></form>')
    done = CliRunner().invoke(app, ["extract", str(page), "--profile", "html", "--no-infer"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)[0]["annotations"] == {"autosubmit": True, "destructiveHint": False}


@pytest.mark.spec_step("synth-6.2", "exec-hitl-1")
@pytest.mark.parametrize(
    "form, destructive",
    [
        ('<form toolname=deleteNote tooldescription=d method=post toolautosubmit><button>Go</button></form>', True),
        ('<form toolname=x tooldescription=d method=post action="/account/remove" toolautosubmit><button>Go</button></form>', True),
        ('<form toolname=x tooldescription=d method=post toolautosubmit><button>Cancel subscription</button></form>', True),
        ('<form toolname=x tooldescription=d method=post toolautosubmit><button>Save</button></form>', False),
        # GET reads only when no word says otherwise: a GET "delete" form is destructive too
        ('<form toolname=deleteNote tooldescription=d toolautosubmit><button>Delete</button></form>', True),
        ('<form toolname=notes tooldescription=d toolautosubmit><button>Show</button></form>', False),
        # the submitter's formmethod decides
        ('<form toolname=deleteNote tooldescription=d toolautosubmit><button formmethod=post>Go</button></form>', True),
    ],
)
def test_destructive_forms_need_confirmation(form: str, destructive: bool) -> None:
    hints = annotations(form)
    assert hints["destructiveHint"] is destructive
    assert (hints["humanInTheLoopHint"] == "confirm") is destructive


@pytest.mark.spec_step("synth-6.2", "exec-hitl-1")
@pytest.mark.parametrize(
    "form",
    [
        '<form toolname=x tooldescription=d method=post toolautosubmit><input type=submit value="Pay now"></form>',
        '<form toolname=x tooldescription=d method=post toolautosubmit><input name=n autocomplete="billing cc-number"><button>Go</button></form>',
        '<form toolname=checkout tooldescription=d toolautosubmit><input name=n></form>',  # even with GET
    ],
)
def test_payments_need_confirmation_but_are_not_destructive_updates(form: str) -> None:
    """MCP's destructiveHint is about destructive (not additive) updates; money leaving is
    formtools' own reason to ask for a yes."""
    hints = annotations(form)
    assert hints["destructiveHint"] is False and hints["readOnlyHint"] is False
    assert hints["humanInTheLoopHint"] == "confirm"


def test_subscribing_to_a_newsletter_is_not_a_payment() -> None:
    hints = annotations(
        '<form toolname=subscribe_newsletter tooldescription=d method=post toolautosubmit>'
        '<input name=email><button>Subscribe</button></form>'
    )
    assert hints["destructiveHint"] is False and hints["humanInTheLoopHint"] == "notify"


@pytest.mark.spec_step("exec-hitl-1")
def test_a_state_changing_form_notifies_and_one_without_autosubmit_is_reviewed() -> None:
    post = '<form toolname=save tooldescription=d method=post {}><input name=a><button>Save</button></form>'
    assert annotations(post.format("toolautosubmit"))["humanInTheLoopHint"] == "notify"
    assert annotations(post.format(""))["humanInTheLoopHint"] == "review"


def test_search_forms_read_only_even_with_post() -> None:
    for form in (
        '<form toolname=x tooldescription=d method=post role=search toolautosubmit><input name=q></form>',
        '<form toolname=x tooldescription=d method=post toolautosubmit><input type=search name=q></form>',
        '<form toolname=findFlights tooldescription=d method=post toolautosubmit><input name=q></form>',
    ):
        hints = annotations(form)
        assert hints["readOnlyHint"] and hints["idempotentHint"] and not hints["destructiveHint"]


def test_dialog_and_mailto_forms_touch_no_outside_world() -> None:
    for attributes in ("method=dialog", 'method=post action="mailto:a@example.com"'):
        hints = annotations(f"<form toolname=x tooldescription=d {attributes} toolautosubmit><input name=a></form>")
        assert hints["openWorldHint"] is False and "untrustedContentHint" not in hints


@pytest.mark.spec_step("synth-6.2")
def test_authors_override_each_hint() -> None:
    hints = annotations(
        '<form toolname=deleteDraft tooldescription=d method=post toolautosubmit tooldestructivehint=false '
        'toolidempotenthint tooluntrustedcontenthint="FALSE" toolhumanintheloophint=none '
        'toolopenworldhint=maybe><button>Delete</button></form>'
    )
    assert hints["destructiveHint"] is False
    assert hints["idempotentHint"] is True
    assert hints["untrustedContentHint"] is False
    assert hints["humanInTheLoopHint"] == "none"  # the override wins over the guessed "confirm"
    assert hints["openWorldHint"] is True  # an unknown value leaves the guess


@pytest.mark.spec_step("exec-hitl-1")
def test_without_toolautosubmit_a_person_reviews_whatever_the_author_says() -> None:
    hints = annotations('<form toolname=x tooldescription=d toolhumanintheloophint=none><button>Go</button></form>')
    assert hints["humanInTheLoopHint"] == "review"
    hints = annotations('<form toolname=x tooldescription=d toolhumanintheloophint=Confirm><button>Go</button></form>')
    assert hints["humanInTheLoopHint"] == "confirm"


LOGIN = """<form toolname=login tooldescription="Sign in" method=post action=/submit toolautosubmit>
<input name=user value=ann>
<input type=password name=pw value=preset required toolparamdescription="Password">
<input name=code autocomplete="section-a one-time-code">
<input name=pin>
<input name=card autocomplete="cc-number" list=cards toolparamsensitive=false>
<input type=email name=backup toolparamsensitive>
<datalist id=cards><option value=4111></datalist>
<button>Sign in</button></form>"""


@pytest.mark.spec_step("synth-5.16")
def test_sensitive_fields_are_marked_and_their_values_not_shown() -> None:
    (tool,) = formtools.extract_tools(LOGIN, base_url="https://shop.example/", profile="html")
    properties = tool.input_schema["properties"]
    marked = sorted(key for key, fragment in properties.items() if fragment.get("writeOnly"))
    assert marked == ["backup", "code", "pin", "pw"]
    assert dict(properties["pw"]) == {
        "type": "string", "minLength": 1, "x-formtools-html-type": "password", "description": "Password",
        "writeOnly": True,
    }
    assert properties["user"]["default"] == "ann"  # not a secret: its value is shown
    assert list(properties["card"]["examples"]) == ["4111"]  # the author said it is not a secret
    # secrets typed in are writeOnly inputs; sensitiveHint is about the output (webmcp#110)
    assert tool.annotations["sensitiveHint"] is False


def test_portable_says_a_secret_in_words_and_chromium_stays_chromium() -> None:
    (portable,) = formtools.extract_tools(LOGIN, base_url="https://shop.example/", profile="portable")
    assert "writeOnly" not in json.dumps(formtools.dumps(portable.to_dict()))
    assert portable.input_schema["properties"]["pw"]["description"] == "Password (a secret: never shown back)"
    (chromium,) = formtools.extract_tools(LOGIN, base_url="https://shop.example/")
    assert dict(chromium.annotations) == {"autosubmit": True}
    assert "writeOnly" not in formtools.dumps(chromium.to_dict())


@pytest.fixture()
def site():
    with TestSite() as running:
        yield running


def login_tool(site: TestSite, method: str = "post") -> formtools.Tool:
    url = site.put("login", LOGIN.replace("method=post", f"method={method}").encode())
    (tool,) = formtools.extract_tools(site.pages["/page/login"], base_url=url, profile="html")
    return tool


CALL = {"user": "ann", "pw": "hunter22", "code": "481516", "pin": "007"}


@pytest.mark.spec_step("exec-result-5")
def test_a_post_sends_the_secrets_and_shows_none_of_them(site: TestSite, caplog: Any) -> None:
    tool = login_tool(site)
    with caplog.at_level(logging.DEBUG):
        result = formtools.call_tool(tool, CALL)
    (received,) = site.submissions()
    assert b"pw=hunter22" in received.body and b"code=481516" in received.body and b"pin=007" in received.body
    shown = json.dumps(result.to_dict()) + caplog.text
    for secret in ("hunter22", "481516"):
        assert secret not in shown
    echoed = result.json_ld[0]["body"]
    assert "pw=[redacted]" in echoed and "code=[redacted]" in echoed
    assert "pin=007" in echoed  # shorter than 4 characters: masked only where it is a whole value
    assert result.request is not None and b"pin=%5Bredacted%5D" in (result.request.body or b"")


@pytest.mark.spec_step("exec-result-5")
def test_a_get_form_masks_its_query_in_the_url_the_result_and_the_log(site: TestSite, caplog: Any) -> None:
    tool = login_tool(site, "get")
    with caplog.at_level(logging.DEBUG):
        result = formtools.call_tool(tool, CALL)
    (received,) = site.submissions()
    assert "pw=hunter22" in received.query and "pin=007" in received.query
    assert "hunter22" not in json.dumps(result.to_dict()) and "hunter22" not in caplog.text
    assert "pin=%5Bredacted%5D" in (result.url or "")  # a short secret, masked by its parameter
    assert any(r.name.startswith("httpcore") for r in caplog.records)  # the HTTP client logged, no secret


def test_a_failed_send_does_not_name_the_secret() -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    (tool,) = formtools.extract_tools(
        LOGIN.replace("method=post", "method=get"), base_url=f"http://127.0.0.1:{port}/", profile="html"
    )
    with pytest.raises(formtools.SendError) as failure:
        formtools.call_tool(tool, CALL)
    message = str(failure.value)
    assert "hunter22" not in message and "pw=%5Bredacted%5D" in message and "Connection refused" in message


@pytest.mark.spec_step("exec-fill-4.3", "exec-validate-4")
def test_error_messages_do_not_quote_a_secret() -> None:
    (tool,) = formtools.extract_tools(LOGIN, base_url="https://shop.example/", profile="html")
    with pytest.raises(formtools.ValidationError) as invalid:
        formtools.prepare_call(tool, {**CALL, "backup": "not-an-address"})
    assert "not-an-address" not in str(invalid.value)
    assert "backup: Please enter an email address. '[redacted]' is not one." in str(invalid.value)
    problems = formtools.validate_input(tool, {**CALL, "backup": "not-an-address", "pw": 7})
    assert problems and "not-an-address" not in " ".join(map(str, problems))
    # Chromium's "Invalid value "<value>"" message leaves the value out for a secret
    (chromium,) = formtools.extract_tools(
        '<form toolname=t tooldescription=d><select name=pin><option>1</option></select>'
        '<select name=size><option>1</option></select><button>Go</button></form>'
    )
    with pytest.raises(formtools.InputError) as rejected:
        formtools.prepare_call(chromium, {"pin": "9999", "size": "9999"})
    assert [p.message for p in rejected.value.problems] == [
        "Invalid value for parameter pin",
        'Invalid value "9999" for parameter size',
    ]


@pytest.mark.spec_step("exec-submit-5")
def test_cli_dry_run_masks_the_secret(tmp_path: Any) -> None:
    page = tmp_path / "login.html"
    page.write_text(LOGIN)
    outcome = CliRunner().invoke(
        app,
        ["call", str(page), "login", "--base-url", "https://shop.example/", "--dry-run",
         "--input", json.dumps(CALL)],
    )
    assert outcome.exit_code == 0, outcome.output
    assert "hunter22" not in outcome.output
    assert "pw=%5Bredacted%5D" in json.loads(outcome.output)["body"]


def test_an_unannotated_form_is_judged_by_its_id_too() -> None:
    (tool,) = formtools.extract_tools(
        '<form id=delete-account method=post><input name=reason><button>Go on</button></form>',
        base_url="https://shop.example/", profile="html", all_forms=True,
    )
    assert tool.inferred and tool.annotations["destructiveHint"] is True


def test_an_action_python_cannot_split_still_gets_hints() -> None:
    """``http://[bad/`` is an action browsers navigate to about:blank#blocked; urlsplit raised
    (found by the outcome generator)."""
    hints = annotations('<form toolname=t tooldescription=d action="http://[bad/delete"><input name=q></form>')
    assert hints["readOnlyHint"] is False and hints["destructiveHint"] is True  # GET, but "delete"


@pytest.mark.spec_step("synth-6.2")
@pytest.mark.parametrize(
    "form",
    [
        # inflected verbs, the action's query, the submitter's name/value/aria-label, more verbs
        '<form toolname=a tooldescription="Deletes your account permanently"><input name=q></form>',
        '<form toolname=a tooldescription="Permanently deleting your data" method=post><input name=q></form>',
        # a POST keeps the action's query (a GET replaces it with the form's: not evidence)
        '<form toolname=a tooldescription=d method=post action="/account?op=delete"><input name=q></form>',
        '<form toolname=a tooldescription=d><input name=q><button name=op value=delete>X</button></form>',
        '<form toolname=a tooldescription=d><input name=q><button aria-label=Delete>X</button></form>',
        '<form toolname=a tooldescription="Clear your search history"><input name=q></form>',
        '<form toolname=a tooldescription="Empty the trash"><input name=q></form>',
        '<form toolname=a tooldescription="Removes the listing"><input name=q></form>',
    ],
)
def test_words_that_remove_something_in_any_form_of_the_word(form: str) -> None:
    """Found by the second review: each of these was readOnlyHint true."""
    hints = annotations(form)
    assert hints["readOnlyHint"] is False and hints["humanInTheLoopHint"] == "confirm"


def test_a_get_actions_query_is_no_evidence() -> None:
    """A GET replaces the action's query with the form's: "?drop=me" never reaches the site."""
    hints = annotations('<form toolname=a tooldescription=d action="/up?drop=me" toolautosubmit><input name=q></form>')
    assert hints["readOnlyHint"] is True


def test_a_prepared_call_printed_whole_shows_no_secret() -> None:
    """``repr(prepared_call)`` — what a REPL, a test's assertion or a ``%r`` log line prints —
    held every secret three times: in the filled state, in the request about to be sent and in
    the call's ``Secrets``. Over every fixture tool with a sensitive field (a password, a card
    number, a one-time code), under every profile, a call given a secret value prints none of it."""
    from formtools._forms.sensitive import sensitive_keys
    from tests.conftest import FIXTURES

    checked = 0
    for page in sorted(FIXTURES.glob("*.html")):
        for profile in ("chromium", "html"):
            for tool in formtools.extract_tools(page.read_bytes(), base_url="https://shop.example/", profile=profile):
                properties = tool.input_schema["properties"]
                secrets = {
                    key: f"Zq7-secret-{n}-vX"
                    for n, key in enumerate(sorted(sensitive_keys(tool.form)))
                    if properties.get(key, {}).get("type") == "string" and "enum" not in properties[key]
                }
                if not secrets:
                    continue
                try:
                    prepared = formtools.prepare_call(tool, secrets)
                except (formtools.InputError, formtools.ValidationError, formtools.SubmissionError):
                    continue
                checked += 1
                shown = repr(prepared) + str(prepared.secrets)
                assert not [s for s in secrets.values() if s in shown], (page.name, tool.name, profile)
    assert checked >= 8


#: Unicode's White_Space characters that are no ASCII white space (HTML's is tab, LF, FF, CR
#: and space; U+000B, a vertical tab, is none either)
NOT_ASCII_WHITE_SPACE = "\u000b\u0085\u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"


@pytest.mark.spec_step("synth-6.2")
@pytest.mark.parametrize(
    ("form", "read"),
    [
        ('<form toolname=p tooldescription=d><input name=f autocomplete="section-a{}cc-csc"></form>', "writeOnly"),
        ('<form toolname=p tooldescription=d><input name=f autocomplete="{}one-time-code"></form>', "writeOnly"),
        ('<form toolname=p tooldescription=d><input name=f autocomplete="one-time-code{}"></form>', "writeOnly"),
        ('<form toolname=p tooldescription=d method=post role="{}search"><input name=f></form>', "readOnlyHint"),
        ('<form toolname=p tooldescription=d method=post role="search{}"><input name=f></form>', "readOnlyHint"),
    ],
)
def test_unicode_white_space_in_a_token_attribute_is_part_of_the_token(form: str, read: str) -> None:
    """HTML splits ``autocomplete`` (and ARIA ``role``) on ASCII white space and strips ASCII
    white space only: ``section-a\\u00a0cc-csc`` is one token, a field name of no card, and
    ``\\u3000search`` no search role. formtools split on Python's white space, every Unicode
    White_Space character, and read a card code and a search form there. Generated: each such
    character that is no ASCII white space, in each place, reads as another character that is
    no white space (``é``) reads; a space there is read otherwise (so the place matters)."""

    def answer(character: str) -> Any:
        (tool,) = formtools.extract_tools(form.format(character), base_url="https://shop.example/", profile="html")
        if read == "writeOnly":
            return tool.to_dict()["inputSchema"]["properties"]["f"].get("writeOnly", False)
        return tool.annotations[read]

    other = answer("é")
    assert answer(" ") != other or answer("") != other, "the place decides nothing"
    wrong = {f"U+{ord(c):04X}": answer(c) for c in NOT_ASCII_WHITE_SPACE if answer(c) != other}
    assert not wrong, f"read otherwise than é ({other}): {wrong}"


def test_every_keyword_attribute_of_formtools_reads_white_space_as_role_does() -> None:
    """formtools' own keyword attributes (each hint override, ``toolhumanintheloophint``,
    ``toolparamsensitive``) and lint's ``false-boolean`` check read a value as ``role`` is
    read (``keyword``: ASCII white space around it stripped, ASCII case ignored): the keyword
    wrapped in drawn ASCII white space reads as the keyword itself, wrapped in white space
    outside ASCII (a no-break space, U+3000) as an unknown word. Before, these spelled it with
    ``str.strip().lower()``: ``toolreadonlyhint="false\\u00a0"`` overrode the hint and
    ``required="false\\u3000"`` was a ``false-boolean`` error while ``role="search\\u00a0"``
    was no search."""
    import random

    rng = random.Random(2105)
    places = [
        ('<form toolname=s tooldescription=d method=post action=/items {}><input name=q></form>', f"{attribute}=\"{{}}\"", value)
        for attribute, value in [
            ("toolreadonlyhint", "false"), ("tooldestructivehint", "TRUE"), ("toolidempotenthint", "false"),
            ("toolopenworldhint", "False"), ("tooluntrustedcontenthint", "true"), ("toolhumanintheloophint", "Confirm"),
            ("toolsensitivehint", "true"), ("role", "Search"), ("novalidate", "false"),
        ]
    ] + [
        ('<form toolname=s tooldescription=d action=/items><input name=q {}></form>', f"{attribute}=\"{{}}\"", value)
        for attribute, value in [("toolparamsensitive", "TRUE"), ("required", "false")]
    ]

    def read(form: str, written: str, value: str) -> Any:
        markup = form.format(written.format(value))
        extraction = formtools.extract(markup, base_url="https://shop.example/", profile="html")
        return [tool.to_dict() for tool in extraction.tools], sorted(d.code for d in extraction.diagnostics)

    wrong = []
    for form, written, value in places:
        unknown = read(form, written, "unknown")
        if read(form, written, value) == unknown:
            wrong.append(f"{written.format(value)} decides nothing")
        ascii_wrapped = rng.choice(" \t\n\f\r") + value + rng.choice(" \t\n\f\r")
        if read(form, written, ascii_wrapped) != read(form, written, value):
            wrong.append(f"{written.format(ascii_wrapped)!r} is not {value!r}")
        for space in NOT_ASCII_WHITE_SPACE:
            wrapped = rng.choice((space + value, value + space))
            if read(form, written, wrapped) != unknown:
                wrong.append(f"{written.format(wrapped)!r} reads as {value!r}, not as an unknown word")
    assert not wrong, "\n".join(wrong)
