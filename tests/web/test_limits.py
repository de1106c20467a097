"""Every box of the page says its limit, and the page's limit is the server's: each box
names its request field (``data-limit``) and the page reads the field's range or length
from /api/openapi.json, the server's own declaration, instead of repeating it."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import msgspec
import pytest

from boardlab.web import api_hex, api_hiq, api_mars, api_pegs, api_pegs_check, api_shongololo
from boardlab.web.schemas import ENDPOINTS

PAGE = Path(api_hex.__file__).resolve().parent / "static" / "index.html"

#: Each text box and the server's limit on the field it is sent as.
TEXT_LIMITS = {
    "pegs-file": api_pegs.MAX_BOARD_FILE,
    "pegs-judge-text": api_pegs_check.MAX_MOVE_LIST,
    "hex-sgf": api_hex.MAX_SGF,
    "mars-map": api_mars.MAX_MAP,
    "mars-moves": api_mars.MAX_MOVES,
    "toxic-input": api_shongololo.MAX_INPUT,
    "toxic-answer": api_shongololo.MAX_ANSWER,
    "hiq-input": api_hiq.MAX_INPUT,
}
#: Each time box: the server's range.
TIME_LIMITS = {"hex-time": (0.01, api_hex.MAX_TIME), "toxic-time": (0.1, api_shongololo.MAX_TIME)}


class Boxes(HTMLParser):
    """The attributes of every input and text area, and the text of the label around it."""

    def __init__(self) -> None:
        super().__init__()
        self.attrs: dict[str, dict[str, str]] = {}
        self.label: dict[str, str] = {}
        self._open: list[list[str]] = []  # the text and box ids of each open label

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = {key: value or "" for key, value in attrs}
        if tag == "label":
            self._open.append([])
        elif tag in {"input", "textarea"} and "id" in given:
            self.attrs[given["id"]] = given
            if self._open:
                self._open[-1].append("#" + given["id"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "label" and self._open:
            parts = self._open.pop()
            text = " ".join(part for part in parts if not part.startswith("#"))
            for part in parts:
                if part.startswith("#"):
                    self.label[part[1:]] = text

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1].append(data)


@pytest.fixture(scope="module")
def boxes() -> Boxes:
    parsed = Boxes()
    parsed.feed(PAGE.read_text(encoding="utf-8"))
    return parsed


def declared(name: str) -> dict[str, Any]:
    """The JSON Schema of a request field ``Struct.field`` (an optional one's value)."""
    struct_name, field = name.split(".")
    struct = next(s for s in ENDPOINTS.values() if s.__name__ == struct_name)
    _, components = msgspec.json.schema_components([struct])
    spec: dict[str, Any] = components[struct_name]["properties"][field]
    if "anyOf" in spec:
        spec = next(choice for choice in spec["anyOf"] if choice.get("type") != "null")
    return spec


@pytest.mark.parametrize("box", sorted(TEXT_LIMITS))
def test_a_text_box_reads_its_limit_from_the_servers_declaration(boxes: Boxes, box: str) -> None:
    attrs = boxes.attrs[box]
    assert "maxlength" not in attrs  # a paste is never cut silently: the server says no
    assert declared(attrs["data-limit"])["maxLength"] == TEXT_LIMITS[box]


@pytest.mark.parametrize("box", sorted(TIME_LIMITS))
def test_a_time_box_reads_its_range_from_the_servers_declaration(boxes: Boxes, box: str) -> None:
    attrs = boxes.attrs[box]
    assert "min" not in attrs and "max" not in attrs  # not repeated in the page
    spec = declared(attrs["data-limit"])
    assert (spec["minimum"], spec["maximum"]) == TIME_LIMITS[box]


def test_every_number_box_reads_its_range_from_the_servers_declaration(boxes: Boxes) -> None:
    numbers = {box: a for box, a in boxes.attrs.items() if a.get("type") == "number"}
    assert {"hex-time", "toxic-time", "toxic-best"} <= set(numbers)
    for box, attrs in numbers.items():
        assert "min" not in attrs and "max" not in attrs, box  # not repeated in the page
        spec = declared(attrs["data-limit"])
        assert "minimum" in spec and "maximum" in spec, box


@pytest.mark.e2e
def test_the_page_shows_the_limits_of_the_document(page: Any) -> None:
    page.goto(f"{page.base_url}/#hex")
    page.wait_for_selector("#hex-svg [data-cell]")
    spec = page.evaluate("fetch('/api/openapi.json').then((r) => r.json())")
    time = spec["components"]["schemas"]["HexSearch"]["properties"]["time"]
    assert page.get_attribute("#hex-time", "min") == f"{time['minimum']:g}"
    assert page.get_attribute("#hex-time", "max") == f"{time['maximum']:g}"
    label = page.inner_text("label:has(#hex-time)")
    assert f"({time['minimum']:g} to {time['maximum']:g})" in label
    sgf = spec["components"]["schemas"]["HexLoad"]["properties"]["sgf"]["maxLength"]
    assert f"at most {sgf:,} characters" in page.text_content("label:has(#hex-sgf)")
    # an over-long paste is kept whole and refused with the limit, not cut and loaded
    page.evaluate("document.querySelector('#hex-saveload').open = true")
    page.fill("#hex-sgf", "(" * (sgf + 5))
    assert len(page.input_value("#hex-sgf")) == sgf + 5
    page.click("#hex-load")
    page.wait_for_selector("#hex-status.error")
    words = page.inner_text("#hex-status")
    assert f"at most {sgf:,} characters" in words and "sgf" not in words, words
    page.goto(f"{page.base_url}/#ioiwari")
    page.wait_for_selector("#ioi-svg [data-cell]")
    assert "(7 numbers, each 0 to 5)" in page.inner_text("label:has(#ioi-start)")
    help_text = page.text_content("#ioi-record-help")
    assert "(0 to 5 each)" in help_text and "(1 to 7)" in help_text, help_text
    assert not page.js_errors
