"""The budget every search is handed: what ran out, said in one line."""

from __future__ import annotations

import pytest

from boardlab.core.errors import LimitExceededError
from boardlab.core.limits import Limit, Stop


def test_check_names_the_node_limit() -> None:
    budget = Limit(nodes=10).start()
    budget.check("counting", nodes=9)  # not yet
    with pytest.raises(LimitExceededError, match="node limit of 10 reached while counting"):
        budget.check("counting", nodes=10)


def test_check_names_an_outside_stop_without_a_time_limit() -> None:
    """A node-limited budget stopped from outside (the web page's Stop) says so; it once
    failed with a TypeError formatting the missing time limit."""
    stop = Stop()
    budget = Limit(nodes=10**9).start()
    budget.stop = stop
    budget.check("enumerating")
    stop.cancel("the client went away")
    with pytest.raises(LimitExceededError, match=r"search stopped \(the client went away\)"):
        budget.check("enumerating")


def test_check_names_the_time_limit() -> None:
    budget = Limit(time=1e-9).start()
    with pytest.raises(LimitExceededError, match="time limit of 1e-09 s reached while x"):
        budget.check("x")
