"""A page's ``form-action`` source matching where the live generator (tests/test_browser_csp.py,
whose local sites are http on 127.0.0.1) cannot go: pages on IPv6 literals, hosts with ``_`` or
a trailing dot, ``file:`` pages, and https actions (scheme and port upgrades). Each case is a
page parsed with its URL, its tool extracted and a call prepared: the call is a request or
``not-sent`` (``form-action``), and ``lint`` warns ``form-action-blocked`` exactly when it is
not sent. The rules are those of Chromium 156's ``CheckCSPSource`` and ``ComputeSelfOrigin``
(services/network/public/cpp/content_security_policy/)."""

from __future__ import annotations

import random

import formtools

FORM = (
    '<meta http-equiv=content-security-policy content="form-action {sources}">'
    '<form toolname=t tooldescription=d toolautosubmit action="{action}"><input name=q></form>'
)


def _sent(sources: str, page_url: str, action: str) -> bool:
    """Whether a call of the page's form is sent (a request), checking that ``lint`` warns
    exactly when the policy keeps it from being sent."""
    extraction = formtools.extract(formtools.parse_html(FORM.format(sources=sources, action=action), url=page_url))
    (tool,) = extraction.tools
    outcome = formtools.prepare_call(tool, {"q": "x"}).outcome
    sent = isinstance(outcome, formtools.Request)
    warned = any(diagnostic.code == "form-action-blocked" for diagnostic in extraction.diagnostics)
    assert sent or outcome.reason == "form-action", (sources, page_url, action, outcome)
    assert warned != sent, (sources, page_url, action, "lint and the call disagree")
    return sent


def _hosts(rng: random.Random) -> list[str]:
    """Seeded page hosts (scheme and host) Chromium has and a source expression cannot write."""
    label = f"a{rng.randrange(10**6)}"
    return [
        "http://[::1]",
        f"http://[2001:db8::{rng.randrange(1, 0xFFFF):x}]",
        f"http://{label}_b.example",
        f"http://{label}.example.",
        "https://localhost.",
    ]


def test_self_allows_the_pages_own_origin_however_it_is_written() -> None:
    """``'self'`` is the page's origin compared as an origin: a same-origin action is sent and
    one on another port is not. Before, the origin was written back as a source expression and
    re-parsed, which has no brackets, ``_`` or trailing dot: every same-origin action of these
    pages was refused (not sent)."""
    rng = random.Random(2026112923)
    for host in _hosts(rng):
        port, other = rng.sample(range(1025, 65536), 2)
        for origin in (host, f"{host}:{port}"):
            page = f"{origin}/p{rng.randrange(100)}.html"
            assert _sent("'self'", page, f"x{rng.randrange(100)}.html"), page
            assert not _sent("'self'", page, f"{host}:{other}/x"), page


def test_self_on_a_file_page_allows_file_actions_only() -> None:
    """A ``file:`` page's ``'self'`` is the scheme ``file:`` alone (its host is forgotten): any
    ``file:`` action is sent, an http one is not. Before, ``file://:None`` parsed as nothing and
    every action was refused."""
    rng = random.Random(2026112923)
    page = f"file:///tmp/d{rng.randrange(10**6)}/p.html"
    assert _sent("'self'", page, f"x{rng.randrange(100)}.html")
    assert _sent("'self'", page, f"file:///elsewhere/{rng.randrange(100)}.html")
    assert not _sent("'self'", page, f"http://h{rng.randrange(100)}.example/x")


def test_a_scheme_and_a_port_are_upgraded_only_together() -> None:
    """A source's http allows https only when its port is ``*``, left out or 80 (then 443), and
    its port 80 allows 443 only when the scheme is upgraded too. Seeded hosts and ports. Before,
    ``http://h:P`` allowed ``https://h:P``, ``http://h:443`` ``https://h`` and ``https://h:80``
    ``https://h``: requests Chromium never sends."""
    rng = random.Random(2026112923)
    page = "http://page.example/p"
    for _ in range(5):
        host, port = f"h{rng.randrange(10**6)}.example", rng.randrange(1025, 65536)
        assert _sent(f"http://{host}:{port}", page, f"http://{host}:{port}/x")
        assert not _sent(f"http://{host}:{port}", page, f"https://{host}:{port}/x")
        assert _sent(f"http://{host}:*", page, f"https://{host}:{port}/x")
        assert _sent(f"http://{host}", page, f"https://{host}/x")
        assert _sent(f"http://{host}:80", page, f"https://{host}/x")
        assert not _sent(f"http://{host}:443", page, f"https://{host}/x")
        assert not _sent(f"https://{host}:80", page, f"https://{host}/x")
        assert _sent(f"{host}:80", "http://page.example/p", f"https://{host}/x")


def test_a_sources_query_and_fragment_are_ignored_not_the_source() -> None:
    """``h/ok/?q`` and ``h/ok/x#f`` are the sources ``h/ok/`` and ``h/ok/x`` (Chromium warns and
    ignores the query or fragment); ``h?q``, with no path, does not parse. Before, a source with
    ``?`` or ``#`` was dropped: every action refused."""
    rng = random.Random(2026112923)
    host = f"h{rng.randrange(10**6)}.example"
    page = "http://page.example/p"
    assert _sent(f"{host}/ok/?q={rng.randrange(100)}", page, f"http://{host}/ok/x")
    assert not _sent(f"{host}/ok/?q={rng.randrange(100)}", page, f"http://{host}/other")
    assert _sent(f"{host}/ok/x#f{rng.randrange(100)}", page, f"http://{host}/ok/x")
    assert not _sent(f"{host}?q", page, f"http://{host}/ok/x")


def test_lint_and_the_call_read_form_action_for_file_actions_alike() -> None:
    """A ``file:`` page whose policy refuses a ``file:`` action: the call is not sent and lint
    warns ``form-action-blocked`` (checked in :func:`_sent`). Before, lint looked only at http(s)
    actions: the call was refused and lint said nothing."""
    rng = random.Random(2026112923)
    page = f"file:///tmp/d{rng.randrange(10**6)}/p.html"
    for sources in ("'none'", "http:", f"h{rng.randrange(100)}.example"):
        assert not _sent(sources, page, f"x{rng.randrange(100)}.html")
