"""``sensitiveHint`` means what its proposal says: the tool's *output* may hold sensitive data
(webmcp#110, "Proposal: sensitiveHint annotation for tool outputs and a standardized secret
reference content type"), and withholding that output from the agent is a processing
requirement. Secrets typed *into* a form are ``writeOnly`` parameters (tests/test_hints.py) and
say nothing about the output.

Execution runs against the real test site (tests/support/site.py), whose ``/keys`` makes an API
key and redirects to the page showing it, and ``/keys-now`` shows it in the POST's own answer;
the bridge is a real ``formtools serve`` process with a real MCP client session.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from support.site import TestSite
from typer.testing import CliRunner

import formtools
from formtools.cli import app

KEYS = """<!doctype html><title>Keys</title>
<form toolname=key_in_url tooldescription="Create a key" toolsensitivehint toolautosubmit method=post action=/keys-in-url>
  <button>Go</button></form>
<form toolname=key_lost tooldescription="Create a key" toolsensitivehint toolautosubmit method=post action=/keys-lost>
  <button>Go</button></form>
<form toolname=key_window tooldescription="Create a key" toolsensitivehint toolautosubmit method=post action=/keys-now
  target=_blank><button>Go</button></form>
<form toolname=find_key tooldescription="Look a key up" toolsensitivehint toolautosubmit action=/submit>
  <input name=q><button>Go</button></form>
<form toolname=create_api_key tooldescription="Create an API key" toolautosubmit method=post action=/keys>
  <input name=label required><button>Create key</button>
</form>
<form toolname=show_key_now tooldescription="Make a key" tooltitle="Deploy key" toolautosubmit
      toolsensitivehint method=post action=/keys-now>
  <input name=label><button>Go</button>
</form>
<form toolname=search tooldescription="Search" toolautosubmit action=/submit>
  <input name=q><button>Search</button>
</form>
"""


def sensitive(form: str, profile: str = "html") -> tuple[bool, bool]:
    """(sensitiveHint, whether formtools guessed it) of the page's one tool."""
    (tool,) = formtools.extract_tools(form, base_url="https://shop.example/", profile=profile)
    return tool.annotations["sensitiveHint"], "sensitiveHint" in tool.annotations["x-formtools-inferred-hints"]


@pytest.mark.spec_step("synth-6.2")
@pytest.mark.parametrize(
    "form, expected",
    [
        # a credential handed out: a credential word with a verb that hands one out, or "API key"
        ('<form toolname=create_api_key tooldescription=d method=post><input name=n></form>', True),
        ('<form toolname=t tooldescription=d method=post action=/tokens/new><input name=n></form>', True),
        ('<form toolname=t tooldescription=d method=post><button>Generate recovery codes</button></form>', True),
        ('<form toolname=rotate_secret tooldescription=d method=post><input name=n></form>', True),
        ('<form toolname=apikeys tooldescription=d method=post><input name=n></form>', True),
        ('<form toolname=create tooldescription="Create a personal access token" method=post></form>', True),
        ('<form toolname=t tooldescription=d method=post><button>Show password</button></form>', True),
        ('<form toolname=client tooldescription="View client secret" method=post></form>', True),
        # secrets typed in are not a sensitive output (they are writeOnly parameters)
        ('<form toolname=login tooldescription=d method=post><input type=password name=pw></form>', False),
        ('<form toolname=pay tooldescription=d method=post><input name=c autocomplete=cc-number></form>', False),
        # one of the two words alone is not evidence
        ('<form toolname=verify_token tooldescription=d method=post><input name=t></form>', False),
        ('<form toolname=create_account tooldescription=d method=post><input name=u></form>', False),
        ('<form toolname=keyword_search tooldescription=d><input name=q></form>', False),
        # a person sets a password; deleting or searching keys hands none out
        ('<form toolname=t tooldescription=d method=post><button>Create password</button></form>', False),
        ('<form toolname=delete_api_key tooldescription=d method=post></form>', False),
        ('<form toolname=t tooldescription="Search API keys"><input name=q></form>', False),
    ],
)
def test_sensitive_hint_is_guessed_from_what_the_form_hands_out(form: str, expected: bool) -> None:
    assert sensitive(form) == (expected, True)


def test_the_author_declares_it_either_way_and_it_is_then_not_a_guess() -> None:
    on = '<form toolname=messages tooldescription=d toolsensitivehint><input name=q></form>'
    off = '<form toolname=create_api_key tooldescription=d toolsensitivehint=false method=post></form>'
    assert sensitive(on) == (True, False)
    assert sensitive(off) == (False, False)


@pytest.fixture()
def site():
    with TestSite() as running:
        yield running


def keys_tools(site: TestSite, profile: str = "chromium") -> dict[str, formtools.Tool]:
    url = site.put("keys", KEYS.encode())
    return {t.name: t for t in formtools.extract_tools(site.pages["/page/keys"], base_url=url, profile=profile)}


@pytest.mark.spec_step("exec-result-5")
@pytest.mark.parametrize("profile", ["chromium", "html", "portable"])
def test_a_key_behind_a_redirect_is_given_as_a_redeemable_secret_reference(site: TestSite, profile: str) -> None:
    result = formtools.call_tool(keys_tools(site, profile)["create_api_key"], {"label": "ci"})
    (key,) = site.keys
    assert result.status == "completed" and result.output == [{"@type": "APIKey", "key": key}]
    assert result.result is None  # what an agent is given
    agent = result.to_dict()
    assert key not in json.dumps(agent)
    reference = agent["secret_reference"]
    assert reference["type"] == "secret_reference" and reference["label"] == "create_api_key"
    assert reference["redeemUrl"] == f"{site.origin}/keys/1" and agent["sensitive"] is True
    assert len(reference["id"]) >= 16
    # the redemption contract: GET on the page's origin gives the secret to a person's user agent
    assert key in httpx.get(reference["redeemUrl"]).text
    assert result.to_dict(reveal=True)["result"] == [{"@type": "APIKey", "key": key}]
    # ids are opaque and not reused
    again = formtools.call_tool(keys_tools(site, profile)["create_api_key"], {"label": "ci"})
    assert again.secret_reference is not None and again.secret_reference.id != reference["id"]


@pytest.mark.spec_step("exec-result-5")
def test_the_answer_to_a_post_cannot_be_redeemed_and_is_only_withheld(site: TestSite) -> None:
    result = formtools.call_tool(keys_tools(site)["show_key_now"], {"label": "ci"}, include_text=True)
    (key,) = site.keys
    agent = result.to_dict()
    assert key not in json.dumps(agent) and "text" not in agent
    assert agent["secret_reference"] == {"type": "secret_reference", "id": agent["secret_reference"]["id"],
                                         "label": "Deploy key"}
    assert "cannot be fetched again" in agent["reason"]
    assert result.text == "Thanks!" and key in json.dumps(result.to_dict(reveal=True))


def test_an_output_that_is_not_sensitive_is_given_as_before(site: TestSite) -> None:
    result = formtools.call_tool(keys_tools(site)["search"], {"q": "x"})
    assert result.secret_reference is None and result.result == result.output
    assert result.result is not None and result.result[0]["query"] == "q=x"
    assert "secret_reference" not in result.to_dict() and "sensitive" not in result.to_dict()


def test_the_cli_prints_the_reference_and_reveals_only_when_asked(site: TestSite) -> None:
    url = site.put("keys", KEYS.encode())
    runner = CliRunner()
    shown = runner.invoke(app, ["call", url, "create_api_key", "--input", '{"label": "ci"}'])
    assert shown.exit_code == 0, shown.output
    assert site.keys[0] not in shown.output and '"redeemUrl"' in shown.output
    revealed = runner.invoke(app, ["call", url, "create_api_key", "--input", '{"label": "ci"}', "--reveal"])
    assert revealed.exit_code == 0 and site.keys[1] in revealed.output


def test_the_bridge_never_hands_the_agent_a_sensitive_output(site: TestSite) -> None:
    from test_mcp_bridge import run, stdio_session

    url = site.put("keys", KEYS.encode())

    async def main() -> Any:
        async with stdio_session([url, "--allow-private"]) as session:
            listed = {t.name: t for t in (await session.list_tools()).tools}
            called = await session.call_tool("create_api_key", {"label": "ci"})
            return listed, called

    listed, called = run(main)
    assert listed["create_api_key"].meta["formtools/hints"]["sensitiveHint"] is True
    assert listed["search"].meta["formtools/hints"]["sensitiveHint"] is False
    (key,) = site.keys
    assert key not in called.model_dump_json()
    reference = called.structured_content["secret_reference"]
    assert reference["redeemUrl"] == f"{site.origin}/keys/1" and called.structured_content["result"] is None
    assert "sensitiveHint" in called.content[0].text


@pytest.mark.spec_step("exec-result-5")
def test_a_landing_url_that_holds_the_secret_is_shown_without_its_query(site: TestSite) -> None:
    result = formtools.call_tool(keys_tools(site)["key_in_url"], {})
    (key,) = site.keys
    agent = result.to_dict()
    assert key not in json.dumps(agent)
    assert agent["url"] == f"{site.origin}/shown" and agent["redirects"] == [f"{site.origin}/keys-in-url"]
    assert "redeemUrl" not in agent["secret_reference"]  # the URL holds the secret: not redeemable
    assert key in (result.url or "") and key in json.dumps(result.to_dict(reveal=True))


@pytest.mark.spec_step("exec-result-5")
def test_a_get_form_is_not_redeemed_by_submitting_it_again(site: TestSite) -> None:
    result = formtools.call_tool(keys_tools(site)["find_key"], {"q": "x"})
    assert result.secret_reference is not None and result.secret_reference.redeem_url is None
    assert result.to_dict()["url"] == f"{site.origin}/submit"


def test_a_failed_redirect_does_not_name_the_secret(site: TestSite) -> None:
    with pytest.raises(formtools.SendError) as failure:
        formtools.call_tool(keys_tools(site)["key_lost"], {})
    (key,) = site.keys
    assert key not in str(failure.value) and "http://127.0.0.1:1/done?…" in str(failure.value)


def test_no_page_text_of_a_sensitive_tool_even_when_no_output_reaches_the_agent(site: TestSite) -> None:
    result = formtools.call_tool(keys_tools(site)["key_window"], {}, include_text=True)
    assert result.output is None and result.sensitive and result.secret_reference is None
    assert "text" not in result.to_dict() and "text" in result.to_dict(reveal=True)


def test_the_page_cannot_lower_the_bridge_to_handing_out_a_key(site: TestSite) -> None:
    """toolsensitivehint=false is the author's word (honoured by the library); the bridge takes
    the more cautious of it and the guess, as it does for confirmation."""
    from test_mcp_bridge import run, stdio_session

    page = KEYS.replace("<form toolname=create_api_key", "<form toolsensitivehint=false toolname=create_api_key")
    url = site.put("keys", page.encode())
    (library_tool,) = [t for t in formtools.extract_tools(page, base_url=url) if t.name == "create_api_key"]
    assert formtools.call_tool(library_tool, {"label": "a"}).result is not None

    async def main() -> Any:
        async with stdio_session([url, "--allow-private"]) as session:
            listed = {t.name: t for t in (await session.list_tools()).tools}
            return listed, await session.call_tool("create_api_key", {"label": "b"})

    listed, called = run(main)
    assert listed["create_api_key"].meta["formtools/hints"]["sensitiveHint"] is True
    assert site.keys[1] not in called.model_dump_json() and called.structured_content["sensitive"] is True


def test_the_bridge_does_not_refresh_the_page_after_a_sensitive_output(site: TestSite) -> None:
    """Fetching the page again after a call to its own URL would hand the agent what the call
    made (new tools' descriptions, defaults, options)."""
    from test_mcp_bridge import run, stdio_session

    page = ('<form toolname=new_token tooldescription="New token" toolautosubmit method=post>'
            "<input name=n><button>Go</button></form>")
    url = site.put("tokens", page.encode())

    async def main() -> Any:
        async with stdio_session([url, "--allow-private"]) as session:
            return await session.call_tool("new_token", {"n": "x"})

    called = run(main)
    assert called.structured_content["sensitive"] is True
    fetched = [r.method for r in site.received if r.path == "/page/tokens"]
    assert fetched == ["GET", "POST"]  # the start-up load and the call; no refresh


def test_scrapy_results_are_withheld_as_the_call_is(site: TestSite) -> None:
    pytest.importorskip("scrapy")
    from scrapy.http import HtmlResponse

    from formtools.scrapy import request_of, result_of

    prepared = formtools.prepare_call(keys_tools(site)["create_api_key"], {"label": "s"})
    request = request_of(prepared)
    body = b'<script type="application/ld+json">{"key": "sk-live-scrapy"}</script>'
    response = HtmlResponse(f"{site.origin}/keys/9", body=body, request=request.replace(method="GET"),
                            headers={"Content-Type": "text/html"})
    result = result_of(response)
    assert result.output == [{"key": "sk-live-scrapy"}] and result.result is None
    assert "sk-live-scrapy" not in json.dumps(result.to_dict())
