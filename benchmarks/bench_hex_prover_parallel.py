"""Benchmark: the Hex prover on one position with 1, 2, ... workers; parallel efficiency.

Each position (by default 8x8 openings: black's stone on a cell, white to move) is
proven by ``boardlab hex solve POSITION --first`` in a fresh process:

- ``dfpn``: the one-process DFPN (``--jobs 1``), the search the workers' search is
  measured against;
- ``jobs=N`` for each N of ``--workers``: the job-level search on N worker processes
  (``--jobs N``; N = 1 is the same scheme on one worker, its overhead over the DFPN).

The parallel efficiency of N workers is the DFPN's wall time divided by N times theirs
(1.0: N workers are N times as fast). MoHex 2.0's DFPN (one thread; ``dfpn-solve-state``
in a fresh process, ``--mohex`` or ``$MOHEX``) answers the same question in the same
run as the peer's time, when its binary is given. Every answer is checked against the
others (and against the published winner of an 8x8 opening). A timing is only fair on a
quiet machine with at least as many free cores as the largest N: the load average is
printed beside the table.

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_prover_parallel.py \\
        --openings c6,d1,b8 --workers 1,2 --time 600
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from boardlab.core.errors import ProtocolError
from boardlab.hex.board import vertex_index
from boardlab.hex.prover.openings import published_winners
from boardlab.peers.gtp_process import GtpProcess
from boardlab.peers.mohex import mohex_binary

COLOUR = {1: "black", 2: "white"}


def ours(sgf: Path, jobs: int | None, seconds: float) -> tuple[int | None, float, int]:
    """(winner, wall seconds, analysed positions) of ``hex solve --first`` in a fresh
    process: the one-process DFPN when ``jobs`` is None, else the workers' search."""
    command = [sys.executable, "-m", "boardlab", "hex", "solve", str(sgf), "--first"]
    command += ["--time", str(seconds), "--json"]
    if jobs is not None:
        with tempfile.TemporaryDirectory() as folder:
            command += ["--jobs", str(jobs), "--workdir", folder]
            return _run(command, seconds)
    return _run(command, seconds)


def _run(command: list[str], seconds: float) -> tuple[int | None, float, int]:
    """The solver's own seconds (its kernels loaded first, the workers started within)."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 120)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: {done.stderr.strip()}")
    result = json.loads(done.stdout)
    return result["winner"], float(result["seconds"]), int(result["nodes"])


def theirs(
    binary: str, size: int, cell: str, seconds: float, threads: int = 1
) -> tuple[int | None, float]:
    """(winner, seconds of the question) of a fresh MoHex's ``dfpn-solve-state white``
    after black's stone on ``cell``, its DFPN on ``threads`` threads."""
    with tempfile.TemporaryDirectory() as folder:
        process = GtpProcess([binary], timeout=seconds + 60, cwd=folder)
        try:
            process.command(f"boardsize {size} {size}")
            process.command(f"param_dfpn timelimit {seconds}")
            process.command(f"param_dfpn threads {threads}")
            process.command(f"play black {cell}")
            started = time.perf_counter()
            answer = process.command("dfpn-solve-state white", seconds + 60).strip()
            spent = time.perf_counter() - started
        except ProtocolError:
            return None, seconds
        finally:
            process.close()
    return {"black": 1, "white": 2}.get(answer), spent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=8, help="board size (default 8)")
    parser.add_argument(
        "--openings", default="c6,d1,b8", help="opening cells, comma-separated (default c6,d1,b8)"
    )
    parser.add_argument("--workers", default="1,2", help="worker counts (default 1,2)")
    parser.add_argument("--time", type=float, default=600.0, help="seconds a proof (default 600)")
    parser.add_argument("--mohex", help="MoHex binary ($MOHEX); without one MoHex is skipped")
    parser.add_argument("--mohex-threads", default="1", help="MoHex DFPN thread counts (default 1)")
    parser.add_argument("--skip-dfpn", action="store_true", help="no one-process DFPN run")
    args = parser.parse_args(argv)
    size = args.size
    counts = [int(w) for w in args.workers.split(",") if w]
    mohex_counts = [int(w) for w in args.mohex_threads.split(",") if w]
    cells = [c.strip() for c in args.openings.split(",") if c.strip()]
    binary = mohex_binary(args.mohex or os.environ.get("MOHEX"))
    if binary is None:
        print("MoHex: no binary given (--mohex or $MOHEX): its column is left out")
    published, _ = published_winners(size)
    print(f"$ {' '.join(sys.argv)}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = []
    totals: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for cell in cells:
            index = vertex_index(cell, size)
            sgf = Path(folder) / f"{cell}.sgf"
            sgf.write_text(f"(;FF[4]GM[11]SZ[{size}];B[{cell}])\n")
            runs: dict[str, tuple[int | None, float, int]] = {}
            if not args.skip_dfpn:
                runs["dfpn"] = ours(sgf, None, args.time)
            for n in counts:
                runs[f"jobs={n}"] = ours(sgf, n, args.time)
            if binary is not None:
                for n in mohex_counts:
                    winner, spent = theirs(binary, size, cell, args.time, n)
                    runs[f"mohex={n}"] = (winner, spent, 0)
            winners = {w for w, _, _ in runs.values() if w is not None}
            known = published.get(index)
            agree = len(winners) <= 1 and (known is None or not winners or known in winners)
            line = "  ".join(
                f"{name} {COLOUR.get(w or 0, 'unsolved')} {s:.1f} s"
                + (f" ({a} analysed)" if a else "")
                for name, (w, s, a) in runs.items()
            )
            print(f"{cell}: {line}  {'agree' if agree else 'DISAGREE'}", flush=True)
            rows.append((cell, runs, agree))
            for name, (_, s, _) in runs.items():
                totals[name] = totals.get(name, 0.0) + s
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    names = list(rows[0][1]) if rows else []
    names = list(rows[0][1]) if rows else []
    print("| opening | " + " | ".join(f"{n} s" for n in names) + " | efficiency |")
    print("|---|" + "---|" * (len(names) + 1))
    for cell, runs, _ in rows:
        effs = []
        for base_name, prefix, ns in (("dfpn", "jobs", counts), ("mohex=1", "mohex", mohex_counts)):
            base = runs.get(base_name)
            for n in ns:
                mine = runs.get(f"{prefix}={n}")
                if n > 1 and base and mine and base[0] is not None and mine[0] is not None:
                    effs.append(f"{prefix} {n}: {base[1] / (n * mine[1]):.2f}")
        secs = " | ".join(f"{runs[n][1]:.1f}" for n in names)
        print(f"| {cell} | {secs} | {', '.join(effs) or '-'} |")
    for base_name, prefix, ns in (("dfpn", "jobs", counts), ("mohex=1", "mohex", mohex_counts)):
        for n in ns:
            name = f"{prefix}={n}"
            if base_name in totals and name in totals and n > 1:
                eff = totals[base_name] / (n * totals[name])
                print(
                    f"all: {name} {totals[name]:.1f} s against {base_name} "
                    f"{totals[base_name]:.1f} s: parallel efficiency {eff:.2f}"
                )
    for n in counts:
        for m in mohex_counts:
            if f"jobs={n}" in totals and f"mohex={m}" in totals and n == m:
                ratio = totals[f"jobs={n}"] / totals[f"mohex={m}"]
                print(f"boardlab {n} worker(s) / MoHex {m} thread(s): {ratio:.2f}")
    if "dfpn" in totals and "mohex=1" in totals:
        print(f"boardlab DFPN / MoHex 1 thread: {totals['dfpn'] / totals['mohex=1']:.2f}")
    print("(an unsolved case counts at the time limit)")
    return 0 if all(agree for _, _, agree in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
