"""Profile ``formtools batch --jobs 1`` on the form-page corpus: where the time goes.

    python benchmarks/profile_formpages.py after          # writes benchmarks/profile/after-*
    python benchmarks/profile_formpages.py before --passes 30 --rate 1000

``before-*`` in ``benchmarks/profile/`` is commit 07ee032 (main before issue 16's fixes), profiled
with ``PYTHONPATH`` pointing at its ``src/``; ``after-*`` is f375374 (dad5e39's are in git history).

Runs :func:`formtools._crawl.batch.run_batch` with ``jobs=1`` in this process over the
``formpages`` corpus of ``bench_formpages.py`` (200 pages, every one with forms; generated into
``--corpora`` if missing), after one warm-up pass (imports, compiled regexes, page cache), and
writes into ``--out`` (default ``benchmarks/profile/``):

- ``LABEL-cprofile.txt``: cProfile over ``--cprofile-passes`` passes, the top functions by own
  time and by cumulative time (paths shortened to the package);
- ``LABEL.collapsed``: py-spy's samples (``--rate`` a second) over ``--passes`` passes, as
  collapsed stacks (``frame;frame;… count``, one frame per function), the warm-up and
  everything outside the passes left out; the input of any flame graph tool;
- ``LABEL.svg``: a flame graph of those stacks (rendered here, no other tool needed; hover for
  the figures);
- ``LABEL-top.txt``: from the samples, the time by stage (read, prefilter, decode, lexbor's parse
  and CSS query, marking, skeleton copy, forms_of, synthesis, JSON …), then the top functions and
  lines by own time (time spent in a C extension, lexbor's parse or a regex, counts for the
  Python line that called it) and by inclusive time, in shares and samples a pass.

py-spy comes from ``pip install py-spy``; without it only the cProfile table is written. Neither
is needed by formtools. Profiles slow the code down (cProfile a lot, py-spy little): read
shares, not seconds, and take seconds from ``bench_formpages.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import html
import io
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_formpages import corpus_of  # noqa: E402

from formtools._crawl.batch import BatchOptions, run_batch  # noqa: E402

MARKER = "profiled_passes"


def one_pass(pages_dir: str) -> None:
    run_batch([pages_dir], io.StringIO(), options=BatchOptions(jobs=1))


def profiled_passes(pages_dir: str, passes: int) -> None:
    for _ in range(passes):
        one_pass(pages_dir)


# --- cProfile --------------------------------------------------------------------------------


def _short(path: str) -> str:
    for anchor in ("/site-packages/", "/src/", "/lib/python3."):
        if anchor in path:
            rest = path.split(anchor, 1)[1]
            return rest.split("/", 1)[1] if anchor == "/lib/python3." else rest
    return path


def cprofile_table(pages_dir: str, passes: int, top: int) -> str:
    profile = cProfile.Profile()
    profile.runcall(profiled_passes, pages_dir, passes)
    text = io.StringIO()
    stats = pstats.Stats(profile, stream=text)
    stats.stats = {  # type: ignore[attr-defined]
        (_short(file), line, name): value
        for (file, line, name), value in stats.stats.items()  # type: ignore[attr-defined]
    }
    text.write(f"cProfile, {passes} passes of batch --jobs 1 over the form-page corpus\n")
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return re.sub(r"[ \t]+\n", "\n", text.getvalue())


# --- py-spy ----------------------------------------------------------------------------------


def record(pages_dir: str, passes: int, rate: int, corpora: Path, seed: int) -> list[str]:
    """py-spy's samples of a child process doing the passes, as collapsed stacks below the
    passes' frame (frames name a function and the line it was on)."""
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch) / "raw.txt"
        command = [
            "py-spy", "record", "--rate", str(rate), "--format", "raw", "--output", str(raw),
            "--", sys.executable, __file__, "--child", "--passes", str(passes),
            "--corpora", str(corpora), "--seed", str(seed),
        ]  # fmt: skip
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        lines = raw.read_text().splitlines()
    kept: Counter[str] = Counter()
    for line in lines:
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        at = next((i for i, f in enumerate(frames) if f.startswith(MARKER + " ")), None)
        if at is None:
            continue  # start-up, the warm-up, exit
        inner = [re.sub(r" \((?:.*/)?(site-packages|src)/", " (", f) for f in frames[at + 1 :]]
        kept[";".join([f"{passes} passes", *inner])] += int(count)
    return [f"{stack} {count}" for stack, count in sorted(kept.items())]


def _function(frame: str) -> str:
    return re.sub(r":\d+\)$", ")", frame)


def by_function(collapsed: list[str]) -> list[str]:
    """The stacks with one frame per function (line numbers dropped)."""
    merged: Counter[str] = Counter()
    for line in collapsed:
        stack, _, count = line.rpartition(" ")
        merged[";".join(_function(frame) for frame in stack.split(";"))] += int(count)
    return [f"{stack} {count}" for stack, count in sorted(merged.items())]


def _c_call_lines() -> dict[str, str]:
    """The frames (function and line) where the fast path calls into lexbor, by what they do."""
    import inspect

    from formtools._parse import fast

    lines = {}
    for number, text in enumerate(inspect.getsource(fast).splitlines(), 1):
        if "LexborHTMLParser(" in text and "self.tree" in text:
            lines[f"_Page.__init__ (formtools/_parse/fast.py:{number})"] = "lexbor: parse (C)"
        elif "self.tree.css(" in text:
            lines[f"_Page.document (formtools/_parse/fast.py:{number})"] = "lexbor: CSS query (C)"
    return lines


# Stages, by the first of these functions found on a stack (innermost first).
_STAGES = (
    ("read_page", "read the file"),
    ("may_hold_tools", "prefilter"),
    ("_decoded", "decode as html5lib does (charset prescan, UTF-8)"),
    ("lexbor_walks_too_far", "fast path: depth screen"),
    ("_Page._marked", "fast path: mark tags in the source"),
    ("_Page._set_lines", "fast path: line numbers"),
    ("_Page._pointer_owners", "fast path: form pointer"),
    ("_Page._add_root", "fast path: copy the skeleton (lexbor → lxml)"),
    ("_Page._add_references", "fast path: copy the skeleton (lexbor → lxml)"),
    ("_Page._assemble", "fast path: copy the skeleton (lexbor → lxml)"),
    ("fast_document", "fast path: the rest"),
    ("forms_of", "forms_of: tree → form models"),
    ("_input_schema", "synthesize: schemas, validity"),
    ("synthesize", "synthesize: the rest (registration, freeze)"),
    ("_line", "batch: JSON line (to_dict, dumps)"),
)


def _stage(frames: list[str], c_calls: dict[str, str]) -> str:
    if frames[-1] in c_calls:
        return c_calls[frames[-1]]
    names = [_function(frame).split(" (")[0] for frame in frames]
    for function, stage in _STAGES:
        if function in names:
            return stage
    return "other (batch loop, freeing pages' trees, …)"


def top_table(collapsed: list[str], top: int, passes: int) -> str:
    own_function: Counter[str] = Counter()
    own_line: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    stages: Counter[str] = Counter()
    c_calls = _c_call_lines()
    total = 0
    for line in collapsed:
        stack, _, count = line.rpartition(" ")
        samples = int(count)
        frames = stack.split(";")[1:]
        total += samples
        if not frames:
            continue
        own_line[frames[-1]] += samples
        own_function[_function(frames[-1])] += samples
        stages[_stage(frames, c_calls)] += samples
        for name in {_function(f) for f in frames}:
            inclusive[name] += samples

    def rows(counter: Counter[str], limit: int | None = top) -> str:
        return "".join(
            f"{rank:3}. {100 * n / total:5.1f}%  {n / passes:7.1f}  {name}\n"
            for rank, (name, n) in enumerate(counter.most_common(limit), 1)
        )

    return (
        f"{total} samples over {passes} passes. Columns: share of the samples, samples a pass "
        "(about milliseconds at 1 kHz, py-spy's pauses included), frame. Own time: a function's "
        "samples at the top of the stack (time in a C extension it calls counts for it).\n\n"
        f"## by stage\n{rows(stages, None)}\n"
        f"## own time by function\n{rows(own_function)}\n"
        f"## own time by line\n{rows(own_line)}\n"
        f"## inclusive time by function\n{rows(inclusive)}"
    )


def flame_svg(collapsed: list[str], title: str, width: int = 1600) -> str:
    """A flame graph (root at the bottom) of collapsed stacks."""
    tree: dict[str, tuple[int, dict]] = {}  # frame → (samples, children)

    def add(node: dict, frames: list[str], samples: int) -> None:
        for frame in frames:
            count, children = node.get(frame, (0, {}))
            node[frame] = (count + samples, children)
            node = children

    total = 0
    depth_max = 0
    for line in collapsed:
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        add(tree, frames, int(count))
        total += int(count)
        depth_max = max(depth_max, len(frames))
    row, top = 16, 40
    height = top + row * depth_max + 10
    scale = (width - 20) / max(total, 1)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="monospace" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="#fafafa"/>',
        f'<text x="10" y="20" font-size="14">{html.escape(title)}</text>',
    ]

    def colour(frame: str) -> str:
        h = sum(map(ord, _function(frame))) % 60
        if "formtools" in frame:
            return f"hsl({h},75%,62%)"  # warm: formtools
        return f"hsl({190 + h % 30},55%,65%)"  # cool: stdlib and libraries

    def draw(node: dict, x: float, depth: int) -> None:
        for frame, (count, children) in node.items():
            w = count * scale
            if w >= 0.3:
                y = height - 10 - row * (depth + 1)
                label = html.escape(frame)
                share = f"{100 * count / total:.1f}%"
                out.append(
                    f'<g><title>{label}: {count} samples, {share}</title>'
                    f'<rect x="{10 + x:.1f}" y="{y}" width="{w:.1f}" height="{row - 1}" '
                    f'fill="{colour(frame)}" rx="1"/>'
                )
                chars = int((w - 4) / 6.6)
                if chars >= 3:
                    text = frame if len(frame) <= chars else frame[: chars - 1] + "…"
                    out.append(
                        f'<text x="{12 + x:.1f}" y="{y + row - 4}">{html.escape(text)}</text>'
                    )
                out.append("</g>")
                draw(children, x, depth + 1)
            x += w

    draw(tree, 0.0, 0)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label", nargs="?", default="current", help="file name prefix")
    parser.add_argument("--out", type=Path, default=HERE / "profile")
    parser.add_argument("--corpora", type=Path, default=HERE / "corpus")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=int, default=20, help="py-spy passes (default 20)")
    parser.add_argument("--cprofile-passes", type=int, default=3)
    parser.add_argument("--rate", type=int, default=1000, help="py-spy samples a second")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    pages_dir = str(corpus_of("formpages", args.corpora, args.seed).pages_dir)
    one_pass(pages_dir)  # warm-up
    if args.child:
        profiled_passes(pages_dir, args.passes)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    table = cprofile_table(pages_dir, args.cprofile_passes, args.top)
    (args.out / f"{args.label}-cprofile.txt").write_text(table)
    written = [f"{args.label}-cprofile.txt"]
    if shutil.which("py-spy"):
        collapsed = record(pages_dir, args.passes, args.rate, args.corpora, args.seed)
        table = top_table(collapsed, args.top, args.passes)
        (args.out / f"{args.label}-top.txt").write_text(table)
        collapsed = by_function(collapsed)
        (args.out / f"{args.label}.collapsed").write_text("\n".join(collapsed) + "\n")
        title = (
            f"formtools batch --jobs 1, form-page corpus ({args.label}): "
            f"{args.passes} passes, py-spy at {args.rate} Hz"
        )
        (args.out / f"{args.label}.svg").write_text(flame_svg(collapsed, title))
        written += [f"{args.label}.collapsed", f"{args.label}-top.txt", f"{args.label}.svg"]
    else:
        print("py-spy not found (pip install py-spy): only the cProfile table", file=sys.stderr)
    print(f"wrote {', '.join(written)} in {args.out}")


if __name__ == "__main__":
    main()
