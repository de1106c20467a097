"""Checks the wheel a user installs: built from the project's own files, installed in a
fresh virtual environment, and run from there.

It builds the wheel (``pip wheel --no-deps``) into a temporary folder, checks that its
name carries the package's version and that it holds the package data (every file of
``web/static``, ``hex/data`` and ``data`` of the source tree, and ``py.typed``), makes a
fresh virtual environment, installs the wheel there, and from that environment runs
``boardlab --version`` (which must print ``boardlab <version>``), one quick verb
(``boardlab pegs judge`` of a two-jump game on the English board) and a look at the
installed package data (which must come from the wheel). The fresh environment borrows
the dependencies of the one running the check (a few seconds); ``--from-index``
installs them from the package index instead, as a user gets them (minutes). The
folder is removed afterwards. Exit status 0 when every check holds, 1 otherwise.

    .venv/bin/python scripts/wheel_check.py [--from-index]   (``make wheel-check``)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "boardlab"
#: The folders of package data (relative to the package) the wheel must hold whole.
DATA = ("web/static", "hex/data", "data")
#: The least setuptools the project's build asks for (``pyproject.toml``).
SETUPTOOLS = 77
#: What the quick verb reads and must print.
MOVES = "B4-D4\nC6-C4\n"
JUDGED = "valid: 2 moves (2 jumps, 0 walks), 30 pegs left"
#: What the installed package must hold, looked at from the fresh environment.
LOOK = """
from importlib.resources import files
package = files("boardlab")
for name in ("py.typed", "web/static/index.html", "hex/data/patterns.npz"):
    assert package.joinpath(name).is_file(), name
print(package)
"""


def version() -> str:
    """The package's version, read from its one source (``boardlab/__init__.py``)."""
    found = re.search(r'^__version__ = "([^"]+)"$', (PACKAGE / "__init__.py").read_text(), re.M)
    if found is None:
        raise SystemExit("wheel_check: no __version__ in src/boardlab/__init__.py")
    return found.group(1)


def run(command: list[str], cwd: Path, stdin: str | None = None) -> str:
    """Run ``command`` in ``cwd`` (the source tree off the path); its output, or exit 1."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(
        command, cwd=cwd, input=stdin, capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        print(f"wheel_check: {' '.join(command)} failed ({done.returncode}):", file=sys.stderr)
        print((done.stdout + done.stderr)[-3000:], file=sys.stderr)
        raise SystemExit(1)
    return done.stdout


def missing_data(wheel: Path) -> list[str]:
    """The package-data files of the source tree that the wheel lacks."""
    with zipfile.ZipFile(wheel) as archive:
        held = set(archive.namelist())
    wanted = ["boardlab/py.typed"]
    for folder in DATA:
        for path in sorted((PACKAGE / folder).glob("*")):
            if path.is_file():
                wanted.append(f"boardlab/{folder}/{path.name}")
    return [name for name in wanted if name not in held]


def build(work: Path) -> Path:
    """The wheel, built into ``work/dist``: in this environment when it has the build
    backend the project asks for (setuptools 77 or later and wheel), else in pip's own
    isolated build environment (which fetches them from the package index)."""
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", "dist"]
    if has_backend():
        command.append("--no-build-isolation")
    run([*command, str(ROOT)], work)
    wheels = sorted((work / "dist").glob("boardlab-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"wheel_check: expected one wheel, got {wheels}")
    return wheels[0]


def has_backend() -> bool:
    try:
        setuptools = metadata.version("setuptools")
        metadata.version("wheel")
    except metadata.PackageNotFoundError:
        return False
    return int(setuptools.split(".")[0]) >= SETUPTOOLS


def fresh_environment(work: Path, wheel: Path, from_index: bool) -> Path:
    """A new virtual environment holding the wheel; its ``bin`` folder. With
    ``from_index`` the dependencies are installed from the package index, as a user gets
    them (minutes); else the environment borrows those of this one (a ``.pth`` file
    after its own site-packages, so that boardlab comes from the wheel alone)."""
    venv = work / "venv"
    if from_index:
        run([sys.executable, "-m", "venv", str(venv)], work)
        run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], work)
        return venv / "bin"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], work)
    python = str(venv / "bin" / "python")
    install = ["--python", python, "install", "--quiet", "--no-deps", str(wheel)]
    run([sys.executable, "-m", "pip", *install], work)
    own = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], work)
    borrowed = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (Path(own.strip()) / "zz_borrowed_dependencies.pth").write_text("\n".join(borrowed) + "\n")
    return venv / "bin"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--from-index",
        action="store_true",
        help="install the wheel's dependencies from the package index (minutes)",
    )
    args = parser.parse_args(argv)
    expected = version()
    with tempfile.TemporaryDirectory(prefix="boardlab-wheel-") as temporary:
        work = Path(temporary)
        wheel = build(work)
        if not wheel.name.startswith(f"boardlab-{expected}-"):
            print(f"wheel_check: the wheel {wheel.name} is not of version {expected}")
            return 1
        lacking = missing_data(wheel)
        if lacking:
            print(f"wheel_check: {wheel.name} lacks package data: {', '.join(lacking)}")
            return 1
        bin_folder = fresh_environment(work, wheel, args.from_index)
        shown = run([str(bin_folder / "boardlab"), "--version"], work).strip()
        if shown != f"boardlab {expected}":
            print(f"wheel_check: boardlab --version printed {shown!r}, not 'boardlab {expected}'")
            return 1
        judge = [str(bin_folder / "boardlab"), "pegs", "judge", "english", "-"]
        judged = run(judge, work, MOVES).strip()
        if judged != JUDGED:
            print(f"wheel_check: boardlab pegs judge printed {judged!r}")
            return 1
        where = run([str(bin_folder / "python"), "-c", LOOK], work).strip()
        if not where.startswith(str(work)):
            print(f"wheel_check: boardlab was imported from {where}, not from the wheel")
            return 1
        print(
            f"wheel_check: {wheel.name} installed in a fresh environment: {shown}; "
            "pegs judge and the package data ok"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
