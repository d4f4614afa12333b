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
        # secrets typed in are not a sensitive output (they are writeOnly parameters)
        ('<form toolname=login tooldescription=d method=post><input type=password name=pw></form>', False),
        ('<form toolname=pay tooldescription=d method=post><input name=c autocomplete=cc-number></form>', False),
        # one of the two words alone is not evidence
        ('<form toolname=verify_token tooldescription=d method=post><input name=t></form>', False),
        ('<form toolname=create_account tooldescription=d method=post><input name=u></form>', False),
        ('<form toolname=keyword_search tooldescription=d><input name=q></form>', False),
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
