"""Every text box of the page says its limit, and the page's limit is the server's: a
box takes no more characters than its request field allows (``maxlength`` and the
words beside it), and every number box's range is the one the server checks."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from boardlab.web import api_hex, api_hiq, api_mars, api_pegs, api_pegs_check, api_shongololo

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


@pytest.mark.parametrize("box", sorted(TEXT_LIMITS))
def test_a_text_box_takes_what_the_server_takes_and_says_so(boxes: Boxes, box: str) -> None:
    limit = TEXT_LIMITS[box]
    assert int(boxes.attrs[box]["maxlength"]) == limit
    assert f"at most {limit:,} characters" in re.sub(r"\s+", " ", boxes.label[box])


@pytest.mark.parametrize("box", sorted(TIME_LIMITS))
def test_a_time_box_has_the_servers_range_and_says_so(boxes: Boxes, box: str) -> None:
    low, high = TIME_LIMITS[box]
    attrs = boxes.attrs[box]
    assert (float(attrs["min"]), float(attrs["max"])) == (low, high)
    assert f"({low:g} to {high:g})" in boxes.label[box]
