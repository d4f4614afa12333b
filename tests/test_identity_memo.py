"""What a call derives from a tool once (its parameters, secret keys, validator) and the URLs it
parses are kept: a kept answer must be the one computing it again gives, for every object,
however objects come and go, and from any thread."""

from __future__ import annotations

import dataclasses
import gc
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import formtools
from formtools._forms.sensitive import sensitive_keys
from formtools._spec import url as url_module
from formtools._spec.memo import IdentityMemo
from formtools._synth.parameters import parameters_of
from formtools._synth.tool import freeze, thaw

SEED = 20261128


def _page(rng: random.Random, number: int) -> str:
    """A form whose controls (and so its parameters, secrets and schema) depend on ``number``."""
    controls = []
    for index in range(1 + number % 4):
        kind = rng.choice(["text", "password", "number", "email", "select"])
        name = f"f{number}_{index}" if kind != "password" else f"pin{number}_{index}"
        if kind == "select":
            options = "".join(f"<option>o{number}_{k}</option>" for k in range(1 + number % 3))
            controls.append(f"<select name={name} required>{options}</select>")
        else:
            extra = f" min={number} max={number + 5}" if kind == "number" else ""
            controls.append(f"<input type={kind} name={name} required{extra}>")
    return (f"<form toolname=t{number} tooldescription=d action=/go method=post>"
            f"{''.join(controls)}<button>go</button></form>")


def _answers(tool: formtools.Tool, value: int) -> tuple[Any, ...]:
    """What a call of ``tool`` is checked by: its parameters, secrets and problems."""
    keys = [p.key for p in parameters_of(tool.form, tool.profile).parameters]
    problems = formtools.validate_input(tool, {key: value for key in keys})
    return (tuple(keys), sorted(sensitive_keys(tool.form)), [(p.field, p.flag, p.message) for p in problems])


def _fresh(tool: formtools.Tool) -> formtools.Tool:
    """An equal tool that shares no object with ``tool``: nothing of it is kept yet."""
    return dataclasses.replace(tool, form=dataclasses.replace(tool.form), input_schema=freeze(thaw(tool.input_schema)))


def test_kept_answers_are_the_ones_computed_again_for_objects_that_come_and_go() -> None:
    """Tools made and dropped in a seeded order (addresses get reused): each call's answers are
    those of an equal tool nothing was kept for."""
    rng = random.Random(SEED)
    # the session's objects so far set aside, so that each collection walks those made since:
    # walking the whole worker's heap, 43 collections took ~10 s of CPU
    gc.freeze()
    try:
        for round_number in range(300):
            number = rng.randrange(40)
            profile = rng.choice(["chromium", "html"])
            tool = formtools.extract_tools(_page(random.Random(number), number), profile=profile)[0]
            value = rng.choice([number, number + 9, "x"])
            first = _answers(tool, value)
            assert _answers(tool, value) == first  # kept
            assert _answers(_fresh(tool), value) == first, round_number  # computed anew
            del tool
            if round_number % 7 == 0:
                gc.collect()
    finally:
        gc.unfreeze()


def test_a_tool_replaced_with_another_schema_is_validated_by_its_own() -> None:
    html = "<form toolname=t tooldescription=d><input name=a required><button>go</button></form>"
    tool = formtools.extract_tools(html, profile="html")[0]
    assert formtools.validate_input(tool, {"a": "x"}) == []
    schema = thaw(tool.input_schema)
    schema["properties"]["a"]["enum"] = ["only"]
    other = dataclasses.replace(tool, input_schema=freeze(schema))
    assert [p.field for p in formtools.validate_input(other, {"a": "x"})] == ["a"]
    assert formtools.validate_input(tool, {"a": "x"}) == []
    # a thawed copy of the schema is the caller's: changing it changes no later call
    schema["properties"]["a"]["enum"] = ["x"]
    assert [p.field for p in formtools.validate_input(other, {"a": "x"})] == ["a"]


#: a short string, as each shape below refers to it: (its place in the schema, the reference)
_SHORT = {"type": "string", "maxLength": 2}
_REFERENCES = [
    ({"$defs": {"s": _SHORT}}, {"$ref": "#/$defs/s"}),
    ({"$defs": {"s": {"$anchor": "short", **_SHORT}}}, {"$ref": "#short"}),
    ({"$id": "https://x.example/root", "$defs": {"s": _SHORT}}, {"$ref": "https://x.example/root#/$defs/s"}),
    ({"$defs": {"s": _SHORT}}, {"$dynamicRef": "#/$defs/s"}),
    ({"$defs": {"s": {"$dynamicAnchor": "short", **_SHORT}}}, {"$dynamicRef": "#short"}),
]


def test_a_replaced_schema_that_refers_to_itself_is_validated_as_if_written_out() -> None:
    """A caller's schema may refer to its own ``$defs`` (by pointer, anchor, its ``$id`` or a
    dynamic reference), from a property or an array's items: each input gets the problems the
    same schema with the reference written out gives. The validators built once per property
    had no root to resolve against (``PointerToNowhere`` for every input), and validated a
    subschema naming draft 7 under 2020-12's rules (its tuple ``items`` raised AttributeError)."""
    html = "<form toolname=t tooldescription=d><input name=q><button>go</button></form>"
    tool = formtools.extract_tools(html)[0]
    inputs = [{"q": "abc"}, {"q": "ab"}, {"l": ["abc", "x"]}, {"l": ["ab"]}, {"q": 3, "l": "abc"}]
    for root, reference in _REFERENCES:
        referring = {**root, "type": "object", "properties": {"q": reference, "l": {"type": "array", "items": reference}}}
        written_out = {"type": "object", "properties": {"q": _SHORT, "l": {"type": "array", "items": _SHORT}}}
        for value in inputs:
            answers = [
                [(p.field, p.flag, p.message) for p in formtools.validate_input(dataclasses.replace(tool, input_schema=freeze(schema)), value)]
                for schema in (referring, written_out)
            ]
            assert answers[0] == answers[1], (reference, value)
            assert answers[0] or value in ({"q": "ab"}, {"l": ["ab"]}), (reference, value)
    # a subschema naming another draft is validated under that draft's rules, as written in this one
    tuple_items = {"type": "array", "items": [{"type": "string"}]}
    for value in ({"l": [3]}, {"l": ["a", 3]}, {"l": []}):
        answers = [
            [(p.field, p.flag, p.message) for p in formtools.validate_input(dataclasses.replace(tool, input_schema=freeze(schema)), value)]
            for schema in (
                {"type": "object", "properties": {"l": {"$schema": "http://json-schema.org/draft-07/schema#", **tuple_items}}},
                {"type": "object", "properties": {"l": {"type": "array", "prefixItems": [{"type": "string"}]}}},
            )
        ]
        assert answers[0] == answers[1], value


_DRAFTS = ["http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-04/schema#",
           "https://json-schema.org/draft/2020-12/schema"]


def _subschema(rng: random.Random, depth: int) -> Any:
    """A seeded property (or items) schema from every keyword family a caller may write,
    references and other drafts among them."""
    if rng.random() < 0.08:
        return rng.choice([True, False])
    schema: dict[str, Any] = {}
    kind = rng.choice(["string", "number", "integer", "array", "boolean", None])
    if kind is not None:
        schema["type"] = kind
    for keyword, value in [
        ("maxLength", 2), ("minLength", 1), ("pattern", "^a"), ("enum", ["a", "ab", 3]), ("const", "a"),
        ("minimum", 1), ("maximum", 3), ("exclusiveMaximum", 3), ("multipleOf", 0.5), ("minItems", 1),
        ("uniqueItems", True), ("format", "email"), ("$ref", "#/$defs/short"), ("$dynamicRef", "#/$defs/short"),
        ("$schema", rng.choice(_DRAFTS)),
    ]:
        if rng.random() < 0.15:
            schema[keyword] = value
    if schema.get("$schema", "").endswith("draft-04/schema#") and "maximum" in schema:
        schema["exclusiveMaximum"] = True
    if depth < 2 and rng.random() < 0.4:
        tuples = schema.get("$schema", "").endswith("draft-07/schema#") and rng.random() < 0.5  # a tuple is draft 7's
        schema["items"] = [_subschema(rng, depth + 1)] if tuples else _subschema(rng, depth + 1)
    if depth < 2 and rng.random() < 0.15:
        schema["prefixItems"] = [_subschema(rng, depth + 1)]
    if depth < 2 and rng.random() < 0.2:
        schema[rng.choice(["anyOf", "allOf", "oneOf"])] = [_subschema(rng, depth + 1), _subschema(rng, depth + 1)]
    if depth < 2 and rng.random() < 0.1:
        schema["not"] = _subschema(rng, depth + 1)
    if depth < 2 and rng.random() < 0.1:
        schema["contains"] = _subschema(rng, depth + 1)
    return schema


def _value(rng: random.Random) -> Any:
    return rng.choice(["", "a", "ab", "abc", "b@c.example", 1, 2.5, 3, 4, -1, True, None, [], ["a"], ["a", "a"],
                       ["abc", 3], [["a"]], {}, {"k": "a"}])


def _answer(tool: formtools.Tool, value: Any) -> Any:
    """The problems, or the exception's kind (a schema jsonschema itself cannot take)."""
    try:
        return [(p.field, p.flag, p.message) for p in formtools.validate_input(tool, value)]
    except Exception as error:  # noqa: BLE001 (both ways must fail alike)
        return type(error).__name__


def test_validators_built_once_answer_as_jsonschemas_descend() -> None:
    """Seeded schemas a caller may give a tool (every keyword family, boolean subschemas, tuple
    and prefix items, references into the root's ``$defs``, other drafts): the validators a tool
    builds once per property and items schema give each input the problems jsonschema's own
    ``descend`` gives, which built one at every value. The written-out shapes above hold the
    two differences this generator finds when the fallback to ``descend`` is taken away."""
    import formtools._execute.validate as validate

    html = "<form toolname=t tooldescription=d><input name=q><button>go</button></form>"
    tool = formtools.extract_tools(html)[0]
    rng = random.Random(SEED)
    differing = []
    for _ in range(300):
        names = ["p", "q", "r"][: rng.randint(1, 3)]
        schema = {"type": "object", "$defs": {"short": {"type": "string", "maxLength": 2}},
                  "properties": {name: _subschema(rng, 0) for name in names}}
        inputs = [{name: _value(rng) for name in names if rng.random() < 0.8} for _ in range(6)]
        answers = []
        for build in (validate._with_validators, lambda whole: whole):
            replaced = dataclasses.replace(tool, input_schema=freeze(schema))
            original, validate._with_validators = validate._with_validators, build
            try:
                answers.append([_answer(replaced, value) for value in inputs])
            finally:
                validate._with_validators = original
        if answers[0] != answers[1]:
            differing.append((schema, inputs))
    assert not differing, f"{len(differing)} schemas answered otherwise; first: {differing[0]}"


def test_entries_live_as_long_as_their_objects() -> None:
    class Thing:
        pass

    computed: list[int] = []

    def compute(thing: Thing, detail: object) -> int:
        computed.append(id(thing))
        return len(computed)

    memo: IdentityMemo[Thing, object, int] = IdentityMemo(compute)
    details = [object(), object()]
    things = [Thing() for _ in range(50)]
    first = [memo(thing, detail) for thing in things for detail in details]
    again = [memo(thing, detail) for thing in things for detail in details]
    assert first == again and len(computed) == 100 and len(memo) == 50
    del things
    gc.collect()
    assert len(memo) == 0
    # objects made at freed addresses are asked anew
    newer = [Thing() for _ in range(50)]
    assert [memo(thing, details[0]) for thing in newer] == list(range(101, 151))


def test_threads_get_the_answers_one_thread_gets() -> None:
    pages = [_page(random.Random(n), n) for n in range(24)]
    tools = [formtools.extract_tools(page, profile=profile)[0] for page in pages for profile in ("chromium", "html")]
    serial = [[_answers(_fresh(tool), value) for value in (3, 30, "x")] for tool in tools]

    def run(indexes: list[int]) -> list[tuple[int, list[tuple[Any, ...]]]]:
        return [(i, [_answers(tools[i], value) for value in (3, 30, "x")]) for i in indexes]

    rng = random.Random(SEED)
    batches = [[rng.randrange(len(tools)) for _ in range(40)] for _ in range(16)]
    with ThreadPoolExecutor(8) as pool:
        for found in pool.map(run, batches):
            for index, answers in found:
                assert answers == serial[index]


def test_urls_past_the_kept_length_are_parsed_and_not_kept() -> None:
    url_module._KEPT.clear()
    base = "https://example.com/" + "b" * 10
    short = url_module.parse("find?q=é", base, encoding="windows-1252")
    assert short is not None and short.href == "https://example.com/find?q=%E9"
    assert url_module.parse("find?q=é", base, encoding="windows-1252") is short
    long = "find?q=" + "é" * url_module._KEPT_LENGTH
    parsed = url_module.parse(long, base, encoding="windows-1252")
    assert parsed is not None and parsed.href == "https://example.com/find?q=" + "%E9" * url_module._KEPT_LENGTH
    assert len(url_module._KEPT) == 1


def test_the_kept_urls_hold_memory_of_the_order_of_their_length() -> None:
    """Seeded URLs of at most the kept length whose answers are many times longer (characters
    percent-encoded, a windows-1252 query's characters written as ``&#…;`` and then
    percent-encoded): the cache of the last 1,024 answers held 71 MB kept by their questions'
    length alone; the answers it keeps are the ones parsing gives, and its memory stays within a
    few bytes per character of the kept length per URL (measured on fewer URLs than it keeps)."""
    URLS = 64
    import tracemalloc

    rng = random.Random(SEED)
    alphabets = ["abc/?=&", " \"<>`{}", "éü", "\U0001F600", "中文"]
    base = "https://example.com/dir/"
    questions = []
    for number in range(URLS):
        letters = rng.choice(alphabets)
        length = rng.randrange(url_module._KEPT_LENGTH // 2, url_module._KEPT_LENGTH - len(base) - 16)
        url = f"/{number}?q=" + "".join(rng.choices(letters, k=length))
        questions.append((url, rng.choice(["utf-8", "windows-1252", "shift_jis"])))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for url, encoding in questions:
            url_module.parse(url, base, encoding=encoding)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < URLS * 8 * url_module._KEPT_LENGTH, held
    kept = 0
    for url, encoding in questions:
        answer = url_module.parse(url, base, encoding=encoding)
        assert answer == url_module._parse(url, base, encoding, False)
        kept += answer is url_module.parse(url, base, encoding=encoding)
    assert kept > URLS // 8  # those whose answers are short are kept


def _tightened(rng: random.Random, schema: dict[str, Any]) -> None:
    """Change ``schema`` in place, in a seeded way that changes what it accepts."""
    properties = schema.get("properties", {})
    for key, fragment in properties.items():
        roll = rng.random()
        if roll < 0.3:
            fragment["enum"] = [f"only-{key}"]
        elif roll < 0.6:
            fragment.clear()
            fragment["type"] = "boolean"
        else:
            schema.setdefault("required", []).append(key)
    schema["additionalProperties"] = False
    schema["properties"]["added"] = {"type": "integer"}
    schema.setdefault("required", []).append("added")


def test_a_tool_validates_by_the_schema_it_shows_whatever_mapping_it_was_made_with() -> None:
    """A caller who gives a tool a schema as a plain dict (``replace(tool, input_schema=d)``) and
    changes ``d`` afterwards: the tool's validator is kept while the tool lives, so the tool
    must hold its own read-only copy; validation then follows the schema ``to_dict`` shows (the
    answers of a tool made afresh from that schema), before and after the change."""
    rng = random.Random(SEED)
    for number in range(60):
        tool = formtools.extract_tools(_page(random.Random(number), number), profile=rng.choice(["chromium", "html"]))[0]
        schema = thaw(tool.input_schema)
        annotations = thaw(tool.annotations)
        mine = dataclasses.replace(tool, input_schema=schema, annotations=annotations)
        value = rng.choice([number, "x", True])
        inputs = [{key: value for key in schema["properties"]}, {"added": 3}, {}]
        before = [_answers(mine, value)] + [formtools.validate_input(mine, i) for i in inputs]
        _tightened(rng, schema)
        annotations["readOnlyHint"] = not annotations.get("readOnlyHint")
        shown = mine.to_dict()
        made = dataclasses.replace(tool, input_schema=freeze(shown["inputSchema"]))
        assert [_answers(mine, value)] + [formtools.validate_input(mine, i) for i in inputs] == before, number
        assert [formtools.validate_input(made, i) for i in inputs] == before[1:], number
        assert shown["annotations"] == thaw(tool.annotations), number
