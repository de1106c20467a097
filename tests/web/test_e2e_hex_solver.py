"""End-to-end, Hex: the analysis and the review agree with the exact solver wherever it
has an answer (a proven position stays proven, proven-lost moves show 0 %)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e

#: The 4x4 position of a player's report: red to move wins only with d2.
ONLY_D2 = "b3,a1,c2,d4,b2,d1,c3,d3"
#: An 11x11 game in which red's f10 (move 11) loses.
LOST_AT_11 = "g6,f6,e8,d8,e7,d7,k3,e5,e4,f4,f10,c9,c1,e1,h5,f1"


def open_game(page: Any, size: int, moves: str, you: int = 1) -> None:
    page.goto(f"{page.base_url}/#hex?size={size}&swap=0&you={you}&moves={moves}")
    count = len(moves.split(","))
    page.wait_for_function(f"document.querySelectorAll('#hex-movelist li').length === {count}")
    page.wait_for_function("!document.querySelector('#hex-svg').classList.contains('busy')")


def test_analysis_of_a_proven_position_says_what_the_solver_says(page: Any) -> None:
    open_game(page, 4, ONLY_D2)
    page.select_option("#hex-engine", "playouts:2000")
    page.click("#hex-analyse")
    page.wait_for_selector("#hex-analysis [data-analysis]")
    words = page.inner_text("#hex-analysis")
    assert "with d2: a proven win" in words and "Proven by the exact solver" in words, words
    chips = page.locator("#hex-analysis [data-analysis]").all_inner_texts()
    rates = dict(chip.split() for chip in chips)
    assert rates.pop("d2") == "100%"
    assert set(rates.values()) <= {"0%"}, chips  # every other move loses
    page.click("#hex-solve")
    page.wait_for_selector("#hex-analysis [data-move]")
    solved = page.locator("#hex-analysis [data-move]").all_inner_texts()
    assert solved == ["d2"]
    page.save_screenshot("hex-analysis-proven")
    assert not page.js_errors


def test_a_proven_loss_shows_its_moves_at_0_percent(page: Any) -> None:
    open_game(page, 4, ONLY_D2.rsplit(",", 1)[0], you=2)  # blue to move, and lost
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
    assert "11 (f10)" in note
    numbers = page.eval_on_selector_all(
        "#hex-review-box svg .ply-number", "els => els.map(e => e.textContent)"
    )
    assert numbers[0] == "0" and "15" in numbers  # the graph is numbered by move
    page.save_screenshot("hex-review-proven")
    assert not page.js_errors
