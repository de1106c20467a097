"""End-to-end, Hex: games that survive a reload or travel as a link, a move list that
scrolls down and can be walked, the engine's time checked before a stone is placed, an
engine move that failed tried again, and the analysis of a move found without playouts."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

import pytest
from tests.web.test_e2e_hex import idle, new_game

pytestmark = pytest.mark.e2e

STONES = "document.querySelectorAll('#hex-svg circle:not(.last-move):not(.analysis)').length"


def moves_listed(page: Any) -> list[str]:
    found: list[str] = page.locator("#hex-movelist li").all_inner_texts()
    return found


def load(page: Any, sgf: str) -> None:
    page.evaluate("document.querySelector('#hex-saveload').open = true")
    page.fill("#hex-sgf", sgf)
    page.click("#hex-load")
    page.wait_for_selector("#hex-status:has-text('Loaded')")
    idle(page)


def play(page: Any, cell: str, listed: int) -> None:
    page.locator(f'#hex-svg [data-cell="{cell}"]').click()
    page.wait_for_function(f"document.querySelectorAll('#hex-movelist li').length === {listed}")
    idle(page)


def test_a_long_move_list_scrolls_down_not_sideways(page: Any) -> None:
    new_game(page, 11)
    # 40 moves that join nothing: red fills rows 1-4 from the left, blue from the right
    red = [f"{'abcdefghijk'[c]}{r}" for r in range(1, 5) for c in range(5)]
    blue = [f"{'abcdefghijk'[c]}{r}" for r in range(1, 5) for c in range(6, 11)]
    moves = "".join(f";B[{b}];W[{w}]" for b, w in zip(red, blue, strict=True))
    load(page, f"(;FF[4]GM[11]SZ[11]{moves})")
    assert len(moves_listed(page)) == 40
    box = page.evaluate(
        "(() => { const l = document.querySelector('#hex-movelist');"
        " return [l.scrollWidth, l.clientWidth, l.scrollTop, l.scrollHeight, l.clientHeight]; })()"
    )
    scroll_width, client_width, scroll_top, scroll_height, client_height = box
    assert scroll_width <= client_width + 1, "the list runs off sideways"
    assert scroll_height > client_height and scroll_top > 0, "the list is not scrolled to the end"
    last = page.locator("#hex-movelist li").nth(39)
    assert last.get_attribute("class") == "current"
    page.save_screenshot("hex-long-move-list")


@pytest.mark.parametrize("bad", ["-1", "0.001", "1000", ""])
def test_an_engine_time_out_of_bounds_is_refused_before_the_stone(page: Any, bad: str) -> None:
    new_game(page, 5)
    page.select_option("#hex-engine", "time")
    page.fill("#hex-time", bad)
    page.locator('#hex-svg [data-cell="c3"]').click()
    page.wait_for_selector("#hex-status.error")
    assert "0.01 to 30 seconds" in page.inner_text("#hex-status")
    assert moves_listed(page) == []
    assert "(0.01 to 30)" in page.inner_text("label:has(#hex-time)")
    page.fill("#hex-time", "0.05")
    play(page, "c3", 2)
    assert not page.js_errors


def test_an_engine_move_that_failed_is_tried_again_on_a_click(page: Any) -> None:
    new_game(page, 5)
    failed: list[int] = []

    def refuse_once(route: Any) -> None:
        if failed:
            route.continue_()
            return
        failed.append(1)
        route.fulfill(status=503, content_type="application/json", body='{"error": "busy"}')

    page.route("**/api/hex/engine", refuse_once)
    page.locator('#hex-svg [data-cell="c3"]').click()
    page.wait_for_selector("#hex-status.error")
    assert "Click the board to let the engine move" in page.inner_text("#hex-status")
    assert len(moves_listed(page)) == 1
    page.locator('#hex-svg [data-cell="a1"]').click()  # the engine's turn: it moves now
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 2")
    idle(page)
    assert moves_listed(page)[0] == "red c3"


def test_a_game_survives_a_reload_and_travels_as_a_link(page: Any, browser: Any) -> None:
    new_game(page, 5)
    play(page, "c3", 2)
    before = moves_listed(page)
    address = page.url
    kept = parse_qs(address.split("#hex?", 1)[1])
    assert kept["size"] == ["5"] and kept["moves"][0].split(",")[0] == "c3"
    page.reload()
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 2")
    idle(page)
    assert moves_listed(page) == before
    assert page.input_value("#hex-size") == "5"
    # the link alone, in a browser that has never seen the game
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        fresh = other.new_page()
        fresh.goto(address)
        fresh.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 2")
        assert fresh.locator("#hex-movelist li").all_inner_texts() == before
    finally:
        other.close()


def test_the_move_list_walks_and_a_move_there_starts_a_new_line(page: Any) -> None:
    new_game(page, 5)
    play(page, "c3", 2)
    free = next(
        name
        for name in ("b4", "d2", "b3", "d3")
        if page.locator("#hex-movelist li", has_text=name).count() == 0
    )
    play(page, free, 4)
    assert page.evaluate(STONES) == 4
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"{STONES} === 3")
    assert page.locator("#hex-movelist li.current").get_attribute("data-ply") == "3"
    assert "after move 3 of 4" in page.inner_text("#hex-walk")
    page.locator("#hex-movelist li").nth(0).click()
    page.wait_for_function(f"{STONES} === 1")
    page.keyboard.press("End")
    page.wait_for_function(f"{STONES} === 4")
    assert page.inner_text("#hex-walk") == ""
    page.keyboard.press("Home")
    page.wait_for_function(f"{STONES} === 0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"{STONES} === 2")
    old_line = moves_listed(page)
    # red (the player) is to move after two moves: a stone here starts a new line
    cell = "a1" if "a1" not in " ".join(old_line) else "e5"
    play(page, cell, 4)
    now = moves_listed(page)
    assert now[:2] == old_line[:2] and now[2] == f"red {cell}"
    assert page.inner_text("#hex-walk") == ""
    assert not page.js_errors


def test_analysis_of_a_move_found_without_playouts_gives_its_reason(page: Any) -> None:
    # blue (left to right) threatens c1 only; red to move and cannot win at once
    page.goto(f"{page.base_url}/#hex?size=3&swap=0&you=1&moves=a3,a1,b3,b1&names=hexgui")
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 4")
    idle(page)
    page.click("#hex-analyse")
    page.wait_for_selector("#hex-analysis p")
    text = page.inner_text("#hex-analysis")
    assert "of 0 playouts" not in text
    # the engine's reason (it blocks the only threat) gives way to the solver's proof
    assert "with c1: a proven win." in text and "c1 100%" in text


def reviewed_game(page: Any) -> None:
    """Open, from its link, a 3x3 game whose three moves each turned it (a1 throws the
    empty board away, a2 gives it back, a3 throws it away again) and review it."""
    page.goto(f"{page.base_url}/#hex?size=3&swap=0&you=2&moves=a1,a2,a3&names=hexgui")
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 3")
    idle(page)
    page.click("#hex-review")
    page.wait_for_selector("#hex-review-box svg")


def test_the_review_graphs_the_game_and_marks_the_moves_that_turned_it(page: Any) -> None:
    reviewed_game(page)
    assert page.locator("#hex-review-box circle").count() == 4
    assert page.locator("#hex-review-box circle.turned").count() == 3
    assert "Moves that turned the game: 1 (a1), 2 (a2), 3 (a3)." in page.inner_text(
        "#hex-review-box"
    )
    page.locator('#hex-review-box circle[data-ply="1"]').click()
    page.wait_for_function(f"{STONES} === 1")
    assert "after move 1 of 3" in page.inner_text("#hex-walk")
    page.save_screenshot("hex-review")
    assert not page.js_errors
