"""Seeded page shapes for the counted-work scaling search (``test_shape_scaling.py``).

A shape is a combinator applied to fragments of form markup at a size n; every entry point
(extraction on both parse paths, lint, each synthesis profile, ``validate_input`` and
``prepare_call`` with inputs growing with n, the batch's JSON line) is counted at n, 2n and 4n.
The work added from 2n to 4n over the work added from n to 2n is 2 for linear work and 4 for
quadratic (the constant cost of a call cancels out), so a shape is suspect above 2.5. The
worst cases the adversarial reviews found one at a time (``test_linear_cost*.py``) are of this
class: the generator is what would have found them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: One fragment: (opening markup, content, closing markup); ``{i}`` is the fragment's index
#: among its repeats (distinct names, ids and values), ``{long}`` a long attribute value.
FRAGMENTS: dict[str, tuple[str, str, str]] = {
    "form": ("<form toolname=f{i} tooldescription=d>", "<input name=q{i}>", "</form>"),
    "form unnamed": ("<form>", "<input name=q{i}><button>Search</button>", "</form>"),
    "text input": ("", "<input name=t{i} required minlength=2 maxlength=9>", ""),
    "same-name text": ("", "<input name=t required>", ""),
    "unnamed input": ("", "<input>", ""),
    "number": ("", "<input type=number name=n{i} min=0 max=99 step=3>", ""),
    "date": ("", "<input type=date name=d{i} min=2020-01-01>", ""),
    "email multiple": ("", "<input type=email multiple name=e{i}>", ""),
    "pattern": ("", "<input name=p{i} pattern='[a-z]+(x|y)*'>", ""),
    "range": ("", "<input type=range name=rg{i}>", ""),
    "color": ("", "<input type=color name=c{i}>", ""),
    "file": ("", "<input type=file name=f{i} multiple accept=.png>", ""),
    "hidden input": ("", "<input type=hidden name=h{i} value=v{i}>", ""),
    "checkbox": ("", "<input type=checkbox name=cb value=v{i}>", ""),
    "checkbox required": ("", "<input type=checkbox name=cb{i} required>", ""),
    "radio": ("", "<input type=radio name=r value=v{i} required>", ""),
    "radio distinct": ("", "<input type=radio name=r{i} value=v>", ""),
    "textarea": ("<textarea name=ta{i} wrap=hard cols=5>", "word{i} text", "</textarea>"),
    "select": ("<select name=s{i}>", "<option>a<option>b", "</select>"),
    "select multiple shared": ("<select multiple name=sm>", "<option>o{i}", "</select>"),
    "option": ("", "<option value=o{i}>O{i}</option>", ""),
    "optgroup": ("<optgroup label=g{i}>", "<option>o{i}", "</optgroup>"),
    "hr in select": ("", "<hr><option>h{i}", ""),
    "datalist shared": ("", "<input name=l{i} list=dl><datalist id=dl><option>x{i}</datalist>", ""),
    "datalist option": ("<datalist id=dl{i}>", "<option>v{i}", "</datalist>"),
    "output": ("<output name=o{i}>", "r", "</output>"),
    "button": ("", "<button name=b{i} value=v>Go</button>", ""),
    "submit input": ("", "<input type=submit name=s{i} value=Go>", ""),
    "image button": ("", "<input type=image name=im{i} alt=Go>", ""),
    "object": ("<object name=ob{i}>", "", "</object>"),
    "fieldset": ("<fieldset name=fs{i}>", "<legend>L{i}</legend>", "</fieldset>"),
    "fieldset disabled": ("<fieldset disabled>", "<legend>x</legend>", "</fieldset>"),
    "legend": ("<legend>", "x", "</legend>"),
    "fieldset described": ("<fieldset toolparamdescription=g{i}>", "", "</fieldset>"),
    "label": ("<label>", "x{i}", "</label>"),
    "label for": ("<label for=id{i}>", "L{i}", "</label>"),
    "label for shared": ("<label for=shared>", "L{i}", "</label>"),
    "label for later": ("", "<label for=late>x</label>", ""),
    "input with id": ("", "<input id=id{i} name=i{i}>", ""),
    "shared id": ("", "<input id=shared name=sh{i}>", ""),
    "labelled input": ("<label>", "T{i} <input name=li{i}>", "</label>"),
    "aria-labelledby": ("", "<span id=a{i}>A{i}</span><input name=al{i} aria-labelledby='a{i} a0'>", ""),
    "aria chain": ("", "<span id=c{i} aria-labelledby=c{i}>C</span><input name=ac{i} aria-labelledby=c{i}>", ""),
    "aria shared": ("", "<input name=as{i} aria-labelledby=shared aria-describedby=shared>", ""),
    "aria-label": ("", "<input name=ar{i} aria-label=x{i} title=t placeholder=p>", ""),
    "toolparam": ("", "<input name=tp{i} toolparamtitle=T toolparamdescription=D>", ""),
    "form owner": ("", "<input form=fo name=fo{i}>", ""),
    "form owner missing": ("", "<input form=nowhere{i} name=nw{i}>", ""),
    "outside form owner": ("", "</form><input form=main name=out{i}><form>", ""),
    "table": ("<table>", "<tr><td><input name=tb{i}></td></tr>", "</table>"),
    "foster": ("<table>", "<input name=ft{i}>x", "</table>"),
    "table form": ("<table><form>", "<tr><td><input name=tf{i}>", "</form></table>"),
    "tr td": ("<tr>", "<td>x", "</tr>"),
    "misnested b p": ("<b>", "<p>x{i}", "</b>"),
    "misnested a": ("<a href=#>", "<div>y", "</a>"),
    "formatting attrs": ("<i class=c{i}>", "z", "</i>"),
    "font": ("<font color=red>", "f", "</font>"),
    "template": ("<template>", "<input name=tm{i}>", "</template>"),
    "template shadow": ("<div><template shadowrootmode=open>", "<input name=sr{i}>", "</template></div>"),
    "svg": ("<svg>", "<foreignObject><input name=sv{i}></foreignObject>", "</svg>"),
    "svg html tag": ("<svg>", "<p>s", "</svg>"),
    "math": ("<math>", "<mi>x</mi><mtext><input name=mt{i}></mtext>", "</math>"),
    "comment": ("<!--", " c{i} ", "-->"),
    "entities": ("", "&amp;&lt;&#x41;&notin;&copy x{i}", ""),
    "entity attribute": ("", "<input name=en{i} value='&amp;&gt;&#65;&notit;'>", ""),
    "dir": ("<div dir=rtl>", "<input name=dr{i} dirname=dn{i}>", "</div>"),
    "dir auto": ("<div dir=auto>", "שלום", "</div>"),
    "hidden attr": ("<div hidden>", "<input name=hd{i}>", "</div>"),
    "inert": ("<div inert>", "<input name=in{i}>", "</div>"),
    "heading": ("<h2>", "Title {i}", "</h2>"),
    "paragraph": ("<p>", "Some text {i}", "</p>"),
    "div": ("<div>", "", "</div>"),
    "span": ("<span>", "s", "</span>"),
    "list": ("<ul>", "<li>x", "</ul>"),
    "long attribute": ("", "<input name=la{i} placeholder='{long}'>", ""),
    "long text": ("", "<p>{long}</p>", ""),
    "long label": ("<label>", "{long}<input name=ll{i}>", "</label>"),
    "many attributes": ("", "<input name=ma{i} a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 k=9 l=0>", ""),
    "autocomplete": ("", "<input name=ac{i} autocomplete='section-a shipping cc-number'>", ""),
    "password": ("", "<input type=password name=pw{i} autocomplete=current-password>", ""),
    "script": ("<script>", "var x{i} = '</form>';", "</script>"),
    "style": ("<style>", "p{{color:red}}", "</style>"),
    "noscript": ("<noscript>", "<input name=ns{i}>", "</noscript>"),
    "iframe": ("<iframe name=fr{i}>", "", "</iframe>"),
    "base": ("", "<base href=/b{i}/>", ""),
    "meta": ("", "<meta name=x content=y{i}>", ""),
    "unclosed p": ("<p>", "u", ""),
    "stray close": ("", "</div></span></label>", ""),
    "close form": ("", "</form>", ""),
    "open form": ("", "<form>", ""),
    "select stray": ("<select name=ss{i}>", "<input name=after{i}>", "</select>"),
    "button nested": ("<button>", "<span>x</span>", "</button>"),
    "formaction": ("", "<button formaction=/a{i} formmethod=post formenctype=multipart/form-data>x</button>", ""),
}

#: Fragments whose opening swallows what follows up to its own closing (a comment, raw text):
#: opened out of order beside another fragment, how much of the page they swallow does not grow
#: with n (seen as tiny counts growing unevenly), so pairs take them only side by side.
SWALLOWING = frozenset({"comment", "script", "style", "textarea", "noscript", "iframe"})

#: The combinators: how fragments grow with n.
COMBINATORS = ("side by side", "nested", "interleaved", "misnested", "closed in order")

FORM = "<form id=main toolname=t tooldescription=d action=/x>{}<input name=last><button>Go</button></form>"


@dataclass(frozen=True)
class Shape:
    """A combinator over one or two fragments; ``page(n)`` is its markup at size n."""

    combinator: str
    fragments: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.combinator}: {' + '.join(self.fragments)}"

    def page(self, n: int) -> str:
        """The page at size n: the shape inside a tool's form (after its controls a last input)."""
        return FORM.format(self._body(n))

    def side_by_side(self, n: int) -> str:
        """The same fragments, each closed before the next: what a nested shape is compared with."""
        return FORM.format("".join(_whole(self.fragments[i % len(self.fragments)], i) for i in range(n)))

    def _body(self, n: int) -> str:
        parts = [FRAGMENTS[self.fragments[i % len(self.fragments)]] for i in range(n)]
        fill = [tuple(_filled(text, i) for text in part) for i, part in enumerate(parts)]
        if self.combinator == "side by side":
            return "".join("".join(part) for part in fill)
        if self.combinator == "nested":
            return "".join(o + c for o, c, _ in fill) + "".join(close for _, _, close in reversed(fill))
        if self.combinator == "interleaved":  # A's opening, B's opening, A's closing, B's closing
            return "".join(a[0] + a[1] + b[0] + b[1] + a[2] + b[2] for a, b in zip(fill[::2], fill[1::2]))
        if self.combinator == "misnested":  # all opened, then closed innermost-last
            return "".join(o + c for o, c, _ in fill) + "".join(close for _, _, close in fill)
        # closed in order: opened in runs of 3, each run closed first-opened first
        runs = [fill[k : k + 3] for k in range(0, n, 3)]
        return "".join("".join(o + c for o, c, _ in run) + "".join(close for _, _, close in run) for run in runs)


def _filled(text: str, i: int) -> str:
    return text.replace("{i}", str(i)).replace("{long}", f"long {i} " * 40).replace("{{", "{").replace("}}", "}")


def _whole(fragment: str, i: int) -> str:
    return "".join(_filled(text, i) for text in FRAGMENTS[fragment])


def shapes(count: int, seed: int) -> list[Shape]:
    """``count`` shapes: every fragment under every combinator first (one fragment, or for
    interleaving a seeded partner), then seeded pairs."""
    chooser = random.Random(seed)
    names = sorted(FRAGMENTS)
    every: list[Shape] = []
    for combinator in COMBINATORS:
        for name in names:
            partner = (name,) if combinator != "interleaved" else (name, chooser.choice(names))
            every.append(Shape(combinator, partner if combinator == "interleaved" else (name,)))
    chooser.shuffle(every)
    while len(every) < count:
        combinator, pair = chooser.choice(COMBINATORS), (chooser.choice(names), chooser.choice(names))
        if combinator == "side by side" or not SWALLOWING.intersection(pair):
            every.append(Shape(combinator, pair))
    return every[:count]


#: What makes a deep stack of open elements, repeated n times (none of them a scope boundary or,
#: but for the divs, special: the standard's walks pass them all).
DEEPENERS = {
    "span": "<span>",
    "unknown element": "<x-y>",
    "font": "<font>",
    "div": "<div>",
    "list": "<ul>",
    "table form row cell": "<table><form><tr><td>",  # (deep through the form's walks)
    "svg group": "<svg><g>",
    "template contents": "<template><span>",
}
#: Tags the standard walks the stack for (lexbor in C, for each one), repeated n times after them.
WALKERS = {
    "input": "<input name=w>",  # a select in scope?
    "hr": "<hr>",
    "option": "<option>",
    "list item": "<li>",  # the li loop, then a p in button scope
    "description": "<dd>",
    "paragraph end": "</p>",
    "form": "<form>",  # a template on the stack?
    "button": "<button></button>",
    "nobr": "<nobr></nobr>",
    "end tag of nothing open": "</x>",
    "formatting end tag": "</b>",
    "block": "<div></div>",
}


def deep_stacks(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` seeded (deepener, walker) pairs of :data:`DEEPENERS` and :data:`WALKERS`."""
    chooser = random.Random(seed)
    pairs = [(deepener, walker) for deepener in sorted(DEEPENERS) for walker in sorted(WALKERS)]
    return chooser.sample(pairs, count)


def deep_stack_page(deepener: str, walker: str, n: int) -> str:
    """A tool form holding n of the deepener, then n of the walker."""
    return FORM.format(DEEPENERS[deepener] * n + WALKERS[walker] * n)


#: Elements the parser keeps open under a deepener but an estimate of the stack may close:
#: (what comes before the deepener, what comes between it and the walker, whether the deepener
#: and walker are then in SVG or MathML content). A table part outside a table is ignored, an
#: end tag of a heading closes the topmost heading of any level, and in foreign content no
#: start tag closes an element.
FALSE_CLOSINGS = {
    "a cell outside a table, then its end tag": ("<td>", "</td>", False),
    "a section outside a table, then a row": ("<tbody>", "<tr>", False),
    "a caption outside a table, then its end tag": ("<caption>", "</caption>", False),
    "a heading, then another level's end tag": ("<h1>", "<h2></h1>", False),
    "an SVG anchor, then another": ("<svg><a>", "<a>", True),
    "a MathML button, then another": ("<math><button>", "<button>", True),
    "an SVG cell, then another": ("<svg><td>", "<td>", True),
}
#: Deepeners in HTML content no false closing above removes (a formatting element would be
#: counted as a reopenable entry anyway), and walkers that open nothing (nested <form> tags do).
HTML_DEEPENERS = ("span", "unknown element", "div", "list")
HTML_WALKERS = tuple(walker for walker in WALKERS if walker != "form")
#: Deepeners and walkers in foreign content (a <span> or </p> there would leave it). Each tag at
#: least five bytes: the estimate charges the deepening too (n²/2), and so screens 16,000 <g>.
FOREIGN_DEEPENERS = {"text span": "<tspan>", "unknown element": "<x-y>"}
FOREIGN_WALKERS = {"end tag of nothing open": "</x>", "formatting end tag": "</b>"}


def false_closings(seed: int) -> list[tuple[str, str, str]]:
    """A (false closing, deepener, walker) triple for each of :data:`FALSE_CLOSINGS`, the
    deepener and walker seeded."""
    chooser = random.Random(seed)
    triples = []
    for closing, (_, _, foreign) in sorted(FALSE_CLOSINGS.items()):
        deepeners = sorted(FOREIGN_DEEPENERS) if foreign else HTML_DEEPENERS
        walkers = sorted(FOREIGN_WALKERS) if foreign else HTML_WALKERS
        triples.append((closing, chooser.choice(deepeners), chooser.choice(walkers)))
    return triples


def false_closing_page(closing: str, deepener: str, walker: str, n: int) -> str:
    """A tool form holding the false closing's opener, n of the deepener, its closer, then n of
    the walker."""
    opener, closer, foreign = FALSE_CLOSINGS[closing]
    deepeners, walkers = (FOREIGN_DEEPENERS, FOREIGN_WALKERS) if foreign else (DEEPENERS, WALKERS)
    return FORM.format(opener + deepeners[deepener] * n + closer + walkers[walker] * n)


def growing_input(schema: Any, n: int) -> dict[str, Any]:
    """A tool input of size linear in n from a tool's input schema: every property given a
    value of its kind (an array every option, the first property a string of n words or an
    array of n items, the others small ones), and n keys it does not have."""
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    values: dict[str, Any] = {
        name: _value(spec, n if place == 0 else 1) for place, (name, spec) in enumerate(properties.items())
    }
    values.update({f"unknown{i}": i for i in range(n)})
    return values


def _value(spec: Any, n: int) -> Any:
    if not isinstance(spec, dict):
        return None
    kind = spec.get("type")
    kinds: Sequence[Any] = kind if isinstance(kind, list) else [kind]
    if "enum" in spec and spec["enum"]:
        return spec["enum"][-1]
    if "oneOf" in spec or "anyOf" in spec:
        options = spec.get("oneOf") or spec.get("anyOf") or [{}]
        return _value(options[-1], n)
    if "array" in kinds:
        items = spec.get("items", {})
        options = items.get("enum") if isinstance(items, dict) else None
        if options:
            return list(options) + list(options)[:1]
        return [_value(items, n) for _ in range(n)]
    if "number" in kinds or "integer" in kinds:
        return n
    if "boolean" in kinds:
        return True
    if "const" in spec:
        return spec["const"]
    return " ".join(f"w{i}" for i in range(n))


#: An entry point: what is counted for a page at size n.
EntryPoint = Callable[[str, int], object]


def _extract(parser: str, profile: str = "chromium") -> EntryPoint:
    def run(page: str, n: int) -> object:
        import formtools

        return formtools.extract(page, parser=parser, profile=profile, all_forms=True)  # type: ignore[arg-type]

    return run


def _lint(page: str, n: int) -> object:
    import formtools
    from formtools._conformance.lint import as_json, as_sarif, as_text

    result = formtools.extract(page, all_forms=True)
    diagnostics = list(result.diagnostics)
    names = [tool.name for tool in result.tools]
    return as_json("p", names, diagnostics), as_sarif("p", diagnostics, "0"), as_text("p", names, diagnostics, diagnostics)


def _called(profile: str, prepare: bool) -> EntryPoint:
    def run(page: str, n: int) -> object:
        import formtools
        from formtools._synth.tool import thaw

        results: list[object] = []
        tools = formtools.extract(page, profile=profile, base_url="https://site.example/").tools
        for place, tool in enumerate(tools):  # (the first tool's input grows with n, the others' not)
            tool_input = growing_input(thaw(tool.input_schema), n if place == 0 else 1)
            if prepare:
                tool_input = {k: v for k, v in tool_input.items() if not k.startswith("unknown")}
                try:
                    results.append(formtools.prepare_call(tool, tool_input))
                except formtools.FormtoolsError as error:  # (no submit button, an invalid input)
                    results.append(error)
            else:
                results.append(formtools.validate_input(tool, tool_input))
        return results

    return run


def _batch_line(page: str, n: int) -> object:
    from formtools._crawl.batch import extract_page
    from formtools._crawl.pages import Page

    return extract_page(Page("path", "p.html", page.encode(), None, None), "chromium", True, None)


ENTRY_POINTS: dict[str, EntryPoint] = {
    "extract": _extract("auto"),
    "extract html5lib": _extract("html5lib"),
    "html profile": _extract("auto", "html"),
    "portable profile": _extract("auto", "portable"),
    "lint": _lint,
    "validate chromium": _called("chromium", prepare=False),
    "validate html": _called("html", prepare=False),
    "call chromium": _called("chromium", prepare=True),
    "call html": _called("html", prepare=True),
    "batch line": _batch_line,
}
