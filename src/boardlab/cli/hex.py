"""Interface layer: ``boardlab hex ...``, the Hex verbs (engine, solver, IOI, GTP, matches).

Position files are diagrams or HexGui SGF (see :mod:`boardlab.hex.formats`); diagrams
use the IOI orientation (X = player 1 joins the left and right edges).

One name for every cell: ``show``, ``solve``, ``move`` and ``selfplay`` name cells as
HexGui does, whatever the input (black, player 1, joins top and bottom; ``c5`` is column
c, row 5 of HexGui's board), as GTP, SGF and the web page do; ``--json`` prints the
result's own ``as_dict()`` and adds nothing. The IOI orientation stays in the IOI
formats: the diagram files (``convert --to diagram``, ``generate``) and ``ioi``'s
``(row, column)`` moves. ``--line main|last`` picks the line of an SGF file with
variations (see :func:`boardlab.hex.formats.parse_sgf`).

``gtp`` and ``selfplay`` take ``--swap`` for the swap rule; ``ioi`` (no swap in the IOI statement)
exits with status 0 when our program wins and 1 when it loses.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.cli._command import Game, Verb
from boardlab.cli._hex_openings import (
    checkproof_configure,
    checkproof_run,
    checkstore_configure,
    checkstore_run,
    openings_configure,
    openings_run,
    ray_engine,
)
from boardlab.cli._io import write_file_atomically
from boardlab.cli._progress import slow_load_hint
from boardlab.cli._types import count_of, positive_number
from boardlab.core.errors import BoardlabError, ParseError

if TYPE_CHECKING:
    from boardlab.core.tasks import Engine
    from boardlab.hex.judge import GameRecord
    from boardlab.hex.rules import Position

__all__ = ["GAME"]

#: ``GameIsOver``'s code when our program (player 1) has won.
PROGRAM_WON = 2


def _load(path: str, line: str = "main") -> Position:
    """The position in a file (a diagram or HexGui SGF); a note on stderr names the line
    taken when the SGF has variations."""
    from boardlab.core.textio import read_source
    from boardlab.hex.formats import parse_position, parse_sgf, sgf_has_variations

    text, source = read_source(path)
    if not text.lstrip().startswith("("):
        return parse_position(text, source)
    position = parse_sgf(text, source, line=line)
    if sgf_has_variations(text, source):
        taken = "the main line (first variations)" if line == "main" else "the last variations"
        sys.stderr.write(f"{source}: the game has variations; read {taken} (--line)\n")
    return position


def _position_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", help="position file (diagram or SGF; - for stdin)")
    parser.add_argument(
        "--line",
        choices=["main", "last"],
        default="main",
        help="the line of an SGF game with variations (default: main, the first ones)",
    )
    # gone: every output names cells as HexGui does; kept only to say so
    parser.add_argument("--notation", help=argparse.SUPPRESS)


def _load_position(args: argparse.Namespace) -> Position:
    """The position ``args`` name, once an old ``--notation`` is refused with the reason."""
    if args.notation is not None:
        raise BoardlabError(
            "--notation is gone: boardlab names every cell as HexGui does "
            "(`hex convert --to diagram` writes the IOI orientation)"
        )
    return _load(args.position, args.line)


def _colour(player: int | None) -> str | None:
    return None if player is None else ("black" if player == 1 else "white")


_positive = positive_number()


def _threads(text: str) -> int:
    from boardlab.hex.engine.search import MAX_THREADS

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= value <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_THREADS}, got {text}")
    return value


def _threads_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--threads",
        type=_threads,
        default=1,
        help="threads growing one search tree, one a core (default 1)",
    )


#: The most worker processes ``hex solve --jobs`` starts.
MAX_JOBS = 64


def _outcome_line(position: Position) -> str:
    if position.winner is not None:
        return f"{_colour(position.winner)} (player {position.winner}) has won"
    return f"{_colour(position.to_move)} (player {position.to_move}) to move"


# -- show / convert ------------------------------------------------------------------------


def _show_configure(parser: argparse.ArgumentParser) -> None:
    _position_options(parser)
    parser.add_argument("--svg", metavar="FILE", help="also write an SVG picture to FILE")


def _show_run(args: argparse.Namespace) -> int:
    from boardlab.render.hex import hexgui_diagram, svg_picture

    position = _load_position(args)
    text = hexgui_diagram(position) + _outcome_line(position) + "\n"
    if args.svg:
        write_file_atomically(args.svg, svg_picture(position))
    sys.stdout.write(text)
    return 0


def _convert_configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", help="position file (diagram or SGF; - for stdin)")
    parser.add_argument(
        "--to", choices=["diagram", "sgf"], default="sgf", help="output format (default: sgf)"
    )
    parser.add_argument(
        "--line",
        choices=["main", "last"],
        default="main",
        help="the line of an SGF game with variations (default: main, the first ones)",
    )


def _convert_run(args: argparse.Namespace) -> int:
    from boardlab.hex.formats import format_diagram, format_sgf, parse_diagram

    position = _load(args.position, args.line)
    if args.to == "sgf":
        sys.stdout.write(format_sgf(position))
        return 0
    text = format_diagram(position)
    # a diagram names no side to move: the stones' counts do, so it cannot hold every
    # position an SGF can (a puzzle's setup, a record of moves out of turn)
    try:
        back = parse_diagram(text)
    except ParseError as exc:
        reason = exc.message
        raise BoardlabError(
            f"{args.position}: a diagram cannot hold this position ({reason}); keep it as SGF"
        ) from None
    if back.board != position.board or back.to_move != position.to_move:
        raise BoardlabError(
            f"{args.position}: a diagram cannot hold this position (the stones' counts say "
            "another side is to move); keep it as SGF"
        )
    sys.stdout.write(text)
    return 0


# -- solve / move ------------------------------------------------------------------------------


def _solve_configure(parser: argparse.ArgumentParser) -> None:
    _position_options(parser)
    parser.add_argument("--time", type=_positive, default=60.0, help="seconds (default 60)")
    parser.add_argument(
        "--first",
        action="store_true",
        help="stop at the first winning move instead of classifying every move",
    )
    parser.add_argument(
        "--memory",
        metavar="SIZE",
        help="memory budget of the search, e.g. 4G (default: 80%% of the free memory); "
        "past it the search stops and prints what it proved",
    )
    parser.add_argument(
        "--mustplay",
        action="store_true",
        help="classify only the must-play moves left by the inferior-cell analysis, as "
        "MoHex's dfpn-solver-find-winning does (boards up to 11x11)",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        metavar="FILE",
        help="resume the search from FILE if it exists and save it there (boards up to 8x8)",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=count_of("jobs", MAX_JOBS),
        default=1,
        metavar="N",
        help="prove the moves on N processes at once (boards up to 8x8; default 1); with "
        "--first the N processes prove the position together (job-level search, boards up "
        "to 11x11)",
    )
    where.add_argument(
        "--workers",
        type=count_of("workers"),
        metavar="N",
        help="with --first: the workers of a local Ray cluster of N CPUs prove it together",
    )
    where.add_argument(
        "--address",
        metavar="ADDR",
        help="with --first: the workers of the running Ray cluster at ADDR prove it together "
        "(give --workdir a folder every machine sees)",
    )
    parser.add_argument(
        "--workdir",
        type=Path,
        metavar="DIR",
        help="with --first: the workers' store of proven positions, kept in the existing "
        "folder DIR so that a later run starts from it",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the result as JSON (its as_dict())"
    )


def _solve_run(args: argparse.Namespace) -> int:
    from boardlab.cli._progress import ProgressLine, counting
    from boardlab.cli._signals import stop_on_signal
    from boardlab.core.limits import Limit
    from boardlab.core.memory import parse_size
    from boardlab.core.progress import progress_scope
    from boardlab.hex.prover.solver import solve

    position = _load_position(args)
    engine: Engine | None = None
    if args.checkpoint is not None and args.jobs > 1 and not args.first:
        raise BoardlabError("--checkpoint is kept by a one-job search only (drop --jobs)")
    if args.workdir is not None and not args.first:
        raise BoardlabError("--workdir keeps the workers' proofs of --first (add --first)")
    if args.workdir is not None and not args.workdir.is_dir():
        raise BoardlabError(f"--workdir: {args.workdir}: no such folder")
    on_ray = args.workers is not None or args.address is not None
    if on_ray and not args.first:
        raise BoardlabError("--workers and --address prove with --first (add --first)")
    if on_ray:
        engine = ray_engine(args.workers, args.address, pinned=True)
    elif args.jobs > 1 or args.workdir is not None:
        from boardlab.cluster.process_engine import ProcessEngine

        engine = ProcessEngine(args.jobs, pinned=True)
    what = f"{position.size}x{position.size} solve"
    try:
        with (
            stop_on_signal(f"the {what}"),
            ProgressLine(what) as line,
            progress_scope(counting(line, what, "positions analysed")),
        ):
            result = solve(
                position,
                Limit(time=args.time),
                all_moves=not args.first,
                checkpoint=args.checkpoint,
                engine=engine,
                mustplay=args.mustplay,
                memory=None if args.memory is None else parse_size(args.memory),
                workdir=args.workdir,
            )
    finally:
        if engine is not None:
            engine.close()
    if args.json:
        sys.stdout.write(json.dumps(result.as_dict()) + "\n")
        return 0
    who = (
        "unknown (search incomplete)"
        if result.winner is None
        else f"{_colour(result.winner)} (player {result.winner})"
    )
    wins = " ".join(cell.vertex() for cell in result.winning_moves) or "-"
    loses = " ".join(cell.vertex() for cell in result.losing_moves) or "-"
    pruned = " ".join(cell.vertex() for cell in result.pruned_moves)
    lines = [
        f"to move: {_colour(result.to_move)} (player {result.to_move})",
        f"winner: {who}",
        f"winning moves: {wins}" + ("" if result.complete else " (list may be incomplete)"),
        f"losing moves: {loses}",
        *([f"pruned moves: {pruned}"] if pruned else []),
        f"nodes: {result.nodes}  time: {result.seconds:.2f} s  complete: {result.complete}",
        *(["stopped: over its memory budget"] if result.stopped == "memory" else []),
    ]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _move_configure(parser: argparse.ArgumentParser) -> None:
    _position_options(parser)
    parser.add_argument("--time", type=_positive, default=1.0, help="seconds (default 1)")
    parser.add_argument(
        "--playouts", type=count_of("playouts"), help="a playout limit instead (reproducible)"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    _threads_option(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the move and its evidence as JSON",
    )


def _move_run(args: argparse.Namespace) -> int:
    from boardlab.core.limits import Limit
    from boardlab.hex.player import SolvingEngine, warm_up

    position = _load_position(args)
    limit = Limit(nodes=args.playouts) if args.playouts else Limit(time=args.time)
    with slow_load_hint("hex move"):
        warm_up(position.size)
    result = SolvingEngine(seed=args.seed, threads=args.threads).search(position, limit)
    if args.json:
        sys.stdout.write(json.dumps(result.as_dict()) + "\n")
        return 0
    top = ", ".join(f"{cell.vertex()} {v} {r:.2f}" for cell, v, r in result.top)
    sys.stdout.write(
        f"{result.cell.vertex()} ({_colour(position.to_move)} to move)\n"
        f"win rate {result.win_rate:.3f} ({result.reason}); "
        f"{result.playouts} playouts in {result.seconds:.2f} s; top: {top}\n"
    )
    return 0


# -- gtp ------------------------------------------------------------------------------------------


def _gtp_configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time",
        type=_positive,
        default=1.0,
        help="seconds per genmove (default 1; time_left may lower it)",
    )
    parser.add_argument("--size", type=int, default=11, help="initial board size (default 11)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    _threads_option(parser)
    parser.add_argument(
        "--swap",
        action="store_true",
        help="start with the swap rule on (as 'param_game allow_swap 1' does)",
    )


def _gtp_run(args: argparse.Namespace) -> int:
    from boardlab.hex.gtp import HexGtp
    from boardlab.hex.player import SolvingEngine, warm_up

    def loading() -> slow_load_hint:
        return slow_load_hint("hex gtp")

    session = HexGtp(  # checks the size before the kernels are loaded
        SolvingEngine(seed=args.seed, threads=args.threads),
        size=args.size,
        move_time=args.time,
        swap=args.swap,
        loading=loading,
    )
    with loading():
        warm_up(args.size)
    for line in sys.stdin:
        reply, quit_ = session.handle_line(line)
        if reply:
            sys.stdout.write(reply)
            sys.stdout.flush()
        if quit_:
            break
    return 0


# -- ioi / generate -----------------------------------------------------------------------------


_IOI_DESCRIPTION = """\
play a full IOI game as player 1 against the evaluator library

exit status:
  0  our program (player 1) won the game
  1  our program lost: the library (player 2) won
  2  bad input (unreadable or malformed file, a start the statement does not allow),
     with a one-line error on stderr"""


def _ioi_configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", help="start position (equal stones, player 1 to move)")
    parser.add_argument(
        "--strength",
        default="strong",
        choices=["random", "weak", "medium", "strong"],
        help="the evaluator's strength (default strong: 20 s of search)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--time",
        type=_positive,
        default=20.0,
        help="our side's seconds for the game (default 20 of the IOI 40)",
    )


def _ioi_run(args: argparse.Namespace) -> int:
    from boardlab.hex.hexlib import Evaluator, HexLib, play_ioi_game
    from boardlab.hex.player import SolvingEngine, warm_up

    position = _load(args.position)
    with slow_load_hint("hex ioi"):
        warm_up(position.size)
    lib = HexLib(position, Evaluator(args.strength, seed=args.seed))
    game = play_ioi_game(lib, SolvingEngine(seed=args.seed + 1), total_time=args.time)
    verdict = {1: "board full", 2: "our program (player 1) won", 3: "the library won"}
    lines = [
        f"IOI Hex {position.size}x{position.size}, evaluator {args.strength}",
        "moves (player row column): " + ", ".join(f"{p} {r} {c}" for p, r, c in game.moves),
        f"GameIsOver = {game.result}: {verdict.get(game.result, '?')}",
        f"moves {len(game.moves)}; program {game.program_seconds:.2f} s, library "
        f"{game.library_seconds:.2f} s, whole game {game.seconds:.2f} s (limit 40 s)",
    ]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0 if game.result == PROGRAM_WON else 1


def _generate_configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, required=True, help="board size 1..26")
    parser.add_argument("--stones", type=int, default=0, help="stones of each player (default 0)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--format", choices=["diagram", "sgf"], default="diagram")


def _generate_run(args: argparse.Namespace) -> int:
    from boardlab.hex.formats import format_diagram, format_sgf
    from boardlab.hex.hexlib import generate_start
    from boardlab.hex.rules import check_size

    position, certified = generate_start(check_size(args.size), args.stones, seed=args.seed)
    note = (
        "not certified (engine estimate)"
        if not certified
        else "certified by the exact solver"
        if args.stones
        else "the empty board, won by the first player on every size (strategy stealing)"
    )
    body = format_diagram(position) if args.format == "diagram" else format_sgf(position)
    prefix = (
        f"# IOI start: player 1 to move and winning, {note}\n" if args.format == "diagram" else ""
    )
    sys.stdout.write(prefix + body)
    return 0


# -- match / selfplay ------------------------------------------------------------------------------


def _match_configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=11, help="board size (default 11)")
    parser.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    parser.add_argument("--time", type=_positive, default=1.0, help="seconds per move (both)")
    parser.add_argument(
        "--timeout",
        type=_positive,
        default=10.0,
        help="extra seconds an engine may take on a reply before it loses",
    )
    parser.add_argument("--seed", type=int, default=0, help="our engine's seed (default 0)")
    _threads_option(parser)
    parser.add_argument(
        "--prove",
        type=_positive,
        default=10.0,
        help="seconds boardlab's solver may take to decide a game a player failed in; "
        "unproven, the game is void (default 10)",
    )
    parser.add_argument(
        "--sgf",
        type=Path,
        default=Path("hex-match"),
        metavar="DIR",
        help="folder that keeps every game as HexGui SGF, each written as soon as it ends "
        "(default: ./hex-match; made if missing)",
    )
    parser.add_argument(
        "engine", nargs=argparse.REMAINDER, help="-- COMMAND ...: the opponent's GTP command line"
    )


def _outcome(record: GameRecord) -> str:
    """``black won``, ``white won`` or ``void``, as a match line says it."""
    from boardlab.hex.judge import color_name

    return "void" if record.winner is None else f"{color_name(record.winner)} won"


def _match_run(args: argparse.Namespace) -> int:
    from boardlab.hex.match import EnginePlayer, SolverProver, game_folder, run_match, save_game
    from boardlab.hex.player import SolvingEngine
    from boardlab.hex.rules import check_size
    from boardlab.peers.gtp_process import GtpProcess

    command = (
        [word for word in args.engine if word != "--"]
        if args.engine[:1] == ["--"]
        else (list(args.engine))
    )
    if not command:
        raise BoardlabError("give the opponent's command after --, e.g. -- mohex --use-logfile=0")
    if args.games < 1:
        raise BoardlabError(f"--games must be at least 1, got {args.games}")
    check_size(args.size)
    folder = game_folder(args.sgf)
    ours = EnginePlayer(SolvingEngine(seed=args.seed, threads=args.threads))
    theirs = GtpProcess(command, timeout=args.timeout, grace=args.timeout)
    verbose = sys.stderr.isatty()

    def report(number: int, record: GameRecord, ours_black: bool) -> None:
        save_game(folder, number, record, ours_black, "boardlab hex match")
        if verbose:
            side = "black" if ours_black else "white"
            won = record.winner == (1 if ours_black else 2)
            outcome = "void" if record.void else ("won" if won else "lost")
            print(
                f"game {number + 1}: boardlab {side} {outcome} "
                f"({record.reason}, {len(record.moves)} moves)",
                file=sys.stderr,
            )

    try:
        result = run_match(
            ours, theirs, args.size, args.games, args.time, report, SolverProver(args.prove)
        )
    finally:
        theirs.close()
    lines = [
        f"match boardlab vs {theirs.name}: {args.size}x{args.size}, {args.games} games, "
        f"{args.time:g} s per move",
        *result.table("boardlab", theirs.name),
    ]
    for number, record in enumerate(result.games):
        lines.append(
            f"game {number + 1}: black {record.black}, white {record.white}: "
            f"{_outcome(record)} ({record.reason}) "
            f"{' '.join(record.moves)}"
        )
    lines.append(f"games saved as SGF in {folder}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _selfplay_configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=7, help="board size (default 7)")
    parser.add_argument(
        "--playouts",
        type=count_of("playouts"),
        default=2000,
        help="playouts per move for both sides (default 2000)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--swap",
        action="store_true",
        help="play with the swap rule: player 2 may swap player 1's first stone",
    )


def _selfplay_lines(size: int, playouts: int, seed: int, swap: bool = False) -> list[str]:
    from boardlab.core.words import counted
    from boardlab.hex.selfplay import self_play
    from boardlab.render.hex import hexgui_diagram

    if playouts < 1:
        raise BoardlabError(f"--playouts must be at least 1, got {playouts}")
    game = self_play(size, playouts, seed, swap)
    return [
        f"moves: {' '.join(game.moves)}",
        *hexgui_diagram(game.position).splitlines(),
        f"{_colour(game.winner)} (player {game.winner}) won after "
        f"{counted(len(game.moves), 'move')}",
    ]


def _selfplay_run(args: argparse.Namespace) -> int:
    lines = _selfplay_lines(args.size, args.playouts, args.seed, args.swap)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _warm_up() -> None:
    from boardlab.hex.player import warm_up

    warm_up()


def _demo() -> list[str]:
    from boardlab.core.limits import Limit
    from boardlab.hex.prover.solver import solve
    from boardlab.hex.rules import Position

    result = solve(Position(4), Limit(time=10))
    wins = " ".join(cell.vertex() for cell in result.winning_moves)
    lines = [
        f"4x4 solved: player 1 wins; winning openings {wins} ({result.nodes} nodes, "
        f"{result.seconds:.2f} s)"
    ]
    lines.append("5x5 engine vs engine, 1000 playouts a move:")
    lines.extend("  " + line for line in _selfplay_lines(5, 1000, 0))
    return lines


GAME = Game(
    "hex",
    "Hex (IOI 1997): engine, exact solver, IOI library, GTP and matches",
    (
        Verb(
            "show",
            "draw a position file (diagram or SGF), optionally as SVG",
            _show_configure,
            _show_run,
        ),
        Verb(
            "convert",
            "convert a position between the diagram and HexGui SGF",
            _convert_configure,
            _convert_run,
        ),
        Verb("solve", "exact winner and winning moves of a position", _solve_configure, _solve_run),
        Verb(
            "openings",
            "every first move of the empty board proven (resumable work folder, workers)",
            openings_configure,
            openings_run,
        ),
        Verb(
            "checkproof",
            "replay stored proof trees with the rules alone (OK or the first bad node)",
            checkproof_configure,
            checkproof_run,
        ),
        Verb(
            "checkstore",
            "check every proven position of a work folder's store with a fresh proof tree",
            checkstore_configure,
            checkstore_run,
        ),
        Verb("move", "the engine's move in a position", _move_configure, _move_run),
        Verb(
            "gtp",
            "run as a GTP engine on stdin/stdout (HexGui conventions)",
            _gtp_configure,
            _gtp_run,
        ),
        Verb(
            "ioi",
            "play a full IOI game as player 1 against the evaluator library",
            _ioi_configure,
            _ioi_run,
            _IOI_DESCRIPTION,
        ),
        Verb(
            "generate",
            "an IOI-style start position (player 1 to move and winning)",
            _generate_configure,
            _generate_run,
        ),
        Verb(
            "match",
            "our engine against a GTP engine, colours alternated",
            _match_configure,
            _match_run,
        ),
        Verb(
            "selfplay",
            "one engine-vs-engine game with fixed playouts (reproducible)",
            _selfplay_configure,
            _selfplay_run,
        ),
    ),
    demo=_demo,
    warm_up=_warm_up,
)
