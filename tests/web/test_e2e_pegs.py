"""End-to-end, peg solitaire: one notation (the board's), the empty and the finishing
hole chosen, an impossible start explained (and the hint's proof shown), the judge panel
replaying a move list, saving the moves, a double-clicked Solve that animates once, a late
hint dropped."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

MOVE = re.compile(r"^[A-Z][0-9]+-[A-Z][0-9]+$")


def open_board(page: Any, board: str) -> None:
    page.goto(f"{page.base_url}/#pegs")
    page.wait_for_selector('#pegs-svg [data-cell="D4"]')
    if board != "english":
        page.select_option("#pegs-board", board)
        page.wait_for_function(f"document.querySelector('#pegs-start').dataset.board === '{board}'")
    idle(page)


def idle(page: Any) -> None:
    page.wait_for_function("!document.querySelector('#pegs-svg').classList.contains('busy')")


def test_pegs_moves_and_hints_use_the_board_notation(page: Any) -> None:
    open_board(page, "english")
    page.locator('#pegs-svg [data-cell="B4"]').click()
    page.locator('#pegs-svg [data-cell="D4"]').click()
    page.wait_for_function("document.querySelector('#pegs-moves').textContent === '1'")
    assert page.locator("#pegs-history li").all_inner_texts() == ["B4-D4"]
    page.click("#pegs-hint")
    page.wait_for_function("document.querySelector('#pegs-svg').dataset.hint !== ''")
    hint = page.inner_text("#pegs-status").split()[1]
    assert MOVE.match(hint), hint
    assert "row letter and column number" in page.inner_text("#pegs")
    assert not page.js_errors


def test_pegs_double_clicked_solve_animates_once(page: Any) -> None:
    open_board(page, "triangle-5")
    page.dblclick("#pegs-solve")
    page.wait_for_selector("#pegs-over:not([hidden])")
    idle(page)
    assert page.inner_text("#pegs-moves") == "13" and page.inner_text("#pegs-pegs") == "1"
    assert page.locator("#pegs-history li").count() == 13
    assert page.is_enabled("#pegs-solve") and page.is_disabled("#pegs-stop")
    assert page.is_enabled("#pegs-undo") and page.is_disabled("#pegs-redo")
    assert "Solved: one peg left" in page.inner_text("#pegs-over")
    page.save_screenshot("pegs-double-click")
    assert not page.js_errors


def test_pegs_start_and_finish_chosen_and_an_impossible_goal_explained(page: Any) -> None:
    open_board(page, "english")
    page.select_option("#pegs-start", "C4")
    page.wait_for_function("document.querySelector('#pegs-pegs').textContent === '32'")
    idle(page)
    assert "finish only in C1, C4, C7, F4" in page.inner_text("#pegs-classes")
    page.select_option("#pegs-goal", "D4")
    assert "cannot be won" in page.inner_text("#pegs-classes")
    assert "not in D4" in page.inner_text("#pegs-classes")
    page.select_option("#pegs-goal", "F4")
    page.click("#pegs-hint")
    page.wait_for_function("document.querySelector('#pegs-svg').dataset.hint !== ''")
    assert "one peg left in F4" in page.inner_text("#pegs-status")
    open_board(page, "french")
    explained = page.inner_text("#pegs-classes")
    assert "no sequence of jumps leaves a single peg" in explained
    assert "Why: Colour the holes with three colours" in explained
    assert "Empty holes to start from that can end in one peg: A3, A5" in explained
    page.save_screenshot("pegs-impossible-start")
    # the answer's own proven and reason: no solution, and why
    page.click("#pegs-hint")
    page.wait_for_selector("#pegs-status.error")
    assert page.inner_text("#pegs-status").startswith("No solution from here: position class")
    assert page.get_attribute("#pegs-svg", "data-hint") == ""
    assert not page.js_errors


def test_pegs_saved_moves_judged_and_replayed(page: Any) -> None:
    open_board(page, "triangle-5")
    page.click("#pegs-solve")
    page.wait_for_selector("#pegs-over:not([hidden])")
    idle(page)
    page.evaluate("document.querySelector('#pegs-judge-box').open = true")
    with page.expect_download() as download:
        page.click("#pegs-save")
    assert download.value.suggested_filename == "pegs-triangle-5.txt"
    saved = page.input_value("#pegs-judge-text").split()
    assert len(saved) == 13 and all(MOVE.match(line) for line in saved)
    page.click("#pegs-new")
    page.wait_for_function("document.querySelector('#pegs-pegs').textContent === '14'")
    idle(page)
    page.click("#pegs-judge")
    page.wait_for_function("document.querySelector('#pegs-verdict').dataset.valid === 'true'")
    page.wait_for_selector("#pegs-over:not([hidden])")
    assert page.inner_text("#pegs-moves") == "13" and page.inner_text("#pegs-pegs") == "1"
    broken = "\n".join([*saved[:2], "A1-A1", *saved[2:]])
    page.fill("#pegs-judge-text", broken)
    page.click("#pegs-judge")
    page.wait_for_function("document.querySelector('#pegs-verdict').dataset.valid === 'false'")
    page.wait_for_function(
        "document.querySelector('#pegs-status').textContent.includes('bad line')"
    )
    assert "line 3" in page.inner_text("#pegs-verdict")
    assert page.inner_text("#pegs-moves") == "2"
    page.save_screenshot("pegs-judged")
    assert not page.js_errors


def test_pegs_late_hint_for_an_old_game_is_dropped(page: Any) -> None:
    open_board(page, "english")
    page.delay_answers("pegs/hint")
    page.click("#pegs-hint")
    assert page.is_disabled("#pegs-hint") and page.is_disabled("#pegs-solve")
    page.click("#pegs-new")
    page.wait_for_function("document.querySelector('#pegs-hint').disabled === false")
    page.wait_for_timeout(1800)
    assert page.get_attribute("#pegs-svg", "data-hint") == ""
    assert "Hint" not in page.inner_text("#pegs-status")


def play_pegs(page: Any, frm: str, to: str, count: int) -> None:
    page.locator(f'#pegs-svg [data-cell="{frm}"]').click()
    page.locator(f'#pegs-svg [data-cell="{to}"]').click()
    page.wait_for_function(f"document.querySelector('#pegs-moves').textContent === '{count}'")
    idle(page)


def test_pegs_game_survives_a_reload_and_its_move_list_walks(page: Any) -> None:
    open_board(page, "english")
    play_pegs(page, "B4", "D4", 1)
    play_pegs(page, "C6", "C4", 2)
    assert "moves=B4-D4,C6-C4" in page.url
    page.reload()
    page.wait_for_function("document.querySelectorAll('#pegs-history li').length === 2")
    idle(page)
    assert page.inner_text("#pegs-moves") == "2" and page.inner_text("#pegs-pegs") == "30"
    # the last move is marked: where it left and where it went
    assert page.get_attribute("#pegs-svg .last-to", "data-cell") == "C4"
    assert page.get_attribute("#pegs-svg .last-from", "data-cell") == "C6"
    page.locator("#pegs-history li").nth(0).click()
    page.wait_for_function("document.querySelector('#pegs-moves').textContent === '1'")
    assert page.get_attribute("#pegs-history li.current", "data-ply") == "1"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#pegs-moves').textContent === '2'")
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelector('#pegs-moves').textContent === '0'")
    # a move from an earlier board starts a new line
    play_pegs(page, "D2", "D4", 1)
    assert page.locator("#pegs-history li").all_inner_texts() == ["D2-D4"]
    assert not page.js_errors


def test_pegs_review_finds_the_move_that_lost_the_game(page: Any) -> None:
    # triangle-5, one peg anywhere: reachable after five moves, not after the sixth (E2-C2)
    moves = "C1-A1,C3-C1,E2-C2,B2-D2,E4-E2,E2-C2,D3-B1,E5-C3"
    page.goto(f"{page.base_url}/#pegs?board=triangle-5&walks=0&goal=any&moves={moves}&at=8")
    page.wait_for_function("document.querySelectorAll('#pegs-history li').length === 8")
    idle(page)
    page.click("#pegs-review")
    page.wait_for_selector("#pegs-review-box.error")
    assert page.inner_text("#pegs-review-box").startswith("Move 6 (E2-C2) lost the game")
    assert page.get_attribute("#pegs-history li.lost-here", "data-ply") == "6"
    # a game still winnable has no such move
    open_board(page, "triangle-5")
    page.select_option("#pegs-goal", "any")
    page.locator('#pegs-svg [data-cell="C1"]').click()
    page.locator('#pegs-svg [data-cell="A1"]').click()
    page.wait_for_function("document.querySelector('#pegs-moves').textContent === '1'")
    idle(page)
    page.click("#pegs-review")
    page.wait_for_function(
        "document.querySelector('#pegs-review-box').textContent.startsWith('No move lost')"
    )
    assert not page.js_errors


def test_the_goal_follows_each_new_start_until_the_player_picks_one(page: Any) -> None:
    open_board(page, "english")
    page.select_option("#pegs-start", "A3")
    idle(page)
    fresh = page.input_value("#pegs-goal")  # what a fresh page with A3 aims at
    assert "cannot be won" not in page.inner_text("#pegs-classes")
    open_board(page, "english")
    page.select_option("#pegs-start", "C1")
    idle(page)
    assert page.input_value("#pegs-goal") == "C1"
    page.select_option("#pegs-start", "A3")
    idle(page)
    assert page.input_value("#pegs-goal") == fresh
    assert "cannot be won" not in page.inner_text("#pegs-classes")
    page.select_option("#pegs-goal", "any")  # the player's own goal stays
    page.select_option("#pegs-start", "C1")
    idle(page)
    assert page.input_value("#pegs-goal") == "any"
    assert not page.js_errors


def test_a_pegs_link_with_a_bad_start_says_so(page: Any) -> None:
    page.goto(f"{page.base_url}/#pegs?board=english&start=Z9")
    page.wait_for_function("document.querySelector('#pegs-status').textContent.includes('Z9')")
    status = page.inner_text("#pegs-status")
    assert "not a hole of this board" in status and "usual start" in status, status
    assert page.inner_text("#pegs-pegs") == "32"
    assert not page.js_errors


def test_where_was_it_lost_after_a_won_game_says_it_is_won(page: Any) -> None:
    open_board(page, "triangle-5")
    page.click("#pegs-solve")
    page.wait_for_selector("#pegs-over:not([hidden])")
    idle(page)
    page.click("#pegs-review")
    page.wait_for_function(
        "document.querySelector('#pegs-review-box').textContent.startsWith('No move')"
    )
    text = page.inner_text("#pegs-review-box")
    assert text == "No move lost the game: it is won, the goal is reached.", text
    assert not page.js_errors
