"""The folder of compiled kernels (``core/jit.py``): named by the sources, so that an edit
of any module (a callee numba inlined elsewhere) starts a fresh cache, and old folders
pruned."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardlab.core import jit


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_the_folder_changes_with_any_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDLAB_CACHE_DIR", str(tmp_path / "cache"))
    package = tmp_path / "pkg"
    write(package / "kernel.py", "x = 1\n")
    write(package / "deep" / "callee.py", "y = 2\n")
    first = jit.kernel_cache_dir(package)
    assert first.parent == tmp_path / "cache" / "numba"
    assert jit.kernel_cache_dir(package) == first  # the same sources, the same folder
    callee = package / "deep" / "callee.py"
    callee.write_text("y = 3\n")  # same size, a later time
    stamp = callee.stat().st_mtime_ns + 1_000_000
    os.utime(callee, ns=(stamp, stamp))
    second = jit.kernel_cache_dir(package)
    assert second != first
    write(package / "new.py", "")
    assert jit.kernel_cache_dir(package) not in (first, second)


def test_old_folders_go_the_newest_stay(tmp_path: Path) -> None:
    root = tmp_path / "numba"
    now = time.time()
    ages = {"current": 0, "a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
    for name, days in ages.items():
        folder = root / name
        folder.mkdir(parents=True)
        (folder / "kernel.nbi").write_text("")
        when = now - days * 86_400 - 60
        os.utime(folder, (when, when))
    (root / "young").mkdir()  # newer than a day: kept although past the newest few
    jit._prune(root / "current")
    left = sorted(p.name for p in root.iterdir())
    assert left == ["a", "b", "current", "young"]


#: A script compiling one cached kernel and printing numba's cache folder.
KERNEL_SCRIPT = """
from boardlab.core.jit import jit
import numba.core.config as c
@jit
def twice(x: int) -> int:
    return 2 * x
assert twice(21) == 42
print(c.CACHE_DIR)
"""


def cache_folder_used(tmp_path: Path, env: dict[str, str]) -> str:
    """numba's cache folder in a fresh process that compiles a kernel with ``env``."""
    script = tmp_path / "kernel_script.py"
    script.write_text(KERNEL_SCRIPT)
    out = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def test_numba_caches_in_the_fingerprinted_folder(tmp_path: Path) -> None:
    env = {**os.environ, "BOARDLAB_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    used = Path(cache_folder_used(tmp_path, env))
    (folder,) = (tmp_path / "numba").iterdir()  # one folder, made for this build
    assert used == folder
    assert any(folder.rglob("*.nbi"))  # and numba wrote the kernel's index there


def test_numba_cache_dir_when_set_wins(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "BOARDLAB_CACHE_DIR": str(tmp_path / "ours"),
        "NUMBA_CACHE_DIR": str(tmp_path / "theirs"),
    }
    assert cache_folder_used(tmp_path, env) == str(tmp_path / "theirs")
    assert not (tmp_path / "ours").exists()
