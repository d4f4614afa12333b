"""Extract web-platform-tests' own value tables for form controls into ``tests/data/wpt-value-tables.json``.

Two kinds of table, each read from the test's source by running its inline script in Node's
``vm`` with the harness stubbed out (so the data is exactly what the test would iterate over,
never a copy typed in by hand):

- ``validity``: the ``testElements`` arrays that ``html/semantics/forms/constraints/
  form-validation-validity-*.html`` hand to ``validator.run_test`` (``support/validator.js``):
  per element tag and type, conditions (attributes and the value, set by script) and whether
  the flag the file is named after is expected;
- ``sanitization``: the ``{value, attributes, expected}`` arrays of ``the-input-element/*.html``
  that assign ``input.value`` on a created input of one type and expect ``input.value`` back.

Every case carries the path it is from and the commit of the checkout read. The expectations
are wpt's (of that commit); ``tests/test_browser_wpt_values.py`` asks the live Chromium and
reports where the two disagree.

    python scripts/extract_wpt_value_tables.py /path/to/wpt.git [COMMIT]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the shared helpers live in the scripts package
    sys.path.insert(0, str(ROOT))

from scripts._recording import write_json  # noqa: E402

OUTPUT = ROOT / "tests" / "data" / "wpt-value-tables.json"
VALIDITY_DIR = "html/semantics/forms/constraints/"
VALIDITY_FILE = re.compile(r"form-validation-validity-(\w+)\.html$")
SANITIZATION_DIR = "html/semantics/forms/the-input-element/"
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)
CREATED_TYPE = re.compile(r'input\.type = "([a-z-]+)"')

# Runs each inline script in a fresh context with testharness and validator.js replaced by
# recorders: run_test's arguments are kept, test() bodies never run (so no DOM is needed), and
# the script's top-level arrays of {value?, expected, testname} objects are read back
# afterwards; a script that fails (it needs the DOM outside a test) answers null.
_NODE_PROGRAM = r"""
const vm = require("vm");
const scripts = JSON.parse(require("fs").readFileSync(0, "utf8"));
const noop = () => {};
const out = scripts.map((text) => {
  const runs = [];
  const context = {
    validator: { run_test: (elements, kind) => runs.push({ kind, elements }) },
    test: noop, async_test: noop, promise_test: noop, setup: noop, done: noop,
  };
  vm.createContext(context);
  try {
    vm.runInContext(text, context);
  } catch (error) {
    return null;  // a script that needs the DOM at its top level holds no table
  }
  const tables = [];
  for (const [name, value] of Object.entries(context)) {
    if (Array.isArray(value) && value.length && value.every(
        (row) => row && typeof row === "object" && "expected" in row && "testname" in row)) {
      tables.push({ name, rows: value });
    }
  }
  return { runs, tables };
});
process.stdout.write(JSON.stringify(out));
"""


def _git(repository: Path, *arguments: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(repository), *arguments], check=True, capture_output=True, text=True
    ).stdout


def _run_scripts(scripts: list[str]) -> list[dict[str, Any] | None]:
    answer = subprocess.run(
        ["node", "-e", _NODE_PROGRAM], input=json.dumps(scripts), check=True, capture_output=True, text=True
    )
    result: list[dict[str, Any] | None] = json.loads(answer.stdout)
    return result


def _validity_cases(path: str, commit: str, runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    match = VALIDITY_FILE.search(path)
    assert match is not None
    cases = []
    for run in runs:
        for element in run["elements"]:
            for input_type in element.get("types") or [None]:
                for row in element["testData"]:
                    cases.append({
                        "source": path, "commit": commit, "flag": run["kind"], "tag": element["tag"],
                        "type": input_type, "conditions": row["conditions"], "dirty": bool(row.get("dirty")),
                        "expected": row["expected"], "name": row["name"],
                    })  # fmt: skip
    return cases


def _sanitization_cases(path: str, commit: str, script: str, tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    types = set(CREATED_TYPE.findall(script))
    if not tables or len(types) != 1:
        return []
    (input_type,) = types
    return [
        {"source": path, "commit": commit, "type": input_type, **{k: row[k] for k in ("value", "attributes") if k in row},
         "expected": row["expected"], "name": row["testname"]}  # fmt: skip
        for table in tables
        for row in table["rows"]
    ]


def extract(repository: Path, commit: str) -> dict[str, Any]:
    """The tables of ``repository`` (a git directory) at ``commit``."""
    paths = _git(repository, "ls-tree", "-r", "--name-only", commit, VALIDITY_DIR, SANITIZATION_DIR).split()
    wanted = [p for p in paths if VALIDITY_FILE.search(p) or (p.startswith(SANITIZATION_DIR) and p.endswith(".html"))]
    sources = {path: _git(repository, "show", f"{commit}:{path}") for path in wanted}
    scripts = {path: "\n".join(INLINE_SCRIPT.findall(text)) for path, text in sources.items()}
    results = dict(zip(scripts, _run_scripts(list(scripts.values())), strict=True))
    validity, sanitization = [], []
    for path, result in results.items():
        if VALIDITY_FILE.search(path):
            assert result is not None, f"{path}: its script failed in the stubbed harness"
            validity += _validity_cases(path, commit, result["runs"])
        elif result is not None:
            sanitization += _sanitization_cases(path, commit, scripts[path], result["tables"])
    return {
        "about": (
            "Value tables of web-platform-tests, extracted by scripts/extract_wpt_value_tables.py from "
            "each test's own inline script: expectations are wpt's at the commit given, not Chromium's."
        ),
        "repository": "web-platform-tests/wpt (fork divmain/wpt)",
        "validity": validity,
        "sanitization": sanitization,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repository", type=Path, help="a git directory of web-platform-tests")
    parser.add_argument("commit", nargs="?", default="HEAD")
    args = parser.parse_args(argv)
    commit = _git(args.repository, "rev-parse", args.commit).strip()
    tables = extract(args.repository, commit)
    write_json(OUTPUT, tables)
    print(f"{len(tables['validity'])} validity and {len(tables['sanitization'])} sanitization cases -> {OUTPUT}")


if __name__ == "__main__":
    main()
