"""Validation per second: ``validate_input`` and ``prepare_call`` on every fixture tool, per profile.

    python benchmarks/bench_validate.py                 # three rounds, the best one
    python benchmarks/bench_validate.py --quick --json validate.json

Validation is what a caller pays on every tool call (``call``, the bridge, a batch of calls) and
what the suite's sweeps pay tens of thousands of times. The inputs are the execution oracle's,
drawn from each tool's schema by ``tests/support/callgen.py`` (seeded per page and tool: valid,
boundary, invalid and random inputs), plus each property given each value of :data:`CONFUSED`
(the JSON types a caller mixes up). Every fixture page (``fixtures/html``) is extracted under
each profile; each input is validated once per round, after a warm round that builds each
tool's validator. Figures are CPU seconds of this process (``time.process_time``: the machine is
shared, and a neighbour's load does not count), the best of the rounds. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import ROOT, describe, machine, show, table  # noqa: E402

sys.path.insert(0, str(ROOT))

import formtools  # noqa: E402
from tests.support.callgen import calls_for  # noqa: E402

#: values each property is also given: the JSON types a caller mixes up
CONFUSED: list[Any] = ["5", "", " 5", 5, 1.5, -1, True, None, [], ["x"], {}]
PROFILES = ("html", "chromium", "portable")


def inputs(profile: str) -> list[tuple[formtools.Tool, dict[str, Any]]]:
    """Every fixture tool under ``profile`` with each of its seeded object inputs."""
    found = []
    for path in sorted((ROOT / "fixtures" / "html").glob("*.html")):
        for tool in formtools.extract_tools(path.read_bytes(), base_url="https://shop.example/", profile=profile):
            drawn = calls_for(tool.to_dict(), random.Random(f"{path.stem}/{tool.name}"))
            drawn += [{key: value} for key in tool.input_schema["properties"] for value in CONFUSED]
            found += [(tool, sample) for sample in drawn if isinstance(sample, dict)]
    return found


def _validate(tool: formtools.Tool, sample: dict[str, Any]) -> None:
    formtools.validate_input(tool, sample)


def _prepare(tool: formtools.Tool, sample: dict[str, Any]) -> None:
    try:
        formtools.prepare_call(tool, sample, boundary="b")
    except formtools.FormtoolsError:
        pass  # a refused input is answered too: that is what is timed


def best_round(samples: list[tuple[formtools.Tool, dict[str, Any]]], work: Callable[..., None], rounds: int) -> float:
    """The least CPU time of ``rounds`` passes over ``samples``."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        for tool, sample in samples:
            work(tool, sample)
        times.append(time.process_time() - start)
    return min(times)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("--quick", action="store_true", help="one round instead of three")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    rounds = 1 if args.quick else 3
    found = machine()
    show(f"# formtools validation — {describe(found)}")
    results: dict[str, Any] = {"machine": found}
    rows = []
    for profile in PROFILES:
        samples = inputs(profile)
        for name, work in (("validate_input", _validate), ("prepare_call", _prepare)):
            best_round(samples, work, 1)  # warm: each tool's validator and parameters are built once
            seconds = best_round(samples, work, rounds)
            results[f"{profile}/{name}"] = {"calls": len(samples), "cpu_s": seconds, "calls_per_s": len(samples) / seconds}
            rows.append([profile, name, f"{len(samples):,}", f"{seconds:.2f}", f"{len(samples) / seconds:,.0f}"])
    show(table(["profile", "function", "inputs", "CPU s", "calls/s"], rows))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return results


if __name__ == "__main__":
    main()
