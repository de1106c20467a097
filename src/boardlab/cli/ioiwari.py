"""Interface layer: ``boardlab ioiwari`` -- play, judge, analyze, versus, solve.

``play`` is the IOI contest program (player 1 on stdin/stdout); ``judge`` runs any
program as player 1 against the perfect opponent; ``analyze`` values every move of a
position; ``versus`` lets a person play the perfect player; ``solve`` builds (and
caches) the value table and prints what it says about the starts.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.cli._command import Game, Verb
from boardlab.cli._io import write_file_atomically
from boardlab.cli._progress import ProgressLine
from boardlab.core.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.ioiwari.rules import Move, State, Variant
    from boardlab.ioiwari.solver import ValueOracle

__all__ = ["GAME"]

#: Moves taken back by one undo in ``versus``: the person's and the reply.
_ROUND = 2
_VARIANT_HELP = "game parameters, e.g. 'pits=7 cap=5 total=20 start=2..4' (the IOI game)"


def _add_common(
    parser: argparse.ArgumentParser, *, solver: bool = True, default: str = "table"
) -> None:
    parser.add_argument("--variant", default="", metavar="SPEC", help=_VARIANT_HELP)
    if solver:
        parser.add_argument(
            "--solver",
            choices=("table", "memo", "auto"),
            default=default,
            help="table: the full value table (disk cache, else built by the numba kernel "
            "and cached); memo: pure-Python memoised search of the positions reached; "
            f"auto: the cached table if there is one, else memo (default: {default})",
        )
        parser.add_argument(
            "--no-cache", action="store_true", help="neither read nor write the table cache"
        )


def _variant(args: argparse.Namespace) -> Variant:
    from boardlab.ioiwari.rules import IOI, Variant

    return Variant.parse(args.variant) if args.variant.strip() else IOI


def _evaluator(args: argparse.Namespace, variant: Variant) -> ValueOracle:
    from boardlab.ioiwari.solver import MemoSolver

    if args.solver == "memo":
        return MemoSolver(variant)
    if args.solver == "auto":
        from boardlab.ioiwari.store import load_table, table_path

        cached = None if args.no_cache else load_table(table_path(variant), variant)
        return cached if cached is not None else MemoSolver(variant)
    from boardlab.ioiwari.store import get_table

    return get_table(variant, cache=not args.no_cache).table


# ---------------------------------------------------------------- play


def _configure_play(parser: argparse.ArgumentParser) -> None:
    _add_common(parser, default="auto")


def _run_play(args: argparse.Namespace) -> int:
    from boardlab.ioiwari.player import ContestPlayer
    from boardlab.ioiwari.solver import PerfectPlayer

    variant = _variant(args)
    player = ContestPlayer(PerfectPlayer(_evaluator(args, variant)).choose, variant)
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline()
        if not raw:
            break
        for line in player.feed(raw.decode("utf-8", "replace")):
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        if player.finished:
            return 0
    player.close()
    return 0


# ---------------------------------------------------------------- judge


def _configure_judge(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--starts",
        default="all",
        metavar="all|N",
        help="every legal start (357 for IOI) or N of them sampled with --seed (default: all)",
    )
    parser.add_argument(
        "--start",
        action="append",
        default=[],
        metavar="PITS",
        help="judge this start instead (repeatable), e.g. '4 3 2 4 2 3 2'",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the sample and of the opponent's ties"
    )
    parser.add_argument(
        "--time", type=float, default=2.0, metavar="T", help="seconds a game (default: 2)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="games at a time (default: 2)")
    parser.add_argument(
        "--show",
        choices=("failures", "all", "none"),
        default="failures",
        help="which games to list after the table (default: failures)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    _add_common(parser)
    parser.add_argument(
        "command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...]: the program to judge"
    )


def _run_judge(args: argparse.Namespace) -> int:
    from boardlab.ioiwari.formats import parse_start
    from boardlab.ioiwari.judge import Opponent, format_report, judge, select_starts
    from boardlab.ioiwari.solver import PerfectPlayer
    from boardlab.peers.ioiwari_channel import ProcessChannel

    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise BoardlabError("no program to judge: give it after '--', e.g. -- ./player")
    if shutil.which(command[0]) is None:
        raise BoardlabError(f"cannot run {command[0]!r}: not found or not executable")
    variant = _variant(args)
    if args.start:
        starts = [
            parse_start(text, variant, source=f"--start {index}")
            for index, text in enumerate(args.start, start=1)
        ]
        for pits in starts:
            variant.check_start(pits)
    else:
        try:
            starts = select_starts(variant, args.starts, args.seed)
        except BoardlabError as exc:
            raise BoardlabError(f"--starts: {exc}") from exc
    evaluator = _evaluator(args, variant)

    def opponent_for(index: int, start: Sequence[int]) -> Opponent:
        rng = random.Random(f"{args.seed}:{' '.join(map(str, start))}")
        return PerfectPlayer(evaluator, rng).choose

    with ProgressLine("judging", total=len(starts)) as progress:
        report = judge(
            command,
            starts,
            opponent_for,
            variant,
            connect=ProcessChannel,
            time_limit=args.time,
            jobs=args.jobs,
            on_record=lambda _record: progress.advance(),
        )
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print("\n".join(format_report(report, show=args.show)))
    return 0


# ---------------------------------------------------------------- analyze


def _configure_analyze(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        help="'PITS' (a start: empty banks, player 1 to move) or 'PITS | BANK1 BANK2 | PLAYER'",
    )
    parser.add_argument("--line", action="store_true", help="also play out a perfect game")
    parser.add_argument("--svg", type=Path, metavar="FILE", help="write a picture of the board")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    _add_common(parser)


def _run_analyze(args: argparse.Namespace) -> int:
    from boardlab.ioiwari.rules import Position
    from boardlab.ioiwari.solver import analyse

    variant = _variant(args)
    position = Position.parse(args.position)
    variant.check_pits(position.pits)
    evaluator = _evaluator(args, variant)
    result = analyse(evaluator, position, line=args.line)
    lines = [f"position  {position}"]
    if not result.moves:
        lines.append(f"the game is over: {position.banks[0]} : {position.banks[1]}")
    else:
        first, second = result.final_banks
        verdict = "a draw" if first == second else f"player {1 if first > second else 2} wins"
        lines.append(
            f"value     {result.value:+d} for player {position.to_move} (the bank difference "
            f"still to come); final banks {first} : {second} under perfect play, {verdict}"
        )
        lines.append(f"best      {' '.join(map(str, result.best))}")
        lines.append("")
        lines.append("pit  beads  banked  given  value")
        for move in result.moves:
            mark = "  best" if move.value == result.value else ""
            beads = position.pits[move.pit - 1]
            lines.append(
                f"{move.pit:>3}  {beads:>5}  {move.gain:>6}  {move.loss:>5}  "
                f"{move.value:>+5d}{mark}"
            )
    if result.line is not None:
        from boardlab.ioiwari.rules import Move, State
        from boardlab.render.ioiwari import transcript

        state = State.from_position(position, variant)
        for pit in result.line:
            state.push(Move(pit))
        lines.append("")
        if position.banks == (0, 0) and position.to_move == 1:
            lines.append(transcript(position.pits, state.history, variant))
        else:
            moves = " ".join(map(str, (m.pit for m in state.history)))
            lines.append(f"perfect line: {moves}")
    if args.svg is not None:
        from boardlab.render.ioiwari import board_svg

        write_file_atomically(str(args.svg), board_svg(position))
    if args.json:
        print(json.dumps(result.as_dict(), indent=2))
    else:
        print("\n".join(lines))
    return 0


# ---------------------------------------------------------------- versus


def _configure_versus(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--as", dest="side", type=int, choices=(1, 2), default=1, help="your side (default 1)"
    )
    parser.add_argument("--start", default="", metavar="PITS", help="the start (default: random)")
    parser.add_argument("--seed", type=int, help="seed of the random start")
    _add_common(parser)


def _run_versus(args: argparse.Namespace) -> int:
    from boardlab.core.errors import IllegalMoveError
    from boardlab.ioiwari.formats import parse_start
    from boardlab.ioiwari.rules import Move, State
    from boardlab.ioiwari.solver import PerfectPlayer, move_values
    from boardlab.render.ioiwari import board_text

    variant = _variant(args)
    if args.start.strip():
        pits = parse_start(args.start, variant, source="--start")
    else:
        seed = args.seed if args.seed is not None else random.randrange(1_000_000)
        pits = random.Random(seed).choice(variant.starts())
        print(f"random start (seed {seed})")
    evaluator = _evaluator(args, variant)
    state = State(variant, pits)
    computer = PerfectPlayer(evaluator)
    say = _printer()
    say(f"you are player {args.side}; pits are 1..{variant.pits} clockwise")
    say("type a pit label, '?' for the value of every move, 'u' to undo, 'q' to quit")
    while not state.is_over():
        say("")
        say(board_text(state.position()))
        if state.to_move != args.side:
            move = computer.choose(state)
            _describe(say, state, move, "the perfect player")
            state.play(move)
            continue
        sys.stdout.write(f"your move (pit 1-{variant.pits}): ")
        sys.stdout.flush()
        raw = sys.stdin.readline()
        if not raw:
            say("")
            say("input ended: game abandoned")
            return 0
        answer = raw.strip().lower()
        if answer in ("q", "quit"):
            say("you resigned")
            return 0
        if answer == "?":
            values = move_values(evaluator, state.pits)
            say("  ".join(f"pit {pit}: {value:+d}" for pit, value in values.items()))
            continue
        if answer in ("u", "undo"):
            if len(state.history) < _ROUND:
                say("nothing to undo")
                continue
            state.pop()
            state.pop()
            continue
        if not answer.isdigit() or not answer.isascii():
            say(f"{raw.strip()!r} is not a pit label")
            continue
        move = Move(int(answer))
        try:
            state.play(move)
        except IllegalMoveError as exc:
            say(f"illegal: {exc}")
            continue
        state.pop()
        _describe(say, state, move, "you")
        state.play(move)
    outcome = state.outcome()
    assert outcome is not None
    say("")
    say(board_text(state.position()))
    mine = outcome.banks[args.side - 1]
    theirs = outcome.banks[2 - args.side]
    verdict = "you win" if mine > theirs else "a draw" if mine == theirs else "you lose"
    say(f"game over: {outcome.banks[0]} : {outcome.banks[1]}, {verdict}")
    return 0


def _printer() -> Callable[[str], None]:
    def say(text: str) -> None:
        print(text, flush=True)

    return say


def _describe(say: Callable[[str], None], state: State, move: Move, who: str) -> None:
    from boardlab.ioiwari.rules import sow_trace

    steps = sow_trace(state.pits, move.pit - 1, state.variant.cap)
    detail = ", ".join(f"{pit}: {what}" for pit, what in steps)
    verb = "empty" if who == "you" else "empties"
    say(f"{who} {verb} pit {move.pit} ({detail})")


# ---------------------------------------------------------------- solve


def _configure_solve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--verify",
        action="store_true",
        help="check the table against the pure-Python memoised solver on every start "
        "and every position reachable from one",
    )
    _add_common(parser, solver=False)
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write the table cache"
    )


def _run_solve(args: argparse.Namespace) -> int:
    from boardlab.ioiwari.store import get_table

    variant = _variant(args)
    load = get_table(variant, cache=not args.no_cache)
    table = load.table
    where = f" ({load.path})" if load.path is not None else ""
    saved = ", saved" if load.saved else ""
    lines = [
        f"variant   {variant}",
        f"table     {variant.size:,} codes, {load.source} in {load.seconds:.3f} s{saved}{where}",
    ]
    starts = variant.starts()
    values = [table.value(pits) for pits in starts]
    wins = sum(1 for v in values if v > 0)
    draws = sum(1 for v in values if v == 0)
    lines.append(
        f"starts    {len(starts)}: player 1 wins {wins}, draws {draws}, loses "
        f"{len(starts) - wins - draws} under perfect play"
    )
    if values:
        low, high = min(values), max(values)
        lines.append(
            f"values    {low:+d} .. {high:+d}; hardest start "
            f"{' '.join(map(str, starts[values.index(low)]))}, easiest "
            f"{' '.join(map(str, starts[values.index(high)]))}"
        )
    if args.verify:
        from boardlab.ioiwari.solver import MemoSolver

        started = time.perf_counter()
        memo = MemoSolver(variant)
        for pits in starts:
            memo.value(pits)
        wrong = [pits for pits, value in memo.memo.items() if table.value(pits) != value]
        lines.append(
            f"verified  {len(memo.memo):,} positions against the memoised solver in "
            f"{time.perf_counter() - started:.2f} s: {len(wrong)} differ"
        )
        if wrong:
            print("\n".join(lines))
            raise BoardlabError(f"the table differs from the memoised solver at {wrong[0]}")
    print("\n".join(lines))
    return 0


# ---------------------------------------------------------------- demo


def _warm_up() -> None:
    from boardlab.ioiwari._kernel import build_values

    build_values(1, 1)  # the table kernel compiled (on a fresh install), on a tiny table


def _demo() -> list[str]:
    from boardlab.ioiwari.rules import IOI, Position, State
    from boardlab.ioiwari.solver import PerfectPlayer, analyse
    from boardlab.ioiwari.store import get_table

    load = get_table(IOI)
    table = load.table
    start = (4, 3, 2, 4, 2, 3, 2)
    result = analyse(table, Position(start))
    state = State(IOI, start)
    player = PerfectPlayer(table)
    while not state.is_over():
        state.play(player.choose(state))
    values = [table.value(pits) for pits in IOI.starts()]
    return [
        f"value table: {IOI.size:,} codes, {load.source} in {load.seconds:.3f} s",
        f"start {' '.join(map(str, start))}: value {result.value:+d}, "
        f"best first moves {' '.join(map(str, result.best))}",
        f"a perfect game: {' '.join(str(m.pit) for m in state.history)} "
        f"-> {state.banks[0]} : {state.banks[1]}",
        f"{len(values)} legal starts: player 1 wins {sum(v > 0 for v in values)} "
        f"under perfect play (values {min(values):+d} .. {max(values):+d})",
    ]


_VERBS = (
    Verb(
        "play",
        "the IOI contest program: player 1 on stdin/stdout",
        _configure_play,
        _run_play,
        "Read the 7 starting pit counts, then write our move and read the opponent's until "
        "every pit is empty. Nothing but moves on stdout; a bad start line or an illegal "
        "opponent move is one line on stderr and exit status 2.",
    ),
    Verb(
        "judge",
        "run a program as player 1 against perfect play and score it",
        _configure_judge,
        _run_judge,
        "One process of COMMAND per start, with a time limit a game; crashes, silence, "
        "garbage and illegal pits lose that game with the reason. IOI scoring: win 4, "
        "draw 2, loss 0. Example: boardlab ioiwari judge --starts all -- boardlab ioiwari play",
    ),
    Verb(
        "analyze",
        "the exact value of a position and of every legal move",
        _configure_analyze,
        _run_analyze,
    ),
    Verb(
        "versus", "play against the perfect player in the terminal", _configure_versus, _run_versus
    ),
    Verb(
        "solve",
        "build (and cache) the value table; what it says about every start",
        _configure_solve,
        _run_solve,
    ),
)

GAME = Game(
    "ioiwari",
    "Ioiwari (IOI 2001): perfect play, the IOI protocol and its judge",
    _VERBS,
    demo=_demo,
    warm_up=_warm_up,
)
