"""End-to-end, Hex: the board the page draws (last move, numbers, labels), the turn, the
swap rule, the analysis, the exact solver only where it finishes, SGF save and load, and
late answers for an old position dropped."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e

NO_OVERLAP = """() => {
  const cells = [...document.querySelectorAll('#hex-svg polygon[data-cell]')]
    .map((el) => el.getBoundingClientRect());
  const labels = [...document.querySelectorAll('#hex-svg .row-label')]
    .map((el) => el.getBoundingClientRect());
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  return labels.filter((l) => cells.some((c) => meet(l, c))).length;
}"""


def new_game(page: Any, size: int, colour: str = "1", swap: bool = False) -> None:
    page.goto(f"{page.base_url}/#hex")
    page.wait_for_selector('#hex-svg [data-cell="a1"]')
    page.select_option("#hex-engine", "playouts:30")
    page.select_option("#hex-colour", colour)
    page.set_checked("#hex-swap-rule", swap)
    page.select_option("#hex-size", str(size))
    page.click("#hex-new")
    page.wait_for_function(
        f"document.querySelectorAll('#hex-svg [data-cell]').length === {size * size}"
    )
    idle(page)


def texts(page: Any, selector: str) -> list[str]:
    """The text of SVG elements (Playwright's inner_text is for HTML)."""
    found: list[str] = page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")
    return found


def idle(page: Any) -> None:
    page.wait_for_function("!document.querySelector('#hex-svg').classList.contains('busy')")


def test_hex_last_move_numbers_turn_and_move_list(page: Any) -> None:
    new_game(page, 5)
    page.locator('#hex-svg [data-cell="c3"]').click()
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 2")
    idle(page)
    items = page.locator("#hex-movelist li").all_inner_texts()
    assert items[0] == "red c3" and items[1].startswith("blue ")
    engine_cell = items[1].split()[1]
    assert page.get_attribute("#hex-svg .last-move", "data-last") == engine_cell
    assert "red (player 1) to move (you)" in page.inner_text("#hex-turn")
    page.check("#hex-numbers")
    numbers = texts(page, "#hex-svg .move-number")
    assert sorted(numbers) == ["1", "2"]
    page.save_screenshot("hex-last-move")
    assert not page.js_errors


def test_hex_swap_rule_lets_blue_take_the_first_stone(page: Any) -> None:
    new_game(page, 5, colour="2", swap=True)
    page.wait_for_selector("#hex-swap:not([hidden])")
    idle(page)
    first = page.locator("#hex-movelist li").all_inner_texts()
    assert len(first) == 1 and first[0].startswith("red ")
    page.click("#hex-swap")
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 3")
    idle(page)
    assert page.locator("#hex-movelist li").all_inner_texts()[1] == "blue swap"
    assert page.is_hidden("#hex-swap")
    assert not page.js_errors


def test_hex_analysis_is_drawn_on_the_board(page: Any) -> None:
    new_game(page, 7)
    page.click("#hex-analyse")
    page.wait_for_selector("#hex-svg .analysis")
    rates = texts(page, "#hex-svg .analysis-text")
    assert rates and all(text.endswith("%") for text in rates)
    chips = page.locator("#hex-analysis [data-analysis]").count()
    assert chips == len(rates)
    assert len(rates) > 1 and "Best moves" in page.inner_text("#hex-analysis")
    page.save_screenshot("hex-analysis")
    page.uncheck("#hex-show-analysis")
    assert page.locator("#hex-svg .analysis").count() == 0


def test_hex_exact_solver_only_where_it_finishes(page: Any) -> None:
    new_game(page, 7)
    assert page.is_disabled("#hex-solve")
    new_game(page, 4)
    assert page.is_enabled("#hex-solve")


def test_hex_row_labels_clear_of_the_cells_at_13_and_19(page: Any) -> None:
    for size in (13, 19):
        new_game(page, size)
        assert page.evaluate(NO_OVERLAP) == 0
        width = page.evaluate(
            "document.querySelector('#hex-svg polygon[data-cell]').getBoundingClientRect().width"
        )
        assert width >= 28  # a finger can hit it
    page.save_screenshot("hex-19")


def test_hex_late_answer_for_an_old_game_is_dropped(page: Any) -> None:
    new_game(page, 3)
    page.delay_answers("hex/solve")
    with page.expect_request("**/api/hex/solve") as sent:
        page.click("#hex-solve")
    # the tab names itself, so the server cancels this search when a newer one replaces it
    assert sent.value.headers["x-boardlab-page"].endswith(":hex")
    assert page.is_disabled("#hex-solve") and page.is_disabled("#hex-analyse")
    page.dblclick("#hex-solve")  # disabled: no second request
    page.click("#hex-new")
    page.wait_for_function("document.querySelector('#hex-solve').disabled === false")
    page.wait_for_timeout(1800)  # the late answer has arrived by now
    assert "perfect play" not in page.inner_text("#hex-analysis")
    assert not page.js_errors


def test_hex_game_saved_as_sgf_and_loaded(page: Any) -> None:
    new_game(page, 5)
    page.locator('#hex-svg [data-cell="b2"]').click()
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 2")
    idle(page)
    moves = page.inner_text("#hex-moves")
    page.evaluate("document.querySelector('#hex-saveload').open = true")
    with page.expect_download() as download:
        page.click("#hex-save")
    assert download.value.suggested_filename == "hex-5x5.sgf"
    sgf = page.input_value("#hex-sgf")
    assert sgf.startswith("(;FF[4]GM[11]SZ[5]")
    new_game(page, 3)
    page.evaluate("document.querySelector('#hex-saveload').open = true")
    page.fill("#hex-sgf", sgf)
    page.click("#hex-load")
    page.wait_for_function("document.querySelectorAll('#hex-svg [data-cell]').length === 25")
    idle(page)
    assert page.inner_text("#hex-moves") == moves
    page.fill("#hex-sgf", "(;FF[4]GM[11]SZ[3];B[z9])")
    page.click("#hex-load")
    page.wait_for_selector("#hex-status.error")
    assert "Cannot load" in page.inner_text("#hex-status")


def test_hex_settings_take_effect_or_say_they_need_new_game(page: Any) -> None:
    new_game(page, 5)
    page.select_option("#hex-size", "6")  # no move yet: a new 6 x 6 game at once
    page.wait_for_function("document.querySelectorAll('#hex-svg [data-cell]').length === 36")
    idle(page)
    assert page.is_hidden("#hex-pending")
    page.locator('#hex-svg [data-cell="c3"]').click()
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 2")
    idle(page)
    page.select_option("#hex-colour", "2")  # mid-game: it waits for New game, and says so
    assert page.is_visible("#hex-pending")
    assert "take effect with New game" in page.inner_text("#hex-pending")
    assert page.locator("#hex-movelist li").count() == 2
    page.click("#hex-new")
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length === 1")
    assert page.is_hidden("#hex-pending")
    assert "blue (player 2) to move (you)" in page.inner_text("#hex-turn")


def test_hex_game_over_is_shown(page: Any) -> None:
    new_game(page, 2)
    page.locator('#hex-svg [data-cell="a2"]').click()
    page.wait_for_function("document.querySelectorAll('#hex-movelist li').length >= 2")
    idle(page)
    for name in ("a1", "b1", "a2", "b2"):
        if page.is_visible("#hex-over"):
            break
        if not page.locator(f'#hex-svg [data-cell="{name}"]').count():
            continue
        page.locator(f'#hex-svg [data-cell="{name}"]').click()
        idle(page)
    page.wait_for_selector("#hex-over:not([hidden])")
    assert "wins" in page.inner_text("#hex-over") or "win" in page.inner_text("#hex-over")
    assert page.inner_text("#hex-turn") == ""
    page.save_screenshot("hex-over")


EDGE_CORNERS = """() => {
  const corners = new Map();
  for (const el of document.querySelectorAll('#hex-svg polygon[data-cell]')) {
    for (const point of el.getAttribute('points').split(' ')) {
      if (!corners.has(point)) corners.set(point, []);
      corners.get(point).push(el.dataset.cell);
    }
  }
  const found = {};
  for (const line of document.querySelectorAll('#hex-svg polyline.edge')) {
    found[line.dataset.edge] = line.getAttribute('points').split(' ')
      .map((point) => corners.get(point) || []);
  }
  return found;
}"""


def test_hex_edges_follow_the_border_cells(page: Any) -> None:
    for size in (5, 11, 19):
        new_game(page, size)
        edges = page.evaluate(EDGE_CORNERS)
        assert sorted(edges) == ["bottom", "left", "right", "top"]
        last = "abcdefghijklmnopqrs"[size - 1]
        on_side = {
            "left": lambda name: name[0] == "a",
            "right": lambda name: name[0] == last,  # noqa: B023
            "top": lambda name: name[1:] == "1",
            "bottom": lambda name: name[1:] == str(size),  # noqa: B023
        }
        for side, points in edges.items():
            # every corner of the line is a corner of a cell on that side of the board
            assert points and all(any(map(on_side[side], cells)) for cells in points), side
        assert len(edges["top"]) == 2 * size + 1 and len(edges["left"]) == 2 * size
    page.save_screenshot("hex-edges-19")


#: How far the last-move marker's paint reaches into the move number's box: the marker
#: painted over the number (a filled dot) or the number poking into a ring's stroke.
MARKER_OVER_NUMBER = """() => {
  const mark = document.querySelector('#hex-svg .last-move');
  const cell = mark.getAttribute('data-last');
  const texts = [...document.querySelectorAll('#hex-svg .move-number')];
  const text = texts.find((t) => Math.abs(t.getAttribute('x') - mark.getAttribute('cx')) < 0.5
    && Math.abs(t.getAttribute('y') - 4 - mark.getAttribute('cy')) < 0.5);
  if (!text) return 'no number on ' + cell;
  const box = text.getBBox();
  const cx = Number(mark.getAttribute('cx')), cy = Number(mark.getAttribute('cy'));
  const far = Math.max(...[[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height]].map(([x, y]) => Math.hypot(x - cx, y - cy)));
  const inner = Number(mark.getAttribute('r')) - Number(mark.getAttribute('stroke-width') || 0) / 2;
  if (mark.getAttribute('fill') !== 'none') return 'a filled marker under the number';
  return far < inner ? 'clear'
    : `the number reaches ${far.toFixed(1)} past the ring's ${inner.toFixed(1)}`;
}"""


def test_the_last_move_marker_leaves_the_move_number_readable(page: Any) -> None:
    page.goto(f"{page.base_url}/#hex?size=7&swap=0&you=1&moves=c5,d3,b3,b7,f6,b4,a3,e4,d5,c6")
    page.wait_for_selector("#hex-svg .last-move")
    page.set_checked("#hex-numbers", True)
    page.wait_for_selector("#hex-svg .move-number")
    assert page.evaluate(MARKER_OVER_NUMBER) == "clear"
    page.save_screenshot("hex-last-move-numbered")
    assert not page.js_errors


def test_the_size_menu_offers_every_size_the_server_takes(page: Any) -> None:
    page.goto(f"{page.base_url}/#hex")
    page.wait_for_selector('#hex-svg [data-cell="a1"]')
    sizes = page.eval_on_selector_all("#hex-size option", "os => os.map(o => o.value)")
    assert sizes == [str(n) for n in range(1, 27)]
    assert page.input_value("#hex-size") == "7"
    assert not page.js_errors
