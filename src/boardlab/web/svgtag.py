"""Interface layer: make the pictures of :mod:`boardlab.render` clickable.

The render functions draw each cell (a peg hole, a Hex hexagon, an Ioiwari pit) as one
element in a fixed order. :func:`tag_cells` finds those elements by their tag and fill
colour and adds ``data-cell="NAME"`` to each, so the page can tell which cell was
clicked while the picture stays exactly the one the command line writes.

>>> tag_cells('<svg><circle r="1" fill="#abc"/><circle r="2" fill="#abc"/></svg>',
...           "circle", "#abc", ["a", "b"])
'<svg><circle data-cell="a" r="1" fill="#abc"/><circle data-cell="b" r="2" fill="#abc"/></svg>'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

__all__ = ["tag_cells"]


def tag_cells(svg: str, tag: str, fill: str, names: Sequence[str]) -> str:
    """``svg`` with ``data-cell`` names on its ``<tag ... fill="FILL">`` elements, in order.

    :raises RuntimeError: when the picture does not hold exactly one such element per
        name (the render layer changed its drawing; an internal error, not a user's).
    """
    pattern = re.compile(rf'<{tag} ((?:[^>]*?) fill="{re.escape(fill)}"[^>]*)>')
    found = pattern.findall(svg)
    if len(found) != len(names):
        raise RuntimeError(
            f"picture has {len(found)} <{tag} fill={fill}> elements for {len(names)} cells"
        )
    iterator = iter(names)

    def add(match: re.Match[str]) -> str:
        return f'<{tag} data-cell="{escape(next(iterator))}" {match.group(1)}>'

    return pattern.sub(add, svg)
