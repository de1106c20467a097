"""End-to-end, move feedback on the peg and Ioiwari boards: the moved peg slides in and
the jumped peg fades out, the sown pits flash in sowing order; a step back is not
animated, and a player who asks for reduced motion sees none."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e

# Every Web Animation started on the page, with the element it moves.
RECORD = """() => {
  window.__moves = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.__moves.push({ cell: this.getAttribute('data-cell'), cls: this.getAttribute('class'),
      cx: this.getAttribute('cx'), cy: this.getAttribute('cy'),
      frames: JSON.stringify(frames), delay: (options && options.delay) || 0 });
    return animate.call(this, frames, options);
  };
}"""


def moves(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("window.__moves.splice(0)")
    return found


def centre(page: Any, box: str, cell: str) -> tuple[str, str]:
    el = page.locator(f'{box} [data-cell="{cell}"]')
    return el.get_attribute("cx"), el.get_attribute("cy")


def open_pegs(page: Any) -> None:
    page.goto(f"{page.base_url}/#pegs")
    page.wait_for_selector('#pegs-svg [data-cell="D4"]')
    page.wait_for_function("!document.querySelector('#pegs-svg').classList.contains('busy')")
    page.evaluate(RECORD)


def play_b4_d4(page: Any) -> None:
    page.locator('#pegs-svg [data-cell="B4"]').click()
    page.locator('#pegs-svg [data-cell="D4"]').click()
    page.wait_for_function("document.querySelector('#pegs-moves').textContent === '1'")


def test_a_peg_jump_slides_the_peg_and_fades_the_jumped_one(page: Any) -> None:
    open_pegs(page)
    play_b4_d4(page)
    started = moves(page)
    slide = [m for m in started if m["cls"] == "peg"]
    ghost = [m for m in started if m["cls"] == "peg leaving"]
    assert len(slide) == 1 and (slide[0]["cx"], slide[0]["cy"]) == centre(page, "#pegs-svg", "D4")
    assert "translate(0px, -" in slide[0]["frames"]  # from B4, above D4
    assert len(ghost) == 1 and (ghost[0]["cx"], ghost[0]["cy"]) == centre(page, "#pegs-svg", "C4")
    # the ghost goes once it has faded
    page.wait_for_function("!document.querySelector('#pegs-svg .leaving')")
    # a step back is not animated; the step forward again is
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#pegs-moves').textContent === '0'")
    assert moves(page) == []
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#pegs-moves').textContent === '1'")
    assert [m["cls"] for m in moves(page)] == ["peg", "peg leaving"]


def test_reduced_motion_means_no_animation(page: Any) -> None:
    page.emulate_media(reduced_motion="reduce")
    open_pegs(page)
    play_b4_d4(page)
    assert moves(page) == []
    assert page.get_attribute("#pegs-svg .last-to", "data-cell") == "D4"


def test_ioiwari_sown_pits_flash_in_sowing_order(page: Any) -> None:
    page.goto(f"{page.base_url}/#ioiwari")
    page.wait_for_selector('#ioi-svg [data-cell="1"]')
    page.fill("#ioi-start", "4 3 2 4 2 3 2")
    page.click("#ioi-new")
    page.wait_for_function("document.querySelector('#ioi-turn').textContent.includes('(you)')")
    # a click while the page still waits for an answer is refused: wait until it is idle
    page.wait_for_function("!document.querySelector('#ioi-svg').classList.contains('busy')")
    page.evaluate(RECORD)
    # pit 2 holds 3 beads: sown into pits 3, 4 and 5, one after another
    page.locator('#ioi-svg [data-cell="2"]').click()
    page.wait_for_function("document.querySelector('#ioi-status').textContent.includes('sowed')")
    started = moves(page)
    mine = [m for m in started if m["cell"] in {"3", "4", "5"}][:3]
    assert [m["cell"] for m in mine] == ["3", "4", "5"]
    assert [m["delay"] for m in mine] == [0, 90, 180]
    assert all(m["cell"] is not None for m in started)
    # perfect play's reply flashed too, starting with the pit after the one it sowed
    reply = int(page.inner_text("#ioi-status").split("sowed pit ")[1].split(".")[0])
    after = [m for m in started[len(mine) :] if m["delay"] == 0]
    assert after and int(after[0]["cell"]) != reply
