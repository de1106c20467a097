"""Interface layer: the Hex GTP engine (HexGui/MoHex conventions), protocol code only.

GTP speaks HexGui's orientation: black moves first and joins the top and bottom edges,
a vertex ``c5`` is column c, row 5. boardlab's rules use the IOI orientation (player 1
joins the columns), so every vertex is transposed on the way in and out: GTP ``c5``
is the internal cell ``e3``, black is player 1 and white player 2.

Commands: ``boardsize``, ``clear_board``, ``play``, ``genmove``, ``undo``,
``showboard``, ``time_left``, ``hexgui-analyze_commands``, ``boardlab-solve``,
``boardlab-analyze`` plus the administrative ones of :mod:`boardlab.core.gtp`.
"""

from __future__ import annotations

from boardlab import __version__
from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.gtp import Dispatcher, GtpError, Handler
from boardlab.core.limits import Limit
from boardlab.hex.formats import format_diagram
from boardlab.hex.rules import BLACK, WHITE, Cell, Position, check_size
from boardlab.hex.search import MctsEngine

__all__ = ["HexGtp", "parse_color", "parse_vertex", "vertex"]

_COLORS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}


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
        return Cell.parse(text, size).transposed().index(size)
    except ParseError as exc:
        raise GtpError(f"invalid vertex: {exc}") from None


def vertex(index: int, size: int) -> str:
    """The GTP vertex of an internal cell index."""
    return str(Cell.of_index(index, size).transposed())


class HexGtp:
    """The state of one GTP session and its command table (see :attr:`dispatcher`).

    ``move_time`` is the thinking time per ``genmove`` unless ``time_left`` has told the
    engine how much of its game time remains.
    """

    def __init__(
        self,
        engine: MctsEngine | None = None,
        size: int = 11,
        move_time: float = 1.0,
        solve_time: float = 10.0,
    ) -> None:
        self.engine = engine or MctsEngine()
        self.position = Position(check_size(size))
        self.moves: list[tuple[int, int]] = []
        self.move_time = move_time
        self.solve_time = solve_time
        self.time_left: dict[int, float] = {}
        handlers: dict[str, Handler] = {
            "boardsize": self.boardsize,
            "clear_board": self.clear_board,
            "play": self.play,
            "genmove": self.genmove,
            "undo": self.undo,
            "showboard": self.showboard,
            "time_left": self.set_time_left,
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
        if not 1 <= len(args) <= 2 or not all(a.isdigit() for a in args):
            raise GtpError("boardsize takes a size (or two equal sizes)")
        if len(set(args)) != 1:
            raise GtpError("unacceptable size: only square boards")
        try:
            self.position = Position(check_size(int(args[0])))
        except BoardlabError as exc:
            raise GtpError(f"unacceptable size: {exc}") from None
        self.moves.clear()
        return ""

    def clear_board(self, args: list[str]) -> str:
        self.position = Position(self.position.size)
        self.moves.clear()
        return ""

    def _place(self, color: int, index: int) -> None:
        p = self.position
        if p.winner is not None:
            raise GtpError("illegal move: the game is over")
        if p.board[index] != 0:
            raise GtpError(f"illegal move: {vertex(index, p.size)} is occupied")
        saved = p.to_move
        p.to_move = color
        p.push(index)
        self.moves.append((color, saved))

    def play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise GtpError("play takes a color and a vertex")
        color = parse_color(args[0])
        if args[1].lower() in ("swap", "swap-pieces", "swap-sides", "resign", "pass"):
            raise GtpError(f"unsupported move {args[1]!r}")
        self._place(color, parse_vertex(args[1], self.position.size))
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
            return "resign"
        p.to_move = color
        result = self.engine.search(p, Limit(time=self._think_time(color)))
        self._place(color, result.move)
        return vertex(result.move, p.size)

    def undo(self, args: list[str]) -> str:
        if not self.moves:
            raise GtpError("cannot undo: no move played")
        _, saved = self.moves.pop()
        self.position.pop()
        self.position.to_move = saved
        return ""

    def showboard(self, args: list[str]) -> str:
        shown = self.position.transposed()
        chain = set(shown.winning_chain())
        header = "# HexGui orientation: X = black joins top and bottom, O = white left and right"
        return "\n" + header + "\n" + format_diagram(shown, chain)

    def set_time_left(self, args: list[str]) -> str:
        if len(args) != 3:
            raise GtpError("time_left takes a color, seconds and stones")
        color = parse_color(args[0])
        try:
            self.time_left[color] = float(args[1])
        except ValueError:
            raise GtpError(f"invalid time {args[1]!r}") from None
        return ""

    def analyze_commands(self, args: list[str]) -> str:
        return "string/Solve position/boardlab-solve\nstring/Engine analysis/boardlab-analyze"

    def solve(self, args: list[str]) -> str:
        from boardlab.hex.solver import solve

        seconds = self.solve_time
        if args:
            try:
                seconds = float(args[0])
            except ValueError:
                raise GtpError(f"invalid time {args[0]!r}") from None
        result = solve(self.position, Limit(time=max(seconds, 0.001)))
        if result.winner is None:
            return "unknown"
        winner = "black" if result.winner == BLACK else "white"
        moves = " ".join(vertex(m, self.position.size) for m in result.winning_moves)
        return f"{winner} {moves}".strip()

    def analyze(self, args: list[str]) -> str:
        if self.position.winner is not None:
            raise GtpError("the game is over")
        result = self.engine.search(self.position, Limit(time=self.move_time))
        size = self.position.size
        tops = " ".join(f"{vertex(m, size)}:{v}:{r:.3f}" for m, v, r in result.top)
        return (
            f"best {vertex(result.move, size)} winrate {result.win_rate:.3f} "
            f"playouts {result.playouts} ({result.reason}); top {tops}"
        )
