"""A page's ``Content-Security-Policy: form-action`` against Chromium 156, live: seeded policies
(source lists of keywords, schemes, hosts with wildcards, ports, paths; in a header, a second
policy of the same line, a ``<meta>`` in the head or in the body, a report-only header) × actions
(the page's origin, another port, ``localhost``, paths in and out of a listed one, a redirect to
another origin or to another path of the page's), each a page in an iframe of one page whose
form is submitted at once. What Chromium's server hears is compared with what ``formtools``
would send (:func:`prepare_call`'s outcome), so formtools never sends a request Chromium does
not (:mod:`formtools._spec.csp`), with what ``lint`` says of the form (``form-action-blocked``:
the tool registers, no call of it is sent), and, for a redirect, whether the hop it leads to
is asked, by Chromium and by formtools' call (each hop is checked against the policy, its path
not compared).

Left out: https actions (the local sites speak http only; the ``'self'`` and ``http:``
upgrades to https are CSP3's rule as written).
"""

from __future__ import annotations

import random
import time

import pytest

import formtools
from formtools._conformance.browser import ChromiumOracle
from formtools._conformance.site import LocalSite

pytestmark = pytest.mark.browser

FORM = '<form toolname="t" tooldescription="d" toolautosubmit method="get" action="{action}"><input name="q" value="x"></form>'
META = "<meta http-equiv=\"{name}\" content=\"{policy}\">"
# the top page submits every iframe's form and notes each violation its policy reports
TOP = """<!doctype html><body>{frames}<script>
window.violated = [];
window.onload = () => {{
  for (const frame of document.querySelectorAll("iframe")) {{
    const page = frame.contentDocument;
    page.addEventListener("securitypolicyviolation", () => window.violated.push(frame.id));
    page.forms[0].submit();
  }}
}};
</script>"""


def _sources(rng: random.Random, here: int, there: int, case: int) -> list[str]:
    """A seeded source list: 0 to 3 expressions of those Chromium parses and some it drops; a
    path may carry a query or fragment."""
    pool = ["'none'", "'self'", "'SELF'", "*", "http:", "HTTP:", "https:", "data:", "'unsafe-inline'",
            f"127.0.0.1:{here}", f"127.0.0.1:{there}", "127.0.0.1", "127.0.0.1:*", f"http://127.0.0.1:{there}",
            f"https://127.0.0.1:{here}", f"localhost:{here}", f"*.0.0.1:{here}", f"http://*:{here}", "*:*",
            f"127.0.0.1:{here}/csp/ok/", f"127.0.0.1:{here}/csp/ok", f"127.0.0.1:{here}/csp/OK/",
            f"127.0.0.1:{here}/csp/%6fk/", f"127.0.0.1:{here}/csp/%4FK/", f"127.0.0.1:{here}/csp/OK/", f"127.0.0.1:{here}/csp/ok/", f"127.0.0.1:{here}/csp/ok/c{case}", f"127.0.0.1:{here}/csp/redirect/",
            f"ws://127.0.0.1:{here}", "127.0.0.1:80", "localhost", "http://*", f"127.0.0.1:{here}/csp/ok/c{case}/"]  # fmt: skip
    # every other case writes its paths with a query or a fragment, which Chromium ignores (the
    # source is kept); drawn without the seeded stream, so the cases drawn stay the same
    tail = ("", "?q=1", "", "#f")[case % 4]
    return [source + tail if "/csp/" in source else source for source in rng.sample(pool, rng.randrange(4))]


def _policy(rng: random.Random, here: int, there: int, case: int) -> str:
    """One serialized policy: a ``form-action`` directive (any case), maybe beside another."""
    directive = " ".join([rng.choice(["form-action", "FORM-ACTION", "Form-Action"]), *_sources(rng, here, there, case)])
    return rng.choice([directive, directive, f"default-src 'none'; {directive}", "default-src 'none'",
                       f"{directive}; form-action *"])  # fmt: skip


def _case(
    rng: random.Random, site: LocalSite, other: LocalSite, case: int
) -> tuple[str, list[tuple[str, str]], str, str, str | None]:
    """A case page's head markup, header lines, action URL, the path its first hop asks and,
    when that hop redirects, the path the redirect leads to."""
    here, there = int(site.origin.rsplit(":", 1)[1]), int(other.origin.rsplit(":", 1)[1])
    away = site.redirect(f"/csp/redirect/c{case}", f"{other.origin}/csp/ok/c{case}")
    home = site.redirect(f"/csp/redirect/home/c{case}", f"{site.origin}/csp/other/c{case}")
    action = rng.choice([f"{site.origin}/csp/ok/c{case}", f"{site.origin}/csp/other/c{case}", away, home, away, home,
                         f"{site.origin}/csp/OK/c{case}", f"http://localhost:{here}/csp/ok/c{case}",
                         f"{other.origin}/csp/ok/c{case}"])  # fmt: skip
    landing = {away: f"/csp/ok/c{case}", home: f"/csp/other/c{case}"}.get(action)
    policy = _policy(rng, here, there, case)
    delivery = rng.choice(["header", "header", "two", "meta", "meta", "meta-body", "report-only", "both"])
    head, headers = "", []
    if delivery in ("header", "both"):
        headers.append(("Content-Security-Policy", policy))
    if delivery == "two":
        headers.append(("Content-Security-Policy", f"{policy}, {_policy(rng, here, there, case)}"))
    if delivery == "report-only":
        headers.append(("Content-Security-Policy-Report-Only", policy))
    if delivery in ("meta", "both"):
        name = rng.choice(["Content-Security-Policy", "content-security-policy"])
        head = META.format(name=name, policy=_policy(rng, here, there, case) if delivery == "both" else policy)
    body = META.format(name="Content-Security-Policy", policy=policy) if delivery == "meta-body" else ""
    markup = f"<!doctype html><head>{head}</head><body>{body}{FORM.format(action=action)}"
    return markup, headers, action, "/csp/" + action.split("/csp/", 1)[1], landing


def _settled(violated: bool, report_only: bool, heard: bool, landing: str | None, landed: bool) -> bool:
    """Whether a case's outcome is in: its submission heard and, after a redirect, its next hop
    heard too or reported blocked; or the submission reported blocked. A report-only policy
    reports and sends: such a case is in once what it sends is heard."""
    if violated and not report_only:
        return True
    return heard and (not landing or landed)


def _report_only(headers: list[tuple[str, str]]) -> bool:
    return any(name == "Content-Security-Policy-Report-Only" for name, _ in headers)


def _heard(sites: tuple[LocalSite, LocalSite], path: str) -> int:
    """How many times ``path`` was asked of either site."""
    return sum(request.path.split("?")[0] == path for site in sites for request in site.requests)


@pytest.mark.spec_step("exec-request-6")
def test_form_action_decides_what_is_sent_as_in_chromium(chromium: ChromiumOracle) -> None:
    """Seeded ``form-action`` policies × actions: Chromium's server hears a submission exactly
    when formtools' prepared call is a request, and ``lint`` warns ``form-action-blocked``
    exactly when it hears none. Before formtools read ``form-action`` it sent every one (24 of
    60 cases differed: a request where Chromium sent none); now none differ. Where the first hop
    redirects, formtools' call asks the hop it leads to exactly when Chromium does: of the 17
    redirects both send, Chromium follows 15; before formtools' fetch checked a redirect's hop
    against the policy it followed all 17 (2 differed). Before formtools ignored a source's
    query or fragment (``…/csp/ok/?q=1``) it dropped the source: 1 of 60 differed."""
    rng = random.Random(2026112923)
    site = chromium.site
    with LocalSite() as other:
        sites = (site, other)
        cases = []
        for case in range(60):
            markup, headers, action, path, landing = _case(rng, site, other, case)
            url = site.put(f"/csp/case/c{case}", markup.encode(), headers=headers)
            cases.append((url, markup, headers, path, landing))
        frames = "".join(f'<iframe id="c{case}" src="{url}"></iframe>' for case, (url, *_) in enumerate(cases))
        chromium.page.goto(site.put("/csp/top", TOP.format(frames=frames).encode()))
        deadline = time.monotonic() + 60  # a hang guard: the loop ends when every case is settled
        while time.monotonic() < deadline:  # until each case is heard, or blocked: its violation reported
            violated = set(chromium.page.evaluate("window.violated"))
            if all(
                _settled(f"c{case}" in violated, _report_only(headers), bool(_heard(sites, path)), landing, bool(landing) and bool(_heard(sites, landing)))
                for case, (_, _, headers, path, landing) in enumerate(cases)
            ):
                break
            time.sleep(0.1)
        heard = [(bool(_heard(sites, path)), landing and bool(_heard(sites, landing))) for *_, path, landing in cases]
        differences, kinds, landings = [], set(), set()
        for (url, markup, headers, path, landing), (theirs, theirs_landed) in zip(cases, heard, strict=True):
            extraction = formtools.extract(formtools.load_page(url))
            (tool,) = extraction.tools
            ours = isinstance(formtools.prepare_call(tool, {"q": "x"}).outcome, formtools.Request)
            warned = any(diagnostic.code == "form-action-blocked" for diagnostic in extraction.diagnostics)
            kinds.add(theirs)
            if ours != theirs or warned == theirs:
                differences.append(f"{headers} {markup}: Chromium sent {theirs}, formtools {ours}, lint warned {warned}")
            if landing is not None and ours and theirs:
                before = _heard(sites, landing)
                formtools.call_tool(tool, {"q": "x"}, confirm=True)
                ours_landed = _heard(sites, landing) > before
                landings.add(theirs_landed)
                if ours_landed != theirs_landed:
                    differences.append(f"{headers} {markup}: Chromium followed the redirect {theirs_landed}, formtools {ours_landed}")
    assert not differences, f"{len(differences)} of {len(cases)}:\n" + "\n".join(differences)
    assert kinds == {True, False}, "the seed draws policies that allow and that block"
    assert landings == {True, False}, "the seed draws redirects a policy allows and blocks"


@pytest.mark.spec_step("exec-request-6")
def test_a_call_whose_action_the_pages_policy_blocks_sends_nothing(chromium: ChromiumOracle) -> None:
    """An agent's call of a tool whose action the page's ``form-action`` does not allow (a
    seeded delivery: header or ``<meta>``): Chromium registers the tool, the call stays pending
    and no request is made; formtools gives ``not-sent`` naming the directive. Before, formtools
    sent the request."""
    rng = random.Random(2026112923)
    site = chromium.site
    policy = rng.choice(["form-action 'none'", "form-action http://localhost:*", "FORM-ACTION https:"])
    via_meta = rng.choice([True, False])
    head = META.format(name="Content-Security-Policy", policy=policy) if via_meta else ""
    action = f"http://127.0.0.1:{site.origin.rsplit(':', 1)[1]}/csp/blocked/landing"
    markup = f"<head>{head}</head>{FORM.format(action=action)}".encode()
    url = site.put("/csp/blocked/form", markup, headers=[] if via_meta else [("Content-Security-Policy", policy)])
    answer, _ = chromium.agent_answer(url, "t", {"q": "x"}, pending_after=2.0)
    assert answer == {"status": "pending"}, (policy, via_meta, answer)
    assert not _heard((site, site), "/csp/blocked/landing")
    (tool,) = formtools.extract_tools(formtools.load_page(url))
    result = formtools.call_tool(tool, {"q": "x"}, confirm=True)
    assert result.status == "not-sent" and policy.split()[0].lower() in (result.reason or ""), (policy, result)
    assert not _heard((site, site), "/csp/blocked/landing")
