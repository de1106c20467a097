"""Render layer: small helpers that build standalone SVG documents as strings.

>>> document(10, 10, [circle(5, 5, 4, fill="#000")]).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

__all__ = ["circle", "document", "group", "line", "polygon", "rect", "text"]


def _attributes(attrs: dict[str, str | float | int]) -> str:
    parts = []
    for key, value in attrs.items():
        if isinstance(value, float):
            value = f"{value:.2f}".rstrip("0").rstrip(".")
        parts.append(f'{key.rstrip("_").replace("_", "-")}="{escape(str(value))}"')
    return " ".join(parts)


def document(width: float, height: float, body: Iterable[str], title: str = "") -> str:
    """A complete SVG document of the given size holding ``body`` elements."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">'
    )
    title_element = f"<title>{escape(title)}</title>" if title else ""
    return head + title_element + "".join(body) + "</svg>\n"


def circle(cx: float, cy: float, r: float, **attrs: str | float | int) -> str:
    """A ``<circle>`` element."""
    return f"<circle {_attributes({'cx': cx, 'cy': cy, 'r': r, **attrs})}/>"


def rect(x: float, y: float, width: float, height: float, **attrs: str | float | int) -> str:
    """A ``<rect>`` element."""
    return f"<rect {_attributes({'x': x, 'y': y, 'width': width, 'height': height, **attrs})}/>"


def line(x1: float, y1: float, x2: float, y2: float, **attrs: str | float | int) -> str:
    """A ``<line>`` element."""
    return f"<line {_attributes({'x1': x1, 'y1': y1, 'x2': x2, 'y2': y2, **attrs})}/>"


def polygon(points: Sequence[tuple[float, float]], **attrs: str | float | int) -> str:
    """A ``<polygon>`` element through ``points``."""
    joined = " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
    return f"<polygon {_attributes({'points': joined, **attrs})}/>"


def text(x: float, y: float, content: str, **attrs: str | float | int) -> str:
    """A ``<text>`` element (content escaped)."""
    return f"<text {_attributes({'x': x, 'y': y, **attrs})}>{escape(content)}</text>"


def group(children: Iterable[str], **attrs: str | float | int) -> str:
    """A ``<g>`` element around ``children``."""
    opening = f"<g {_attributes(attrs)}>" if attrs else "<g>"
    return opening + "".join(children) + "</g>"
