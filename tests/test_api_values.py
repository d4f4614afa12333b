"""The library's values as a Python program meets them: immutable, shareable, picklable.

A crawler keeps tools in caches and hands them between threads and processes; an agent holds a
tool across many calls. So whatever formtools returns must not change under its caller, and a
caller changing what it got (a ``to_dict()``, an input it passed, a list of problems) must not
change any later answer: not the same tool's next call, not another page's tools, not a cache
formtools keeps. Pages come from the seeded form generator, inputs from the seeded call
generator, so every kind of control and value is exercised, not a hand-picked few.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import dataclasses
import inspect
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from types import FunctionType, MappingProxyType, ModuleType
from typing import Any

import pytest

import formtools
from tests.support.callgen import calls_for
from tests.support.formgen import generate_pages

PAGES = list(generate_pages(14, seed=1212))
PROFILES = ("chromium", "html", "portable")
_MUTABLE = (dict, list, set, bytearray)
_ATOMS = (str, bytes, int, float, bool, type(None), frozenset, FunctionType, type, ModuleType)


def _reachable(value: Any) -> Iterator[Any]:
    """Every object reachable from ``value`` through dataclass fields, mappings, sequences and
    attributes (a parsed tree excepted: the ``Document`` is documented as the parser's), walked
    with a stack of its own (a result's JSON-LD may nest 1,000 levels)."""
    seen: set[int] = set()
    pending = [value]
    while pending:
        value = pending.pop()
        if id(value) in seen or isinstance(value, (_ATOMS, formtools.Document)):
            continue
        seen.add(id(value))
        yield value
        if dataclasses.is_dataclass(value):
            pending.extend(getattr(value, f.name) for f in dataclasses.fields(value))
        elif isinstance(value, (dict, MappingProxyType)):
            pending.extend(value.values())
        elif isinstance(value, (list, tuple, set)):
            pending.extend(value)
        else:
            pending.extend(getattr(value, "__dict__", {}).values())


def _spoil(value: Any) -> int:
    """Change every mutable container reachable from ``value`` as a careless caller would
    (clear it, put something else in); how many there were."""
    found = [part for part in _reachable(value) if isinstance(part, _MUTABLE)]
    for part in found:
        if isinstance(part, dict):
            part.clear()
            part["spoiled"] = {"type": "spoiled"}
        elif isinstance(part, list):
            part[:] = ["spoiled"]
        elif isinstance(part, set):
            part.clear()
            part.add("spoiled")
        else:
            part[:] = b"spoiled"
    return len(found)


def _calls(tool: formtools.Tool, seed: str) -> list[Any]:
    """Seeded inputs for ``tool``, each a fresh copy (the generator shares some, ``[]`` among
    them, and spoiling one spoiled it for the next draw)."""
    return copy.deepcopy(calls_for(tool.to_dict(), random.Random(seed), randoms=1)[:8])


def _answers(tool: formtools.Tool, inputs: list[Any]) -> list[str]:
    """What a tool says and does: every format of it, and per input the validation problems and
    the request (or the error) a call prepares, as text."""
    answers = [formtools.dumps(tool.to_dict(format)) for format in formtools.FORMATS]
    for tool_input in inputs:
        answers.append(repr(formtools.validate_input(tool, tool_input)))
        try:
            prepared = formtools.prepare_call(tool, tool_input, boundary="b")
            answers.append(repr(prepared.outcome.to_dict() if prepared.request else prepared.outcome))
        except formtools.FormtoolsError as error:
            answers.append(f"{type(error).__name__}: {error} {[str(p) for p in error.problems]}")
    return answers


def _page_answers(html: str, profile: str, seed: str) -> list[list[str]]:
    tools = formtools.extract_tools(html, base_url="https://example.com/p", profile=profile)
    return [_answers(tool, _calls(tool, seed)) for tool in tools]


def test_nothing_a_tool_or_a_call_holds_is_mutable() -> None:
    """A frozen value whose parts are a dict or a list is not frozen: no dict, list, set or
    bytearray is reachable from a tool, an extraction, a prepared call or an error's problems
    (the built-in ``chromium`` profile's fragment table was a plain dict)."""
    mutable: dict[str, str] = {}
    for name, html in PAGES:
        for profile in PROFILES:
            extraction = formtools.extract(html, base_url="https://example.com/p", profile=profile)
            held: list[Any] = [extraction]
            for tool in extraction.tools:
                for tool_input in _calls(tool, name):
                    try:
                        held.append(formtools.prepare_call(tool, tool_input, boundary="b"))
                    except formtools.FormtoolsError as error:
                        held.append(error.problems)
            for value in (part for value in held for part in _reachable(value)):
                if isinstance(value, _MUTABLE):
                    mutable.setdefault(type(value).__name__, f"{name} {profile}")
    assert not mutable, mutable


def test_mutating_what_a_call_returns_cannot_poison_a_later_call() -> None:
    """Change everything formtools hands back and everything given to it, then ask again: the
    same tools, and the tools of the same pages extracted afresh, answer as before.

    Handed back: ``to_dict()`` in every format, ``validate_input``'s list, each error's
    ``problems``, the prepared call and its request's ``to_dict()``; given: the inputs, changed
    after the call. A cache of formtools' own that kept any of these (or a value of the tool
    they are made from) would answer the second round with the spoiled value; one keyed on a
    tool's ``id()`` would answer a later page's tools, made after the first page's were freed
    and often at their addresses, with the first page's answers."""
    before = {(name, profile): _page_answers(html, profile, name) for name, html in PAGES for profile in PROFILES}
    kept: dict[tuple[str, str], list[formtools.Tool]] = {}
    spoiled = 0
    for name, html in PAGES:
        for profile in PROFILES:
            tools = formtools.extract_tools(html, base_url="https://example.com/p", profile=profile)
            kept[(name, profile)] = tools
            for tool in tools:
                handed: list[Any] = [tool, tool.profile, tool.form, tool.page]
                handed += [tool.to_dict(format) for format in formtools.FORMATS]
                for tool_input in _calls(tool, name):
                    handed += [tool_input, formtools.validate_input(tool, tool_input)]
                    try:
                        prepared = formtools.prepare_call(tool, tool_input, boundary="b")
                    except formtools.FormtoolsError as error:
                        handed += [error, error.problems, error.to_dict()]
                    else:
                        handed += [prepared, prepared.outcome.to_dict() if prepared.request else prepared.outcome]
                    spoiled += _spoil(tool_input)
                spoiled += sum(_spoil(value) for value in handed)
    assert spoiled > 1000  # the round changed what a caller can change
    for (name, profile), tools in kept.items():
        same = [_answers(tool, _calls(tool, name)) for tool in tools]
        assert same == before[(name, profile)], (name, profile)
        assert _page_answers(dict(PAGES)[name], profile, name) == before[(name, profile)], (name, profile)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_profiles_rules_cannot_be_changed_through_its_tools(profile: str) -> None:
    """The fragment table of a registered profile is read-only, reached from any of its tools."""
    tool = formtools.extract_tools(PAGES[0][1], profile=profile)[0]
    with pytest.raises(TypeError):
        tool.profile.fragments["text"] = tool.profile.fragments["number"]  # type: ignore[index]


def _round_trips(value: Any) -> list[Any]:
    return [pickle.loads(pickle.dumps(value)), copy.deepcopy(value)]


def _same_error(error: formtools.FormtoolsError, again: Any) -> bool:
    return (
        type(again) is type(error)
        and str(again) == str(error)
        and again.problems == error.problems
        and again.to_dict() == error.to_dict()
        and vars(again) == vars(error)
    )


def test_what_formtools_returns_pickles_and_deep_copies_equal() -> None:
    """Spark, multiprocessing and a batch's workers pickle what they hand back, and callers
    deep-copy: tools, prepared calls, results, diagnostics and every error a call raises come
    back equal (and hash alike). Read-only mappings did not pickle at all, and an error whose
    constructor takes no message (``InputError``, ``ValidationError``, ``NoSubmitButton``) was
    rebuilt from its message and raised a TypeError or AttributeError instead."""
    kinds: set[str] = set()
    for name, html in PAGES:
        for profile in PROFILES:
            extraction = formtools.extract(html, base_url="https://example.com/p", profile=profile)
            for diagnostic in extraction.diagnostics:
                assert all(again == diagnostic for again in _round_trips(diagnostic))
            for tool in extraction.tools:
                for again in _round_trips(tool):
                    assert again == tool and hash(again) == hash(tool) and again.profile is tool.profile
                for tool_input in _calls(tool, name):
                    try:
                        prepared = formtools.prepare_call(tool, tool_input, boundary="b")
                    except formtools.FormtoolsError as error:
                        kinds.add(type(error).__name__)
                        assert all(_same_error(error, again) for again in _round_trips(error)), error
                        continue
                    kinds.add("PreparedCall")
                    held: list[Any] = [prepared]
                    if not prepared.autosubmit:  # awaiting-user (or not sent): nothing goes out
                        held.append(formtools.submit(prepared))
                    for value in held:
                        assert all(again == value for again in _round_trips(value))
    assert {"PreparedCall", "InputError", "ValidationError", "NoSubmitButton"} <= kinds, kinds
    made = [formtools.errors.Blocked("m", url="http://u:p@10.0.0.1/", address="10.0.0.1", reason="private"),
            formtools.UnknownDocumentURL("/a"), formtools.FetchTimeout("late", url="https://a/")]
    for error in made:
        assert all(_same_error(error, again) for again in _round_trips(error))


def test_a_deep_copied_document_gives_the_same_tools() -> None:
    """A deep copy of a Document is the document (it is a value): lxml copied its tree apart
    from the elements its parser-given form owners and lines are keyed by, and the copy's
    forms lost controls."""
    for name, html in PAGES:
        document = formtools.parse_html(html, url="https://example.com/p")
        assert formtools.extract_tools(copy.deepcopy(document)) == formtools.extract_tools(document), name


_ODD_NUMBERS: tuple[Any, ...] = (
    float("nan"), float("inf"), float("-inf"), 1e308, -1e308, 5e-324, -0.0, 0.1, 2**53 + 1,
    10**400, -(10**400), True, False, 1e21, 123456789.123, -7,
)


def _numeric_page(rng: random.Random) -> str:
    """A form of number and range inputs, a multi-select and checkboxes with seeded bounds and
    steps (fractional, huge, ``any``, none)."""
    def number() -> str:
        picks = {
            "min": rng.choice([None, "0", "-1e308", "0.5", "1"]),
            "max": rng.choice([None, "10", "1e308", "99.5"]),
            "step": rng.choice([None, "any", "0.1", "0.5", "3", "1e-300", "1e300"]),
            "value": rng.choice([None, "", "5"]),
        }
        attributes = "".join(f' {key}="{value}"' for key, value in picks.items() if value is not None)
        return f'<input type={rng.choice(["number", "range"])}{attributes}'
    controls = [f'{number()} name=n{i}>' for i in range(rng.randint(1, 4))]
    controls.append("<select name=m multiple><option>1<option>2</select><input type=checkbox name=c value=1>")
    return f"<form toolname=t tooldescription=d>{''.join(controls)}<button>Go</button></form>"


def test_any_number_a_caller_passes_is_answered_not_crashed_on() -> None:
    """NaN, infinities, the largest and smallest doubles, integers beyond them and booleans, as
    values and inside arrays, for number, range, select and checkbox parameters under every
    profile: ``validate_input`` lists problems and a call is prepared or refused with a
    ``FormtoolsError``, never a Python error from deep inside (``validate_input`` raised
    jsonschema's ValueError and OverflowError for NaN and Infinity under ``chromium``)."""
    rng = random.Random("odd numbers")
    crashes: list[str] = []
    answered = 0
    for _ in range(8):
        html = _numeric_page(rng)
        for profile in PROFILES:
            (tool,) = formtools.extract_tools(html, base_url="https://example.com/", profile=profile)
            for key in tool.input_schema["properties"]:
                for value in _ODD_NUMBERS:
                    for tool_input in ({key: value}, {key: [value, 1]}):
                        for step in ("validate", "call"):
                            try:
                                if step == "validate":
                                    formtools.validate_input(tool, tool_input)
                                else:
                                    formtools.prepare_call(tool, tool_input, boundary="b")
                            except formtools.FormtoolsError:
                                pass
                            except Exception as error:  # noqa: BLE001 - what this test looks for
                                crashes.append(f"{profile} {step} {tool_input!r}: {type(error).__name__}: {error}")
                            answered += 1
    assert not crashes, (len(crashes), crashes[:5], html)
    assert answered > 2000


#: what a caller may pass by mistake where formtools wants something else
_WRONG: tuple[Any, ...] = (
    None, 5, 1.5, b"x", "", "x" * 300, "a\0b", "a\r\nX-Injected: 1", "é", [], ["x"], {}, {"x": 1},
    ("x",), {b"x"}, bytearray(b"x"), memoryview(b"x"), Path("/nonexistent/page.html"), Path("/"), object(),
)


def _awaited(coroutine: Any) -> Any:
    """The coroutine's answer, run on an event loop of its own thread: in a worker that holds the
    suite's Chromium, Playwright's sync API keeps its loop running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _entry_points(tool: formtools.Tool, other: formtools.Tool) -> list[tuple[str, Any]]:
    """Each public entry point with one argument left open, as ``(name, call)``."""
    import lxml.html

    state = formtools.prepare_call(other, {}, boundary="b").state
    page = "<form toolname=a tooldescription=b action=/a toolautosubmit><input name=q></form>"
    return [
        ("parse_html(markup)", lambda v: formtools.parse_html(v)),
        ("extract_tools(page)", lambda v: formtools.extract_tools(v)),
        ("extract_tools(base_url) and call", lambda v: [formtools.prepare_call(t, {}) for t in formtools.extract_tools(page, base_url=v)]),
        ("parse_html(url) shown", lambda v: repr(formtools.parse_html("<p>", url=v))),
        ("from_tree(url) shown", lambda v: repr(formtools.from_tree(lxml.html.fromstring("<p>"), url=v))),
        ("load_page(source)", lambda v: formtools.load_page(v)),
        ("prepare_call(tool)", lambda v: formtools.prepare_call(v, {})),
        ("validate_input(tool)", lambda v: formtools.validate_input(v, {})),
        ("submit(prepared)", lambda v: formtools.submit(v)),
        ("prepare_call(state)", lambda v: formtools.prepare_call(tool, {}, state=v)),
        ("prepare_call(other state)", lambda v: formtools.prepare_call(tool, {}, state=state)),
        ("prepare_call(files)", lambda v: formtools.prepare_call(tool, {}, files=v)),
        ("prepare_call(files[f])", lambda v: formtools.prepare_call(tool, {}, files={"f": v})),
        ("prepare_call(files[f][0])", lambda v: formtools.prepare_call(tool, {}, files={"f": [v]})),
        ("prepare_call(boundary)", lambda v: formtools.prepare_call(tool, {}, boundary=v)),
        ("File(content_type)", lambda v: formtools.File("f.txt", v)),
        ("extract(page)", lambda v: formtools.extract(v)),
        ("extract(profile)", lambda v: formtools.extract(page, profile=v)),
        ("synthesize(document)", lambda v: formtools.synthesize(v)),
        ("get_profile(name)", lambda v: formtools.get_profile(v)),
        ("initial_state(form)", lambda v: formtools.initial_state(v)),
        ("from_tree(tree)", lambda v: formtools.from_tree(v)),
        ("listing(tools)", lambda v: formtools.listing(v)),
        ("listing([tool])", lambda v: formtools.listing([tool, v])),
        ("listing(format)", lambda v: formtools.listing([tool], v)),
        ("send_request(request)", lambda v: formtools.send_request(v)),
        ("asend_request(request)", lambda v: _awaited(formtools.asend_request(v))),
        ("call_tool(tool)", lambda v: formtools.call_tool(v, {})),
        ("acall_tool(tool)", lambda v: _awaited(formtools.acall_tool(v, {}))),
        ("asubmit(prepared)", lambda v: _awaited(formtools.asubmit(v))),
    ]


#: public functions the table above leaves out, and why
_NOT_MISTAKABLE = {
    "dumps": "any value: what JSON cannot hold raises TypeError (ValueError: one inside itself), as json.dumps does",
    "profile_names": "takes no argument",
}


def test_every_public_function_is_in_the_mistaken_argument_table() -> None:
    """The table named 16 entry points and missed five public functions, each of which raised
    AttributeError or TypeError from deep inside on a wrong argument (``synthesize("<form…")``,
    ``send_request(prepared)``, ``listing(["a"])``, ``initial_state(tool)``, a list as a
    profile): a function added to ``formtools.__all__`` must be added to the table."""
    tool = formtools.extract_tools("<form toolname=a tooldescription=b toolautosubmit><input name=q></form>", base_url="https://example.com/")[0]
    covered = {name.split("(")[0] for name, _ in _entry_points(tool, tool)}
    public = {
        name for name in formtools.__all__
        if inspect.isfunction(getattr(formtools, name)) or inspect.iscoroutinefunction(getattr(formtools, name))
    }
    assert public - covered - set(_NOT_MISTAKABLE) == set()
    assert len(public) >= 19


def test_every_mistaken_argument_is_a_one_line_formtools_error() -> None:
    """Wrong-typed and malformed arguments to every entry point: what is refused is refused with
    a ``FormtoolsError`` of one line, never an AttributeError or TypeError from deep inside
    (``parse_html(Path(…))``, a tool's name given to ``prepare_call``, ``files={"f": "photo.jpg"}``
    read as one file per character, ``state=`` of another form's call filled and submitted to
    this form's action, a boundary holding CR LF written into ``Content-Type``, a ``base_url``
    of bytes kept and failing in the URL parser)."""
    html = (
        "<form toolname=up tooldescription=d method=post enctype=multipart/form-data action=/u>"
        "<input name=q><input type=file name=f><button>Go</button></form>"
        "<form toolname=other tooldescription=d action=/o><input name=z><button>Go</button></form>"
    )
    tools = {t.name: t for t in formtools.extract_tools(html, base_url="https://example.com/")}
    failures: list[str] = []
    refused = 0
    for name, call in _entry_points(tools["up"], tools["other"]):
        for value in random.Random(name).sample(_WRONG, len(_WRONG)):
            try:
                answer = call(value)
            except formtools.FormtoolsError as error:
                refused += 1
                if "\n" in str(error) or "\r" in str(error) or not str(error):
                    failures.append(f"{name} {value!r}: not one line: {str(error)!r}")
                continue
            except Exception as error:  # noqa: BLE001 - what this test looks for
                failures.append(f"{name} {value!r}: {type(error).__name__}: {error}")
                continue
            request = getattr(answer, "request", None)
            for header, text in request.headers if request is not None else ():
                if "\r" in text or "\n" in text:
                    failures.append(f"{name} {value!r}: header {header} holds a line break")
    assert not failures, (len(failures), failures[:8])
    assert refused > 150


def _holding_itself(rng: random.Random) -> tuple[dict[str, Any], Any]:
    """A seeded tool input one of whose arrays or objects holds itself (or the input) somewhere
    inside, as a Python caller's mistake makes one, and the value with the cycle."""
    value = _deep_json(rng, rng.randint(1, 30))
    containers = [value]
    for part in _reachable(value):
        if isinstance(part, (dict, list)):
            containers.append(part)
    tool_input: dict[str, Any] = {"q": value, "s": ["a"]}
    holder = rng.choice(containers)
    inside = rng.choice([*containers[: containers.index(holder) + 1], tool_input])
    if isinstance(holder, dict):
        holder[f"loop{rng.randint(0, 9)}"] = inside
    else:
        holder.insert(rng.randint(0, len(holder)), inside)
    return tool_input, value


def test_an_input_holding_itself_is_refused_not_walked_for_ever() -> None:
    """JSON cannot hold an array or object inside itself (``JSON.stringify`` throws), but a
    Python caller can build one (``d["q"] = d``): ``validate_input`` and ``prepare_call`` walked
    it for ever, and ``formtools.dumps`` grew its output until memory ran out. Seeded inputs,
    each with one cycle planted somewhere in a seeded nested value: every entry point answers
    within seconds, the call with a one-line ``InputError`` that names the key, validation with
    that problem, ``dumps`` with ``ValueError`` as ``json.dumps`` does."""
    import threading

    (tool,) = formtools.extract_tools(
        "<form toolname=t tooldescription=d toolautosubmit><input name=q><select name=s multiple><option>a</select></form>"
    )
    rng = random.Random("cycles")
    cases = [_holding_itself(rng) for _ in range(40)]
    outcomes: list[str] = []

    def answer_all() -> None:
        for tool_input, value in cases:
            problems = formtools.validate_input(tool, tool_input)
            with pytest.raises(formtools.InputError) as refused:
                formtools.prepare_call(tool, tool_input)
            with pytest.raises(ValueError, match="circular"):
                formtools.dumps(value, pretty=True)
            outcomes.append(f"{[(p.field, p.flag) for p in problems]} {[p.key for p in refused.value.problems]} {refused.value}")

    walker = threading.Thread(target=answer_all, daemon=True)
    walker.start()
    walker.join(60)
    assert not walker.is_alive(), f"still walking after 60 s, at input {len(outcomes)} of {len(cases)}"
    assert len(outcomes) == len(cases)
    assert all(outcome.startswith("[('q', 'badInput')] ['q'] ") and "\n" not in outcome for outcome in outcomes), outcomes


def test_an_input_sharing_its_parts_is_refused_by_its_size_written_out() -> None:
    """A Python caller's input may refer to one array or object many times over, with no cycle
    (``a = [x, x]; b = [a, a]``, 60 deep): a few hundred objects that written as JSON would be
    2**60 values. Validation and fill walked every reference, exponential work (the walks never
    ended). Now such an input, whose text would pass the byte limit of a JSON text input, is
    one ``badInput`` problem / ``InputError`` line, found in counted work linear in the object;
    one below the limit is answered as its JSON text, parsed, is."""
    import json

    from formtools._spec.limits import MAX_PAGE_BYTES
    from tests.support.cost import lines

    (tool,) = formtools.extract_tools(
        "<form toolname=t tooldescription=d toolautosubmit><input name=q><select name=s multiple><option>a</select></form>"
    )
    formtools.validate_input(tool, {"q": "warm"})  # the validator is built once, uncounted
    with pytest.raises(formtools.InputError):
        formtools.prepare_call(tool, {"unknown": "warm"})
    rng = random.Random("shared parts")
    for _ in range(12):
        depth = rng.randint(40, 80)
        shared = _shared_parts(rng, depth)
        tool_input = rng.choice([{"q": shared}, {"s": [shared], "q": "x"}, shared])
        problems: list[formtools.Problem] = []
        work = lines(lambda: problems.extend(formtools.validate_input(tool, tool_input)), budget=200 * depth + 20_000)
        assert [(p.field, p.flag) for p in problems] == [(None, "badInput")] and f"{MAX_PAGE_BYTES:,} bytes" in problems[0].message, problems
        with pytest.raises(formtools.InputError) as refused:
            lines(lambda: formtools.prepare_call(tool, tool_input), budget=200 * depth + 20_000)
        assert "\n" not in str(refused.value) and (work, depth) != (0, 0)
        small = _shared_parts(rng, rng.randint(3, 8))  # written out, far below the limit
        for smaller in ({"q": small}, {"s": small}):
            tree = json.loads(json.dumps(smaller))
            assert formtools.validate_input(tool, smaller) == formtools.validate_input(tool, tree)


def _shared_parts(rng: random.Random, depth: int) -> Any:
    """A value nesting ``depth`` arrays and objects, each level referring to the one below
    twice or more (seeded: arrays, objects, scalar siblings): no cycle, exponentially many
    values written out."""
    value: Any = rng.choice(["a", 1, None])
    for level in range(depth):
        times = rng.randint(2, 3)
        if rng.random() < 0.5:
            value = [value] * times + [rng.choice([2, "b", False])]
        else:
            value = {f"k{level}_{i}": value for i in range(times)}
    return value


def _deep_json(rng: random.Random, depth: int) -> Any:
    """A JSON value nesting ``depth`` arrays and objects, with seeded scalars and siblings."""
    value: Any = rng.choice([1, "x", None, True, 0.5, [], {}])
    for level in range(depth - 1):
        siblings = [rng.choice([2, "é\"\\", False, 1e21]) for _ in range(rng.randint(0, 2))]
        if rng.random() < 0.5:
            value = [*siblings, value] if rng.random() < 0.5 else [value, *siblings]
        else:
            value = {f"k{level}": value, **{f"s{i}": s for i, s in enumerate(siblings)}}
    return value


def test_a_result_as_deep_as_chromium_keeps_is_written_and_copied() -> None:
    """A landing page's JSON-LD block is kept up to 1,000 levels deep, as Chromium keeps it
    (``MAX_JSON_DEPTH``): ``formtools.dumps`` of the result (what ``formtools call`` prints)
    recursed once per level and raised RecursionError at 998 levels. And the result's
    ``output`` / ``to_dict()`` are the caller's own copies: changing them left the result's
    ``json_ld`` and its next ``to_dict()`` changed."""
    from formtools._execute.send import MAX_JSON_DEPTH

    rng = random.Random("deep json-ld")
    for depth in (1, 2, 50, *(rng.randint(900, MAX_JSON_DEPTH - 1) for _ in range(3)), MAX_JSON_DEPTH - 1):
        block = _deep_json(rng, depth)
        result = formtools.ToolResult(status="completed", status_code=200, json_ld=(block, {"n": [1]}))
        written = {pretty: formtools.dumps(result.to_dict(), pretty=pretty) for pretty in (False, True)}
        assert written[False].count("[") + written[False].count("{") >= depth
        assert written[True].replace("\n", "").replace(" ", "") == written[False].replace(" ", "")
        assert _spoil([result.output, result.result, result.to_dict(), result.to_dict(reveal=True)]) > 0
        assert formtools.dumps(result.to_dict()) == written[False], depth
        assert result.json_ld[1] == {"n": [1]}


def test_public_functions_name_every_keyword() -> None:
    """A strict type checker sees every keyword of every public function: ``call_tool`` and
    ``acall_tool`` took ``**options: Any``, so ``call_tool(tool, x, timout=5)`` type-checked and
    failed at run time. Each call function takes every keyword of the steps it strings
    together, so nothing a step offers is out of reach."""
    import inspect

    def keywords(function: Any) -> set[str]:
        return {p.name for p in inspect.signature(function).parameters.values() if p.kind is p.KEYWORD_ONLY}

    for name in formtools.__all__:
        function = getattr(formtools, name)
        if inspect.isfunction(function):
            kinds = {p.kind for p in inspect.signature(function).parameters.values()}
            assert inspect.Parameter.VAR_KEYWORD not in kinds, name
    assert keywords(formtools.prepare_call) | keywords(formtools.submit) <= keywords(formtools.call_tool)
    assert keywords(formtools.prepare_call) | keywords(formtools.asubmit) <= keywords(formtools.acall_tool)


def test_threads_sharing_tools_answer_as_one_thread_does() -> None:
    """A crawler's or a web app's threads call the same tools at once: each thread asks every
    question of every tool (every format, validation, a prepared call per seeded input) in an
    order of its own, and gets exactly the answers one thread got. Whatever formtools keeps
    between calls (caches keyed on a tool, compiled patterns, the pattern budget) must be
    neither shared mid-update nor handed from one thread's call to another's."""
    from concurrent.futures import ThreadPoolExecutor

    tools = [
        (tool, _calls(tool, name))
        for name, html in PAGES
        for profile in PROFILES
        for tool in formtools.extract_tools(html, base_url="https://example.com/p", profile=profile)
    ]
    alone = [_answers(tool, inputs) for tool, inputs in tools]

    def one_thread(seed: int) -> list[list[str]]:
        order = list(range(len(tools)))
        random.Random(seed).shuffle(order)
        answers: dict[int, list[str]] = {i: _answers(*tools[i]) for i in order}
        return [answers[i] for i in range(len(tools))]

    with ThreadPoolExecutor(6) as pool:
        for answers in pool.map(one_thread, range(6)):
            assert answers == alone


def test_a_tool_made_where_a_freed_one_was_is_answered_as_itself() -> None:
    """Tools made and dropped one after another (a crawl's pages) often take the memory, so the
    ``id()``, of a tool freed just before: a cache keyed on ``id(tool)`` that does not keep its
    tool alive answers the new tool with the old one's schema. Seeded pages alternate between
    forms that answer the same inputs differently; every tool must answer as its own page does."""
    rng = random.Random("freed tools")
    forms = [
        "<form toolname=t tooldescription=d><input name=q required><button>Go</button></form>",
        "<form toolname=t tooldescription=d><input name=q pattern=[0-9]+><button>Go</button></form>",
        "<form toolname=t tooldescription=d><input type=number name=q max=3><button>Go</button></form>",
        "<form toolname=t tooldescription=d toolautosubmit><input name=r><button>Go</button></form>",
    ]
    inputs: list[Any] = [{}, {"q": "abc"}, {"q": 7}, {"r": "x"}]
    expected = {
        (html, profile): _answers(formtools.extract_tools(html, profile=profile)[0], copy.deepcopy(inputs))
        for html in forms
        for profile in PROFILES
    }
    seen: dict[int, tuple[str, str]] = {}
    reused = 0
    for _ in range(120):
        html, profile = rng.choice(forms), rng.choice(PROFILES)
        tool = formtools.extract_tools(html, profile=profile)[0]
        reused += seen.get(id(tool), (html, profile)) != (html, profile)
        seen[id(tool)] = (html, profile)
        assert _answers(tool, copy.deepcopy(inputs)) == expected[(html, profile)], (html, profile)
        del tool
    assert reused > 5, reused  # the case this test is about happened


def test_a_callers_decimal_context_changes_no_answer() -> None:
    """``decimal.getcontext()`` is the calling thread's, and a program may set it (a shop's
    ``prec = 10`` for its prices). formtools' step arithmetic and the ``toPrecision(6)`` a number
    is filled with used it: under ``prec = 10`` a ``step`` of 12345678 from 1234567890123 was
    described as "1234567890000 plus …" and a filled 0.1234565 was sent as 0.123457 (Chromium
    sends 0.123456), and under ``prec = 3`` a call raised ``decimal.InvalidOperation``. Every
    answer about steps and doubles drawn near the digits a context cuts must be the one the
    default context gives."""
    import decimal

    rng = random.Random(1010)
    steps = "".join(
        f'<input type=number name=n{i} step={rng.randrange(1, 10**9)}e-{rng.randrange(0, 12)} '
        f'min={rng.randrange(1, 10**13)}e-{rng.randrange(0, 12)}>'
        for i in range(12)
    )
    doubles = {f"f{i}": (rng.randrange(10**5, 10**6) * 10 + 5 - rng.random()) * 10.0 ** rng.randrange(-12, 24) for i in range(40)}
    page = f'<form toolname=t tooldescription=d toolautosubmit>{steps}{"".join(f"<input name={key}>" for key in doubles)}</form>'

    steps_input = {f"n{i}": rng.uniform(0, 10**12) for i in range(12)}

    def every_answer() -> list[list[str]]:
        return [_answers(tool, [doubles, steps_input]) for profile in PROFILES for tool in formtools.extract_tools(page, profile=profile)]

    expected = every_answer()
    for precision, rounding in ((3, decimal.ROUND_HALF_EVEN), (10, decimal.ROUND_FLOOR)):
        with decimal.localcontext(prec=precision, rounding=rounding):
            assert every_answer() == expected, (precision, rounding)
