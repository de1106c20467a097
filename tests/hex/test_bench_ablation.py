"""benchmarks/bench_hex_ablation.py: the kept games name each side's settings without
the machine's folders."""

from __future__ import annotations

import pytest
from tests.hex.benchmark_script import load


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ("", "defaults"),
        ("must_play=0,reuse=1", "must_play=0,reuse=1"),
        ("network=/some/dir/NET.npz", "network=NET.npz"),
        ("network=/a/b/T1.3.npz,policy_weight=2", "network=T1.3.npz,policy_weight=2"),
        ("network=", "network="),
    ],
)
def test_settings_are_named_without_folders(given: str, named: str) -> None:
    bench = load("bench_hex_ablation")
    assert bench.public_settings(given) == named
