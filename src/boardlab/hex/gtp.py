"""Interface layer: the Hex GTP engine (HexGui/MoHex conventions), protocol code only.

GTP speaks HexGui's orientation: black moves first and joins the top and bottom edges,
a vertex ``c5`` is column c, row 5. boardlab's rules use the IOI orientation (player 1
joins the columns), so every vertex is transposed on the way in and out: GTP ``c5``
is the internal cell ``e3``, black is player 1 and white player 2.

Commands: ``boardsize``, ``clear_board``, ``play``, ``genmove``, ``undo``,
``showboard``, ``time_settings``, ``time_left``, ``param_game``, ``hexgui-analyze_commands``,
``boardlab-solve``, ``boardlab-analyze`` plus the administrative ones of
:mod:`boardlab.core.gtp`.

**Swap rule** (off by default), as in MoHex: ``param_game allow_swap 1`` turns it on,
``param_game allow_swap 0`` off, ``param_game`` alone lists the setting
(``[bool] allow_swap 0``). With it on, white may answer black's first stone of a game
started on the empty board with ``play white swap-pieces`` (``swap`` is accepted too).
As in HexGui and MoHex the players exchange colours and the board stays as it is, so
white (the first player, now) moves next; ``undo`` takes the swap back. ``genmove
white`` answers ``swap-pieces`` when the first stone gives black the better chance
(:func:`boardlab.hex.player.decide_swap`), and ``genmove black`` on the empty board
opens on a near-balanced outer cell (:func:`boardlab.hex.engine.opening.balanced_opening`,
computed once per board size from the engine's seed) instead of the centre.

The swap rule is the session's setting: a swap played in one game spends it for
that game only, and ``boardsize``/``clear_board`` start the next game with the setting
``param_game`` (or ``--swap``) chose.

Once the game is won, ``genmove`` answers ``resign`` for either colour, as MoHex does
(HexGui then ends the game; an error would leave it waiting on the move). ``play``
still accepts stones after the win, as MoHex does: HexGui does not see the win and
keeps every stone it sends, so boardlab records them too and each ``undo`` takes back
the same stone in both programs. The first winner stays the winner.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from boardlab import __version__
from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.gtp import Dispatcher, GtpError, Handler
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex, vertex_index
from boardlab.hex.engine.search import MctsEngine
from boardlab.hex.formats import format_hexgui_diagram, swap_may_answer
from boardlab.hex.player import SWAP_SOLVE_TIME, SolvingEngine, choose_move, warm_up
from boardlab.hex.rules import BLACK, WHITE, Position, Swap, check_size, color_name, game_over

__all__ = ["RESIGN", "SWAP_MOVE", "HexGtp", "parse_bool", "parse_color", "parse_vertex", "vertex"]

#: Argument counts of GTP commands (``play COLOUR VERTEX``, ``time_left COLOUR T S``).
_TWO_ARGS, _THREE_ARGS = 2, 3

_COLORS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
#: HexGui's name of the swap move; ``swap`` is accepted as well.
SWAP_MOVE = "swap-pieces"
#: ``genmove``'s answer once the game is won.
RESIGN = "resign"
_SWAP_NAMES = (SWAP_MOVE, "swap")
_BOOLS = {"1": True, "true": True, "on": True, "0": False, "false": False, "off": False}


def parse_bool(text: str) -> bool:
    """True for ``1``/``true``/``on``, False for ``0``/``false``/``off`` (any case).

    :raises GtpError: for anything else.
    """
    value = _BOOLS.get(text.lower())
    if value is None:
        raise GtpError(f"invalid boolean {text!r} (expected 0 or 1)")
    return value


def parse_color(text: str) -> int:
    """Player 1 for ``b``/``black``, 2 for ``w``/``white`` (any case).

    :raises GtpError: for anything else.
    """
    color = _COLORS.get(text.lower())
    if color is None:
        raise GtpError(f"invalid color {text!r}")
    return color


def parse_vertex(text: str, size: int) -> int:
    """The internal cell index of the GTP vertex ``text`` (HexGui orientation).

    :raises GtpError: for a malformed or off-board vertex.
    """
    try:
        return vertex_index(text, size)
    except ParseError as exc:
        raise GtpError(f"invalid vertex: {exc}") from None


class HexGtp:
    """The state of one GTP session and its command table (see :attr:`dispatcher`).

    ``move_time`` is the thinking time per ``genmove`` (``time_settings 0 T S`` makes it
    ``T / S``, all zeros restore it) unless ``time_left`` has told the
    engine how much of its game time remains; ``swap`` is the initial ``allow_swap``.
    """

    def __init__(
        self,
        engine: MctsEngine | None = None,
        size: int = 11,
        move_time: float = 1.0,
        solve_time: float = 10.0,
        swap: bool = False,
        loading: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> None:
        self.engine = engine or SolvingEngine()
        #: What a ``boardsize`` loads the engine's kernels for its board under (the
        #: command line's: a note on stderr when that takes long, a first run compiling).
        self.loading = loading
        #: The swap rule of the session (``param_game allow_swap``); each new game starts
        #: with it, whatever a swap played in the last game did to that game's position.
        self.allow_swap = swap
        self.position = Position(check_size(size), swap=swap)
        #: The moves played: colour, the side to move before, whether it was the swap,
        #: and the winner before the move (a stone after the win keeps the winner).
        self.moves: list[tuple[int, int, bool, int | None]] = []
        self.move_time = move_time
        self.session_move_time = move_time
        self.solve_time = solve_time
        self.time_left: dict[int, float] = {}
        handlers: dict[str, Handler] = {
            "boardsize": self.boardsize,
            "clear_board": self.clear_board,
            "play": self.play,
            "genmove": self.genmove,
            "undo": self.undo,
            "showboard": self.showboard,
            "time_settings": self.time_settings,
            "time_left": self.set_time_left,
            "param_game": self.param_game,
            "hexgui-analyze_commands": self.analyze_commands,
            "boardlab-solve": self.solve,
            "boardlab-analyze": self.analyze,
        }
        self.dispatcher = Dispatcher(handlers, name="boardlab-hex", version=__version__)

    def handle_line(self, line: str) -> tuple[str, bool]:
        """Answer one line (see :meth:`boardlab.core.gtp.Dispatcher.handle_line`)."""
        return self.dispatcher.handle_line(line)

    # -- commands ----------------------------------------------------------------------------

    def boardsize(self, args: list[str]) -> str:
        if not 1 <= len(args) <= _TWO_ARGS or not all(a.isdigit() for a in args):
            raise GtpError("boardsize takes a size (or two equal sizes)")
        if len(set(args)) != 1:
            raise GtpError("unacceptable size: only square boards")
        try:
            self.position = Position(check_size(int(args[0])), swap=self.allow_swap)
        except BoardlabError as exc:
            raise GtpError(f"unacceptable size: {exc}") from None
        self.moves.clear()
        with self.loading():
            warm_up(self.position.size)  # here, not in the first genmove's time
        return ""

    def clear_board(self, args: list[str]) -> str:
        self.position = Position(self.position.size, swap=self.allow_swap)
        self.moves.clear()
        return ""

    def _place(self, color: int, index: int) -> None:
        p = self.position
        if p.board[index] != 0:
            raise GtpError(f"illegal move: {vertex(index, p.size)} is occupied")
        saved, winner = p.to_move, p.winner
        p.to_move = color
        p.push_index(index)  # after the win too: the union-find keeps the first winner
        self.moves.append((color, saved, False, winner))

    def _swap(self, color: int) -> None:
        p = self.position
        if p.winner is not None:
            raise GtpError(f"illegal move: {game_over(p.winner)}")
        if color != WHITE:
            raise GtpError("illegal move: only white may swap")
        if not p.swap:
            raise GtpError(
                "illegal move: swap is not allowed: the swap rule is off "
                "(param_game allow_swap 1 turns it on)"
            )
        if not swap_may_answer(p):
            raise GtpError(
                "illegal move: swap is only allowed as white's answer to black's first stone"
            )
        self._record_swap(color)

    def _record_swap(self, color: int) -> None:
        """The swap as HexGui and MoHex play it: the board stays, white moves next, and
        the swap rule is spent for this game (``undo`` restores it)."""
        p = self.position
        self.moves.append((color, p.to_move, True, p.winner))
        p.swap = False
        p.to_move = WHITE

    def play(self, args: list[str]) -> str:
        if len(args) != _TWO_ARGS:
            raise GtpError("play takes a color and a vertex")
        color = parse_color(args[0])
        if args[1].lower() in _SWAP_NAMES:
            self._swap(color)
            return ""
        if args[1].lower() in ("swap-sides", "resign", "pass"):
            raise GtpError(f"unsupported move {args[1]!r}")
        index = parse_vertex(args[1], self.position.size)
        if self.position.board[index] == color:
            # HexGui, rewinding onto a node with setup stones, sends them again although
            # they are on the board (and later takes back only the first ones): a stone
            # already there in that colour is accepted and changes nothing
            return ""
        self._place(color, index)
        return ""

    def _think_time(self, color: int) -> float:
        left = self.time_left.get(color)
        if left is None:
            return self.move_time
        empty = sum(1 for v in self.position.board if v == 0)
        return max(0.01, min(self.move_time, (left - 0.5) / max(3.0, 0.3 * empty + 2.0)))

    def genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("genmove takes a color")
        color = parse_color(args[0])
        p = self.position
        if p.winner is not None:
            return RESIGN  # as MoHex answers once the game is won, for either colour
        saved = p.to_move
        p.to_move = color
        think = Limit(time=self._think_time(color))
        left = self.time_left.get(color)
        solve_time = SWAP_SOLVE_TIME if left is None else max(0.05, min(SWAP_SOLVE_TIME, left / 4))
        try:
            choice = choose_move(self.engine, p, think, solve_time=solve_time)
        finally:
            p.to_move = saved  # recorded as it was, so undo restores the side to move
        if isinstance(choice.move, Swap):
            self._record_swap(color)
            return SWAP_MOVE
        self._place(color, p.index(choice.move))
        return choice.move.vertex()

    def undo(self, args: list[str]) -> str:
        if not self.moves:
            raise GtpError("cannot undo: no move played")
        _, saved, swapped, winner = self.moves.pop()
        if swapped:
            self.position.swap = True
        else:
            self.position.pop()
        self.position.to_move = saved
        self.position.winner = winner
        return ""

    def showboard(self, args: list[str]) -> str:
        return "\n" + format_hexgui_diagram(self.position)

    def time_settings(self, args: list[str]) -> str:
        """``time_settings MAIN BYO_YOMI STONES``: byo-yomi ``BYO_YOMI`` seconds for
        ``STONES`` moves gives each ``genmove`` ``BYO_YOMI / STONES`` seconds; a main time
        is what ``time_left`` then says is left; all zeros: the session's own time."""
        if len(args) != _THREE_ARGS:
            raise GtpError("time_settings takes main time, byo-yomi time and stones")
        try:
            main, byo_yomi, stones = float(args[0]), float(args[1]), int(args[2])
        except ValueError:
            raise GtpError(f"invalid time settings {' '.join(args)!r}") from None
        if not (math.isfinite(main) and math.isfinite(byo_yomi)) or min(main, byo_yomi, stones) < 0:
            raise GtpError(f"invalid time settings {' '.join(args)!r}: negative or not finite")
        self.time_left.clear()
        if byo_yomi > 0 and stones > 0:
            self.move_time = byo_yomi / stones
        elif main == 0:
            self.move_time = self.session_move_time
        if main > 0:
            self.time_left = {BLACK: main, WHITE: main}
        return ""

    def set_time_left(self, args: list[str]) -> str:
        if len(args) != _THREE_ARGS:
            raise GtpError("time_left takes a color, seconds and stones")
        color = parse_color(args[0])
        try:
            seconds, stones = float(args[1]), int(args[2])
        except ValueError:
            raise GtpError(f"invalid time left {' '.join(args[1:])!r}") from None
        if not math.isfinite(seconds) or seconds < 0 or stones < 0:
            raise GtpError(f"invalid time left {' '.join(args[1:])!r}: negative or not finite")
        self.time_left[color] = seconds
        return ""

    def param_game(self, args: list[str]) -> str:
        if not args:
            return f"\n[bool] allow_swap {int(self.allow_swap)}"
        if len(args) != _TWO_ARGS:
            raise GtpError("param_game takes no arguments or a name and a value")
        if args[0] != "allow_swap":
            raise GtpError(f"unknown game parameter {args[0]!r} (known: allow_swap)")
        self.allow_swap = parse_bool(args[1])
        if not any(swapped for _, _, swapped, _ in self.moves):
            self.position.swap = self.allow_swap  # a swap played keeps this game's rule spent
        return ""

    def analyze_commands(self, args: list[str]) -> str:
        return (
            "param/Game Param/param_game\n"
            "string/Solve position/boardlab-solve\n"
            "string/Engine analysis/boardlab-analyze"
        )

    def solve(self, args: list[str]) -> str:
        from boardlab.hex.prover.solver import solve

        seconds = self.solve_time
        if args:
            try:
                seconds = float(args[0])
            except ValueError:
                raise GtpError(f"invalid time {args[0]!r}") from None
        result = solve(self.position, Limit(time=max(seconds, 0.001)))
        if result.winner is None:
            return "unknown"
        winner = color_name(result.winner)
        moves = " ".join(cell.vertex() for cell in result.winning_moves)
        return f"{winner} {moves}".strip()

    def analyze(self, args: list[str]) -> str:
        if self.position.winner is not None:
            raise GtpError(game_over(self.position.winner))
        result = self.engine.search(self.position, Limit(time=self.move_time))
        tops = " ".join(f"{cell.vertex()}:{v}:{r:.3f}" for cell, v, r in result.top)
        return (
            f"best {result.cell.vertex()} winrate {result.win_rate:.3f} "
            f"playouts {result.playouts} ({result.reason}); top {tops} "
            "(visits count the tree kept from earlier moves too)"
        )
