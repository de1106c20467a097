"""End-to-end at a phone's width (390 px): every page fits the screen (only the Hex board
and the iShongololo layers scroll sideways, inside their own boxes), the Hex cells stay
big enough to tap at 13 x 13. Screenshots go to build/screenshots/phone-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.test_e2e_hex_walk import reviewed_game

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
