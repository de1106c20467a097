"""End-to-end: what a player of a lichess-like site expects: Stop while the Hex engine
thinks, resign, flip the board, settings kept with the game; "Use the solver's answer"
with no answer says so; a new map empties the old map's answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def hex_game(page: Any, query: str) -> None:
    page.goto(f"{page.base_url}/#hex?{query}")
    page.wait_for_selector("#hex-svg [data-cell]")
    page.wait_for_function("!document.querySelector('#hex-svg').classList.contains('busy')")


def test_stop_halts_the_thinking_engine(page: Any) -> None:
    hex_game(page, "size=9&swap=0&you=1&moves=&engine=time&time=20")
    assert page.input_value("#hex-time") == "20"
    assert page.is_hidden("#hex-stop")
    page.locator('#hex-svg [data-cell="e5"]').click()
    page.wait_for_selector("#hex-stop:not([hidden])")
    page.click("#hex-stop")
    page.wait_for_function("document.querySelector('#hex-status').textContent.includes('Stopped')")
    assert page.is_hidden("#hex-stop")
    assert page.locator("#hex-movelist li").count() == 1  # the engine has not moved
    assert "not moved" in page.inner_text("#hex-status")
    page.save_screenshot("hex-stopped")
    assert not page.js_errors


def test_resign_ends_the_game_and_a_reload_keeps_it(page: Any) -> None:
    hex_game(page, "size=5&swap=0&you=1&moves=c3,b4&engine=playouts:30")
    page.click("#hex-resign")
    assert "You resigned" in page.inner_text("#hex-over")
    assert page.is_disabled("#hex-resign") and page.is_disabled("#hex-analyse")
    page.locator('#hex-svg [data-cell="a1"]').click()
    assert "The game is over" in page.inner_text("#hex-status")
    assert page.locator("#hex-movelist li").count() == 2
    assert "resigned=1" in page.url
    page.reload()
    page.wait_for_selector("#hex-over:not([hidden])")
    assert "You resigned" in page.inner_text("#hex-over")
    page.click("#hex-new")
    page.wait_for_function("document.querySelector('#hex-over').hidden")
    assert "resigned" not in page.url
    assert not page.js_errors


def test_flip_turns_the_board_and_is_kept(page: Any) -> None:
    hex_game(page, "size=5&swap=0&you=1&moves=a1,e5&engine=playouts:30")

    def where(cell: str) -> tuple[float, float]:
        box = page.locator(f'#hex-svg [data-cell="{cell}"]').bounding_box()
        return box["x"], box["y"]

    a1, e5 = where("a1"), where("e5")
    assert a1[1] < e5[1]  # a1 on the top row
    page.check("#hex-flip")
    assert where("a1") == pytest.approx(e5, abs=1) and where("e5") == pytest.approx(a1, abs=1)
    labels = page.eval_on_selector_all("#hex-svg .row-label", "els => els.map(e => e.textContent)")
    assert labels == ["5", "4", "3", "2", "1"]
    assert "flip=1" in page.url
    page.save_screenshot("hex-flipped")
    page.reload()
    page.wait_for_selector("#hex-svg [data-cell]")
    assert page.is_checked("#hex-flip")
    assert not page.js_errors


def test_engine_settings_survive_a_reload(page: Any) -> None:
    hex_game(page, "size=5&swap=0&you=1&moves=")
    page.fill("#hex-time", "2.5")
    page.dispatch_event("#hex-time", "change")
    assert "time=2.5" in page.url
    page.reload()
    page.wait_for_selector("#hex-svg [data-cell]")
    assert page.input_value("#hex-time") == "2.5"
    page.goto(f"{page.base_url}/#shongololo")
    page.wait_for_selector("#toxic-time")
    page.fill("#toxic-time", "7")
    page.dispatch_event("#toxic-time", "change")
    page.reload()
    page.wait_for_selector("#toxic-time")
    assert page.input_value("#toxic-time") == "7"
    assert not page.js_errors


def test_use_the_solvers_answer_without_one_says_so(page: Any, tmp_path: Path) -> None:
    page.goto(f"{page.base_url}/#shongololo")
    page.wait_for_selector("#toxic-use")
    page.fill("#toxic-input", "1 1 1\n1 1 1\n")  # a new fruit: no answer yet
    page.fill("#toxic-answer", "mine")
    page.click("#toxic-use")
    assert "Solve first" in page.inner_text("#toxic-status")
    assert page.input_value("#toxic-answer") == "mine"  # not emptied
    page.goto(f"{page.base_url}/#mars")
    page.wait_for_selector("#mars-svg svg")
    page.fill("#mars-map", "1\n2\n2\n0 0\n0 0\n")
    page.fill("#mars-moves", "1 0\n")
    page.click("#mars-use")
    assert "Solve first" in page.inner_text("#mars-status")
    assert page.input_value("#mars-moves") == "1 0\n"
    # a new map from a file: the old map's answer goes
    other = tmp_path / "map.txt"
    other.write_text("1\n3\n2\n0 0 0\n0 0 0\n", encoding="utf-8")
    page.set_input_files("#mars-file", str(other))
    page.wait_for_function("document.querySelector('#mars-moves').value === ''")
    assert "old map" in page.inner_text("#mars-status")
    page.save_screenshot("mars-new-map")
    assert not page.js_errors


def test_why_who_wins_is_greyed_out_is_said_on_the_page(page: Any) -> None:
    hex_game(page, "size=7&swap=0&you=1&moves=&engine=playouts:30")
    assert page.is_disabled("#hex-solve")
    note = page.inner_text("#hex-solve-note")  # visible, not only in a hover tooltip
    assert "at most 25 empty cells" in note, note
    hex_game(page, "size=4&swap=0&you=1&moves=&engine=playouts:30")
    assert page.is_enabled("#hex-solve") and page.inner_text("#hex-solve-note") == ""
    assert not page.js_errors


def test_the_status_line_is_above_the_fold_at_19x19(page: Any) -> None:
    hex_game(page, "size=19&swap=0&you=1&moves=&engine=playouts:30")
    status = page.locator("#hex-status").bounding_box()
    assert status["y"] + status["height"] <= 900, status  # the viewport is 1280 x 900
    assert "Your move" in page.inner_text("#hex-status")
    assert not page.js_errors
