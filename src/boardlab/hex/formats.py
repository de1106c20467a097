"""Formats layer: Hex position files, as a text diagram and as HexGui's SGF.

**Diagram** (this module's orientation: ``X`` = player 1 joins the left and right
edges, ``O`` = player 2 joins top and bottom). Blank lines and lines starting with ``#``
are ignored; an optional header line lists the column letters; then one line per row,
optionally led by its row number, holding the row's ``n`` cells as ``.`` (empty), ``X``
(player 1) or ``O`` (player 2), either case. Spaces between cells and the leading
indentation are free. The number of rows gives ``n``; every row must have ``n`` cells.
Player 1 moves first, so it must have as many stones as player 2 (then it is to move)
or one more::

       a b c
     1  . X .
     2   . O .
     3    . . .

**SGF** as HexGui writes it: ``(;FF[4]GM[11]SZ[n];AB[a1][b2]AW[c3]PL[W];W[d4];B[e5])``.
SGF follows HexGui, where black moves first and joins the top and bottom edges, so an
SGF point ``c5`` (column c, row 5) is this module's cell ``e3`` (the transpose), black is
player 1 and white player 2. Setup stones (``AB``, ``AW``, ``AE``, ``PL``) are read in
any node and written, as HexGui writes them, in a second node after the root, with
``PL`` (without it HexGui keeps the side to move as it was: black at the start). As in
HexGui a move puts a stone of the colour its node names, and the other colour is then
to move. HexGui does not see a win, so its files may hold stones played after it: they
are read onto the board and the first winner stays the winner.

The swap, as HexGui and MoHex play it: ``W[swap-pieces]`` answers black's first stone on
an empty board, the players exchange colours and the board stays as it is, so white
(the first player, now) moves next: ``;B[d4];W[swap-pieces];W[c5];B[e4]``. Reading it
leaves the stones as they are and white to move (the swap rule then spent). boardlab's
own :data:`~boardlab.hex.rules.SWAP` (the stone mirrored to the other colour, player 1
to move again: the same game seen across the long diagonal) is written that way: the
moves after it are written with their colours exchanged and without the transpose, so
HexGui shows the game boardlab played. ``B[swap-pieces]``, ``swap-sides`` and ``pass``
are rejected; a ``resign`` ends the moves read.

Variations: the main line (the first variation at each branch, as SGF means it) is read
unless ``line="last"`` asks for the last one at each branch, the line HexGui shows after
a variation was played; :func:`sgf_has_variations` tells whether there was a choice.

>>> p = parse_diagram("1 . X .\\n2  . O .\\n3   . . .\\n")
>>> p.stones(1), p.stones(2), p.to_move
([Cell(row=0, col=1)], [Cell(row=1, col=1)], 1)
>>> parse_sgf(format_sgf(p)).key() == p.key()
True

**Refereed games** (:func:`format_game_sgf`, :func:`parse_game_sgf`): the moves as
HexGui SGF nodes from the empty board, ``PB``/``PW`` the players, ``RE`` the result
(``B+``/``W+`` for a connection or a proof, ``B+R``/``W+R`` for a resignation, ``Void``
when nobody won) and a root comment whose first line says how the game was decided
(``decided by: connection|resignation|proof|void``) and whose second line tells the
story (who failed how, who proved what).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.hex.board import LETTERS, Cell, vertex, vertex_index
from boardlab.hex.judge import GameRecord
from boardlab.hex.rules import (
    BLACK,
    EMPTY,
    MAX_SIZE,
    SWAP,
    WHITE,
    Position,
    check_size,
)

__all__ = [
    "HEXGUI_HEADER",
    "RecordedGame",
    "format_diagram",
    "format_game_sgf",
    "format_hexgui_diagram",
    "format_sgf",
    "parse_diagram",
    "parse_game_sgf",
    "parse_position",
    "parse_sgf",
    "sgf_has_variations",
    "swap_may_answer",
]

_SYMBOLS = {".": EMPTY, "X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE}
_CHARS = {EMPTY: ".", BLACK: "X", WHITE: "O"}


def format_diagram(position: Position, highlight: set[int] | None = None) -> str:
    """The diagram text of ``position`` (parsed back by :func:`parse_diagram`).

    ``highlight`` cells (e.g. a winning chain) are written in lower case ``x``/``o``.
    """
    size = position.size
    marked = highlight or set()
    lines = ["   " + " ".join(LETTERS[:size])]
    for row in range(size):
        cells = []
        for col in range(size):
            index = row * size + col
            char = _CHARS[position.board[index]]
            cells.append(char.lower() if index in marked else char)
        lines.append(f"{row + 1:>2} " + " " * row + " ".join(cells))
    return "\n".join(lines) + "\n"


#: The first line of :func:`format_hexgui_diagram`.
HEXGUI_HEADER = "# HexGui orientation: X = black joins top and bottom, O = white left and right"


def format_hexgui_diagram(position: Position) -> str:
    """The board as HexGui draws it, after :data:`HEXGUI_HEADER`: the diagram of
    ``position`` across the long diagonal, so its letters and numbers are the names
    every result gives the cells. Only a won game has a winning chain: its stones are
    written in lower case (the chain of ``position`` itself, drawn at the transposed
    cells, as the SVG marks it).

    >>> from boardlab.hex.rules import Position
    >>> p = Position(2)
    >>> p.play(Cell.parse("b1"))
    >>> print(format_hexgui_diagram(p), end="")
    # HexGui orientation: X = black joins top and bottom, O = white left and right
       a b
     1 . .
     2  X .
    """
    size = position.size
    chain = {Cell.of_index(i, size).transposed().index(size) for i in position.winning_chain()}
    return HEXGUI_HEADER + "\n" + format_diagram(position.transposed(), chain)


def parse_diagram(text: str, source: str = "<diagram>") -> Position:
    """The position drawn in ``text`` (see the module docstring for the format).

    :raises ParseError: naming the line and column of a bad symbol, row number or row
        length, or an unbalanced position.
    """
    rows: list[list[int]] = []
    row_lines: list[int] = []
    expected_header = True
    for line_number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        column = len(raw) - len(raw.lstrip()) + 1
        words = stripped.split()
        if expected_header and "".join(words) == LETTERS[: len(words)]:
            expected_header = False
            continue
        expected_header = False
        body = raw
        head = words[0]
        if head[0].isdigit():
            digits = len(head) - len(head.lstrip("0123456789"))
            head = head[:digits]
            if int(head) != len(rows) + 1:
                raise ParseError(
                    f"row number {head} where row {len(rows) + 1} was expected",
                    source=source,
                    line=line_number,
                    column=column,
                )
            body = raw[raw.index(head) + len(head) :]
            column = raw.index(head) + len(head) + 1
        cells: list[int] = []
        for offset, char in enumerate(body):
            if char.isspace():
                continue
            if char not in _SYMBOLS:
                raise ParseError(
                    f"bad cell symbol {char!r} (expected '.', 'X' or 'O')",
                    source=source,
                    line=line_number,
                    column=column + offset,
                )
            cells.append(_SYMBOLS[char])
        rows.append(cells)
        row_lines.append(line_number)
    if not rows:
        raise ParseError("no board rows found", source=source, line=1, column=1)
    size = len(rows)
    if size > MAX_SIZE:
        raise ParseError(
            f"board has {size} rows; at most {MAX_SIZE} are allowed",
            source=source,
            line=row_lines[-1],
            column=1,
        )
    for cells, line_number in zip(rows, row_lines, strict=True):
        if len(cells) != size:
            raise ParseError(
                f"row has {len(cells)} cells but the board has {size} rows (it must be square)",
                source=source,
                line=line_number,
                column=1,
            )
    black = [Cell(r, c) for r in range(size) for c in range(size) if rows[r][c] == BLACK]
    white = [Cell(r, c) for r in range(size) for c in range(size) if rows[r][c] == WHITE]
    try:
        return Position.from_stones(size, black, white)
    except BoardlabError as exc:
        raise ParseError(str(exc), source=source, line=row_lines[0], column=1) from None


def format_sgf(position: Position, moves: list[int] | None = None) -> str:
    """HexGui SGF of ``position`` as setup stones (``AB``/``AW``, in a second node as
    HexGui writes them) plus ``moves`` played.

    Coordinates are transposed into HexGui's orientation (see the module docstring);
    ``PL`` names the side to move with every setup (HexGui reads black without it). A
    :data:`~boardlab.hex.rules.SWAP` in ``moves`` is written ``W[swap-pieces]`` and the
    moves after it in HexGui's frame (colours exchanged, no transpose).
    """
    size = position.size
    parts = [f"(;FF[4]GM[11]SZ[{size}]AP[boardlab]"]
    setup = []
    for tag, color in (("AB", BLACK), ("AW", WHITE)):
        cells = [i for i, v in enumerate(position.board) if v == color]
        if cells:
            setup.append(tag + "".join(f"[{vertex(i, size)}]" for i in cells))
    if setup or position.to_move != BLACK:  # HexGui keeps black to move without PL
        setup.append("PL[B]" if position.to_move == BLACK else "PL[W]")
    if setup:
        parts.append(";" + "".join(setup))
    player = position.to_move
    swapped = False
    for move in moves or []:
        if move == SWAP:
            parts.append(";W[swap-pieces]")
            swapped = True
        else:
            colour = 3 - player if swapped else player
            point = Cell.of_index(move, size) if swapped else vertex(move, size)
            parts.append(f";{'B' if colour == BLACK else 'W'}[{point}]")
        player = 3 - player
    parts.append(")")
    return "".join(parts) + "\n"


class _SgfReader:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.pos = 0
        #: Variations met after a branch's first one (by :func:`_main_line`).
        self.branches = 0

    def error(self, message: str, at: int | None = None) -> ParseError:
        where = self.pos if at is None else at
        line = self.text.count("\n", 0, where) + 1
        column = where - (self.text.rfind("\n", 0, where) + 1) + 1
        return ParseError(message, source=self.source, line=line, column=column)

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def expect(self, char: str) -> None:
        self.skip_space()
        if self.pos >= len(self.text) or self.text[self.pos] != char:
            found = "the end" if self.pos >= len(self.text) else repr(self.text[self.pos])
            raise self.error(f"expected {char!r}, found {found}")
        self.pos += 1

    def properties(self) -> list[tuple[str, list[tuple[str, int]], int]]:
        props: list[tuple[str, list[tuple[str, int]], int]] = []
        while True:
            self.skip_space()
            start = self.pos
            while self.pos < len(self.text) and self.text[self.pos].isalpha():
                self.pos += 1
            name = self.text[start : self.pos]
            if not name:
                return props
            if not name.isupper():
                raise self.error(f"property name {name!r} must be upper case", start)
            values: list[tuple[str, int]] = []
            self.skip_space()
            while self.pos < len(self.text) and self.text[self.pos] == "[":
                value_start = self.pos + 1
                end = value_start
                chars: list[str] = []
                while end < len(self.text) and self.text[end] != "]":
                    if self.text[end] == "\\" and end + 1 < len(self.text):
                        end += 1
                    chars.append(self.text[end])
                    end += 1
                if end >= len(self.text):
                    raise self.error("unterminated property value", self.pos)
                values.append(("".join(chars), value_start))
                self.pos = end + 1
                self.skip_space()
            if not values:
                raise self.error(f"property {name} has no value", start)
            props.append((name, values, start))


_Node = list[tuple[str, list[tuple[str, int]], int]]
"""One SGF node: its properties as ``(name, [(value, offset)], offset)``."""


def _main_line(reader: _SgfReader, last: bool = False) -> list[_Node]:
    """The nodes of one line of the game tree: the first variation at every branch (the
    main line), or with ``last`` the last one (the line HexGui shows after playing it).

    :raises ParseError: for a malformed tree, text after it, or a tree with no node.
    """
    text = reader.text
    reader.expect("(")
    # per open tree: its nodes so far on the chosen line, and its chosen subtree's nodes
    stack: list[list[_Node]] = [[]]
    chosen: list[list[_Node] | None] = [None]
    reader.branches = 0
    while stack:
        reader.skip_space()
        if reader.pos >= len(text):
            raise reader.error("unbalanced parentheses: the game tree is not closed")
        char = text[reader.pos]
        if char == ";":
            if chosen[-1] is not None:
                raise reader.error("a node after the variations of its game tree")
            reader.pos += 1
            stack[-1].append(reader.properties())
        elif char == "(":
            if chosen[-1] is not None:
                reader.branches += 1
            stack.append([])
            chosen.append(None)
            reader.pos += 1
        elif char == ")":
            nodes = stack.pop()
            below = chosen.pop()
            reader.pos += 1
            line = nodes + (below or [])
            if not stack:
                stack.append(line)
                break
            if chosen[-1] is None or last:
                chosen[-1] = line
        else:
            raise reader.error(f"unexpected {char!r} in the game tree")
    reader.skip_space()
    if reader.pos < len(text):
        raise reader.error("unexpected text after the game tree")
    if not stack[0]:
        raise reader.error("the game tree has no node", 0)
    return stack[0]


def sgf_has_variations(text: str, source: str = "<sgf>") -> bool:
    """Does the SGF game tree branch (so that a line had to be chosen)?

    :raises ParseError: for malformed SGF.
    """
    reader = _SgfReader(text, source)
    _main_line(reader)
    return reader.branches > 0


def _board_size(reader: _SgfReader, root_node: _Node) -> int:
    """The board size of a Hex game's root node (``GM[11]`` if given, square ``SZ``).

    :raises ParseError: for another game, a missing, bad or non-square size.
    """
    root = {name: (values, at) for name, values, at in root_node}
    if "GM" in root and root["GM"][0][0][0].strip() != "11":
        raise reader.error(f"not a Hex game: GM[{root['GM'][0][0][0]}]", root["GM"][1])
    if "SZ" not in root:
        raise reader.error("missing SZ[size] in the root node", 0)
    size_text, size_at = root["SZ"][0][0]
    size_words = size_text.replace(":", " ").split()
    if not size_words or not all(w.isdigit() for w in size_words):
        raise reader.error(f"bad board size SZ[{size_text}]", size_at)
    if len(set(size_words)) != 1:
        raise reader.error(f"only square boards are supported, got SZ[{size_text}]", size_at)
    try:
        return check_size(int(size_words[0]))
    except BoardlabError as exc:
        raise reader.error(str(exc), size_at) from None


#: The swap's names: HexGui's, and older Benzene files' ``W[SWAP]``.
_SWAP_WORDS = ("swap-pieces", "swap")
#: The SGF setup properties: stones added (black, white), cells emptied, side to move.
_SETUP = frozenset({"AB", "AW", "AE", "PL"})


def _set_up(
    reader: _SgfReader,
    position: Position,
    props: _Node,
    cell_of: Callable[[str, int], int],
) -> Position:
    """``position`` with one node's setup applied (``AE`` first, then ``AB``/``AW``).

    The side to move is ``PL`` if given, else the side to move before the setup (black
    at the start), as HexGui reads it. HexGui writes the setup in the second node, after
    the root, and allows any stones (a template or a puzzle need not be a reachable
    position); a setup after moves starts the game record anew from the stones on the
    board (the moves before it are not kept)."""
    size = position.size
    stones = {i: v for i, v in enumerate(position.board) if v != EMPTY}
    to_move = position.to_move
    for name, values, _ in props:
        if name == "PL":
            value = values[0][0].strip().upper()
            if value not in ("B", "W"):
                raise reader.error(f"bad player PL[{values[0][0]}]", values[0][1])
            to_move = BLACK if value == "B" else WHITE
        elif name == "AE":
            for value, where in values:
                stones.pop(cell_of(value, where), None)
    placed: dict[int, str] = {}  # the cells this node's AB and AW name, by property
    for name, values, _ in props:
        if name in ("AB", "AW"):
            for value, where in values:
                cell = cell_of(value, where)
                if cell in placed:
                    raise reader.error(
                        f"{name}[{value}]: the cell is set by {placed[cell]} already", where
                    )
                placed[cell] = name
                stones[cell] = BLACK if name == "AB" else WHITE
    black = [Cell.of_index(i, size) for i, v in sorted(stones.items()) if v == BLACK]
    white = [Cell.of_index(i, size) for i, v in sorted(stones.items()) if v == WHITE]
    at = min(where for name, _, where in props if name in _SETUP)
    try:
        return Position.from_stones(size, black, white, to_move, position.swap)
    except BoardlabError as exc:
        raise reader.error(str(exc), at) from None


def swap_may_answer(position: Position) -> bool:
    """May white swap here, as HexGui and MoHex play the swap: the game started from the
    empty board and holds one move, black's first stone? (The swap rule itself and who
    is to move are the caller's to check.)"""
    return position.start_empty and len(position.history) == 1 and BLACK in position.board


def parse_sgf(
    text: str,
    source: str = "<sgf>",
    swap: bool = False,
    line: str = "main",
    as_played: bool = False,
) -> Position:
    """The position at the end of one line of a HexGui SGF game (``line``: ``main``, the
    first variation at each branch, or ``last``; see :func:`sgf_has_variations`).

    Every node's setup (``AB``, ``AW``, ``AE``, ``PL``: HexGui writes it in the second
    node) is applied, then its move is played (checked), in order. As in HexGui a move
    puts a stone of the colour its node names, in turn or not (old HexGui puzzle files
    place their stones as moves), and the other colour is then to move.
    ``W[swap-pieces]`` (or ``W[swap]``) leaves the board as it is with white to move
    (HexGui's swap, see the module docstring); ``resign`` ends the moves. The result
    has the swap rule on when ``swap`` is True and no swap was played.

    With ``as_played`` the game is read as boardlab plays it (the web page's games): the
    moves must alternate, ``W[swap-pieces]`` is boardlab's
    :data:`~boardlab.hex.rules.SWAP` (kept in the history, the swap rule on) and the
    moves after it are read in HexGui's frame, the inverse of :func:`format_sgf`.

    :raises ParseError: for malformed SGF, a game other than Hex (GM[11]), a missing or
        bad size, a bad point, or an illegal move, such as a swap anywhere but as white's
        answer to black's first stone on an empty board (with the line and column).
    """
    if line not in ("main", "last"):
        raise BoardlabError(f"unknown line {line!r} (known: main, last)")
    reader = _SgfReader(text, source)
    nodes = _main_line(reader, last=line == "last")
    size = _board_size(reader, nodes[0])

    def cell_of(value: str, at: int) -> int:
        try:
            return vertex_index(value, size)
        except ParseError as exc:
            raise reader.error(exc.message, at) from None

    position = Position(size, swap)
    swapped = False
    resigned = ""
    for props in nodes:
        if any(name in _SETUP for name, _, _ in props):
            if as_played and swapped:
                raise reader.error("a setup after the swap", props[0][2])
            position = _set_up(reader, position, props, cell_of)
        for name, values, _ in props:
            if name not in ("B", "W"):
                continue
            value, at = values[0]
            if len(values) > 1:
                raise reader.error(f"{name} takes one point, not {len(values)}", values[1][1])
            if resigned:
                raise reader.error(f"{name}[{value}] is played after {resigned}", at)
            color = BLACK if name == "B" else WHITE
            word = value.strip().lower()
            if word == "resign":
                resigned = f"{name}[{value}]"
                continue
            if word in ("swap-sides", "pass", "") or (word in _SWAP_WORDS and color == BLACK):
                raise reader.error(f"unsupported move {name}[{value}]", at)
            if as_played and (color != position.to_move) != swapped:
                raise reader.error(f"{name}[{value}] is played out of turn", at)
            if word in _SWAP_WORDS and as_played:
                position.swap = True
                try:
                    position.play_index(SWAP)
                except BoardlabError as exc:
                    raise reader.error(str(exc), at) from None
                swapped = True
                continue
            if word in _SWAP_WORDS:
                if swapped or not swap_may_answer(position):
                    raise reader.error(
                        f"{name}[{value}]: swap is only allowed as white's answer to "
                        "black's first stone on an empty board",
                        at,
                    )
                swapped = True  # the players exchange colours; white moves again
                position.to_move = WHITE
                continue
            index = cell_of(value, at)
            if as_played and swapped:  # HexGui's frame: transposed, colours exchanged
                index = Cell.of_index(index, size).transposed().index(size)
            else:
                position.to_move = color  # as HexGui: the stone has the colour its node names
            if position.board[index] != EMPTY:  # named as the file names it
                raise reader.error(f"cell {value.strip()} is already occupied", at)
            if position.winner is not None and not as_played:
                # HexGui does not see the win and keeps the stones played after it: so
                # does this, and the first winner stays the winner
                position.push_index(index)
                continue
            try:
                position.play_index(index)
            except BoardlabError as exc:
                raise reader.error(str(exc), at) from None
    if swapped and not as_played:
        position.swap = False
    return position


def parse_position(text: str, source: str = "<position>") -> Position:
    """A position from a diagram or an SGF file (SGF when the text starts with ``(``).

    :raises ParseError: as :func:`parse_diagram` or :func:`parse_sgf`.
    """
    if text.lstrip().startswith("("):
        return parse_sgf(text, source)
    return parse_diagram(text, source)


def _sgf_text(value: str) -> str:
    """``value`` escaped for an SGF text property."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def format_game_sgf(record: GameRecord, application: str = "boardlab") -> str:
    """HexGui SGF of a refereed game (see the module docstring): its moves are GTP
    vertices in HexGui's orientation already."""
    if record.winner is None:
        result = "Void"
    else:
        result = ("B+" if record.winner == BLACK else "W+") + (
            "R" if record.decided_by == "resignation" else ""
        )
    comment = _sgf_text(f"decided by: {record.decided_by}\n{record.reason}")
    head = (
        f"(;FF[4]GM[11]SZ[{record.size}]AP[{_sgf_text(application)}]"
        f"PB[{_sgf_text(record.black)}]PW[{_sgf_text(record.white)}]RE[{result}]C[{comment}]"
    )
    moves = "".join(
        f";{'B' if number % 2 == 0 else 'W'}[{move}]" for number, move in enumerate(record.moves)
    )
    return f"{head}{moves})\n"


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """A game as a file records it: what the file *claims* (the result and how it was
    decided) beside the moves, for a verifier to check rather than trust.

    ``winner`` is read from ``RE`` (None for ``Void`` or no result); ``decided_by`` from
    the comment's first line (None in files that do not say); ``moves`` are the main
    line's GTP vertices from the empty board, as written (not checked here).
    """

    size: int
    black: str
    white: str
    result: str
    winner: int | None
    decided_by: str | None
    comment: str
    moves: tuple[str, ...]


def parse_game_sgf(text: str, source: str = "<sgf>") -> RecordedGame:
    """The claims and moves of a refereed game's SGF (its main line).

    :raises ParseError: for malformed SGF, a game other than Hex, setup stones (a
        refereed game starts empty), or a bad board size (with the line and column).
    """
    reader = _SgfReader(text, source)
    nodes = _main_line(reader)
    size = _board_size(reader, nodes[0])
    root = {name: values for name, values, _ in nodes[0]}
    moves: list[str] = []
    for props in nodes:
        for name, values, at in props:
            if name in ("AB", "AW", "AE"):
                raise reader.error(f"a refereed game has no setup, found {name}", at)
            if name in ("B", "W"):
                moves.append(values[0][0].strip().lower())

    def text_of(name: str) -> str:
        return root[name][0][0] if name in root else ""

    result = text_of("RE").strip()
    winner = {"B": BLACK, "W": WHITE}.get(result[:1].upper()) if "+" in result else None
    comment = text_of("C")
    first = comment.partition("\n")[0]
    decided_by = first.partition(":")[2].strip() if first.startswith("decided by:") else None
    return RecordedGame(
        size,
        text_of("PB"),
        text_of("PW"),
        result,
        winner,
        decided_by,
        comment,
        tuple(moves),
    )
