"""Cost is linear in the input: double one dimension of a hostile page, report the time ratio.

Each dimension is measured at n and 2n in the same run (best of three), through the library's
whole extraction (parse, forms, synthesis under every profile) and a dry-run call, and the
ratio t(2n)/t(n) is printed: about 2 is linear, about 4 quadratic. Dimensions: nesting depth
(divs, spans, formatting elements, disabled fieldsets with their legends, labels, labels with text
and formatting), attribute length, attributes on one element (arbitrary names, tool-like names
lint warns about, on an SVG or MathML element, xlink: names on an SVG a, merged into <body> and
<html> by a second start tag), options in a select, forms on a page, page size (ordinary markup
around one form), JSON-LD nesting on a landing page; and the shapes found quadratic in session 6
(``</form>`` strings the form pointer never sees, sibling textareas, frames and datalists deep
in a page, forms after many closed sections, deep template contents); and, apart from pages, an
answer's head of one header line continued by n obs-fold lines (session 22: 7.8x at 4n), and a
chunked body of n one-byte chunks read 64 KiB at a time (formtools._net.head.Dechunker).

    python benchmarks/bench_linearity.py [--scale 1.0]
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable

import formtools
from formtools._execute.send import json_ld_of
from formtools._net.head import Dechunker, HeadReader

FORM = '<form toolname=t tooldescription=d toolautosubmit action=/x>{}<button>Go</button></form>'


OPEN_FORM = "<div><form toolname=t tooldescription=d><input name=a></div>"  # (left open)


def pad(n: int, prefix: str = "a") -> str:
    return " ".join(f"{prefix}{i}=x" for i in range(n))


def nested(tag: str) -> Callable[[int], str]:
    return lambda n: FORM.format(f"<{tag}>" * n + "<input name=q>" + f"</{tag}>" * n)


DIMENSIONS: dict[str, tuple[Callable[[int], str], int]] = {
    "depth (div)": (nested("div"), 20_000),
    "depth (span)": (nested("span"), 20_000),
    "depth (b)": (nested("b"), 10_000),
    "depth (fieldset)": (lambda n: FORM.format("<fieldset disabled><legend>" * n + "<input name=q>"), 10_000),
    "depth (label)": (lambda n: FORM.format("<label>" * n + "<input name=q>"), 10_000),
    "depth (label, b)": (lambda n: FORM.format("<label>x <b>y</b>" * n + "<input name=q>"), 10_000),
    "attributes": (
        lambda n: FORM.format("<input name=q " + " ".join(f"a{i}=x" for i in range(n)) + ">"), 20_000
    ),
    "attributes (tool)": (
        lambda n: FORM.format("<input name=q " + " ".join(f"toolx{i}=x" for i in range(n)) + ">"), 10_000
    ),
    "attributes (svg)": (lambda n: FORM.format("<input name=q>") + "<svg " + pad(n) + "></svg>", 20_000),
    "attributes (math)": (lambda n: FORM.format("<input name=q>") + "<math " + pad(n) + "></math>", 20_000),
    "attributes (xlink)": (
        lambda n: FORM.format("<input name=q>") + "<svg><a " + pad(n, "xlink:href") + "></a></svg>", 20_000
    ),
    "attributes (body)": (lambda n: "<body>" + FORM.format("<input name=q>") + "<body " + pad(n) + ">", 20_000),
    "attributes (html)": (lambda n: "<body>" + FORM.format("<input name=q>") + "<html " + pad(n) + ">", 20_000),
    "attribute length": (lambda n: FORM.format(f'<input name=q toolparamdescription="{"x" * n}">'), 2_000_000),
    "options": (lambda n: FORM.format("<select name=s>" + "<option>o" * n + "</select>"), 20_000),
    "forms": (
        lambda n: "".join(
            f"<form toolname=t{i} tooldescription=d><input name=q><button>Go</button></form>" for i in range(n)
        ),
        2_000,
    ),
    "page size": (
        lambda n: "<nav><a href=/>home</a></nav>" + "<div class=c><p>text <b>bold</b> <a href=#>link</a></p></div>" * n
        + FORM.format("<input name=q>"),
        50_000,
    ),
    # (session 6: each of these was quadratic; tests/test_linear_cost.py holds their shapes)
    "</form> in a script": (lambda n: OPEN_FORM + "<script>" + "</form>" * n + "</script><input name=b>", 8_000),
    "</form> in a select": (lambda n: OPEN_FORM + "<select>" + "</form>" * n + "</select><input name=b>", 8_000),
    "sibling textareas": (lambda n: FORM.format("<textarea name=t>\nx</textarea><p>y</p>" * n), 8_000),
    "frames deep": (lambda n: FORM.format("<input name=q>") + "<div>" * n + "<iframe name=f></iframe>" * n, 8_000),
    "datalists deep": (
        lambda n: FORM.format("".join(f"<input name=q{i} list=d{i}>" for i in range(n))) + "<div>" * n
        + "".join(f"<datalist id=d{i}><option>x</datalist>" for i in range(n)),
        4_000,
    ),
    "forms after sections": (
        lambda n: "<div><h2>x</h2></div>" * n
        + "".join(f"<form toolname=t{i} tooldescription=d><input name=q></form>" for i in range(n)),
        4_000,
    ),
    "template contents": (
        lambda n: "<template>" + "<div>" * n + "</span>" * n + "</template>" + FORM.format("<input name=q>"),
        8_000,
    ),
}


def extraction(page: str) -> None:
    for profile in ("chromium", "html", "portable"):
        tools = formtools.extract_tools(page, profile=profile, base_url="https://site.example/")
    if tools:
        try:
            formtools.prepare_call(tools[0], {})
        except formtools.FormtoolsError:
            pass


def json_ld(n: int) -> None:
    document = formtools.parse_html('<script type="application/ld+json">' + "[" * n + "]" * n + "</script>")
    json_ld_of(document)


def folded_head(n: int) -> None:
    reader = HeadReader()
    reader.request_sent()
    reader.feed(b"HTTP/1.1 200 OK\r\nX: a" + b"\n b" * n + b"\r\n\r\n")


def tiny_chunks(n: int) -> None:
    body = b"1\r\na\r\n" * n + b"0\r\n\r\n"
    chunks = Dechunker()
    for start in range(0, len(body), 1 << 16):
        chunks.feed(body[start : start + (1 << 16)])


def best(run: Callable[[], None]) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every n (default 1)")
    scale = parser.parse_args().scale
    print(f"formtools {formtools.__version__}, Python {platform.python_version()}, {platform.machine()}")
    print(f"{'dimension':<18} {'n':>10} {'t(n) s':>9} {'t(2n) s':>9} {'ratio':>6}")
    for name, (page, n) in DIMENSIONS.items():
        n = max(1, int(n * scale))
        small, large = page(n), page(2 * n)
        t1, t2 = best(lambda: extraction(small)), best(lambda: extraction(large))
        print(f"{name:<18} {n:>10,} {t1:>9.3f} {t2:>9.3f} {t2 / t1:>6.2f}")
    n = max(1, int(200_000 * scale))
    t1, t2 = best(lambda: json_ld(n)), best(lambda: json_ld(2 * n))
    print(f"{'JSON-LD depth':<18} {n:>10,} {t1:>9.3f} {t2:>9.3f} {t2 / t1:>6.2f}")
    n = max(1, int(16_000 * scale))
    t1, t2 = best(lambda: folded_head(n)), best(lambda: folded_head(2 * n))
    print(f"{'head obs-fold lines':<18} {n:>10,} {t1:>9.3f} {t2:>9.3f} {t2 / t1:>6.2f}")
    n = max(1, int(200_000 * scale))
    t1, t2 = best(lambda: tiny_chunks(n)), best(lambda: tiny_chunks(2 * n))
    print(f"{'one-byte chunks':<18} {n:>10,} {t1:>9.3f} {t2:>9.3f} {t2 / t1:>6.2f}")


if __name__ == "__main__":
    main()
