"""Benchmark: boardlab's Hex engine against OpenSpiel's MCTS bot at equal time per move.

OpenSpiel (``pyspiel``, game ``hex`` with ``board_size``) uses HexGui's orientation:
player 0 (``x``, first) joins top and bottom, action ``r * n + c`` is column ``c`` and
row ``r`` (``a1`` = action 0). Its MCTSBot takes a simulation count, not a time, so
the count is calibrated per board size to take the same time per move as ours.

Every game is refereed by ``boardlab.hex.judge.play_game`` (it checks every move).
Run from the repository root:

    .venv/bin/python benchmarks/bench_hex_openspiel.py --time 0.2 --games 2

``--gtp`` instead runs OpenSpiel's bot as a GTP engine on stdin/stdout, so that
``boardlab hex match -- .venv/bin/python benchmarks/bench_hex_openspiel.py --gtp``
works too.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from boardlab.core.errors import ProtocolError
from boardlab.core.limits import Limit
from boardlab.hex.engine import kernel as _kernel
from boardlab.hex.engine.search import tables
from boardlab.hex.match import EnginePlayer, run_match
from boardlab.hex.player import SolvingEngine, warm_up
from boardlab.hex.rules import BLACK, Cell, Position


def action_of(vertex: str, size: int) -> int:
    """OpenSpiel action of a GTP vertex (both in HexGui's orientation)."""
    cell = Cell.parse(vertex, size)  # column letter, row number, as in HexGui
    return cell.row * size + cell.col


def vertex_of(action: int, size: int) -> str:
    """GTP vertex of an OpenSpiel action."""
    return str(Cell(*divmod(action, size)))


class OpenSpielPlayer:
    """OpenSpiel's MCTSBot (random rollouts) as a referee's player."""

    def __init__(self, sims_per_second: dict[int, float], seed: int = 0) -> None:
        import pyspiel

        self.pyspiel = pyspiel
        self.name = "openspiel-mcts"
        self.sims_per_second = sims_per_second
        self.seed = seed
        self.size = 0
        self.state: Any = None  # pyspiel's state and game once a game is set up
        self.game: Any = None

    def new_game(self, size: int) -> None:
        self.size = size
        self.game = self.pyspiel.load_game("hex", {"board_size": size})
        self.state = self.game.new_initial_state()

    def play(self, color: int, vertex: str) -> None:
        assert self.state is not None
        action = action_of(vertex, self.size)
        if self.state.current_player() != color - 1 or action not in self.state.legal_actions():
            raise ProtocolError(f"illegal move {vertex}")
        self.state.apply_action(action)

    def genmove(self, color: int, seconds: float) -> str:
        from open_spiel.python.algorithms import mcts

        assert self.state is not None
        sims = max(10, int(self.sims_per_second[self.size] * seconds))
        rng = np.random.RandomState(self.seed)
        self.seed += 1
        bot = mcts.MCTSBot(
            self.game,
            uct_c=2.0,
            max_simulations=sims,
            evaluator=mcts.RandomRolloutEvaluator(1, rng),
            solve=True,
            random_state=rng,
        )
        action = bot.step(self.state)
        self.state.apply_action(action)
        return vertex_of(action, self.size)

    def close(self) -> None:
        pass


def calibrate(size: int, seconds: float = 1.0) -> float:
    """OpenSpiel MCTS simulations per second from an empty board."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("hex", {"board_size": size})
    rng = np.random.RandomState(0)
    sims = 50
    while True:
        bot = mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=sims,
            evaluator=mcts.RandomRolloutEvaluator(1, rng),
            random_state=rng,
        )
        started = time.perf_counter()
        bot.step(game.new_initial_state())
        elapsed = time.perf_counter() - started
        if elapsed > seconds * 0.5 or sims > 100_000:
            return sims / elapsed
        sims *= 2


def our_playouts_per_second(size: int, seconds: float = 1.0) -> tuple[float, float]:
    """(raw playouts/s of the kernel, MCTS iterations/s) on an empty ``size`` board."""
    warm_up()
    tab = tables(size)
    cells = size * size
    empty = np.zeros(cells, np.int8)
    board = np.empty(cells, np.int8)
    bufs = [np.empty(cells, np.int32) for _ in range(3)]
    seen = np.empty(cells, np.int8)
    state = np.array([12345], np.uint64)
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(1000):
            board[:] = empty
            _kernel.playout(
                board,
                size,
                1,
                -1,
                tab.nbr,
                tab.bridges,
                tab.nbridge,
                bufs[0],
                bufs[1],
                state,
                bufs[2],
                seen,
            )
        count += 1000
    raw = count / (time.perf_counter() - started)
    result = SolvingEngine(seed=1).search(Position(size), Limit(time=seconds))
    return raw, result.playouts / result.seconds


def openspiel_rollouts_per_second(size: int, seconds: float = 1.0) -> float:
    """Random playouts per second with pyspiel's state API (what its evaluator does)."""
    import pyspiel

    game = pyspiel.load_game("hex", {"board_size": size})
    rng = np.random.RandomState(0)
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        count += 1
    return count / (time.perf_counter() - started)


def check_mapping(games: int = 20) -> None:
    """OpenSpiel and boardlab agree on every winner of random games under the mapping."""
    import pyspiel

    rng = np.random.RandomState(1)
    for size in (3, 5, 9, 11):
        game = pyspiel.load_game("hex", {"board_size": size})
        for _ in range(games):
            state = game.new_initial_state()
            ours = Position(size)
            while not state.is_terminal():
                action = int(rng.choice(state.legal_actions()))
                state.apply_action(action)
                ours.play(Cell.parse(vertex_of(action, size)).transposed())
                assert (ours.winner is not None) == state.is_terminal()
            assert ours.winner == (BLACK if state.returns()[0] > 0 else 2)


def gtp_main(seconds: float) -> int:
    """Serve OpenSpiel's MCTS bot over GTP on stdin/stdout."""
    from boardlab.core.gtp import Dispatcher

    rates: dict[int, float] = {}
    player = OpenSpielPlayer(rates)
    player.new_game(11)

    def boardsize(args: list[str]) -> str:
        size = int(args[0])
        if size not in rates:
            rates[size] = calibrate(size, 0.5)
        player.new_game(size)
        return ""

    def clear_board(args: list[str]) -> str:
        player.new_game(player.size)
        return ""

    def play(args: list[str]) -> str:
        player.play(1 if args[0].lower()[0] == "b" else 2, args[1])
        return ""

    def genmove(args: list[str]) -> str:
        return player.genmove(1 if args[0].lower()[0] == "b" else 2, seconds)

    rates[11] = calibrate(11, 0.5)
    handlers = {
        "boardsize": boardsize,
        "clear_board": clear_board,
        "play": play,
        "genmove": genmove,
    }
    dispatcher = Dispatcher(handlers, name="openspiel-mcts", version="1")
    for line in sys.stdin:
        reply, quit_ = dispatcher.handle_line(line)
        sys.stdout.write(reply)
        sys.stdout.flush()
        if quit_:
            break
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move (both sides)")
    parser.add_argument("--games", type=int, default=2, help="games per colour per size")
    parser.add_argument("--sizes", default="9,11,13", help="board sizes")
    parser.add_argument("--gtp", action="store_true", help="serve OpenSpiel's bot over GTP")
    args = parser.parse_args()
    if args.gtp:
        return gtp_main(args.time)
    check_mapping()
    print("orientation/coordinate mapping checked on random games (3x3..11x11): OK")
    raw, mcts_rate = our_playouts_per_second(11)
    spiel_rollouts = openspiel_rollouts_per_second(11)
    spiel_sims = calibrate(11)
    print("\nplayouts per second on 11x11 (empty board, one core)")
    print(f"{'what':<44} {'boardlab':>10} {'openspiel':>10} {'ratio':>7}")
    print(
        f"{'random playouts (kernel / pyspiel states)':<44} {raw:>10.0f} "
        f"{spiel_rollouts:>10.0f} {raw / spiel_rollouts:>7.0f}"
    )
    print(
        f"{'MCTS iterations (search / MCTSBot sims)':<44} {mcts_rate:>10.0f} "
        f"{spiel_sims:>10.0f} {mcts_rate / spiel_sims:>7.0f}"
    )
    sizes = [int(s) for s in args.sizes.split(",")]
    rates = {size: calibrate(size) for size in sizes}
    print(f"\nmatches at {args.time:g} s per move, {args.games} game(s) per colour per size")
    print(f"{'size':>4} {'os sims/move':>12} {'as black':>9} {'as white':>9}")
    for size in sizes:
        ours = EnginePlayer(SolvingEngine(seed=size))
        theirs = OpenSpielPlayer(rates, seed=size)
        result = run_match(ours, theirs, size, 2 * args.games, args.time)
        print(
            f"{size:>4} {int(rates[size] * args.time):>12} "
            f"{result.wins_as[1]:>4}/{result.played_as[1]:<4} "
            f"{result.wins_as[2]:>4}/{result.played_as[2]:<4}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
