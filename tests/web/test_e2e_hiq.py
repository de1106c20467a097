"""End-to-end, the Hi-Q contest tab: the statement's sample run with its output and
trace, a bad input named by its line and column in the page's words, the input kept."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def test_the_hiq_tab_runs_the_sample_and_explains_a_bad_input(page: Any) -> None:
    page.goto(f"{page.base_url}/#hiq")
    page.wait_for_function("document.querySelector('#hiq-output').textContent.includes('END')")
    assert page.inner_text("#hiq-output").split() == [
        "HI", "Q", "OUTPUT", "51", "0", "561", "98", "END", "OF", "OUTPUT",
    ]  # fmt: skip
    assert "from" in page.inner_text("#hiq-trace") and "sum 51" in page.inner_text("#hiq-trace")
    assert page.inner_text("#hiq-status") == "4 games played."
    page.fill("#hiq-input", "1\n10 x 0\n")
    page.click("#hiq-run")
    page.wait_for_selector("#hiq-status.error")
    assert page.inner_text("#hiq-status").startswith("The input, line 2, column")
    page.reload()
    page.wait_for_selector("#hiq-status.error")
    assert page.input_value("#hiq-input") == "1\n10 x 0\n"
    page.save_screenshot("hiq")
    assert not page.js_errors
