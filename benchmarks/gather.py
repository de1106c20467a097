"""Gathers docs/benchmarks/<game>.md into docs/benchmarks.md (headings one level down).

Each benchmark writes its figures, with the command, into its game's page; this script
rebuilds the one page that lists them all, opening with the table of current standing
figures (docs/benchmarks/standing.md). Run from the repository root:

    .venv/bin/python benchmarks/gather.py
"""

from __future__ import annotations

import re
from pathlib import Path

HEADER = """\
# Benchmarks: every measured figure, with the command behind it

Each game's benchmark scripts live in `benchmarks/` (`make bench` runs them all); each
measures boardlab and the strongest peer it can run here in the same run and prints the
ratio. The sections below are gathered from `docs/benchmarks/<game>.md`, where each
benchmark writes up its own numbers. The development machine has 2 cores shared with
other jobs, so wall times are noisy; where it matters the sections also give CPU time.
"""


def demoted(text: str) -> str:
    """The page with every Markdown heading one level deeper (code blocks untouched)."""
    lines = []
    fenced = False
    for line in text.rstrip("\n").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        lines.append("#" + line if not fenced and re.match(r"#+ ", line) else line)
    return "\n".join(lines) + "\n"


#: The table of current figures, first on the page (kept by hand: a new figure replaces its
#: line there, and its run goes into its game's page as well).
STANDING = Path("docs/benchmarks/standing.md")


def pages() -> list[Path]:
    """The game pages gathered, in order (every page of docs/benchmarks/ but the table)."""
    return sorted(p for p in Path("docs/benchmarks").glob("*.md") if p != STANDING)


def gathered() -> str:
    """What docs/benchmarks.md must hold: the table of standing figures, then every page."""
    standing = demoted(STANDING.read_text(encoding="utf-8"))
    return (
        HEADER
        + "\n"
        + standing
        + "".join("\n" + demoted(page.read_text(encoding="utf-8")) for page in pages())
    )


def main() -> None:
    Path("docs/benchmarks.md").write_text(gathered(), encoding="utf-8")
    print(f"docs/benchmarks.md: {len(pages())} sections")


if __name__ == "__main__":
    main()
