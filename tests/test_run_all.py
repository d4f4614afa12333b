"""``benchmarks/run_all.py``: the one command behind the README's performance section.

It runs the benchmarks for real (here the scaling one, at its quickest) and rewrites only the
block between the README's markers; its figures are not asserted, their presence is.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

RUN_ALL = ROOT / "benchmarks" / "run_all.py"


def test_the_section_is_regenerated_between_the_markers_and_nothing_else_moves(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    before, after = "# formtools\n\n## Performance\n\nIntro.\n\n", "\n\n## License\n\nMIT\n"
    readme.write_text(before + "<!-- performance:begin -->\nold figures\n<!-- performance:end -->" + after)
    done = subprocess.run(
        [sys.executable, str(RUN_ALL), "--quick", "--only", "scaling", "--readme", str(readme), "--write"],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    text = readme.read_text()
    assert text.startswith(before) and text.endswith(after) and "old figures" not in text
    block = text[len(before):-len(after)]
    assert block.startswith("<!-- performance:begin -->") and block.endswith("<!-- performance:end -->")
    assert "cores (" in block and "Python 3." in block and "commit " in block  # machine, versions
    assert "`batch --jobs 2` ÷ `--jobs 1`" in block and "The machine's ceiling in those rounds" in block
    assert "batch start-up, empty input" in block
    # issue 16's goals judged from the same run's figures, not written beside them by hand
    goals = block.split("Issue 16's goals against these figures:", 1)[1].split("Scaling, whole command", 1)[0]
    assert re.search(r"\| start-up ≤ 0\.15 s \| \d\.\d{3} s \| (met|not met) \|", goals)
    assert re.search(r"\| `--jobs 2` ÷ `--jobs 1` ≥ 1\.8×, .*, WARC\.gz \| \d\.\d\d× \(.*\) \| (met|not met) \|", goals)
    assert "| form pages, directory (200 pages, 16 MB) |" in block
    assert block in done.stdout  # printed as written


def test_a_readme_without_the_block_is_refused_and_unknown_names_are_usage_errors(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# formtools\n")
    refused = subprocess.run(  # at once, not after a quarter of an hour of measuring
        [sys.executable, str(RUN_ALL), "--readme", str(readme), "--write"],
        capture_output=True, text=True, timeout=60,
    )
    assert refused.returncode == 2 and "no <!-- performance:begin -->" in refused.stderr
    assert readme.read_text() == "# formtools\n"
    unknown = subprocess.run(
        [sys.executable, str(RUN_ALL), "--only", "scaling,speed"], capture_output=True, text=True
    )
    assert unknown.returncode == 2 and "unknown benchmark(s) speed" in unknown.stderr
