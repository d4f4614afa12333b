"""A seeded, crawl-like HTML corpus for the benchmarks (and for tests that need realistic pages).

Why not the fixtures: they are small pages that are all forms, and extraction speed depends on
what a crawl looks like. Crawled pages are mostly big (navigation menus, inline scripts and JSON
state, style sheets, tables, prose), forms are a small part of them, and half the pages have no
form at all, so figures measured on fixtures say little about a crawl. This module writes pages
shaped like a crawl's:

- 20–400 KB each (log-normal around 90 KB): a head with a style sheet, analytics script and
  JSON-LD; a header with a large navigation menu; sections of prose, product cards, data tables,
  old-style layout tables, comment threads, icon sprites, inline scripts and JSON state blobs; a
  footer of link columns.
- Charsets declared with ``<meta>`` in the first bytes: mostly UTF-8, some windows-1252 (and its
  ``iso-8859-1`` label) with Western European text, some Shift_JIS with Japanese text.
- Half of the pages hold forms (search, sign-in, newsletter, contact, booking, filters, checkout,
  reservations, settings, reviews), and most of those pages annotate some forms for WebMCP
  (``toolname``, ``tooldescription``, sometimes ``toolautosubmit``; ``toolparamdescription`` on
  controls and fieldsets) with controls of every type, labels of every style, fieldsets, selects
  with optgroups, datalists and hidden fields.
- The markup real sites get wrong and browsers still give a form owner for, which is where a fast
  parser path must be careful: a ``<form>`` directly inside ``<table>``, a form opened in one table
  cell and used in the next, foster-parented controls, a form closed by a ``</div>``, a form never
  closed, a ``<form>`` nested in another, controls outside their form with ``form=``, a form in a
  ``<template>``, form markup in a script string, upper-case tag and attribute names. The manifest
  names the cases each page holds.

Determinism: page ``i`` of seed ``s`` is drawn from ``random.Random(f"{s}:{i}")`` alone (string
seeds are hashed with SHA-512, whatever ``PYTHONHASHSEED`` is), so the same arguments give the same
bytes in every process, and a smaller corpus is a prefix of a bigger one. WARC records carry ids
derived from the seed and a fixed date, so the archive's bytes are reproducible as well.

    python benchmarks/make_corpus.py benchmarks/corpus --size-mb 25     # also writes corpus.warc.gz
    python benchmarks/make_corpus.py benchmarks/formpages --forms-only --pages 200   # 16.1 MB

The form-page mode (``--forms-only``, ``generate(..., forms_only=True)``) is the corpus of a crawl
that keeps only pages with forms: every page carries one to three forms in the same surroundings,
pages drawn around 60 KB (200 pages: 16.1 MB, median 64 KB). Its pages come from their own random
streams (``"{seed}:{i}:forms"``), equally deterministic.

    from benchmarks.make_corpus import generate
    corpus = generate(tmp_path, size_mb=0.5, seed=3)   # corpus.pages: what each page holds

The output directory gets ``pages/NNNN/NNNNNN.html`` (1,000 pages a folder), ``manifest.jsonl``
(one line per page: file, url, charset, bytes, forms, toolname_forms, cases) and, unless told
otherwise, ``corpus.warc.gz``: one ``warcinfo`` record, the pages as ``response`` records (HTTP
``Content-Type`` with the declared charset) and a ``robots.txt`` per host, which batch extraction
must leave out.
"""

from __future__ import annotations

import argparse
import html
import io
import json
import math
import random
import shutil
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "FORMS_ONLY_PAGE_KB",
    "PAGE_KB",
    "Corpus",
    "GeneratedPage",
    "PageInfo",
    "generate",
    "iter_pages",
    "load",
]

MANIFEST = "manifest.jsonl"
WARC_NAME = "corpus.warc.gz"
PAGES_PER_FOLDER = 1000
_WARC_DATE = "2026-01-15T12:00:00Z"
#: page sizes in KB (log-normal around the geometric mean of the bounds, clipped to them)
PAGE_KB: tuple[float, float] = (20, 400)
#: the form-page corpus's: 200 pages are 16.1 MB, median 64 KB (seed 1)
FORMS_ONLY_PAGE_KB: tuple[float, float] = (9, 450)

#: the declared charset labels and how often they occur (``iso-8859-1`` means windows-1252)
_CHARSETS: tuple[tuple[str, float], ...] = (
    ("utf-8", 0.80),
    ("windows-1252", 0.08),
    ("iso-8859-1", 0.04),
    ("shift_jis", 0.08),
)
_CODECS = {
    "utf-8": "utf-8",
    "windows-1252": "cp1252",
    "iso-8859-1": "cp1252",
    "shift_jis": "shift_jis",
}

_HOSTS = (
    "shop.example.com",
    "news.example.org",
    "travel.example.net",
    "forum.example.com",
    "docs.example.org",
    "bank.example.com",
    "recipes.example.net",
    "city.example.gov",
    "store.example.co.uk",
    "hotel.example.fr",
    "market.example.jp",
    "tickets.example.de",
)
_SECTIONS = (
    "products",
    "news",
    "help",
    "account",
    "blog",
    "deals",
    "travel",
    "about",
    "search",
    "c",
)

# --- text pools -------------------------------------------------------------------------------

_EN = (
    "the a of and to in for with on at from by about new best free your our more this that all "
    "shop order delivery account price product review customer service quality today week offer "
    "online store search city hotel flight booking travel guide news update report local weather "
    "market team season style home garden kitchen sale discount return policy support contact "
    "information details available please click here read learn share follow comment reply post "
    "update tuesday friday morning evening open closed hours page next previous summary people "
    "world business health science sport culture music film book event ticket room night trip"
).split()
_WEST = (
    "café naïve déjà façade élève über Grüße Straße Bücher fünf année été crème brûlée "
    "rendez-vous Zürich München São Málaga señor niño € “Angebot” «prix» – résumé"
).split()
_JA = (
    "東京 大阪 天気 予約 検索 お問い合わせ ホテル 商品 価格 送料無料 今日は について です ます "
    "新着 情報 会員 登録 ログイン カート 注文 配送 地図 営業 時間 店舗 案内 季節 特集 旅行 料理"
).split()
_UTF8_EXTRA = ("—", "’", "→", "✓", "中文", "😀", "naïve", "€", "½", "Ω")


def _sentences(
    words: Sequence[str], extra: Sequence[str], joiner: str, end: str
) -> tuple[str, ...]:
    """A fixed pool of sentences, drawn once, so that pages pick whole sentences (fast)."""
    rng = random.Random(f"sentences:{end}:{len(words)}")
    pool = []
    for _ in range(400):
        chosen = rng.choices(words, k=rng.randint(6, 18))
        if extra and rng.random() < 0.3:
            chosen.insert(rng.randrange(len(chosen)), rng.choice(extra))
        text = joiner.join(chosen)
        pool.append(text[0].upper() + text[1:] + end)
    return tuple(pool)


_WORDS = {"en": _EN, "west": _EN + _WEST}
_TEXT = {
    "en": _sentences(_EN, _UTF8_EXTRA, " ", "."),
    "west": _sentences(_EN + _WEST, (), " ", "."),
    "ja": _sentences(_JA, (), "", "。"),
}

_COUNTRIES = (
    "Argentina Australia Austria Belgium Brazil Canada Chile China Colombia Croatia Czechia "
    "Denmark Egypt Estonia Finland France Germany Greece Hungary Iceland India Indonesia Ireland "
    "Israel Italy Japan Kenya Latvia Lithuania Luxembourg Malaysia Mexico Morocco Netherlands "
    "Norway Peru Philippines Poland Portugal Romania Serbia Singapore Slovakia Slovenia Spain "
    "Sweden Switzerland Thailand Turkey Ukraine Uruguay Vietnam"
).split()
_CITIES = (
    "Amsterdam Berlin Lisbon London Madrid Osaka Paris Prague Rome Tokyo Vienna Zürich".split()
)
_CATEGORIES = "Books Electronics Garden Kitchen Music Outdoor Shoes Sports Toys Travel".split()
_LANGUAGES = "Deutsch English Español Français Italiano 日本語 Nederlands Polski Português".split()
_BRANDS = "Acme Globex Initech Umbrella Hooli Vandelay Stark Wayne Wonka".split()


# --- the manifest ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageInfo:
    """What one generated page is and holds. ``forms`` counts the ``<form`` start tags written
    (template and script-string ones included), ``toolname_forms`` those with a ``toolname``
    attribute; the parser may merge or drop some (see ``cases``), so these are not tool counts."""

    file: str  #: path relative to the corpus directory
    url: str
    charset: str  #: the label the page declares
    bytes: int
    forms: int
    toolname_forms: int
    cases: tuple[str, ...]  #: the tricky constructs the page holds, sorted

    def to_json(self) -> str:
        return json.dumps({**self.__dict__, "cases": list(self.cases)}, ensure_ascii=False)

    @classmethod
    def from_json(cls, line: str) -> PageInfo:
        data = json.loads(line)
        return cls(**{**data, "cases": tuple(data["cases"])})


@dataclass(frozen=True)
class GeneratedPage:
    info: PageInfo
    body: bytes


@dataclass(frozen=True)
class Corpus:
    """A corpus on disk: its directory, its pages in order, and its WARC archive if written."""

    directory: Path
    pages: tuple[PageInfo, ...]
    warc: Path | None

    @property
    def size(self) -> int:
        return sum(page.bytes for page in self.pages)

    @property
    def pages_dir(self) -> Path:
        return self.directory / "pages"

    def path(self, page: PageInfo) -> Path:
        return self.directory / page.file

    def bodies(self) -> list[bytes]:
        """Every page's bytes, in order (the whole corpus in memory: for timing without I/O)."""
        return [self.path(page).read_bytes() for page in self.pages]


# --- one page ----------------------------------------------------------------------------------


@dataclass
class _Writer:
    """Builds one page. Keeps what the page holds so far: ids in use, forms, cases."""

    rng: random.Random
    lang: str
    host: str
    scale: float  #: below 1 for small pages: fewer menu entries, rows, cards, ...
    ids: int = 0
    forms: int = 0
    toolname_forms: int = 0
    form_ids: list[str] = field(default_factory=list)
    toolnames: list[str] = field(default_factory=list)
    cases: set[str] = field(default_factory=set)

    # text

    def count(self, low: int, high: int) -> int:
        """How many items a region gets: ``randint(low, high)``, scaled down on small pages."""
        return max(1, round(self.rng.randint(low, high) * self.scale))

    def new_id(self, prefix: str) -> str:
        self.ids += 1
        return f"{prefix}-{self.ids}"

    def sentences(self, low: int, high: int) -> str:
        return " ".join(self.rng.choices(_TEXT[self.lang], k=self.rng.randint(low, high)))

    def words(self, count: int) -> str:
        if self.lang == "ja":
            return "".join(self.rng.choices(_JA, k=count))
        return " ".join(self.rng.choices(_WORDS[self.lang], k=count)).title()

    def link(self) -> str:
        section = self.rng.choice(_SECTIONS)
        number = self.rng.randrange(10**6)
        return f'<a href="/{section}/{number}">{self.words(self.rng.randint(1, 3))}</a>'

    def inline(self) -> str:
        """A paragraph with links, emphasis and entities, sometimes left unclosed."""
        parts = [self.sentences(2, 6)]
        for _ in range(self.rng.randint(0, 3)):
            parts.insert(
                self.rng.randint(0, len(parts)),
                self.rng.choice(
                    (
                        self.link(),
                        f"<b>{self.words(2)}</b>",
                        f"<em>{self.words(1)}</em>",
                        "&nbsp;&mdash;&nbsp;",
                        "&amp; &copy; 2026",
                        "<br>",
                        f'<span class="tag">#{self.words(1)}</span>',
                    )
                ),
            )
        closing = "" if self.rng.random() < 0.15 else "</p>"
        return f"<p>{' '.join(parts)}{closing}\n"

    # page regions

    def head(self, charset: str, title: str) -> str:
        if charset == "shift_jis" or self.rng.random() < 0.3:
            meta = f'<meta http-equiv="Content-Type" content="text/html; charset={charset}">'
        else:
            meta = f'<meta charset="{charset}">'
        rules = "".join(
            f".c{self.rng.randrange(9999)} .x{n}{{margin:{n % 7}px;padding:{n % 5}px 0;"
            f"color:#{self.rng.randrange(16**6):06x};display:{'flex' if n % 2 else 'block'}}}\n"
            for n in range(self.count(20, 120))
        )
        ld = json.dumps(
            {
                "@context": "https://schema.org",
                "@type": "WebPage",
                "name": title,
                "url": f"https://{self.host}/",
            },
            ensure_ascii=False,
        )
        return (
            f'<!DOCTYPE html>\n<html lang="{"ja" if self.lang == "ja" else "en"}">\n'
            f"<head>\n{meta}\n"
            f"<title>{html.escape(title)}</title>\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<link rel="stylesheet" href="/static/site.{self.rng.randrange(16**8):08x}.css">\n'
            f"<style>\n{rules}</style>\n"
            "<script>window.dataLayer=window.dataLayer||[];"
            "function gtag(){dataLayer.push(arguments)}"
            f"gtag('js',new Date());gtag('config','G-{self.rng.randrange(10**9)}');</script>\n"
            f'<script type="application/ld+json">{ld}</script>\n</head>\n'
        )

    def nav(self) -> str:
        items = []
        for _ in range(self.count(6, 14)):
            sub = "".join(f"<li>{self.link()}</li>" for _ in range(self.count(3, 25)))
            items.append(f'<li class="menu-item">{self.link()}<ul class="sub">{sub}</ul></li>')
        return (
            '<header class="site-header"><a class="logo" href="/">'
            f'<img src="/logo.svg" alt="{self.host}"></a>\n'
            f'<nav aria-label="Main"><ul class="menu">{"".join(items)}</ul></nav>\n'
            f'<div class="breadcrumbs">{" &rsaquo; ".join(self.link() for _ in range(3))}</div>'
            "</header>\n"
        )

    def footer(self) -> str:
        columns = "".join(
            f'<div class="col"><h4>{self.words(2)}</h4><ul>'
            + "".join(f"<li>{self.link()}</li>" for _ in range(self.count(4, 10)))
            + "</ul></div>"
            for _ in range(4)
        )
        return (
            f'<footer><div class="cols">{columns}</div>'
            f'<p class="legal">&copy; 2026 {self.host}</p></footer>\n'
        )

    # body chunks: each returns a few KB of markup

    def article(self) -> str:
        paragraphs = "".join(self.inline() for _ in range(self.count(2, 8)))
        return (
            f'<section class="article"><h2 id="{self.new_id("s")}">{self.words(4)}</h2>\n'
            f"{paragraphs}</section>\n"
        )

    def cards(self) -> str:
        cards = "".join(
            f'<div class="card"><a href="/p/{self.rng.randrange(10**7)}">'
            f'<img src="/img/{self.rng.randrange(10**7)}.jpg" '
            f'alt="{html.escape(self.words(3))}" loading="lazy" width=240 height=180></a>'
            f'<h3>{self.words(3)}</h3><p class="price">'
            f"{self.rng.randint(1, 999)}.{self.rng.randint(0, 99):02d}</p>"
            '<button type="button" class="add" '
            f'data-sku="{self.rng.randrange(16**8):08x}">+</button></div>'
            for _ in range(self.count(4, 16))
        )
        return f'<div class="grid">{cards}</div>\n'

    def data_table(self) -> str:
        columns = self.rng.randint(3, 7)
        head = "".join(f"<th scope=col>{self.words(1)}</th>" for _ in range(columns))
        rows = "".join(
            "<tr>"
            + "".join(f"<td>{self.rng.randint(0, 99999)}</td>" for _ in range(columns - 1))
            + f"<td>{self.link()}</td></tr>\n"
            for _ in range(self.count(5, 40))
        )
        return (
            f'<table class="data"><caption>{self.words(3)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>\n{rows}</tbody></table>\n"
        )

    def layout_table(self) -> str:
        """Old-school layout: nested tables, unquoted attributes, cells never closed."""
        inner = "".join(
            f"<tr><td width=20 valign=top><img src=/dot.gif width=1 height=1><td>{self.inline()}"
            for _ in range(self.count(2, 6))
        )
        return (
            "<TABLE width=100% cellpadding=0 border=0><TR><TD bgcolor=#eeeeee>"
            f"<table>{inner}</table></TD></TR></TABLE>\n"
        )

    def comments(self) -> str:
        items = "".join(
            f'<li class="comment"><article><header><b>{self.words(1)}</b> '
            f'<time datetime="2026-01-{self.rng.randint(1, 28):02d}">'
            f"{self.rng.randint(1, 28)}d</time></header>{self.inline()}</article></li>\n"
            for _ in range(self.count(3, 12))
        )
        return f'<ol class="comments">\n{items}</ol>\n'

    def script(self) -> str:
        functions = "".join(
            f'function f{n}(a,b){{if(a<b&&b>{n}){{return a+\'{self.words(1)}\'}}var s="</"+"div>";'
            f"for(var i=0;i<{n};i++){{b+=i*{self.rng.randint(1, 99)}}}return b}}\n"
            for n in range(self.count(10, 60))
        )
        return f"<script>\n(function(){{'use strict';\n{functions}}})();\n</script>\n"

    def state(self) -> str:
        """A framework's JSON state blob, the bulk of many modern pages."""
        items = [
            {
                "id": self.rng.randrange(10**9),
                "title": self.words(4),
                "price": self.rng.randint(1, 99999) / 100,
                "tags": self.rng.sample(_CATEGORIES, 3),
                "html": f"<p>{self.words(5)}</p>",
            }
            for _ in range(self.count(20, 150))
        ]
        blob = json.dumps({"props": {"items": items}}, ensure_ascii=False).replace("</", "<\\/")
        return f'<script id="__STATE__" type="application/json">{blob}</script>\n'

    def sprite(self) -> str:
        symbols = "".join(
            f'<symbol id="{self.new_id("i")}" viewBox="0 0 24 24">'
            f'<path d="M{self.rng.randint(0, 24)} {self.rng.randint(0, 24)}'
            f'l{self.rng.randint(1, 9)} {self.rng.randint(1, 9)}h4v-3z"/></symbol>'
            for _ in range(self.count(5, 30))
        )
        return f'<svg style="display:none" xmlns="http://www.w3.org/2000/svg">{symbols}</svg>\n'

    def links(self) -> str:
        return (
            '<ul class="related">'
            + "".join(f"<li>{self.link()}" for _ in range(self.count(10, 60)))
            + "</ul>\n"
        )

    def noscript(self) -> str:
        return (
            f'<noscript><img src="https://px.{self.host}/t.gif?id={self.rng.randrange(10**9)}" '
            f'alt=""></noscript>\n<!-- {self.words(6)} -->\n'
        )

    def chunk(self) -> str:
        weights = (
            (self.article, 30),
            (self.cards, 10),
            (self.data_table, 8),
            (self.layout_table, 5),
            (self.comments, 8),
            (self.script, 8),
            (self.state, 5),
            (self.sprite, 3),
            (self.links, 8),
            (self.noscript, 3),
        )
        make = self.rng.choices([w[0] for w in weights], [w[1] for w in weights])[0]
        return make()


# --- forms --------------------------------------------------------------------------------------

_Field = tuple[str, str, str]  # kind, name, label


class _Recipe(NamedTuple):
    """A kind of form real sites have: its tool name, descriptions, method and fields."""

    toolname: str
    english: str
    japanese: str
    method: str
    fields: tuple[_Field, ...]


_RECIPES: tuple[_Recipe, ...] = (
    _Recipe(
        "search_site",
        "Search the site for articles and products.",
        "サイト内を検索します。",
        "get",
        (("search", "q", "Search"), ("select", "category", "Category")),
    ),
    _Recipe(
        "sign_in",
        "Sign in to your account.",
        "アカウントにログインします。",
        "post",
        (
            ("email", "email", "Email"),
            ("password", "password", "Password"),
            ("checkbox", "remember", "Remember me"),
        ),
    ),
    _Recipe(
        "subscribe_newsletter",
        "Subscribe an email address to the newsletter.",
        "ニュースレターを購読します。",
        "post",
        (
            ("email", "email", "Your email"),
            ("checkboxes", "topics", "Topics"),
            ("hidden", "source", ""),
        ),
    ),
    _Recipe(
        "contact_support",
        "Send a message to customer support.",
        "サポートに問い合わせます。",
        "post",
        (
            ("text", "name", "Full name"),
            ("email", "email", "Email"),
            ("tel", "phone", "Phone"),
            ("select", "subject", "Subject"),
            ("textarea", "message", "Message"),
            ("file", "attachment", "Attachment"),
            ("checkbox", "consent", "I agree to the privacy policy"),
        ),
    ),
    _Recipe(
        "book_flight",
        "Search flights between two cities on given dates.",
        "航空券を検索します。",
        "get",
        (
            ("datalist", "from", "From"),
            ("datalist", "to", "To"),
            ("date", "depart", "Departure"),
            ("date", "return", "Return"),
            ("number", "passengers", "Passengers"),
            ("radios", "cabin", "Cabin class"),
            ("checkbox", "flexible", "Flexible dates"),
        ),
    ),
    _Recipe(
        "filter_products",
        "Filter the product list by brand, price and rating.",
        "商品を絞り込みます。",
        "get",
        (
            ("checkboxes", "brand", "Brand"),
            ("range", "max_price", "Maximum price"),
            ("number", "min_price", "Minimum price"),
            ("radios", "rating", "Rating"),
            ("select", "sort", "Sort by"),
            ("multiselect", "size", "Sizes"),
        ),
    ),
    _Recipe(
        "checkout_address",
        "Enter the delivery address for the order.",
        "配送先住所を入力します。",
        "post",
        (
            ("text", "given_name", "First name"),
            ("text", "family_name", "Last name"),
            ("text", "street", "Street"),
            ("postal", "postal_code", "Postal code"),
            ("text", "city", "City"),
            ("country", "country", "Country"),
            ("tel", "phone", "Phone"),
            ("email", "email", "Email"),
            ("textarea", "notes", "Delivery notes"),
            ("hidden", "csrf", ""),
        ),
    ),
    _Recipe(
        "reserve_table",
        "Reserve a table at the restaurant.",
        "レストランを予約します。",
        "post",
        (
            ("date", "date", "Date"),
            ("time", "time", "Time"),
            ("number", "guests", "Guests"),
            ("select", "occasion", "Occasion"),
            ("textarea", "requests", "Special requests"),
        ),
    ),
    _Recipe(
        "update_settings",
        "Change account preferences.",
        "アカウント設定を変更します。",
        "post",
        (
            ("url", "website", "Website"),
            ("color", "accent", "Accent colour"),
            ("month", "card_expiry", "Card expiry"),
            ("week", "vacation", "Vacation week"),
            ("datetime-local", "reminder", "Reminder"),
            ("multiselect", "languages", "Languages"),
            ("checkbox", "digest", "Weekly digest"),
        ),
    ),
    _Recipe(
        "write_review",
        "Write a review of a product.",
        "商品のレビューを書きます。",
        "post",
        (
            ("radios", "stars", "Rating"),
            ("text", "title", "Title"),
            ("textarea", "body", "Review"),
            ("checkbox", "recommend", "I recommend this product"),
        ),
    ),
)


class _Forms:
    """Form markup for a :class:`_Writer`: controls, labels, layouts and the tricky cases."""

    def __init__(self, page: _Writer) -> None:
        self.page = page
        self.rng = page.rng

    # controls

    def _options(self, name: str) -> list[str]:
        pools = {
            "country": _COUNTRIES,
            "languages": _LANGUAGES,
            "size": ("XS", "S", "M", "L", "XL"),
            "brand": _BRANDS,
            "from": _CITIES,
            "to": _CITIES,
            "cabin": ("economy", "premium", "business", "first"),
            "stars": ("1", "2", "3", "4", "5"),
            "rating": ("1", "2", "3", "4"),
            "sort": ("relevance", "price-asc", "price-desc", "newest"),
        }
        pool = pools.get(name, _CATEGORIES)
        return (
            list(pool)
            if len(pool) <= 12
            else self.rng.sample(pool, self.rng.randint(12, len(pool)))
        )

    def _select(self, name: str, common: str, multiple: bool) -> str:
        values = self._options(name)
        options = []
        if not multiple and self.rng.random() < 0.5:
            options.append('<option value="">— choose —</option>')
        chosen = self.rng.choice(values)
        for value in values:
            selected = " selected" if value == chosen and self.rng.random() < 0.4 else ""
            options.append(
                f'<option value="{html.escape(value.lower())}"{selected}>'
                f"{html.escape(value)}</option>"
            )
        if len(options) > 8 and self.rng.random() < 0.4:
            middle = len(options) // 2
            options = [
                '<optgroup label="A">',
                *options[:middle],
                '</optgroup><optgroup label="B">',
                *options[middle:],
                "</optgroup>",
            ]
        extra = " multiple size=4" if multiple else ""
        return f'<select name="{name}"{common}{extra}>{"".join(options)}</select>'

    def _group(self, kind: str, name: str, label: str, annotate: bool) -> str:
        values = self._options(name)
        input_type = "radio" if kind == "radios" else "checkbox"
        checked = self.rng.randrange(len(values) + 2)
        items = "".join(
            f'<label><input type="{input_type}" name="{name}" value="{html.escape(v.lower())}"'
            f"{' checked' if i == checked else ''}> {html.escape(v)}</label> "
            for i, v in enumerate(values)
        )
        described = (
            f' toolparamdescription="{html.escape(label)} to use."'
            if annotate and self.rng.random() < 0.5
            else ""
        )
        return f"<fieldset{described}><legend>{html.escape(label)}</legend>{items}</fieldset>"

    def control(
        self, kind: str, name: str, label: str, annotate: bool, *, form: str | None = None
    ) -> str:
        """One control with its label (wrapping, ``for=``, ``aria-label``, or none)."""
        rng = self.rng
        if kind in ("radios", "checkboxes"):
            return self._group(kind, name, label, annotate)
        control_id = self.page.new_id(name.replace("_", "-"))
        common = f' id="{control_id}"'
        if form is not None:
            common += f' form="{form}"'
        if rng.random() < 0.3 and kind not in ("hidden", "checkbox"):
            common += " required"
        if annotate and kind != "hidden" and rng.random() < 0.35:
            common += f' toolparamdescription="{html.escape(label)}, as the customer gives it."'
        if rng.random() < 0.03 and kind != "hidden":
            common += rng.choice((" disabled", " readonly"))
        if kind == "hidden":
            return (
                f'<input type="hidden" name="{name}"{common} value="{rng.randrange(16**12):012x}">'
            )
        if kind in ("select", "country", "multiselect"):
            element = self._select(name, common, kind == "multiselect")
        elif kind == "textarea":
            limit = rng.choice((500, 2000))
            element = f'<textarea name="{name}"{common} rows=4 maxlength={limit}></textarea>'
        elif kind == "datalist":
            list_id = self.page.new_id("dl")
            options = "".join(f'<option value="{city}">' for city in _CITIES)
            element = (
                f'<input name="{name}"{common} list="{list_id}" autocomplete=off>'
                f'<datalist id="{list_id}">{options}</datalist>'
            )
        else:
            input_type = "text" if kind == "postal" else kind
            element = (
                f'<input type="{input_type}" name="{name}"{common}{self._input_attributes(kind)}>'
            )
        style = rng.random()
        if kind == "checkbox" or style < 0.45:
            return f"<label>{html.escape(label)} {element}</label>"
        if style < 0.8:
            return f'<label for="{control_id}">{html.escape(label)}</label> {element}'
        if style < 0.9:
            return element.replace(
                f' id="{control_id}"', f' id="{control_id}" aria-label="{html.escape(label)}"', 1
            )
        return element

    def _input_attributes(self, kind: str) -> str:
        rng = self.rng
        attributes = {
            "text": f' placeholder="{self.page.words(2)}" autocomplete=on',
            "search": ' placeholder="Search…" minlength=2',
            "email": ' autocomplete="email"',
            "password": ' autocomplete="current-password" minlength=8',
            "tel": ' pattern="[0-9 +()-]{6,20}" autocomplete="tel"',
            "postal": ' pattern="[0-9A-Z ]{3,10}" maxlength=10',
            "url": ' placeholder="https://"',
            "number": f" min=1 max={rng.randint(5, 20)} value=1",
            "range": f" min=0 max={rng.choice((100, 500, 1000))} step={rng.choice((1, 5, 10))}",
            "date": ' min="2026-01-01" max="2027-12-31"',
            "time": " step=900",
            "month": ' min="2026-01"',
            "color": f' value="#{rng.randrange(16**6):06x}"',
            "checkbox": ' value="yes"',
            "file": ' accept=".pdf,.png,.jpg" multiple',
        }
        return attributes.get(kind, "")

    # forms

    def _start_tag(self, recipe: _Recipe, annotate: bool, form_id: str) -> str:
        name, english, japanese, method, fields = recipe
        rng = self.rng
        attributes = [
            f'id="{form_id}"',
            f'action="{rng.choice(("/" + name.replace("_", "/"), "", f"https://{self.page.host}/api/{name}"))}"',
            f'method="{method}"',
        ]
        if any(kind == "file" for kind, _, _ in fields):
            attributes.append('enctype="multipart/form-data"')
        if annotate:
            toolname = name
            if toolname in self.page.toolnames and rng.random() < 0.7:
                # a second form of a kind gets a name of its own, else it is a duplicate
                toolname = f"{name}_{len(self.page.toolnames)}"
            self.page.toolnames.append(toolname)
            description = japanese if self.page.lang == "ja" else english
            attributes += [
                f'toolname="{toolname}"',
                f'tooldescription="{html.escape(description)}"',
            ]
            if rng.random() < 0.2:
                attributes.append("toolautosubmit")
        tag = f"<form {' '.join(attributes)}>"
        if annotate and rng.random() < 0.05:
            self.page.cases.add("uppercase")
            tag = (
                tag.replace("<form ", "<FORM ")
                .replace("toolname=", "TOOLNAME=")
                .replace("tooldescription=", "ToolDescription=")
            )
        return tag

    def _submit(self) -> str:
        return self.rng.choice(
            (
                '<button type="submit">Send</button>',
                '<input type="submit" value="Go">',
                "<button>Submit</button>",
                '<button type="submit" name="action" value="save">Save</button>',
                "",
            )
        )

    def form(self, annotate: bool) -> str:
        """A form from a random recipe in a random layout (most plain, some tricky)."""
        rng = self.rng
        recipe = rng.choice(_RECIPES)
        form_id = self.page.new_id("form")
        self.page.form_ids.append(form_id)
        self.page.forms += 1
        self.page.toolname_forms += annotate
        start = self._start_tag(recipe, annotate, form_id)
        controls = [
            self.control(kind, name, label, annotate) for kind, name, label in recipe.fields
        ]
        submit = self._submit()
        layouts: tuple[tuple[Callable[[str, list[str], str, str], str], float], ...] = (
            (self._plain, 55),
            (self._table_inside, 10),
            (self._in_table, 6),
            (self._across_cells, 5),
            (self._foster_parented, 4),
            (self._closed_by_div, 5),
            (self._unclosed, 3),
            (self._nested, 4),
            (self._form_attribute, 6),
            (self._template, 2),
        )
        layout = rng.choices([entry[0] for entry in layouts], [entry[1] for entry in layouts])[0]
        return f'<div class="form-wrap">\n{layout(start, controls, submit, form_id)}\n</div>\n'

    def _plain(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        wrap = self.rng.choice(('<div class="field">{}</div>', "<p>{}</p>", "{}<br>"))
        return start + "".join(wrap.format(c) for c in controls) + submit + "</form>"

    def _table_inside(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        rows = "".join(f"<tr><td>{c}</td></tr>" for c in controls)
        return f"{start}<table>{rows}<tr><td>{submit}</td></tr></table></form>"

    def _in_table(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        self.page.cases.add("form-in-table")
        rows = "".join(f"<tr><td>{c}</td></tr>" for c in controls)
        return f'<table class="form">{start}{rows}<tr><td>{submit}</td></tr></form></table>'

    def _across_cells(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        self.page.cases.add("form-across-cells")
        half = len(controls) // 2 or 1
        return (
            f"<table><tr><td>{start}{''.join(controls[:half])}</td></tr>"
            f"<tr><td>{''.join(controls[half:])}{submit}</td></tr></table></form>"
        )

    def _foster_parented(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        self.page.cases.add("foster-parented")
        rows = "".join(f"<tr><td>{c}</td></tr>" for c in controls[1:])
        stray = '<input type="hidden" name="token" value="x1">' + controls[0]
        return f"<table>{start}{stray}{rows}<tr><td>{submit}</td></tr></table></form>"

    def _closed_by_div(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        self.page.cases.add("form-closed-by-div")
        half = len(controls) // 2 or 1
        first, rest = "".join(controls[:half]), "".join(controls[half:])
        return f'<div class="panel">{start}{first}</div>{rest}{submit}</form>'

    def _unclosed(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        self.page.cases.add("unclosed-form")
        return start + "".join(f"<p>{c}" for c in controls) + submit

    def _nested(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        self.page.cases.add("nested-form")
        self.page.forms += 1
        inner = (
            '<form action="/inner" toolname="inner_form" '
            'tooldescription="Never a form: the tag is ignored.">'
        )
        self.page.toolname_forms += 1
        half = len(controls) // 2 or 1
        first, rest = "".join(controls[:half]), "".join(controls[half:])
        return f"{start}{first}{inner}{rest}</form>{submit}</form>"

    def _form_attribute(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        self.page.cases.add("form-attribute")
        recipe_fields = ("text", "coupon", "Coupon code"), ("checkbox", "gift", "Gift wrap")
        outside = "".join(
            self.control(kind, name, label, "toolname" in start, form=form_id)
            for kind, name, label in recipe_fields
        )
        elsewhere = self.rng.choice(self.page.form_ids)
        stolen = f'<input type="text" name="stolen" form="{elsewhere}">'
        aside = f"<aside>{self.page.inline()}{outside}</aside>"
        return f"{start}{''.join(controls)}{stolen}{submit}</form>{aside}"

    def _template(self, start: str, controls: list[str], submit: str, form_id: str) -> str:
        self.page.cases.add("template-form")
        return f"<template>{self._plain(start, controls, submit, form_id)}</template>"

    def script_string(self) -> str:
        """Form markup inside a script string: text to a parser, a false positive to a byte scan."""
        self.page.cases.add("script-string")
        self.page.forms += 1
        self.page.toolname_forms += 1
        return (
            '<script>var tpl=\'<form toolname="js_search" tooldescription="Built by script.">'
            "<input name=q></form>';"
            "document.querySelectorAll('.x').forEach(function(e){e.innerHTML=tpl});</script>\n"
        )


# --- pages -------------------------------------------------------------------------------------


def _page_size(rng: random.Random, page_kb: tuple[float, float]) -> int:
    """Log-normal around the geometric mean of the bounds, clipped to them."""
    low, high = page_kb
    centre = math.log(math.sqrt(low * high))
    spread = (math.log(high) - math.log(low)) / 5 or 0.01
    return int(min(high, max(low, rng.lognormvariate(centre, spread))) * 1000)


def _page(
    seed: int, index: int, page_kb: tuple[float, float], forms_only: bool = False
) -> GeneratedPage:
    rng = random.Random(f"{seed}:{index}:forms" if forms_only else f"{seed}:{index}")
    charset = rng.choices([c for c, _ in _CHARSETS], [w for _, w in _CHARSETS])[0]
    lang = {"shift_jis": "ja", "windows-1252": "west", "iso-8859-1": "west"}.get(charset, "en")
    if charset == "utf-8" and rng.random() < 0.1:
        lang = rng.choice(("ja", "west"))
    host = rng.choice(_HOSTS)
    target = _page_size(rng, page_kb)
    page = _Writer(rng, lang, host, scale=min(1.0, target / 40_000))
    forms = _Forms(page)
    title = page.words(5)

    with_forms = rng.random() < 0.5 or forms_only
    annotated = with_forms and rng.random() < 0.65
    form_count = rng.choices((1, 2, 3), (60, 30, 10))[0] if with_forms else 0
    # at least one annotated form on an annotated page; the others annotated with p = 0.6
    plan = [annotated and (n == 0 or rng.random() < 0.6) for n in range(form_count)]
    rng.shuffle(plan)

    head = page.head(charset, title)
    header = page.nav()
    footer = page.footer() + page.script()
    # one char is about one byte, except for Japanese (two in Shift_JIS, three in UTF-8)
    width = {"ja": 2.4 if charset == "shift_jis" else 2.8}.get(lang, 1.03)
    budget = target / width - len(head) - len(header) - len(footer)
    body: list[str] = []
    used = 0
    while used < budget or not body:
        chunk = page.chunk()
        body.append(chunk)
        used += len(chunk)
    if with_forms and rng.random() < 0.05:
        body.insert(rng.randint(0, len(body)), forms.script_string())
    for annotate in plan:
        body.insert(rng.randint(0, len(body)), forms.form(annotate))

    text = "".join(
        (
            head,
            f'<body class="{rng.choice(_SECTIONS)}">\n',
            header,
            "<main>\n",
            *body,
            "</main>\n",
            footer,
            "</body>\n</html>\n",
        )
    )
    encoded = text.encode(_CODECS[charset], errors="xmlcharrefreplace")
    slug = f"{rng.choice(_SECTIONS)}/{'-'.join(rng.choices(_EN, k=3))}-{index}.html"
    info = PageInfo(
        file=f"pages/{index // PAGES_PER_FOLDER:04d}/{index:06d}.html",
        url=f"https://{host}/{slug}",
        charset=charset,
        bytes=len(encoded),
        forms=page.forms,
        toolname_forms=page.toolname_forms,
        cases=tuple(sorted(page.cases)),
    )
    return GeneratedPage(info, encoded)


def iter_pages(
    seed: int = 1, page_kb: tuple[float, float] | None = None, *, forms_only: bool = False
) -> Iterator[GeneratedPage]:
    """The corpus's pages in order, without end: page ``i`` depends only on ``seed``, ``i`` and
    ``forms_only``. ``page_kb`` defaults to :data:`PAGE_KB` (:data:`FORMS_ONLY_PAGE_KB` for
    ``forms_only``)."""
    if page_kb is None:
        page_kb = FORMS_ONLY_PAGE_KB if forms_only else PAGE_KB
    index = 0
    while True:
        yield _page(seed, index, page_kb, forms_only)
        index += 1


def generate(
    out_dir: str | Path,
    size_mb: float = 25.0,
    seed: int = 1,
    *,
    pages: int | None = None,
    page_kb: tuple[float, float] | None = None,
    warc: bool = True,
    forms_only: bool = False,
) -> Corpus:
    """Write a corpus of at least ``size_mb`` MB (10^6 bytes), or of exactly ``pages`` pages, to
    ``out_dir`` (its ``pages/``, manifest and WARC are replaced; nothing else there is touched).

    ``forms_only``: every page carries one to three forms (the form-page corpus of the
    performance figures), pages drawn around 60 KB (:data:`FORMS_ONLY_PAGE_KB`) unless
    ``page_kb`` says otherwise; its page ``i`` is not the mixed corpus's page ``i``."""
    if page_kb is None:
        page_kb = FORMS_ONLY_PAGE_KB if forms_only else PAGE_KB
    if not page_kb[0] > 0 or page_kb[0] > page_kb[1]:
        raise ValueError(f"page_kb must be (low, high) with 0 < low <= high, not {page_kb}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if (out / "pages").exists():
        shutil.rmtree(out / "pages")
    (out / WARC_NAME).unlink(missing_ok=True)
    written: list[PageInfo] = []
    total = 0
    archive = _Archive(out / WARC_NAME, seed) if warc else None
    try:
        with (out / MANIFEST).open("w", encoding="utf-8") as manifest:
            for page in iter_pages(seed, page_kb, forms_only=forms_only):
                if (len(written) >= pages) if pages is not None else (total >= size_mb * 1e6):
                    break
                path = out / page.info.file
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(page.body)
                manifest.write(page.info.to_json() + "\n")
                if archive is not None:
                    archive.add(page)
                written.append(page.info)
                total += page.info.bytes
    finally:
        if archive is not None:
            archive.close()
    return Corpus(out, tuple(written), out / WARC_NAME if warc else None)


def load(out_dir: str | Path) -> Corpus:
    """A corpus :func:`generate` wrote earlier, from its manifest."""
    out = Path(out_dir)
    with (out / MANIFEST).open(encoding="utf-8") as manifest:
        pages = tuple(PageInfo.from_json(line) for line in manifest)
    warc = out / WARC_NAME
    return Corpus(out, pages, warc if warc.exists() else None)


class _Archive:
    """The corpus as one WARC.gz, byte-reproducible: record ids come from the seed, the date is
    fixed, and warcio's gzip members carry no timestamp."""

    def __init__(self, path: Path, seed: int) -> None:
        from warcio.statusandheaders import StatusAndHeaders
        from warcio.warcwriter import WARCWriter

        self._headers = StatusAndHeaders
        self._ids = random.Random(f"warc:{seed}")
        self._stream = path.open("wb")
        self._writer = WARCWriter(self._stream, gzip=True)
        self._hosts: set[str] = set()
        info = self._writer.create_warc_record(
            WARC_NAME,
            "warcinfo",
            payload=io.BytesIO(f"software: formtools make_corpus\r\nseed: {seed}\r\n".encode()),
            warc_content_type="application/warc-fields",
            warc_headers_dict=self._warc_headers(),
        )
        self._writer.write_record(info)

    def _warc_headers(self) -> dict[str, str]:
        return {
            "WARC-Record-ID": f"<urn:uuid:{uuid.UUID(int=self._ids.getrandbits(128), version=4)}>",
            "WARC-Date": _WARC_DATE,
        }

    def _response(self, url: str, body: bytes, content_type: str) -> None:
        http = self._headers(
            "200 OK",
            [("Content-Type", content_type), ("Content-Length", str(len(body)))],
            protocol="HTTP/1.1",
        )
        record = self._writer.create_warc_record(
            url,
            "response",
            payload=io.BytesIO(body),
            http_headers=http,
            warc_headers_dict=self._warc_headers(),
        )
        self._writer.write_record(record)

    def add(self, page: GeneratedPage) -> None:
        host = page.info.url.split("/")[2]
        if host not in self._hosts:
            self._hosts.add(host)
            self._response(
                f"https://{host}/robots.txt", b"User-agent: *\nDisallow: /account/\n", "text/plain"
            )
        self._response(page.info.url, page.body, f"text/html; charset={page.info.charset}")

    def close(self) -> None:
        self._stream.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", nargs="?", default=str(Path(__file__).parent / "corpus"))
    parser.add_argument("--size-mb", type=float, default=25.0)
    parser.add_argument("--pages", type=int, help="exactly this many pages (instead of --size-mb)")
    parser.add_argument(
        "--page-kb",
        type=float,
        nargs=2,
        default=None,
        metavar=("LOW", "HIGH"),
        help=f"page sizes (default {PAGE_KB}, {FORMS_ONLY_PAGE_KB} with --forms-only)",
    )
    parser.add_argument(
        "--forms-only",
        action="store_true",
        help="every page carries 1-3 forms (the form-page corpus: --pages 200 is about 16 MB)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-warc", action="store_true", help="only the .html files and the manifest"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    corpus = generate(
        args.out_dir,
        args.size_mb,
        args.seed,
        pages=args.pages,
        page_kb=tuple(args.page_kb) if args.page_kb else None,
        warc=not args.no_warc,
        forms_only=args.forms_only,
    )
    with_forms = sum(1 for page in corpus.pages if page.forms)
    annotated = sum(1 for page in corpus.pages if page.toolname_forms)
    tricky = sum(1 for page in corpus.pages if page.cases)
    print(
        f"{len(corpus.pages):,} pages, {corpus.size / 1e6:.1f} MB in {corpus.directory} "
        f"({with_forms:,} with forms, {annotated:,} with toolname, {tricky:,} with tricky cases"
        f"{', + ' + WARC_NAME if corpus.warc else ''}) in {time.perf_counter() - started:.1f} s"
    )


if __name__ == "__main__":
    main()
