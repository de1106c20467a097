"""End-to-end: Debian's Chromium (headless, Playwright) plays every page of the live server.

A person's clicks are simulated on the SVG cells; the tests read only what the page
shows (status lines, counters, the cells the hint or the analysis names). Screenshots
of each page go to build/screenshots/.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def screenshot(page: Any, name: str) -> None:
    page.save_screenshot(name)


def open_tab(page: Any, name: str) -> None:
    page.goto(f"{page.base_url}/#{name}")
    page.wait_for_selector(f"section#{name}:not([hidden])")


def cell(page: Any, board: str, name: str) -> Any:
    return page.locator(f'#{board} [data-cell="{name}"]')


def test_peg_game_solved_by_clicking_hints(page: Any) -> None:
    open_tab(page, "pegs")
    page.wait_for_selector('#pegs-svg [data-cell="D4"]')
    page.select_option("#pegs-board", "triangle-5")
    page.wait_for_function("document.querySelector('#pegs-pegs').textContent === '14'")
    assert page.locator("#pegs-svg [data-cell]").count() == 15
    moves = 0
    while "Solved" not in page.inner_text("#pegs-status"):
        page.click("#pegs-hint")
        page.wait_for_function("document.querySelector('#pegs-svg').dataset.hint !== ''")
        source, target = page.get_attribute("#pegs-svg", "data-hint").split()
        cell(page, "pegs-svg", source).click()
        cell(page, "pegs-svg", target).click()
        moves += 1
        page.wait_for_function(f"document.querySelector('#pegs-moves').textContent === '{moves}'")
        assert moves <= 13
    assert page.inner_text("#pegs-pegs") == "1"
    assert "one peg left, in A1" in page.inner_text("#pegs-status")
    screenshot(page, "pegs-solved")
    page.click("#pegs-undo")
    assert page.inner_text("#pegs-pegs") == "2" and page.inner_text("#pegs-moves") == "12"
    page.click("#pegs-redo")
    assert page.inner_text("#pegs-pegs") == "1"
    assert not page.js_errors


def test_peg_solve_animates_a_pasted_board_and_illegal_click_is_refused(page: Any) -> None:
    open_tab(page, "pegs")
    page.wait_for_selector('#pegs-svg [data-cell="D4"]')
    # an illegal click: the peg at A3 cannot reach D4; the server refuses the move
    cell(page, "pegs-svg", "A3").click()
    cell(page, "pegs-svg", "D4").click()
    page.wait_for_selector("#pegs-status.error")
    assert "Illegal move" in page.inner_text("#pegs-status")
    assert page.inner_text("#pegs-pegs") == "32" and page.inner_text("#pegs-moves") == "0"
    screenshot(page, "pegs-illegal")
    # the PEGGED statement's board pasted, walks on, solved and animated move by move
    page.select_option("#pegs-board", "file")
    page.fill("#pegs-file", "__OO_\n__OO_\nOOXOO\nOOOOX\n____X\n")
    page.check("#pegs-walks")
    page.wait_for_function("document.querySelector('#pegs-pegs').textContent === '3'")
    page.click("#pegs-solve")
    page.wait_for_function(
        "document.querySelector('#pegs-status').textContent.startsWith('Solved')"
    )
    assert page.inner_text("#pegs-pegs") == "1" and page.inner_text("#pegs-moves") == "3"
    history = page.locator("#pegs-history li").all_inner_texts()
    assert len(history) == 3 and sum("(walk)" in line for line in history) == 1
    screenshot(page, "pegs-pegged-solved")
    assert not page.js_errors


def test_hex_game_won_against_the_weak_engine(page: Any) -> None:
    open_tab(page, "hex")
    page.wait_for_selector('#hex-svg [data-cell="a1"]')
    page.select_option("#hex-size", "3")
    page.select_option("#hex-engine", "playouts:30")
    page.click("#hex-new")
    page.wait_for_function("document.querySelectorAll('#hex-svg [data-cell]').length === 9")
    for _ in range(5):
        if "You win" in page.inner_text("#hex-status"):
            break
        page.click("#hex-solve")
        page.wait_for_selector("#hex-analysis button[data-move]")
        choice = page.locator("#hex-analysis button[data-move]").first.get_attribute("data-move")
        before = page.inner_text("#hex-moves")
        cell(page, "hex-svg", choice).click()
        page.wait_for_function(
            "(b) => document.querySelector('#hex-moves').textContent !== b"
            " && !document.querySelector('#hex-status').textContent.includes('thinking')",
            arg=before,
        )
    status = page.inner_text("#hex-status")
    assert "You win" in status, status
    chain = page.inner_text("#hex-chain").removeprefix("Winning chain: ").split()
    assert len(chain) >= 3
    assert {name[1:] for name in chain} == {"1", "2", "3"}  # red joins top and bottom
    screenshot(page, "hex-won")
    # a click once the game is over is refused, and says why
    cell(page, "hex-svg", chain[0]).click()
    page.wait_for_selector("#hex-status.error")
    assert "The game is over" in page.inner_text("#hex-status")
    assert not page.js_errors


def test_ioiwari_game_won_with_the_values_shown(page: Any) -> None:
    open_tab(page, "ioiwari")
    page.wait_for_selector('#ioi-svg [data-cell="1"]')
    page.check("#ioi-values")
    page.wait_for_function("document.querySelector('#ioi-analysis').dataset.ply === '0'")
    assert page.locator("#ioi-analysis tr.best").count() == 3  # pits 2, 4 and 7 are worth +2
    for _ in range(20):
        if "Your move" not in page.inner_text("#ioi-status"):
            break
        ply = page.get_attribute("#ioi-analysis", "data-ply")
        best = page.locator("#ioi-analysis tr.best").first.get_attribute("data-pit")
        cell(page, "ioi-svg", best).click()
        page.wait_for_function(
            "(p) => { const a = document.querySelector('#ioi-analysis').dataset.ply;"
            " const s = document.querySelector('#ioi-status').textContent;"
            " return (a !== p && a !== '') || /win|Draw/.test(s); }",
            arg=ply,
        )
    status = page.inner_text("#ioi-status")
    assert "You win: 11 : 9" in status, status
    screenshot(page, "ioiwari-won")
    assert not page.js_errors


def test_ioiwari_empty_pit_click_is_refused(page: Any) -> None:
    open_tab(page, "ioiwari")
    page.fill("#ioi-start", "0 5 5 5 5 0 0")
    page.click("#ioi-new")
    page.wait_for_function(
        "document.querySelector('#ioi-transcript').textContent.includes('0  5  5  5  5  0  0')"
    )
    cell(page, "ioi-svg", "1").click()
    page.wait_for_selector("#ioi-status.error")
    assert "Illegal move: pit 1 is empty" in page.inner_text("#ioi-status")


def test_mars_and_shongololo_solve_draw_and_judge(page: Any) -> None:
    open_tab(page, "mars")
    page.wait_for_selector("#mars-svg svg")
    summary = page.inner_text("#mars-summary")
    assert "samples delivered: 3" in summary and "null" not in summary
    assert "score: 5 points, 100% of the best possible" in summary
    assert "rough terrain" in page.inner_text("#mars .legend")
    assert "optimal routes" in page.inner_text("#mars figcaption >> nth=0")
    # the captions are drawn whole: "transmitter" lies inside the page, not cut at the edge
    right = page.evaluate(
        "[...document.querySelectorAll('#mars-svg text')]"
        ".find((t) => t.textContent === 'transmitter').getBoundingClientRect().right"
    )
    assert right <= page.evaluate(
        "document.querySelector('#mars-svg').closest('figure').getBoundingClientRect().right"
    )
    page.click("#mars-judge")
    page.wait_for_selector("#mars-judged-svg svg")
    assert "score: 5 of 5 points, 100.00%" in page.inner_text("#mars-verdict")
    page.fill("#mars-moves", "1 0\n1 0\n1 0\n")
    page.click("#mars-judge")
    page.wait_for_function("document.querySelector('#mars-verdict').dataset.legal === 'false'")
    assert "ILLEGAL: line 3" in page.inner_text("#mars-verdict")
    page.click("#mars-use")
    page.click("#mars-judge")
    page.wait_for_function("document.querySelector('#mars-verdict').dataset.legal === 'true'")
    screenshot(page, "mars")

    open_tab(page, "shongololo")
    page.fill("#toxic-time", "1")
    page.click("#toxic-solve")
    page.wait_for_selector("#toxic-svg svg")
    assert "(12 blocks): 8 eaten" in page.inner_text("#toxic-summary")  # the volume
    page.click("#toxic-use")
    page.click("#toxic-judge")
    page.wait_for_function("document.querySelector('#toxic-verdict').dataset.valid === 'true'")
    assert "score: 100.0% of the best known 8" in page.inner_text("#toxic-verdict")
    screenshot(page, "shongololo")
    assert not page.js_errors
