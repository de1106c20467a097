"""End-to-end, Mars explorer: a newly given map clears what was shown for the old one,
the solver's answer downloads, and the map survives a reload."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e

SMALL_MAP = "1\n2\n2\n0 0\n0 0\n"


def open_mars(page: Any) -> None:
    page.goto(f"{page.base_url}/#mars")
    page.wait_for_selector("#mars-svg svg")


def test_a_new_map_clears_the_old_maps_answer(page: Any) -> None:
    open_mars(page)
    assert "Solved" in page.inner_text("#mars-status")
    page.fill("#mars-map", SMALL_MAP)
    assert page.inner_text("#mars-summary") == ""
    assert page.locator("#mars-svg svg").count() == 0
    assert "Solved" not in page.inner_text("#mars-status")
    assert page.is_disabled("#mars-download")
    page.click("#mars-solve")
    page.wait_for_selector("#mars-svg svg")
    assert "map 2 x 2, 1 vehicle, 0 rocks" in page.inner_text("#mars-summary")  # words, not "(s)"
    assert "1 points" not in page.inner_text("#mars-status")
    with page.expect_download() as download:
        page.click("#mars-download")
    assert download.value.suggested_filename == "mars-answer.txt"
    assert not page.js_errors


def test_the_map_survives_a_reload(page: Any) -> None:
    open_mars(page)
    page.fill("#mars-map", SMALL_MAP)
    page.fill("#mars-moves", "1 0\n")
    page.reload()
    page.wait_for_selector("#mars-svg svg")
    assert page.input_value("#mars-map") == SMALL_MAP
    assert page.input_value("#mars-moves") == "1 0\n"
    assert "map 2 x 2" in page.inner_text("#mars-summary")


PASTE = """([selector, text]) => {
  const box = document.querySelector(selector);
  box.value = text;
  box.dispatchEvent(new InputEvent('input', {inputType: 'insertFromPaste', data: text}));
}"""


def test_a_pasted_map_empties_the_old_answer_and_an_edit_keeps_it(page: Any) -> None:
    open_mars(page)
    assert page.input_value("#mars-moves") != ""  # the sample's answer
    page.type("#mars-map", " ")  # a typed edit: the answer stays, to judge again
    assert page.input_value("#mars-moves") != ""
    page.evaluate(PASTE, ["#mars-map", SMALL_MAP])
    assert page.input_value("#mars-moves") == ""
    assert "emptied" in page.inner_text("#mars-status")
    page.click("#mars-judge")
    page.wait_for_function("document.querySelector('#mars-verdict').textContent !== 'Judging...'")
    assert "off the grid" not in page.inner_text("#mars-verdict")
    assert not page.js_errors


def test_the_map_box_names_the_schemas_limits(page: Any) -> None:
    open_mars(page)
    label = page.inner_text("label:has(#mars-map)")
    assert "vehicles 1 to 999, P and Q 1 to 128" in label, label
