"""End-to-end: a bad link says what is wrong with it and starts a sane game, which the
next reload keeps."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def test_a_bad_ioiwari_link_says_so_and_starts_a_game(page: Any) -> None:
    page.goto(f"{page.base_url}/#ioiwari?start=9,9,9,9,9,9,9&you=1&moves=")
    page.wait_for_selector("#ioi-svg [data-cell]")
    status = page.inner_text("#ioi-status")
    assert "0 to 5 beads" in status and "4 3 2 4 2 3 2" in status, status
    assert page.input_value("#ioi-start") == "4 3 2 4 2 3 2"
    assert page.locator("#ioi-svg [data-cell]").count() == 7
    page.save_screenshot("link-ioiwari-bad")
    page.reload()  # the page now keeps the sane game
    page.wait_for_selector("#ioi-svg [data-cell]")
    assert "start=4,3,2,4,2,3,2" in page.url
    assert "could not" not in page.inner_text("#ioi-status")
    assert not page.js_errors


def test_a_bad_pegs_link_says_so(page: Any) -> None:
    page.goto(f"{page.base_url}/#pegs?board=nosuch")
    page.wait_for_function("document.querySelector('#pegs-status').textContent.includes('nosuch')")
    status = page.inner_text("#pegs-status")
    assert "does not know" in status and "new game" in status, status
    assert page.locator("#pegs-svg [data-cell]").count() > 0
    page.save_screenshot("link-pegs-bad")
    assert not page.js_errors


def test_a_bad_hex_link_says_so(page: Any) -> None:
    page.goto(f"{page.base_url}/#hex?size=99")
    page.wait_for_function("document.querySelector('#hex-status').textContent.includes('99')")
    status = page.inner_text("#hex-status")
    assert "1 x 1 to 26 x 26" in status and "new 7 x 7 game" in status, status
    assert page.locator("#hex-svg [data-cell]").count() == 49
    page.save_screenshot("link-hex-bad")
    assert not page.js_errors


def test_walking_back_in_ioiwari_does_not_say_perfect_play_is_moving(page: Any) -> None:
    page.goto(f"{page.base_url}/#ioiwari?start=4,3,2,4,2,3,2&you=1&moves=2,3,5,4,5,7")
    page.wait_for_function("document.querySelectorAll('#ioi-movelist li').length === 6")
    page.locator("#ioi-movelist li[data-ply='5']").click()  # perfect play to move there
    page.wait_for_function("document.querySelector('#ioi-walk').textContent.includes('move 5')")
    status = page.inner_text("#ioi-status")
    assert "is moving" not in status and "earlier position" in status, status
    page.save_screenshot("ioiwari-walk-back")
    assert page.locator("#ioi-movelist li").count() == 6  # nothing was played
    assert not page.js_errors
