"""``--all-forms``: unannotated forms as inferred tools.

Name and description inference on realistic pages (tests/data/unannotated-*.html), the rules one by
one, stability and uniqueness, declared tools left byte-identical, and the flag end to end: the
library, the CLI (real processes), ``formtools batch``, a real call against the test site on
127.0.0.1 and a real MCP client session with ``formtools serve --all-forms``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import formtools
from formtools._crawl.batch import BatchOptions, run_batch
from formtools._spec.constants import TOOL_NAME
from tests.conftest import FIXTURES, ROOT
from tests.support.site import TestSite

DATA = ROOT / "tests" / "data"
PAGES = sorted(DATA.glob("unannotated-*.html"))
OPENAI_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # OpenAI function names
ENV = {"PYTHONPATH": str(ROOT / "src")}


def extraction(
    page: Path | str, *, all_forms: bool = True, url: str = "https://acme.example/p"
) -> formtools.Extraction:
    source = page.read_bytes() if isinstance(page, Path) else page
    return formtools.extract(source, base_url=url, all_forms=all_forms)


def described(result: formtools.Extraction) -> dict[str, tuple[bool, str]]:
    return {tool.name: (tool.inferred, tool.description) for tool in result.tools}


def findings(result: formtools.Extraction, code: str) -> list[str]:
    return [f"{d.form}: {d.detail}" for d in result.diagnostics if d.code == code]


# ---------------------------------------------------------------------------------------------
# realistic pages


def test_blog_page() -> None:
    result = extraction(DATA / "unannotated-blog.html")
    assert described(result) == {
        "search": (True, "Heading: The Crumb Journal. Submit button: Go. Submits: GET /search."),
        "commentform": (
            True,
            "Heading: Leave a reply. Submit button: Post Comment. Submits: POST /wp-comments-post.php.",
        ),
        "get_the_weekly_bake": (
            True,
            (
                "Get the weekly bake. Submit button: Subscribe. "
                "Submits: POST https://crumb.us1.list-manage.com/subscribe/post."
            ),
        ),
    }
    assert findings(result, "inferred-tool") == [
        "form #1 (line 13): named 'search' from its role, described from its heading, submit button and action",
        (
            "form #2 (id='commentform', line 26): named 'commentform' from its id, described from its "
            "heading, submit button and action"
        ),
        (
            "form #3 (line 39): named 'get_the_weekly_bake' from its aria-labelledby, described from "
            "its aria-labelledby, submit button and action"
        ),
    ]
    assert findings(result, "not-inferred") == [
        "form #4 (line 47): method=dialog: submitting it closes a dialog and sends nothing",
        "form #5 (line 53): it has no named controls and no action: submitting it sends nothing anywhere",
    ]
    # the schema is the profile's synthesis of the form, as if it had been annotated
    comment = result.tool("commentform")
    assert comment is not None
    assert list(comment.input_schema["properties"]) == ["comment", "author", "email"]
    assert list(comment.input_schema["required"]) == ["comment", "author", "email"]


def test_shop_page_keeps_declared_names_and_numbers_collisions() -> None:
    result = extraction(DATA / "unannotated-shop.html")
    assert {name: inferred for name, (inferred, _) in described(result).items()} == {
        "add_to_cart": True,
        "add_to_cart_2": True,
        "add_to_wishlist": False,
        "back_in_stock_alert": True,
        "currency_switcher": True,
        "search": False,  # declared further down the page: the header search may not take it
        "search_2": True,
    }
    assert result.tool("search").description == "Search the shoe catalogue"
    assert result.tool("add_to_cart").description == (
        "Heading: Trail Runner 3. Submit button: Add to cart. Submits: POST /cart/add."
    )
    assert result.tool("add_to_cart_2").description == (
        "Heading: Trail Runner 2. Submit button: Add to cart. Submits: POST /cart/add."
    )
    assert result.tool("back_in_stock_alert").description == (
        "Back-in-stock alert. Heading: Trail Runner 3. Submit button: Notify me. Submits: POST /back-in-stock."
    )
    # no submit button, but no text field either: Enter submits it, so it is a tool
    assert result.tool("currency_switcher").description == "Submits: POST /locale."


def test_account_page() -> None:
    result = extraction(DATA / "unannotated-account.html")
    assert described(result) == {
        "sign_in": (
            True,
            "Heading: Sign in to Acme. Submit button: Sign in. Submits: POST /session.",
        ),
        "reset_your_password": (
            True,
            "Reset your password. Submit button: Send reset link. Submits: POST /password_resets.",
        ),
        "form": (True, "Heading: ログイン. Submits: POST /."),  # no source has a Latin word
        "log_out": (True, "Submit button: Log out. Submits: POST /logout."),
    }
    assert findings(result, "not-inferred") == [
        "form #5 (line 32): its action is a mailto: URL: submitting it opens a mail client",
        "form #6 (line 36): it has no submit button and several text fields, so Enter does not submit it",
    ]


# ---------------------------------------------------------------------------------------------
# the rules, one by one


def only_tool(html: str, **options: Any) -> formtools.Tool:
    (tool,) = extraction(html, **options).tools
    return tool


@pytest.mark.parametrize(
    ("form", "name"),
    [
        ('<form id="searchForm" action="/q"><input name=q><button>Find</button></form>', "search"),
        (
            '<form id="HTMLUploadForm2" method=post action=/u><input name=a><button>Go</button></form>',
            "html_upload_2",
        ),
        ('<form name="login_frm" method=post><input name=u><button>x</button></form>', "login"),
        (
            '<form aria-label="Réserver une chambre"><input name=n><button>x</button></form>',
            "reserver_une_chambre",
        ),
        ("<form><input name=q><button>Rechercher</button></form>", "rechercher"),
        # a generic button label gives way to the action, then to the heading
        (
            '<form action="/cgi-bin/find-a-dealer.php?x=1"><input name=z><input type=submit></form>',
            "find_a_dealer",
        ),
        (
            '<form action="/api/v2/newsletter/post"><input name=e><button>OK</button></form>',
            "newsletter",
        ),
        (
            '<h2>Opening hours</h2><form action="/index.php"><input name=d><button>Go</button></form>',
            "opening_hours",
        ),
        ('<form id="form-12"><input name=q><button>Submit</button></form>', "form"),
        # more than five words: stopwords go first, then the words after the fifth
        (
            '<form title="Sign up for our weekly newsletter and get a discount"><input name=e><button>x</button></form>',
            "sign_up_weekly_newsletter_get",
        ),
        ("<form><input name=q><button>Add to cart</button></form>", "add_to_cart"),
        (f'<form id="{"x" * 100}"><input name=q><button>x</button></form>', "x" * 64),
        (
            '<form><input name=q><input type=image alt="Search the map" src=go.png></form>',
            "search_the_map",
        ),
        # identifiers are split at case changes, visible text is not
        (
            '<form action="/addToCart"><input name=q><button>Continue with GitHub</button></form>',
            "continue_with_github",
        ),
        ('<form action="/addToCart"><input name=q><button>Continue</button></form>', "add_to_cart"),
        # a generic button, a generic action: the one field names it, before the heading
        (
            (
                "<h1>Shop</h1><form action=/submit><label>Language <select name=l><option>en</select>"
                "</label><input type=hidden name=t value=1><button>Change</button></form>"
            ),
            "language",
        ),
        (
            "<form action=/x/><select name=sortOrder><option>a</select><button>Set</button></form>",
            "sort_order",
        ),
    ],
)
def test_name_sources(form: str, name: str) -> None:
    tool = only_tool(form)
    assert tool.name == name and tool.inferred
    assert TOOL_NAME.fullmatch(tool.name) and OPENAI_NAME.fullmatch(tool.name)


def test_description_prefers_the_authors_tooldescription_and_keeps_the_error() -> None:
    result = extraction(
        '<form tooldescription="Find a store near you"><input name=zip><button>Go</button></form>'
    )
    (tool,) = result.tools
    assert (tool.name, tool.description, tool.inferred) == ("zip", "Find a store near you", True)
    assert [d.code for d in result.diagnostics][:2] == ["missing-toolname", "inferred-tool"]


def test_description_sources_in_order() -> None:
    page = (
        '<h2 id=h>Stores</h2><form aria-description="Look a store up" aria-label="Store finder" '
        'aria-labelledby=h title="Find" action="stores/find?src=web"><input name=q><button>Go</button></form>'
    )
    assert only_tool(page).description == (
        "Look a store up. Heading: Stores. Submit button: Go. Submits: GET /stores/find."
    )
    page = page.replace('aria-description="Look a store up" ', "")
    assert only_tool(page).description.startswith("Store finder. Heading: Stores.")
    page = page.replace('aria-label="Store finder" ', "")
    assert only_tool(page).description.startswith("Stores. Submit button: Go.")  # heading = label
    page = page.replace("aria-labelledby=h ", "")
    assert only_tool(page).description.startswith("Find. Heading: Stores.")
    # another origin is named; an empty action submits to the page itself
    other = '<form action="https://maps.example/s?k=1"><input name=q><button>Go</button></form>'
    assert only_tool(other).description.endswith("Submits: GET https://maps.example/s.")
    empty = "<form><input name=q><button>Go</button></form>"
    assert only_tool(empty).description == "Submit button: Go. Submits: GET this page."


def test_the_heading_is_the_forms_own_or_the_last_one_of_its_section() -> None:
    page = """<h1>Site</h1>
    <section><h2>Opening hours</h2><p>…</p></section>
    <form action=/a><input name=q><button>Go</button></form>
    <section><h2>Contact</h2><div><form action=/b><input name=q><button>Go</button></form></div></section>
    <form action=/c><h3>Inside</h3><input name=q><button>Go</button></form>"""
    headings = {t.form.attributes["action"]: t.form.heading for t in extraction(page).tools}
    assert headings == {"/a": "Site", "/b": "Contact", "/c": "Inside"}


@pytest.mark.parametrize(
    ("form", "reason"),
    [
        ("<form method=dialog><input name=a><button>Close</button></form>", "method=dialog"),
        ("<form><input name=a><button formmethod=dialog>Close</button></form>", "method=dialog"),
        ('<form action="javascript:go()"><input name=a><button>Go</button></form>', "javascript:"),
        (
            '<form action=" mailto:x@example.com"><input name=a><button>Go</button></form>',
            "mailto:",
        ),
        (
            "<form action=/a><input name=a><button disabled>Go</button></form>",
            "submit buttons are disabled",
        ),
        ("<form action=/a><input name=a><input type=email name=b></form>", "several text fields"),
        ("<form><input><button>Filter</button></form>", "no named controls and no action"),
        (
            "<form action=''><button name=''>Filter</button></form>",
            "no named controls and no action",
        ),
    ],
)
def test_forms_that_cannot_do_anything_useful_are_left_out_with_a_reason(
    form: str, reason: str
) -> None:
    result = extraction(form)
    assert result.tools == ()
    (finding,) = findings(result, "not-inferred")
    assert reason in finding


@pytest.mark.parametrize(
    "form",
    [
        "<form action=/search><input type=search name=q></form>",  # Enter submits it
        "<form action=/search><input name=q><input type=checkbox name=exact></form>",
        "<form method=post action=/logout><button>Log out</button></form>",  # nothing to fill
        "<form method=post><button name=delete value=1>Delete</button></form>",  # sends delete=1 here
    ],
)
def test_forms_that_can_be_submitted_are_kept(form: str) -> None:
    result = extraction(form)
    assert len(result.tools) == 1 and result.tools[0].inferred
    assert "no-submit-button" not in {d.code for d in result.diagnostics}


def test_forms_with_a_toolname_are_never_inferred_but_reserve_their_name() -> None:
    page = """
    <form toolname=search><input name=q><button>Go</button></form>
    <form toolname="bad name" tooldescription=x><input name=q><button>Go</button></form>
    <form toolname=Contact tooldescription=x><input name=q><button>Go</button></form>
    <form action=/search><input name=q><button>Search</button></form>
    <form action=/contact method=post><input name=q><button>Send</button></form>"""
    result = extraction(page)
    assert [(t.name, t.inferred) for t in result.tools] == [
        ("Contact", False),
        ("contact_2", True),  # names are reserved whatever their letter case
        ("search_2", True),  # "search" is written on a form that does not register
    ]
    assert {"missing-tooldescription", "invalid-toolname"} <= {d.code for d in result.diagnostics}


def test_uniqueness_suffixes_stay_valid_and_unique() -> None:
    forms = "".join(
        f'<form id="{"very-long-name-" * 8}"><input name=q><button>Go</button></form>'
        for _ in range(12)
    )
    names = [t.name for t in extraction(forms).tools]
    assert len(set(names)) == 12
    assert all(TOOL_NAME.fullmatch(n) and OPENAI_NAME.fullmatch(n) for n in names)
    assert sorted(names)[:3] == [
        "very_long_name_very_long",
        "very_long_name_very_long_10",
        "very_long_name_very_long_11",
    ]


# ---------------------------------------------------------------------------------------------
# stability


def test_names_are_stable_across_parses_and_unrelated_edits() -> None:
    for page in PAGES:
        html = page.read_text("utf-8")
        first = described(extraction(html))
        assert described(extraction(html)) == first, page.name
        assert described(extraction(page.read_bytes())) == first, page.name
        # unrelated edits: a new form with a name of its own at the top, prose, a new section
        edited = html.replace(
            "<body>",
            "<body><div class=consent><h2>Cookies</h2><form method=post action=/consent>"
            "<button>Accept cookies</button></form></div><p>Free shipping this week!</p>",
        ).replace("</body>", "<section><h2>About us</h2><p>Since 1999.</p></section></body>")
        after = described(extraction(edited))
        assert after.pop("accept_cookies")[0] is True, page.name
        assert after == first, page.name


# ---------------------------------------------------------------------------------------------
# every page formtools knows: declared tools untouched, inferred names valid and unique


def test_all_forms_never_changes_declared_tools_and_names_stay_valid_and_unique() -> None:
    pages = sorted(FIXTURES.glob("*.html")) + PAGES
    inferred = 0
    for page in pages:
        document = formtools.parse_html(page.read_bytes(), url="http://127.0.0.1/" + page.name)
        for profile in formtools.profile_names():
            plain = formtools.extract(document, profile=profile)
            every = formtools.extract(document, profile=profile, all_forms=True)
            declared = [t for t in every.tools if not t.inferred]
            assert [formtools.dumps(t.to_dict()) for t in declared] == [
                formtools.dumps(t.to_dict()) for t in plain.tools
            ], (page.name, profile)
            names = [t.name.lower() for t in every.tools]
            for tool in every.tools:
                if (
                    tool.inferred
                ):  # authors may register Alpha and alpha; inference adds no such pair
                    assert names.count(tool.name.lower()) == 1, (page.name, tool.name)
                    assert OPENAI_NAME.fullmatch(tool.name) and TOOL_NAME.fullmatch(tool.name)
                    assert tool.description
        inferred += sum(t.inferred for t in every.tools)
    assert inferred >= 25  # 11 unannotated forms in the fixtures, 14 in tests/data


def test_output_formats_flag_inferred_tools() -> None:
    result = extraction(DATA / "unannotated-shop.html")
    declared, inferred = result.tool("search"), result.tool("search_2")
    assert declared.to_dict()["annotations"] == {"autosubmit": False}
    assert inferred.to_dict()["annotations"] == {"autosubmit": False, "x-formtools-inferred": True}
    assert inferred.to_dict("mcp")["_meta"] == {"formtools/hints": {"autosubmit": False}, "formtools/inferred": True}
    assert "formtools/inferred" not in declared.to_dict("mcp")["_meta"]
    assert set(inferred.to_dict("openai")) == {
        "type",
        "name",
        "description",
        "parameters",
        "strict",
    }
    assert set(inferred.to_dict("evals")) == {"name", "description", "inputSchema"}


# ---------------------------------------------------------------------------------------------
# end to end


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "formtools", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
        cwd=ROOT,
    )


def test_cli_extract_lint_and_validate() -> None:
    page = str(DATA / "unannotated-shop.html")
    plain = cli("extract", page)
    every = cli(
        "extract", page, "--all-forms", "--format", "mcp", "--base-url", "https://acme.example/p"
    )
    assert plain.returncode == every.returncode == 0, plain.stderr + every.stderr
    assert [t["name"] for t in json.loads(plain.stdout)] == ["add_to_wishlist", "search"]
    expected = extraction(DATA / "unannotated-shop.html")
    assert json.loads(every.stdout) == [t.to_dict("mcp") for t in expected.tools]

    lint = cli("lint", str(DATA / "unannotated-account.html"), "--all-forms", "-v")
    assert lint.returncode == 0, lint.stdout
    assert "named 'sign_in' from its submit button" in lint.stdout
    assert "its action is a mailto: URL" in lint.stdout and "[not-inferred]" in lint.stdout
    assert lint.stdout.rstrip().splitlines()[-1].startswith("4 tool(s); 0 error(s)")

    valid = cli(
        "validate", page, "add_to_cart", "--all-forms", "--input", '{"size": "41", "quantity": 2}'
    )
    invalid = cli("validate", page, "add_to_cart", "--all-forms", "--input", '{"quantity": 9}')
    assert (valid.returncode, valid.stdout) == (0, "add_to_cart: valid\n")
    assert invalid.returncode == 1 and "size" in invalid.stdout and "quantity" in invalid.stdout
    missing = cli(
        "validate", page, "add_to_cart", "--input", "{}"
    )  # without the flag: no such tool
    assert missing.returncode == 2 and "has no tool named 'add_to_cart'" in missing.stderr


SITE_PAGE = """<!doctype html><meta charset=utf-8><title>Help centre</title>
<header><h1>Help centre</h1>
<form action="/submit" role="search"><input type="search" name="q" aria-label="Search help"></form></header>
<section><h2>Contact support</h2>
<form id="contact-form" method="post" action="/submit">
  <label>Email <input type="email" name="email" required></label>
  <label>Message <textarea name="message"></textarea></label>
  <input type="hidden" name="channel" value="web">
  <button>Send message</button>
</form></section>
<form toolname="status" tooldescription="Service status" toolautosubmit action="/submit"><button>Check</button></form>
"""


@pytest.fixture()
def site():
    with TestSite() as running:
        yield running


def test_calling_inferred_tools_against_a_real_site(site: TestSite) -> None:
    url = site.put("help", SITE_PAGE.encode())
    tools = {t.name: t for t in formtools.extract_tools(formtools.load_page(url), all_forms=True)}
    assert sorted(tools) == ["contact", "search", "status"]

    # no toolautosubmit on an unannotated form: nothing is sent without confirmation
    waiting = formtools.call_tool(tools["contact"], {"email": "ann@example.com", "message": "hi"})
    assert waiting.status == "awaiting-user" and site.submissions() == []
    with pytest.raises(formtools.ValidationError):
        formtools.call_tool(tools["contact"], {"message": "no email"}, confirm=True)
    assert site.submissions() == []

    posted = formtools.call_tool(
        tools["contact"], {"email": "ann@example.com", "message": "hi"}, confirm=True
    )
    # the search form has no button: it is submitted as Enter submits it
    found = formtools.call_tool(tools["search"], {"q": "refund"}, confirm=True)
    post, get = site.submissions()
    assert (post.method, post.body) == ("POST", b"email=ann%40example.com&message=hi&channel=web")
    assert posted.status == "completed" and posted.json_ld[0]["body"] == post.body.decode()
    assert (get.method, get.query) == ("GET", "q=refund")
    assert found.json_ld[0]["query"] == "q=refund"

    called = cli(
        "call",
        url,
        "contact",
        "--all-forms",
        "--yes",
        "--input",
        '{"email": "bo@example.com", "message": "yo"}',
    )
    assert called.returncode == 0, called.stderr
    assert site.submissions()[-1].body == b"email=bo%40example.com&message=yo&channel=web"
    assert json.loads(called.stdout)["status"] == "completed"
    unknown = cli("call", url, "contact", "--yes", "--input", "{}")
    assert unknown.returncode == 2 and "tools: status" in unknown.stderr


def test_batch_with_all_forms(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    for page in PAGES:
        (site / page.name).write_bytes(page.read_bytes())
    (site / "prose.html").write_bytes(b"<p>No forms, only a toolname mention.</p>")
    out = tmp_path / "tools.jsonl"
    tally = run_batch([str(site)], out, options=BatchOptions(jobs=1, all_forms=True))
    records = {
        Path(r["path"]).name: r for r in map(json.loads, out.read_text("utf-8").splitlines())
    }
    assert tally.pages == len(PAGES) + 1 and tally.parsed == len(PAGES)
    assert records["prose.html"]["skipped"] == "no <form"
    for page in PAGES:
        expected = formtools.extract(formtools.load_page(str(site / page.name)), all_forms=True)
        assert records[page.name]["tools"] == [t.to_dict() for t in expected.tools], page.name
    shop = records["unannotated-shop.html"]["tools"]
    assert [(t["name"], t["annotations"].get("x-formtools-inferred", False)) for t in shop][:3] == [
        ("add_to_cart", True),
        ("add_to_cart_2", True),
        ("add_to_wishlist", False),
    ]
    assert tally.tools == sum(len(r.get("tools", [])) for r in records.values()) == 14

    run_batch(
        [str(site)], out, options=BatchOptions(jobs=1)
    )  # without the flag: declared tools only
    plain = {Path(r["path"]).name: r for r in map(json.loads, out.read_text("utf-8").splitlines())}
    assert [t["name"] for t in plain["unannotated-shop.html"]["tools"]] == [
        "add_to_wishlist",
        "search",
    ]
    assert plain["unannotated-blog.html"]["skipped"] == "no toolname attribute"


def test_mcp_serve_with_all_forms(site: TestSite) -> None:
    pytest.importorskip("mcp")
    from tests.test_mcp_bridge import Notes, run, stdio_session

    url = site.put("help", SITE_PAGE.encode())

    async def main() -> tuple[Any, Any, Any]:
        async with stdio_session([url, "--allow-private"]) as session:
            plain = await session.list_tools()
        async with stdio_session(
            [url, "--allow-private", "--all-forms"], Notes("accept")
        ) as session:
            listed = await session.list_tools()
            called = await session.call_tool(
                "contact", {"email": "ann@example.com", "message": "hi"}
            )
        return plain, listed, called

    plain, listed, called = run(main)
    assert sorted(t.name for t in plain.tools) == ["formtools_refresh", "status"]
    tools = {t.name: t for t in listed.tools}
    assert sorted(tools) == ["contact", "formtools_refresh", "search", "status"]
    contact = tools["contact"]
    assert (
        contact.description
        == "Heading: Contact support. Submit button: Send message. Submits: POST /submit."
    )
    assert contact.meta["formtools/inferred"] is True
    assert "formtools/inferred" not in (tools["status"].meta or {})
    assert list(contact.input_schema["properties"]) == ["email", "message"]
    assert called.is_error is False, called.content
    (received,) = site.submissions()
    assert received.body == b"email=ann%40example.com&message=hi&channel=web"
    assert called.structured_content["result"][0]["body"] == received.body.decode()


def test_an_inferred_description_names_where_the_form_really_submits() -> None:
    """An inferred tool's description says where the form submits ("Submits: POST /contact").
    It resolved the action with urllib's ``urljoin``, which reads ``\\\\evil.example/steal`` as a
    path of the page, where the URL Standard (a browser, and the request formtools builds) goes
    to https://evil.example/steal: the person or agent reading it was told the data stays on the
    site. Seeded actions: WPT ``urltestdata.json`` inputs and backslash smuggling shapes; the
    description names the built request's path on the page's own origin, else its origin and path."""
    import json
    import random
    from pathlib import Path

    from formtools._execute.request import Request
    from formtools._spec.url import parse

    cases = json.loads((Path(__file__).parent / "data/url/urltestdata.json").read_text(encoding="utf-8"))
    pick = random.Random(1738)
    inputs = pick.sample([c["input"] for c in cases if isinstance(c, dict)], 200)
    hosts = ["evil.example", "127.0.0.1", "[::1]", "shop.example:8443"]
    prefixes, separators = ["", "http:", "https:", "/"], ["\\\\", "\\/", "/\\"]
    shapes = [f"{pick.choice(prefixes)}{pick.choice(separators)}{pick.choice(hosts)}/x" for _ in range(60)]
    page_url = "https://shop.example/contact/"
    checked = 0
    for action in inputs + shapes:
        quoted = action.replace("&", "&amp;").replace('"', "&quot;")
        html = f'<h1>Contact us</h1><form action="{quoted}" method=post><input name=email><button>Send</button></form>'
        for tool in formtools.extract_tools(html, base_url=page_url, all_forms=True):
            request = formtools.prepare_call(tool, {}).request
            sent = parse(request.url) if isinstance(request, Request) else None
            if sent is None or sent.scheme not in ("http", "https"):
                continue
            page = parse(page_url)
            assert page is not None
            where = sent.pathname if sent.origin == page.origin else f"{sent.scheme}://{sent.host}{sent.pathname}"
            said = re.search(r"Submits: POST (.*)\.$", tool.description)
            assert said is not None, tool.description
            if said.group(1) == "this page":  # an empty action: the page's own URL
                assert sent.href_without_fragment.partition("?")[0] == page_url, (action, request.url)
            else:
                assert said.group(1) == where, (action, tool.description, request.url)
            checked += 1
    assert checked > 100
