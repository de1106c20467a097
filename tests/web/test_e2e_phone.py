"""End-to-end at a phone's width (390 px): every page fits the screen (only the Hex board
and the iShongololo layers scroll sideways, inside their own boxes), the Hex cells stay
big enough to tap at 13 x 13, the move lists walk by tapping the step buttons, the
reviews fit and a typed move plays. Screenshots go to build/screenshots/phone-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.test_e2e_hex_walk import reviewed_game
from tests.web.test_e2e_motion import RECORD
from tests.web.test_e2e_motion import moves as animations

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
OFF_SCREEN = """() => [...document.querySelectorAll('body *')]
  .filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.right > window.innerWidth + 1
      && !el.closest('.hexboard, #toxic-svg, pre, #toxic-3d');
  })
  .map((el) => `${el.tagName}#${el.id}`)"""
READY = {
    "pegs": "#pegs-svg [data-cell]",
    "hex": "#hex-svg [data-cell]",
    "ioiwari": "#ioi-svg [data-cell]",
    "mars": "#mars-svg svg",
}


@pytest.fixture()
def phone(browser: Any, live_server: str, shoot: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.base_url = live_server
    page.js_errors = errors
    page.save_screenshot = lambda name: shoot(page, name)
    yield page
    context.close()


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(OFF_SCREEN) == []


@pytest.mark.parametrize("tab", ["pegs", "hex", "ioiwari", "mars"])
def test_every_page_fits_a_phone(phone: Any, tab: str) -> None:
    phone.goto(f"{phone.base_url}/#{tab}")
    phone.wait_for_selector(READY[tab])
    phone.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    fits(phone)
    phone.save_screenshot(f"phone-{tab}")
    assert not phone.js_errors


def test_shongololo_fits_a_phone_with_its_3d_view(phone: Any) -> None:
    phone.goto(f"{phone.base_url}/#shongololo")
    phone.fill("#toxic-input", "8\n8\n8\n")
    phone.fill("#toxic-time", "0.5")
    phone.click("#toxic-solve")
    phone.wait_for_selector("#toxic-canvas")
    fits(phone)
    width = phone.evaluate("document.querySelector('#toxic-canvas').getBoundingClientRect().width")
    assert 300 <= width <= PHONE["width"]
    phone.save_screenshot("phone-shongololo")
    assert not phone.js_errors


def hex_board(phone: Any, size: int) -> None:
    """A new Hex game of ``size`` against the weak engine, drawn and fitting the phone."""
    phone.goto(f"{phone.base_url}/#hex")
    phone.wait_for_selector('#hex-svg [data-cell="a1"]')
    phone.select_option("#hex-engine", "playouts:30")
    phone.select_option("#hex-size", str(size))
    count = size * size
    phone.wait_for_function(f"document.querySelectorAll('#hex-svg [data-cell]').length === {count}")
    fits(phone)


def test_hex_13_cells_can_be_tapped_on_a_phone(phone: Any) -> None:
    hex_board(phone, 13)
    cell = phone.locator('#hex-svg [data-cell="g7"]')
    assert cell.bounding_box()["width"] >= 28
    cell.tap()
    phone.wait_for_function("document.querySelectorAll('#hex-movelist li').length >= 1")
    assert phone.locator("#hex-movelist li").first.inner_text() == "red g7"
    phone.save_screenshot("phone-hex-13")


def test_hex_19_keeps_the_turn_and_status_above_the_board_on_a_phone(phone: Any) -> None:
    hex_board(phone, 19)
    board = phone.evaluate("document.querySelector('#hex-svg').getBoundingClientRect().top")
    for name in ("#hex-turn", "#hex-status"):
        box = phone.evaluate(f"document.querySelector('{name}').getBoundingClientRect().bottom")
        assert box <= board + 1, name
    assert "to move" in phone.inner_text("#hex-turn")
    phone.save_screenshot("phone-hex-19")
    assert not phone.js_errors


def test_the_new_tabs_fit_a_phone(phone: Any) -> None:
    phone.goto(f"{phone.base_url}/#hiq")
    phone.wait_for_function("document.querySelector('#hiq-output').textContent.includes('END')")
    fits(phone)
    phone.save_screenshot("phone-hiq")
    reviewed_game(phone)
    fits(phone)
    phone.save_screenshot("phone-hex-review")
    assert not phone.js_errors


def tap_step(phone: Any, game: str, key: str) -> None:
    phone.locator(f'#{game}-steps button[data-key="{key}"]').tap()


def test_peg_moves_walk_by_tapping_and_the_review_fits_a_phone(phone: Any) -> None:
    # triangle-5, one peg anywhere: reachable after five moves, not after the sixth (E2-C2)
    game = "C1-A1,C3-C1,E2-C2,B2-D2,E4-E2,E2-C2,D3-B1,E5-C3"
    phone.goto(f"{phone.base_url}/#pegs?board=triangle-5&walks=0&goal=any&moves={game}&at=8")
    phone.wait_for_function("document.querySelectorAll('#pegs-history li').length === 8")
    phone.wait_for_function("!document.querySelector('#pegs-svg').classList.contains('busy')")
    moves_shown = "document.querySelector('#pegs-moves').textContent"
    tap_step(phone, "pegs", "ArrowLeft")
    phone.wait_for_function(f"{moves_shown} === '7'")
    tap_step(phone, "pegs", "Home")
    phone.wait_for_function(f"{moves_shown} === '0'")
    tap_step(phone, "pegs", "ArrowRight")
    phone.wait_for_function(f"{moves_shown} === '1'")
    phone.evaluate(RECORD)
    tap_step(phone, "pegs", "End")
    phone.wait_for_function(f"{moves_shown} === '8'")
    tap_step(phone, "pegs", "ArrowLeft")
    phone.wait_for_function(f"{moves_shown} === '7'")
    tap_step(phone, "pegs", "ArrowRight")
    phone.wait_for_function(f"{moves_shown} === '8'")
    # the step forward slid the peg in (E5-C3 jumps D4)
    assert "peg leaving" in [move["cls"] for move in animations(phone)]
    # the game survives a reload
    phone.reload()
    phone.wait_for_function("document.querySelectorAll('#pegs-history li').length === 8")
    phone.wait_for_function(f"{moves_shown} === '8'")
    phone.locator("#pegs-review").tap()
    phone.wait_for_selector("#pegs-review-box.error")
    assert phone.inner_text("#pegs-review-box").startswith("Move 6 (E2-C2) lost the game")
    fits(phone)
    phone.save_screenshot("phone-pegs-review")
    assert not phone.js_errors


def test_ioiwari_moves_walk_by_tapping_and_the_review_fits_a_phone(phone: Any) -> None:
    phone.goto(f"{phone.base_url}/#ioiwari?start=4,3,2,4,2,3,2&you=2&moves=2,3,5,4,5,7")
    phone.wait_for_function("document.querySelectorAll('#ioi-movelist li').length === 6")
    phone.wait_for_function("!document.querySelector('#ioi-svg').classList.contains('busy')")
    phone.locator("#ioi-review").tap()
    phone.wait_for_selector("#ioi-review-box table")
    assert phone.locator("#ioi-review-box tr[data-ply]").count() == 6
    tap_step(phone, "ioi", "ArrowLeft")
    phone.wait_for_function(
        "document.querySelector('#ioi-walk').textContent.includes('move 5 of 6')"
    )
    tap_step(phone, "ioi", "Home")
    phone.wait_for_function("document.querySelector('#ioi-movelist li.current') === null")
    tap_step(phone, "ioi", "End")
    phone.wait_for_function("document.querySelector('#ioi-walk').textContent === ''")
    fits(phone)
    phone.save_screenshot("phone-ioiwari-review")
    assert not phone.js_errors


def test_hex_moves_walk_by_tapping_and_a_typed_move_plays_on_a_phone(phone: Any) -> None:
    reviewed_game(phone)
    stones = "document.querySelectorAll('#hex-svg circle:not(.last-move):not(.analysis)').length"
    tap_step(phone, "hex", "Home")
    phone.wait_for_function(f"{stones} === 0")
    tap_step(phone, "hex", "ArrowRight")
    phone.wait_for_function(f"{stones} === 1")
    assert "after move 1 of 3" in phone.inner_text("#hex-walk")
    tap_step(phone, "hex", "End")
    phone.wait_for_function(f"{stones} === 3")
    assert phone.inner_text("#hex-walk") == ""
    phone.fill("#hex-type", "b2")
    phone.press("#hex-type", "Enter")
    phone.wait_for_function("document.querySelectorAll('#hex-movelist li').length >= 4")
    assert phone.locator("#hex-movelist li").nth(3).inner_text().endswith("b2")
    fits(phone)
    phone.save_screenshot("phone-hex-walk")
    assert not phone.js_errors


def test_a_board_wider_than_a_phone_says_to_swipe(phone: Any, page: Any) -> None:
    phone.goto(f"{phone.base_url}/#hex?size=19&swap=0&you=1&moves=&engine=playouts:30")
    phone.wait_for_selector("#hex-svg [data-cell]")
    phone.wait_for_selector("#hex-scroll-note:not([hidden])")
    assert "swipe it sideways" in phone.inner_text("#hex-scroll-note")
    phone.save_screenshot("phone-hex-19-hint")
    assert not phone.js_errors
    # on a desktop a 7x7 board fits: no hint
    page.goto(f"{page.base_url}/#hex?size=7&swap=0&you=1&moves=&engine=playouts:30")
    page.wait_for_selector("#hex-svg [data-cell]")
    assert page.is_hidden("#hex-scroll-note")
