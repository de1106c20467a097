"""The verdict of the soak tests (benchmarks/soak_web.py, benchmarks/soak_gtp.py).

A soak records samples of a long run (a process's resident memory and threads, latencies,
status codes) and judges them against goals. The judging is plain functions of the
records, so a test can hand them a made-up record set (memory that grows, a 500) and see
the verdict fail.

Memory is *flat* when, after the warm-up (the first sixth of the run: ten minutes of an
hour), the median of the last tenth of the samples is at most 10 % above the median of
the tenth that follows the warm-up.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

#: The share of a run that counts as warm-up before memory must stay flat.
WARM_UP = 1 / 6
#: The most memory may grow after the warm-up (a fraction).
MEMORY_GROWTH = 0.10


@dataclass(frozen=True, slots=True)
class Check:
    """One goal: its name, whether it held, and the figure that says so."""

    name: str
    passed: bool
    detail: str


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` percentile (0 to 100) of ``values``, nearest rank (nan when empty).

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50), percentile([1.0, 2.0], 99)
    (3.0, 2.0)
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(share / 100 * len(ordered)))
    return ordered[rank - 1]


def memory_growth(samples: Sequence[float], warm_up: float = WARM_UP) -> tuple[float, float, float]:
    """The growth of memory after the warm-up (a fraction): the median of the last tenth
    of the samples over the median of the tenth that follows the warm-up (at least one
    sample each); and those two medians.

    >>> memory_growth([50, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 112])
    (0.12, 100, 112)
    """
    if not samples:
        return 0.0, 0.0, 0.0
    count = len(samples)
    tenth = max(1, count // 10)
    start = min(count - tenth, math.ceil(warm_up * (count - 1)))
    base = statistics.median(samples[start : start + tenth])
    end = statistics.median(samples[-tenth:])
    return ((end - base) / base if base > 0 else 0.0), base, end


def flat_memory(name: str, samples: Sequence[float], warm_up: float = WARM_UP) -> Check:
    """The check that ``samples`` (bytes) stay flat after the warm-up."""
    if len(samples) < 2:
        return Check(name, False, f"{len(samples)} samples: too few to judge")
    growth, base, end = memory_growth(samples, warm_up)
    detail = (
        f"{base / 2**20:.1f} MiB after the warm-up, {end / 2**20:.1f} MiB at the end "
        f"(medians of a tenth of the {len(samples)} samples), {100 * growth:+.1f} % "
        f"(goal at most {100 * MEMORY_GROWTH:.0f} %); highest {max(samples) / 2**20:.1f} MiB"
    )
    return Check(name, growth <= MEMORY_GROWTH, detail)


def verdict(checks: Sequence[Check]) -> bool:
    """Whether every check passed."""
    return all(check.passed for check in checks)


def report(title: str, checks: Sequence[Check]) -> str:
    """The verdict as lines of text: one per check, then PASS or FAIL."""
    lines = [title]
    lines += [
        f"  {'ok  ' if check.passed else 'FAIL'} {check.name}: {check.detail}" for check in checks
    ]
    lines.append(f"verdict: {'PASS' if verdict(checks) else 'FAIL'}")
    return "\n".join(lines)


def save(
    path: Path,
    options: argparse.Namespace,
    records: Sequence[Any],
    checks: Sequence[Check],
    **extra: Any,
) -> None:
    """Write the run's options (paths as text), raw records, checks and verdict as JSON
    (folders made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "options": {k: str(v) if isinstance(v, Path) else v for k, v in vars(options).items()},
        "records": [
            asdict(record) if hasattr(record, "__dataclass_fields__") else record
            for record in records
        ],
        "checks": [asdict(check) for check in checks],
        "passed": verdict(checks),
        **extra,
    }
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    part.replace(path)
