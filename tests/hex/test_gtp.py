"""The Hex GTP engine: HexGui conventions, the transpose to the IOI orientation, errors."""

from __future__ import annotations

import pytest

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.engine.opening import balanced_opening, opening_candidates
from boardlab.hex.gtp import HexGtp, parse_vertex, vertex
from boardlab.hex.player import SolvingEngine, decide_swap
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import BLACK, WHITE, Cell, Position


def session(*lines: str, size: int = 5) -> tuple[HexGtp, list[str]]:
    gtp = HexGtp(SolvingEngine(seed=1, max_nodes=50_000), size=size, move_time=0.05)
    replies = [gtp.handle_line(line)[0] for line in lines]
    return gtp, replies


def test_vertex_is_the_transpose() -> None:
    # GTP c5 = column c, row 5 in HexGui; internally (IOI orientation) it is row 3, column 5
    assert parse_vertex("c5", 5) == Cell(2, 4).index(5)
    assert vertex(Cell(2, 4).index(5), 5) == "c5"
    for index in range(25):
        assert parse_vertex(vertex(index, 5), 5) == index


def test_black_joins_top_and_bottom_in_gtp() -> None:
    moves = ["b c1", "w a1", "b c2", "w a2", "b c3", "w a3"]
    gtp, replies = session(*(f"play {m}" for m in moves), "play b c4", "play w a4")
    assert all(r == "= \n\n" for r in replies[:-1])
    assert gtp.position.winner is None
    reply, _ = gtp.handle_line("play b c5")
    assert reply == "= \n\n"
    assert gtp.position.winner == BLACK  # black column c joins rows 1..5 (top to bottom)
    assert gtp.handle_line("genmove w")[0] == "= resign\n\n"  # as MoHex answers
    assert gtp.handle_line("genmove b")[0] == "= resign\n\n"
    assert gtp.handle_line("boardlab-analyze")[0] == "? the game is over: black has won\n\n"
    assert gtp.handle_line("play w e5")[0] == "= \n\n"  # kept after the win, as MoHex does
    assert gtp.position.winner == BLACK


def test_white_joins_left_and_right_in_gtp() -> None:
    lines = ["play w a3", "play w b3", "play w c3", "play w d3", "play w e3"]
    gtp, _ = session(*lines)
    assert gtp.position.winner == 2


def test_ioi_orientation_is_the_transpose_of_gtp() -> None:
    gtp, _ = session("play b c1", "play b c2", "play b c3", "play b c4", "play b c5")
    ioi = Position(5)
    for row in range(5):
        ioi.board[Cell(2, row).index(5)] = BLACK  # IOI: player 1 fills row 3, columns 1..5
    assert gtp.position.board == ioi.board


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("play b z9", "? invalid vertex"),
        ("play b a", "? invalid vertex"),
        ("play x a1", "? invalid color"),
        ("play b", "? play takes a color and a vertex"),
        ("play b swap-sides", "? unsupported move"),
        ("play w resign", "? unsupported move"),
        ("play b swap-pieces", "? illegal move: only white may swap"),
        ("play w swap-pieces", "? illegal move: swap is not allowed: the swap rule is off"),
        ("param_game allow_swap", "? param_game takes no arguments or a name and a value"),
        ("param_game allow_swap maybe", "? invalid boolean"),
        ("param_game game_time 10", "? unknown game parameter 'game_time'"),
        ("boardsize 0", "? unacceptable size"),
        ("boardsize 27", "? unacceptable size"),
        ("boardsize 5 6", "? unacceptable size"),
        ("boardsize x", "? boardsize takes"),
        ("genmove", "? genmove takes a color"),
        ("undo", "? cannot undo"),
        ("time_left b x 0", "? invalid time"),
        ("time_left b -5 0", "? invalid time left '-5 0': negative or not finite"),
        ("time_left w nan 0", "? invalid time left 'nan 0': negative or not finite"),
        ("time_left w 10 x", "? invalid time left '10 x'"),
        ("time_settings nan 1 1", "? invalid time settings 'nan 1 1'"),
        ("time_settings 0 1", "? time_settings takes"),
        ("time_settings 0 x 1", "? invalid time settings"),
        ("time_settings 0 -1 1", "? invalid time settings"),
        ("frob", "? unknown command"),
    ],
)
def test_errors_keep_the_engine_running(line: str, message: str) -> None:
    _gtp, replies = session(line, "name")
    assert replies[0].startswith(message), replies[0]
    assert replies[1] == "= boardlab-hex\n\n"


def test_occupied_and_undo() -> None:
    gtp, replies = session("play b a1", "play w a1", "undo", "undo", "play w a1")
    assert replies[1].startswith("? illegal move: a1 is occupied")
    assert replies[2:] == ["= \n\n", "? cannot undo: no move played\n\n", "= \n\n"]
    assert gtp.position.to_move == BLACK


def test_setup_stones_sent_again_by_a_rewind_are_accepted() -> None:
    # HexGui: a setup node (black a1, white b2), a move (black c3); rewinding from the
    # move undoes it and sends the setup node's stones again; rewinding past the setup
    # node undoes its two stones
    gtp, replies = session(
        "boardsize 5", "play b a1", "play w b2", "play b c3", "undo", "play b a1", "play w b2"
    )
    assert all(reply == "= \n\n" for reply in replies), replies
    assert gtp.position.board[0] == BLACK and gtp.position.board[6] == WHITE
    assert sum(1 for v in gtp.position.board if v) == 2
    more = [gtp.handle_line(line)[0] for line in ("undo", "undo", "play w a1")]
    assert more == ["= \n\n", "= \n\n", "= \n\n"]
    assert sum(1 for v in gtp.position.board if v) == 1


def test_genmove_plays_a_legal_move_and_wins_when_it_can() -> None:
    gtp, replies = session(
        "boardsize 4",
        "play b b1",
        "play w a1",
        "play b b2",
        "play w a2",
        "play b b3",
        "play w a3",
        "genmove b",
    )
    assert replies[-1] in ("= a4\n\n", "= b4\n\n")  # b3 touches a4 and b4 on row 4
    assert gtp.position.winner == BLACK


def test_showboard_and_analyze_commands() -> None:
    _gtp, replies = session(
        "play b a2",
        "showboard",
        "hexgui-analyze_commands",
        "list_commands",
        "boardsize 3",
        "boardlab-solve",
        "known_command genmove",
    )
    board = replies[1]
    assert board.startswith("= \n# HexGui orientation")
    assert " 2  X . . . ." in board
    assert "boardlab-solve" in replies[2]
    for name in [
        "boardsize",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "showboard",
        "name",
        "version",
        "protocol_version",
        "known_command",
        "list_commands",
        "quit",
        "hexgui-analyze_commands",
        "boardlab-solve",
        "param_game",
    ]:
        assert name in replies[3].split()
    assert replies[5].startswith("= black b2")
    assert replies[6] == "= true\n\n"


# -- the swap rule -----------------------------------------------------------------------------


def test_param_game_allow_swap() -> None:
    gtp, replies = session(
        "param_game",
        "param_game allow_swap 1",
        "param_game",
        "boardsize 4",
        "clear_board",
        "param_game",
        "param_game allow_swap false",
        "param_game",
        "hexgui-analyze_commands",
    )
    assert replies[0] == "= \n[bool] allow_swap 0\n\n"  # MoHex's listing
    assert replies[1] == "= \n\n"
    assert replies[2] == "= \n[bool] allow_swap 1\n\n"
    assert replies[5] == "= \n[bool] allow_swap 1\n\n"  # kept by boardsize/clear_board
    assert replies[7] == "= \n[bool] allow_swap 0\n\n"
    assert "param/Game Param/param_game" in replies[8]
    assert not gtp.position.swap
    assert HexGtp(size=3, swap=True).position.swap


def test_play_swap_pieces_as_hexgui_and_mohex_play_it() -> None:
    """After ``play w swap-pieces`` the board stays (MoHex's showboard keeps the black
    stone) and white moves next, as HexGui then sends; undo takes the swap back."""
    gtp, replies = session(
        "param_game allow_swap 1",
        "play b c2",  # HexGui vertex: column c, row 2
        "play w swap-pieces",
        "showboard",
    )
    assert replies[2] == "= \n\n"
    p = gtp.position
    assert [c.index(5) for c in p.stones(BLACK)] == [parse_vertex("c2", 5)]
    assert p.stones(WHITE) == [] and p.to_move == WHITE and not p.can_swap()
    assert " 2  . . X . ." in replies[3]
    more = [gtp.handle_line(line)[0] for line in ["play w b4", "genmove b", "showboard"]]
    assert more[0] == "= \n\n" and more[1].startswith("= ")
    assert more[2].count("X") == 2 + 1 and more[2].count("O") == 1 + 1  # header names both
    again = [gtp.handle_line(line)[0] for line in ["undo", "undo", "undo", "showboard"]]
    assert again[:3] == ["= \n\n"] * 3
    assert p.to_move == WHITE and p.can_swap() and len(p.history) == 1
    # HexGui's short name is accepted as well; a second swap is not
    assert gtp.handle_line("play white swap")[0] == "= \n\n"
    assert gtp.handle_line("play white swap")[0].startswith("? illegal move: swap")


@pytest.mark.parametrize(
    "lines",
    [
        ["play b a1", "play w b2", "play b c3"],  # third move
        ["play b a1", "play w b2"],  # white has already answered
        ["play w a1"],  # the first stone is white's
        ["play b a1", "play b b2"],  # two stones on the board
    ],
)
def test_swap_pieces_only_as_the_second_move(lines: list[str]) -> None:
    gtp, replies = session("param_game allow_swap 1", *lines, "play w swap-pieces")
    assert replies[-1].startswith("? illegal move: swap"), replies[-1]
    assert gtp.handle_line("name")[0] == "= boardlab-hex\n\n"


def test_genmove_swaps_a_winning_first_stone() -> None:
    position = Position(5)
    position.play_index(parse_vertex("c3", 5))
    assert solve(position, Limit(time=30)).winner == BLACK  # the centre wins for black
    gtp, replies = session("param_game allow_swap 1", "play b c3", "genmove w")
    assert replies[-1] == "= swap-pieces\n\n"
    assert gtp.position.indices == [parse_vertex("c3", 5)]
    assert gtp.position.to_move == WHITE and not gtp.position.can_swap()
    assert gtp.handle_line("undo")[0] == "= \n\n"
    assert gtp.position.stones(BLACK) == [Cell(2, 2)] and gtp.position.to_move == WHITE
    # without the swap rule the same position gets an ordinary move
    _gtp, plain = session("play b c3", "genmove w")
    assert plain[-1] != "= swap-pieces\n\n" and plain[-1].startswith("= ")


def test_genmove_keeps_a_losing_first_stone() -> None:
    # which corner loses is checked with the solver, not assumed
    losing = []
    for corner in ("a1", "e1", "a5", "e5"):
        position = Position(5)
        position.play_index(parse_vertex(corner, 5))
        if solve(position, Limit(time=30)).winner == WHITE:
            losing.append(corner)
    assert losing == ["a1", "e5"]  # the acute corners
    gtp, replies = session("param_game allow_swap 1", "play b a1", "genmove w")
    answer = replies[-1][2:].strip()
    assert answer != "swap-pieces"
    index = parse_vertex(answer, 5)
    assert gtp.position.board[index] == WHITE and gtp.position.to_move == BLACK


def test_decide_swap_by_search_above_the_solver_size() -> None:
    def decision(size: int, name: str) -> tuple[bool, float]:
        position = Position(size, swap=True)
        position.play(Cell.parse(name))
        engine = SolvingEngine(seed=1, max_nodes=200_000)
        result = decide_swap(engine, position, Limit(nodes=3000), solve_size=0)
        assert "playouts" in result.reason and not result.exact  # the search, not the solver
        assert (result.reply is None) == result.swap
        return result.swap, result.first_player_chance

    swap, chance = decision(7, "d4")
    assert swap and chance > 0.5
    swap, chance = decision(7, "a1")
    assert not swap and chance < 0.5
    assert decision(7, "d4") == decision(7, "d4")  # reproducible under a playout limit
    with pytest.raises(BoardlabError, match="swap is not legal"):
        decide_swap(SolvingEngine(), Position(5, swap=True), Limit(nodes=100))


def test_genmove_black_opens_off_centre_with_swap() -> None:
    gtp, replies = session("param_game allow_swap 1", "genmove b", size=7)
    answer = replies[-1][2:].strip()
    index = parse_vertex(answer, 7)
    row, col = divmod(index, 7)
    assert min(row, col, 6 - row, 6 - col) <= 1  # an edge or near-edge cell
    assert index in opening_candidates(7) or 48 - index in opening_candidates(7)
    # the choice comes from the engine's seed: a second session repeats it
    _gtp, again = session("param_game allow_swap 1", "genmove b", size=7)
    assert again[-1] == replies[-1]
    assert index == balanced_opening(7, seed=1)[0]
    assert gtp.position.indices == [index] and gtp.position.to_move == WHITE


def test_opening_candidates_are_the_outer_rings_up_to_rotation() -> None:
    for size in (1, 2, 5, 7):
        cells = opening_candidates(size)
        outer = {
            i
            for i in range(size * size)
            if min(i // size, i % size, size - 1 - i // size, size - 1 - i % size) <= 1
        }
        assert set(cells) | {size * size - 1 - i for i in cells} == outer
        assert all(size * size - 1 - i not in cells or size * size - 1 - i == i for i in cells)


def test_time_settings_set_the_time_a_move() -> None:
    gtp, replies = session("time_settings 0 3 2", "list_commands")
    assert replies[0] == "= \n\n" and "time_settings" in replies[1].split()
    assert gtp.move_time == 1.5 and gtp.time_left == {}
    gtp.handle_line("time_settings 60 0 0")  # absolute time: what time_left says is left
    assert gtp.time_left == {BLACK: 60.0, WHITE: 60.0} and gtp.move_time == 1.5
    gtp.handle_line("time_settings 0 0 0")  # no time limits: the session's own time
    assert gtp.move_time == 0.05 and gtp.time_left == {}


@pytest.mark.parametrize("seconds", [0.02, 0.25, 0.3, 1.0, 1.5, 7.0, 1 / 3])
def test_the_time_a_match_tells_is_the_time_a_move_gets(seconds: float) -> None:
    """``hex match --time T`` tells a GTP opponent ``T`` (whole seconds over stones),
    and boardlab's own engine, so told, thinks ``T`` a move, not ``T`` rounded up."""
    from boardlab.peers.gtp_process import time_commands

    (line,) = time_commands(seconds, {"time_settings"})
    gtp, replies = session(line)
    assert replies == ["= \n\n"]
    assert gtp.move_time == pytest.approx(seconds, rel=1e-3)


def test_boardsize_loads_the_kernels_of_the_new_width_before_any_genmove(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """12x12 and 13x13 have kernels of their own: loading (on a fresh install compiling)
    them is the boardsize command's work, not the first genmove's time."""
    import boardlab.hex.gtp as gtp_module

    warmed: list[int] = []
    monkeypatch.setattr(gtp_module, "warm_up", lambda size=3: warmed.append(size) or 0.0)
    _, replies = session("boardsize 13", "boardsize 0", "boardsize 7")
    assert replies[0] == "= \n\n" and replies[1].startswith("? unacceptable size")
    assert warmed == [13, 7]


def test_boardsize_loads_the_kernels_under_the_sessions_loading_context() -> None:
    """A ``boardsize`` loads the engine's kernels for its board inside the context the
    session was given (the command line's note on a slow, compiling load); a refused
    size loads nothing."""
    from collections.abc import Iterator
    from contextlib import contextmanager

    entered: list[int] = []

    @contextmanager
    def loading() -> Iterator[None]:
        entered.append(1)
        yield

    session = HexGtp(size=3, loading=loading)
    assert session.handle_line("boardsize 5")[0].startswith("=")
    assert entered == [1]
    assert session.handle_line("boardsize 0")[0].startswith("?")
    assert entered == [1]
