"""The oracle's Chromium: every feature it means to turn on or off is on or off, and a page load
sends nothing to any host but the page's.

Chromium reads only the last ``--enable-features`` and the last ``--disable-features`` of its
command line, so the oracle merges its own, Playwright's and a caller's into one of each
(``browser._launch_args``). The command line is the browser process's own (``/proc``) and Playwright's defaults are Playwright's own answer (its
chromium launcher's ``defaultArgs``, asked in its Node driver), not the oracle's reading of them.
Connections are caught by a local server that every host name but the page's resolves to
(``--host-resolver-rules``): one a form page's load made to another host is named by the TLS
server name or HTTP ``Host`` it carried.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

_FEATURE_SWITCHES = {"--enable-features": True, "--disable-features": False}


@pytest.fixture(scope="module")
def playwright_switches() -> list[str]:
    """The switches Playwright's chromium launcher puts on a headless persistent context's
    command line, as its own Node code gives them."""
    playwright = pytest.importorskip("playwright")
    driver = Path(playwright.__file__).parent / "driver"
    script = (
        "const {server} = require(process.argv[1]);"
        "server.createPlaywright({sdkLanguage: 'python'}).chromium"
        ".defaultArgs({headless: true, args: []}, true, '/nonexistent')"
        ".then((args) => console.log(JSON.stringify(args)));"
    )
    answer = subprocess.run(
        [str(driver / "node"), "-e", script, str(driver / "package" / "lib" / "coreBundle.js")],
        capture_output=True, text=True, check=True, timeout=60,
    )
    switches: list[str] = json.loads(answer.stdout)
    return switches


def _features(switches: Sequence[str]) -> dict[bool, set[str]]:
    """The features a command line turns on and off, as Chromium reads it: from the last switch
    of each kind; a feature named by both is on (``base::FeatureList`` keeps the first override)."""
    last = {name: "" for name in _FEATURE_SWITCHES}
    for switch in switches:
        name, _, value = switch.partition("=")
        if name in last:
            last[name] = value
    named = {
        enabled: {re.split(r"[:<]", entry, maxsplit=1)[0] for entry in last[name].split(",") if entry}
        for name, enabled in _FEATURE_SWITCHES.items()
    }
    return {True: named[True], False: named[False] - named[True]}


def _command_line(oracle: object) -> list[str]:
    """The oracle's browser process's command line, as the kernel holds it (DevTools'
    ``Browser.getBrowserCommandLine`` answers only a browser started with ``--enable-automation``)."""
    pid = oracle._browser  # type: ignore[attr-defined]
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")


def _assert_every_feature_as_meant(command_line: list[str], playwright: list[str], extra: Sequence[str]) -> None:
    """One switch of each kind, and every feature Playwright's, the oracle's own and the
    caller's switches name is as the last of them says."""
    from formtools._conformance.browser import CHROMIUM_ARGS, QUIET_FEATURES

    meant: dict[str, bool] = {}
    for source in (playwright, CHROMIUM_ARGS, [f"--disable-features={','.join(QUIET_FEATURES)}"], extra):
        for feature, enabled in ((f, on) for on, features in _features(source).items() for f in features):
            meant[feature] = enabled
    actual = _features(command_line)
    wrong = {feature: enabled for feature, enabled in meant.items() if feature not in actual[enabled]}
    assert not wrong, f"features not as the oracle means them (feature: meant on): {wrong}"
    for name in _FEATURE_SWITCHES:
        assert sum(switch.startswith(name + "=") for switch in command_line) == 1, (name, command_line)


def test_the_default_oracles_chromium_has_every_feature_it_means(chromium: object, playwright_switches: list[str]) -> None:
    """Before the merge the oracle's ``--enable-features`` came after Playwright's and replaced it
    (``CDPScreenshotNewSurface`` off)."""
    _assert_every_feature_as_meant(_command_line(chromium), playwright_switches, ())


class _CatchAll:
    """A TCP server on 127.0.0.1 that notes, for each connection, the host name it carried (the
    TLS ClientHello's server name or the HTTP ``Host``), and closes it."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self.hosts: list[str] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            with connection:
                connection.settimeout(2)
                try:
                    start = connection.recv(4096)
                except OSError:
                    start = b""
            self.hosts.append(_named_host(start))

    def close(self) -> None:
        self._listener.close()


def _named_host(start: bytes) -> str:
    """The host a connection's first bytes name: a TLS ClientHello's server_name, or HTTP's Host."""
    if start[:1] == b"\x16":  # a TLS handshake record: record and handshake headers, version, random
        at = 5 + 4 + 2 + 32
        at += 1 + start[at]  # session id
        at += 2 + int.from_bytes(start[at:at + 2], "big")  # cipher suites
        at += 1 + start[at]  # compression methods
        end = at + 2 + int.from_bytes(start[at:at + 2], "big")
        at += 2
        while at + 4 <= end:
            kind, length = int.from_bytes(start[at:at + 2], "big"), int.from_bytes(start[at + 2:at + 4], "big")
            if kind == 0:  # server_name: list length, name type, name length, name
                name_length = int.from_bytes(start[at + 7:at + 9], "big")
                return start[at + 9:at + 9 + name_length].decode("ascii", "replace")
            at += 4 + length
        return "(TLS without a server name)"
    host = re.search(rb"\r\nhost: *([^\r\n]*)", start, re.I)
    return host.group(1).decode("ascii", "replace") if host else repr(start[:40])


#: the hosts Chromium 156 connects to as it starts (and again on its retries, maybe during the
#: loads), with or without a page: the sign-in component's ListAccounts (its look at the empty
#: profile's Google accounts), and the component updater's on-demand check of the optimization
#: guide's model manifest, which ``--disable-component-update`` leaves on (internals.md, "What the
#: oracle's Chromium turns on and off, and what it sends out"); neither carries a page
_AT_START = {"accounts.google.com", "update.googleapis.com"}


@pytest.fixture
def catch_all() -> Iterator[_CatchAll]:
    server = _CatchAll()
    yield server
    server.close()


def test_a_form_page_load_connects_to_no_other_host(catch_all: _CatchAll, playwright_switches: list[str]) -> None:
    """Every host name but the page's (127.0.0.1) resolves to the catch-all server, and a caller
    passes a ``--disable-features`` of its own. Before: Chromium's Autofill asked
    content-autofill.googleapis.com about each form page's forms, two connections a load, and the
    caller's ``--disable-features`` replaced Playwright's list (``OptimizationHints``,
    ``PaintHolding``… on). Left out: the two hosts Chromium 156 calls as it starts, whatever it
    loads, which no feature switch stops (``_AT_START``)."""
    extra = [f"--host-resolver-rules=MAP * 127.0.0.1:{catch_all.port}, EXCLUDE 127.0.0.1",
             "--disable-features=HttpsUpgrades"]
    answers: list[tuple[list[str], list[str]]] = []
    # a thread of its own: Playwright's sync API allows one instance a thread, and the session's
    # oracle may hold this one
    worker = threading.Thread(target=lambda: answers.append(_load_form_pages(extra, catch_all)))
    worker.start()
    worker.join()
    assert answers, "the oracle did not start (its error is above)"
    command_line, by_loads = answers[0]
    assert [host for host in by_loads if host not in _AT_START] == [], f"a form page's load connected to {by_loads}"
    _assert_every_feature_as_meant(command_line, playwright_switches, extra)


def _load_form_pages(extra: list[str], catch_all: _CatchAll) -> tuple[list[str], list[str]]:
    """The command line of an oracle given ``extra``, and the hosts of the connections the
    catch-all server saw while it loaded three form pages."""
    from formtools._conformance.browser import ChromiumOracle

    with ChromiumOracle(extra_args=extra) as oracle:
        at_start = len(catch_all.hosts)
        for number in range(3):
            tools = oracle.tools(
                f'<form toolname="t{number}" tooldescription="d"><input name="q" required>'
                f'<input type="email" name="e" autocomplete="email"></form>'
            )
            assert [tool["name"] for tool in tools] == [f"t{number}"]
        time.sleep(1.0)  # Autofill asked within 0.2 s of each load
        return _command_line(oracle), catch_all.hosts[at_start:]
