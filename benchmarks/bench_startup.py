"""How fast formtools starts: import time (``python -X importtime``) of ``import formtools``,
``formtools --version`` and ``formtools extract`` of a small page, next to the interpreter's own
start-up measured in the same run. The goal (≤ 120 ms of import time for ``--version`` and for
``extract``) is checked with ``--check``, here and not in a timed test.

    python benchmarks/bench_startup.py [--runs 5] [--check]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_MS = 120.0
_LINE = re.compile(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)$")


def import_ms(args: list[str]) -> float:
    """The import time of everything the command imports after the interpreter's own start
    (``site`` and what precedes it are the interpreter's)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True, text=True)
    total, after_site = 0, False
    for line in done.stderr.splitlines():
        found = _LINE.match(line)
        if not found or found.group(2).startswith(" "):
            continue  # nested imports are inside their parent's cumulative time
        name = found.group(2)
        if after_site:
            total += int(found.group(1))
        if name == "site":
            after_site = True
    return total / 1000


def wall_ms(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], capture_output=True, check=False)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--check", action="store_true", help=f"exit 1 above {GOAL_MS:g} ms")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        page = Path(work) / "small.html"
        page.write_text('<form toolname=s tooldescription=S><input name=q><button>Go</button></form>')
        cases = {
            "python -c pass (baseline)": ["-c", "pass"],
            "import formtools": ["-c", "import formtools"],
            "formtools --version": ["-m", "formtools", "--version"],
            "formtools extract small.html": ["-m", "formtools", "extract", str(page)],
        }
        print(f"{'command':<32} {'import ms':>10} {'wall ms':>9} {'÷ baseline wall':>16}")
        baseline = statistics.median(wall_ms(cases["python -c pass (baseline)"]) for _ in range(options.runs))
        failed = False
        for name, args in cases.items():
            imports = statistics.median(import_ms(args) for _ in range(options.runs))
            wall = statistics.median(wall_ms(args) for _ in range(options.runs))
            print(f"{name:<32} {imports:>10.1f} {wall:>9.1f} {wall / baseline:>16.2f}")
            if options.check and name.startswith("formtools") and imports > GOAL_MS:
                failed = True
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
