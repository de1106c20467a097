"""End-to-end, Ioiwari: a game saved and loaded as a move list, the game-over banner,
the pit labels inside the page, the turn shown, buttons busy while perfect play moves."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e

# the statement's worked example (see boardlab.ioiwari.rules): player 1 banks 11 to 9
EXAMPLE = "4 3 2 4 2 3 2\n2\n3\n5\n4\n5\n7\n"
LABELS_INSIDE = """() => {
  const box = document.querySelector('#ioi-svg').getBoundingClientRect();
  const labels = [...document.querySelectorAll('#ioi-svg text')]
    .filter((el) => !el.classList.contains('count') && /^[1-7]$/.test(el.textContent.trim()));
  return labels.length === 7 && labels.every((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= box.top && r.left >= box.left && r.bottom <= box.bottom;
  });
}"""


def open_ioiwari(page: Any) -> None:
    page.goto(f"{page.base_url}/#ioiwari")
    page.wait_for_selector('#ioi-svg [data-cell="1"]')
    page.evaluate("document.querySelector('#ioi-saveload').open = true")


def test_ioiwari_game_saved_loaded_and_over(page: Any) -> None:
    open_ioiwari(page)
    assert page.evaluate(LABELS_INSIDE)
    assert page.inner_text("#ioi-turn") == "Player 1 to move (you)."
    page.locator('#ioi-svg [data-cell="2"]').click()
    page.wait_for_function("document.querySelector('#ioi-status').textContent.includes('sowed')")
    with page.expect_download() as download:
        page.click("#ioi-save")
    assert download.value.suggested_filename == "ioiwari.txt"
    saved = page.input_value("#ioi-record")
    transcript = page.inner_text("#ioi-transcript")
    assert saved.splitlines()[:2] == ["4 3 2 4 2 3 2", "2"] and len(saved.splitlines()) == 3
    page.fill("#ioi-start", "3 3 3 3 3 3 2")
    page.click("#ioi-new")
    page.wait_for_function(
        "document.querySelector('#ioi-transcript').textContent.includes('3  3  3')"
    )
    page.fill("#ioi-record", saved)
    page.click("#ioi-load")
    page.wait_for_function("document.querySelector('#ioi-status').textContent.startsWith('Loaded')")
    assert page.inner_text("#ioi-transcript") == transcript
    page.fill("#ioi-record", EXAMPLE)
    page.click("#ioi-load")
    page.wait_for_selector("#ioi-over:not([hidden])")
    assert "Game over: you win" in page.inner_text("#ioi-over")
    assert "11 : 9" in page.inner_text("#ioi-over")
    assert page.inner_text("#ioi-turn") == ""
    page.save_screenshot("ioiwari-loaded-over")
    page.fill("#ioi-record", "4 3 2 4 2 3 2\n1\n1\n")
    page.click("#ioi-load")
    page.wait_for_selector("#ioi-status.error")
    assert "Cannot load: move 2 (pit 1)" in page.inner_text("#ioi-status")
    assert not page.js_errors


def test_ioiwari_buttons_wait_for_perfect_play(page: Any) -> None:
    open_ioiwari(page)
    page.evaluate(
        """() => {
          const plain = window.fetch;
          window.fetch = async (url, options) => {
            const answer = await plain(url, options);
            if (String(url).includes('ioiwari/engine')) {
              await new Promise((r) => setTimeout(r, 800));
            }
            return answer;
          };
        }"""
    )
    page.locator('#ioi-svg [data-cell="2"]').click()
    page.wait_for_function("document.querySelector('#ioi-undo').disabled")
    assert page.is_disabled("#ioi-save") and page.is_disabled("#ioi-random")
    page.locator('#ioi-svg [data-cell="1"]').click()  # ignored while perfect play moves
    page.wait_for_function("document.querySelector('#ioi-status').textContent.includes('sowed')")
    assert page.is_enabled("#ioi-undo")
    assert len(page.input_value("#ioi-record").splitlines()) == 0
    page.click("#ioi-save")
    assert len(page.input_value("#ioi-record").splitlines()) == 3  # start, 2, the reply


def test_ioiwari_pits_show_their_counts_and_the_pit_sown_last(page: Any) -> None:
    open_ioiwari(page)
    counts = page.eval_on_selector_all("#ioi-svg text.count", "els => els.map(e => e.textContent)")
    assert counts == ["4", "3", "2", "4", "2", "3", "2"]
    page.locator('#ioi-svg [data-cell="2"]').click()
    page.wait_for_function("document.querySelectorAll('#ioi-movelist li').length === 2")
    page.wait_for_function("!document.querySelector('#ioi-svg').classList.contains('busy')")
    last = page.locator("#ioi-movelist li").nth(1).inner_text().split()[1]
    ringed = page.eval_on_selector_all(
        "#ioi-svg circle[data-cell]",
        "els => els.filter(e => e.getAttribute('stroke') === '#f2c200').map(e => e.dataset.cell)",
    )
    assert ringed == [last]


def test_ioiwari_game_survives_a_reload_and_its_move_list_walks(page: Any) -> None:
    open_ioiwari(page)
    page.locator('#ioi-svg [data-cell="2"]').click()
    page.wait_for_function("document.querySelectorAll('#ioi-movelist li').length === 2")
    page.wait_for_function("!document.querySelector('#ioi-svg').classList.contains('busy')")
    listed = page.locator("#ioi-movelist li").all_inner_texts()
    assert listed[0] == "pit 2"
    assert "start=4,3,2,4,2,3,2" in page.url and "moves=2," in page.url
    page.reload()
    page.wait_for_function("document.querySelectorAll('#ioi-movelist li').length === 2")
    assert page.locator("#ioi-movelist li").all_inner_texts() == listed
    transcript = page.inner_text("#ioi-transcript")
    page.wait_for_function("!document.querySelector('#ioi-svg').classList.contains('busy')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        "document.querySelector('#ioi-walk').textContent.includes('move 1 of 2')"
    )
    assert page.inner_text("#ioi-transcript") != transcript
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#ioi-walk').textContent === ''")
    assert page.inner_text("#ioi-transcript") == transcript
    assert not page.js_errors


def test_ioiwari_review_marks_the_mistakes(page: Any) -> None:
    # the statement's worked example is perfect play
    page.goto(f"{page.base_url}/#ioiwari?start=4,3,2,4,2,3,2&you=2&moves=2,3,5,4,5,7")
    page.wait_for_function("document.querySelectorAll('#ioi-movelist li').length === 6")
    page.click("#ioi-review")
    page.wait_for_selector("#ioi-review-box table")
    assert page.locator("#ioi-review-box tr[data-ply]").count() == 6
    assert page.locator("#ioi-review-box tr.mistake").count() == 0
    assert "0 mistakes" in page.inner_text("#ioi-review-box")
    # another game's link typed into the same tab
    page.evaluate("location.hash = '#ioiwari?start=4,3,2,4,2,3,2&you=2&moves=6'")
    page.wait_for_function("document.querySelectorAll('#ioi-movelist li').length === 1")
    page.click("#ioi-review")
    page.wait_for_selector("#ioi-review-box table")
    mistakes = page.locator("#ioi-review-box tr.mistake").count()
    api = page.evaluate(
        "fetch('/api/ioiwari/review', {method: 'POST',"
        " headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({start: [4,3,2,4,2,3,2], moves: [6]})}).then(r => r.json())"
    )
    assert mistakes == sum(point["mistake"] for point in api["points"])
    page.locator("#ioi-review-box tr[data-ply='1']").click()
    page.wait_for_function("document.querySelector('#ioi-walk').textContent === ''")
    assert not page.js_errors
