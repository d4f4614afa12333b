"""The package as a user gets it: the sdist and wheel build with the declared build backend, their
metadata passes ``twine check``, and the wheel installed into a fresh virtual environment runs.

The fresh environment borrows the already installed dependencies (``--system-site-packages``),
so the test needs no network; what it checks is the wheel itself: every subpackage, ``py.typed``,
the console script and the license.
"""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import made_once_per_run

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and wheel, built once a run: the backend writes in the source tree (``build/``,
    the egg-info), so two workers building at once (worksteal splits a module's tests) failed."""

    def build(out: Path) -> None:
        subprocess.run(
            [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(ROOT)],
            check=True,
            capture_output=True,
            timeout=600,
        )

    return made_once_per_run(tmp_path_factory, "dist", build)


def test_metadata_passes_twine_check(dist: Path) -> None:
    files = sorted(str(f) for f in dist.iterdir())
    assert any(f.endswith(".whl") for f in files) and any(f.endswith(".tar.gz") for f in files)
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_wheel_holds_every_package_the_license_and_the_type_marker(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    sources = {
        str(path.relative_to(ROOT / "src")) for path in (ROOT / "src" / "formtools").rglob("*.py")
    }
    assert sources <= set(names)
    assert "formtools/py.typed" in names
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in text and "Classifier: Typing :: Typed" in text


def test_the_wheel_installed_in_a_fresh_environment_runs(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    env_dir = tmp_path / "venv"
    # (pip is the system's, seen through its site-packages, and installs into the environment
    # it runs in: a pip of the environment's own cost 7 s of CPU to bootstrap)
    venv.EnvBuilder(system_site_packages=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", str(wheel)],
        check=True,
        timeout=300,
    )
    page = ROOT / "fixtures" / "html" / "realistic-search.html"
    done = subprocess.run(
        [str(env_dir / "bin" / "formtools"), "extract", str(page)],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the checkout: the installed wheel must do
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert '"name":"site_search"' in done.stdout
    where = subprocess.run(
        [str(python), "-c", "import formtools; print(formtools.__file__)"],
        capture_output=True, text=True, cwd=tmp_path, check=True,
    ).stdout
    assert str(env_dir) in where  # the wheel's copy, not the editable checkout
