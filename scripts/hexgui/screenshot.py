"""Makes the screenshot of docs/hex.md: HexGui with boardlab attached, a game loaded.

HexGui (built outside the repository, see ``README.md`` here) runs on a virtual X
display (Xvfb) with ``-program "boardlab hex gtp"`` and an SGF file; once HexGui has
replayed the file to boardlab over GTP, the screen is captured (``xwd``, converted to
PNG by ImageMagick's ``convert``). The script fails when boardlab refused any command
HexGui sent (a ``?`` reply in HexGui's log): the picture is only kept when the two
boards are in step.

    .venv/bin/python scripts/hexgui/screenshot.py --hexgui /path/to/hexgui \\
        --sgf tests/hex/data/hexgui/setup-then-moves.sgf --out docs/images/hexgui-boardlab.png

Needs ``Xvfb``, ``xwd`` and ``convert`` (Debian: ``xvfb x11-apps imagemagick``) and a JDK.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

SCREEN = "1100x800x24"
#: HexGui's window, from the top-left corner of the screen (the rest is empty).
CROP = "904x612+0+0"


def _free_display() -> int:
    for number in range(90, 200):
        if not Path(f"/tmp/.X{number}-lock").exists():
            return number
    raise SystemExit("no free X display number between :90 and :199")


def _wait_for(log: Path, needle: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if log.exists() and needle in log.read_text(errors="replace"):
            return True
        time.sleep(0.2)
    return False


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hexgui", type=Path, required=True, help="HexGui's folder (build/, src/)")
    parser.add_argument("--sgf", type=Path, required=True, help="the game HexGui opens")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    parser.add_argument(
        "--boardlab",
        default=str(Path(sys.executable).parent / "boardlab"),
        help="the boardlab command (default: the one beside this Python)",
    )
    parser.add_argument("--wait", type=float, default=30.0, help="seconds HexGui may take")
    args = parser.parse_args(argv)
    for tool in ("Xvfb", "xwd", "convert", "java"):
        if shutil.which(tool) is None:
            print(f"screenshot: {tool} is missing (see the module docstring)", file=sys.stderr)
            return 2
    if not (args.hexgui / "build" / "hexgui" / "Main.class").exists():
        print(f"screenshot: no HexGui build under {args.hexgui}/build", file=sys.stderr)
        return 2
    display = f":{_free_display()}"
    work = Path(tempfile.mkdtemp(prefix="boardlab-hexgui-"))
    log = work / "hexgui.log"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", SCREEN], stderr=subprocess.DEVNULL)
    hexgui = None
    try:
        time.sleep(1.0)
        classpath = f"{args.hexgui / 'build'}:{args.hexgui / 'src'}"
        command = [
            "java",
            "-cp",
            classpath,
            "hexgui.Main",
            "-program",
            f"{args.boardlab} hex gtp --time 1",
            str(args.sgf.resolve()),
        ]
        with log.open("w") as sink:
            hexgui = subprocess.Popen(
                command, stdout=sink, stderr=subprocess.STDOUT, env={"DISPLAY": display}
            )
            # HexGui asks for the board last, once the file has been replayed
            if not _wait_for(log, "'showboard'", args.wait):
                late = f"screenshot: HexGui did not replay the file in {args.wait} s"
                print(late, file=sys.stderr)
                return 1
            time.sleep(3.0)
            text = log.read_text(errors="replace")
            refused = [line for line in text.splitlines() if line.startswith("?")]
            if refused:
                print(f"screenshot: boardlab refused {refused[0]!r}: not in step", file=sys.stderr)
                return 1
            capture = subprocess.run(
                ["xwd", "-root", "-display", display], capture_output=True, check=True
            )
            args.out.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                ["convert", "xwd:-", "-crop", CROP, "+repage", f"png:{args.out}"],
                input=capture.stdout,
                check=True,
            )
    finally:
        if hexgui is not None:
            hexgui.terminate()
            hexgui.wait(10)
        xvfb.terminate()
        xvfb.wait(10)
    print(f"wrote {args.out}; HexGui's log: {log}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
