"""End-to-end, Hex: the analysis and the review agree with the exact solver wherever it
has an answer (a proven position stays proven, proven-lost moves show 0 %)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e

#: The 4x4 position of a player's report, in HexGui's names: red to move wins only with b4.
ONLY_B4 = "c2,a1,b3,d4,b2,a4,c3,c4"
#: An 11x11 game in which red's j6 (move 11) loses.
LOST_AT_11 = "f7,f6,h5,h4,g5,g4,c11,e5,d5,d6,j6,i3,a3,a5,e8,a6"


def open_game(page: Any, size: int, moves: str, you: int = 1, names: str = "hexgui") -> None:
    page.goto(f"{page.base_url}/#hex?size={size}&swap=0&you={you}&moves={moves}&names={names}")
    count = len(moves.split(","))
    page.wait_for_function(f"document.querySelectorAll('#hex-movelist li').length === {count}")
    page.wait_for_function("!document.querySelector('#hex-svg').classList.contains('busy')")


def test_analysis_of_a_proven_position_says_what_the_solver_says(page: Any) -> None:
    open_game(page, 4, ONLY_B4)
    page.select_option("#hex-engine", "playouts:2000")
    page.click("#hex-analyse")
    page.wait_for_selector("#hex-analysis [data-analysis]")
    words = page.inner_text("#hex-analysis")
    assert "with b4: a proven win" in words and "Proven by the exact solver" in words, words
    chips = page.locator("#hex-analysis [data-analysis]").all_inner_texts()
    rates = dict(chip.split() for chip in chips)
    assert rates.pop("b4") == "100%"
    assert set(rates.values()) <= {"0%"}, chips  # every other move loses
    page.click("#hex-solve")
    page.wait_for_selector("#hex-analysis [data-move]")
    solved = page.locator("#hex-analysis [data-move]").all_inner_texts()
    assert solved == ["b4"]
    page.save_screenshot("hex-analysis-proven")
    assert not page.js_errors


def test_a_proven_loss_shows_its_moves_at_0_percent(page: Any) -> None:
    open_game(page, 4, ONLY_B4.rsplit(",", 1)[0], you=2)  # blue to move, and lost
    page.select_option("#hex-engine", "playouts:30")
    page.click("#hex-analyse")
    page.wait_for_selector("#hex-analysis [data-analysis]")
    assert "a proven loss" in page.inner_text("#hex-analysis")
    chips = page.locator("#hex-analysis [data-analysis]").all_inner_texts()
    assert len(chips) > 1 and all(chip.endswith(" 0%") for chip in chips), chips
    on_board = page.eval_on_selector_all(
        "#hex-svg .analysis-text", "els => els.map(e => e.textContent)"
    )
    assert on_board and set(on_board) == {"0%"}
    assert not page.js_errors


def test_review_keeps_a_proven_game_proven_and_marks_the_losing_move(page: Any) -> None:
    open_game(page, 11, LOST_AT_11)
    page.click("#hex-review")
    page.wait_for_selector("#hex-review-box svg .turned", timeout=60_000)
    titles = page.eval_on_selector_all(
        "#hex-review-box svg circle[data-ply]",
        "els => els.map(e => [Number(e.dataset.ply), e.textContent, e.getAttribute('class')])",
    )
    after = {ply: (title, kind) for ply, title, kind in titles}
    assert "blue (player 2) wins (proven)" in after[11][0] and after[11][1] == "turned"
    for ply in range(11, 17):
        assert "blue (player 2) wins (proven)" in after[ply][0], after[ply]
    note = page.inner_text("#hex-review-box")
    assert "11 (j6)" in note
    numbers = page.eval_on_selector_all(
        "#hex-review-box svg .ply-number", "els => els.map(e => e.textContent)"
    )
    assert numbers[0] == "0" and "15" in numbers  # the graph is numbered by move
    page.save_screenshot("hex-review-proven")
    assert not page.js_errors


def test_the_board_is_hexguis_and_an_older_link_keeps_its_game(page: Any) -> None:
    """The board is drawn as HexGui draws it (red joins top and bottom) with HexGui's
    names; a link from before ``names=hexgui`` named each cell across the long diagonal
    and opens the same game, rewritten in HexGui's names."""
    open_game(page, 4, "b3,a1,c2,d4,b2,d1,c3,d3", names="")  # the report's own link
    listed = page.locator("#hex-movelist li").all_inner_texts()
    assert [item.split()[-1] for item in listed] == ONLY_B4.split(","), listed
    assert f"moves={ONLY_B4}" in page.url and "names=hexgui" in page.url
    strokes = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#hex-svg polyline.edge')]"
        ".map((l) => [l.dataset.edge, l.getAttribute('stroke')]))"
    )
    assert strokes == {"top": "#d33", "bottom": "#d33", "left": "#36c", "right": "#36c"}
    # the red stones c2 b3 b2 c3 stand where their names say: column letter, row number
    labels = page.eval_on_selector_all(
        "#hex-svg text.label", "els => els.map((e) => e.textContent)"
    )
    assert labels == ["a", "b", "c", "d", "1", "2", "3", "4"], labels
    page.click("#hex-solve")
    page.wait_for_selector("#hex-analysis [data-move]")
    assert page.locator("#hex-analysis [data-move]").all_inner_texts() == ["b4"]
    page.save_screenshot("hex-hexgui-board")
    assert not page.js_errors
