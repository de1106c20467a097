"""End-to-end: the page's words (issue 31's ninth fault). No message names a field or a
file the player never typed; counts agree with their nouns; a start is listed once; a
loaded size is shown; a click that is ignored says why; Stop ends a solver's search."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.test_e2e_hex import idle, new_game
from tests.web.test_e2e_pegs import open_board

pytestmark = pytest.mark.e2e

HOLD_SOLVE = """() => {
  const plain = window.fetch;
  window.fetch = (url, options) => String(url).includes('pegs/solve')
    ? new Promise((_, reject) => options.signal.addEventListener('abort',
        () => reject(new DOMException('aborted', 'AbortError'))))
    : plain(url, options);
}"""


def test_a_bad_board_file_is_named_by_its_box_line_and_column(page: Any) -> None:
    open_board(page, "english")
    page.select_option("#pegs-board", "file")
    page.fill("#pegs-file", "XXX\nX?X\n")
    page.click("#pegs-new")
    page.wait_for_selector("#pegs-status.error")
    text = page.inner_text("#pegs-status")
    assert text.startswith("The board file, line 2, column 2:"), text
    assert "board_file" not in text
    page.save_screenshot("words-board-file")


def test_a_bad_ioiwari_start_is_named_by_its_box(page: Any) -> None:
    page.goto(f"{page.base_url}/#ioiwari")
    page.wait_for_selector('#ioi-svg [data-cell="1"]')
    page.fill("#ioi-start", "9 3 2 4 2 3 2")
    page.click("#ioi-new")
    page.wait_for_selector("#ioi-status.error")
    text = page.inner_text("#ioi-status")
    assert "field" not in text and "[]" not in text, text
    assert "the start" in text


def test_one_block_eaten_is_one_block(page: Any) -> None:
    page.goto(f"{page.base_url}/#shongololo")
    page.fill("#toxic-input", "1\n1\n1\n")
    page.click("#toxic-solve")
    page.wait_for_selector("#toxic-status.ok")
    assert page.inner_text("#toxic-status") == "Solved: 1 block eaten."
    page.save_screenshot("words-one-block")


def test_the_usual_start_is_listed_once(page: Any) -> None:
    open_board(page, "english")
    labels = page.locator("#pegs-start option").all_inner_texts()
    assert labels[0] == "D4 (the usual start)"
    assert "D4" not in labels[1:]


def test_a_loaded_size_is_shown_in_the_menu(page: Any) -> None:
    new_game(page, 5)
    page.evaluate("document.querySelector('#hex-saveload').open = true")
    page.fill("#hex-sgf", "(;FF[4]GM[11]SZ[25];B[m13])")
    page.click("#hex-load")
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 2")
    idle(page)
    # the menu offers every size the server takes, so a loaded game's is among them
    assert page.eval_on_selector("#hex-size", "s => s.selectedOptions[0].textContent") == (
        "25 x 25"
    )


def test_clicks_ignored_while_busy_say_so_and_stop_ends_a_search(page: Any) -> None:
    open_board(page, "english")
    page.evaluate(HOLD_SOLVE)
    page.click("#pegs-solve")
    page.wait_for_function("document.querySelector('#pegs-stop').disabled === false")
    page.locator('#pegs-svg [data-cell="B4"]').click()
    assert "Wait" in page.inner_text("#pegs-status")
    page.click("#pegs-stop")
    page.wait_for_selector("#pegs-status.error")
    assert page.inner_text("#pegs-status") == "Stopped: the search was ended."
    assert page.is_enabled("#pegs-solve") and page.is_disabled("#pegs-stop")


def test_moves_can_be_typed_and_cells_take_focus(page: Any) -> None:
    new_game(page, 5)
    page.fill("#hex-type", "c3")
    page.press("#hex-type", "Enter")
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 2")
    idle(page)
    assert page.locator("#hex-movelist li").nth(0).inner_text() == "red c3"
    page.fill("#hex-type", "c3")
    page.press("#hex-type", "Enter")
    page.wait_for_selector("#hex-status.error")
    assert "occupied" in page.inner_text("#hex-status")
    free = page.eval_on_selector(
        "#hex-svg",
        "svg => [...svg.querySelectorAll('[data-cell]')].map(e => e.dataset.cell)"
        ".find(n => ![...document.querySelectorAll('#hex-movelist li')]"
        ".some(li => li.textContent.endsWith(' ' + n)))",
    )
    page.focus(f'#hex-svg [data-cell="{free}"]')
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 4")
    open_board(page, "english")
    page.fill("#pegs-type", "b4-d4")
    page.press("#pegs-type", "Enter")
    page.wait_for_function("document.querySelector('#pegs-moves').textContent === '1'")
    page.fill("#pegs-type", "nonsense")
    page.press("#pegs-type", "Enter")
    assert "like D2-D4" in page.inner_text("#pegs-status")
    page.goto(f"{page.base_url}/#ioiwari")
    page.wait_for_selector('#ioi-svg [data-cell="1"]')
    page.fill("#ioi-type", "2")
    page.press("#ioi-type", "Enter")
    page.wait_for_function("document.querySelectorAll('#ioi-movelist li').length === 2")
    assert not page.js_errors


def test_the_best_known_count_states_its_limits(page: Any) -> None:
    page.goto(f"{page.base_url}/#shongololo")
    page.wait_for_selector("#toxic-best")
    assert "(0 to the fruit's blocks" in page.inner_text("label:has(#toxic-best)")
    page.fill("#toxic-best", "-3")
    page.click("#toxic-judge")
    assert "whole number of blocks" in page.inner_text("#toxic-verdict")
    page.fill("#toxic-best", "99")
    page.fill("#toxic-answer", "E 1 1 1\n")
    page.click("#toxic-judge")
    page.wait_for_function(
        "!document.querySelector('#toxic-verdict').textContent.includes('Judging')"
    )
    text = page.inner_text("#toxic-verdict")
    assert "field" not in text and "best known count" in text, text


WORD_FAULTS = ("1 points", "1 pegs", "1 blocks", "method:", "..", "most visited", "swap-pieces")


def test_the_summaries_read_as_words(page: Any) -> None:
    page.goto(f"{page.base_url}/#mars")
    page.wait_for_selector("#mars-svg svg")
    page.fill("#mars-map", "1\n2\n2\n0 0\n0 0\n")
    page.click("#mars-solve")
    page.wait_for_function("document.querySelector('#mars-summary').textContent !== ''")
    summary = page.inner_text("#mars-summary")
    assert "score: 1 point," in summary, summary
    assert not [word for word in WORD_FAULTS if word in summary], summary
    page.goto(f"{page.base_url}/#shongololo")
    page.fill("#toxic-input", "2\n3\n2\n")
    page.fill("#toxic-time", "1")
    page.click("#toxic-solve")
    page.wait_for_selector("#toxic-canvas")
    page.wait_for_function("document.querySelector('#toxic-summary').textContent !== ''")
    summary = page.inner_text("#toxic-summary")
    assert "no run eats more than 10 blocks" in summary, summary
    assert not [word for word in WORD_FAULTS if word in summary], summary
    assert page.inner_text("#toxic-cut-value") == "layers 1 to 2"
    assert not page.js_errors
