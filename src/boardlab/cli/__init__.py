"""Interface layer: ``boardlab <game> <verb>``, the only code that prints or exits.

Game modules are imported only when their game is named, so ``boardlab --help``
stays fast; any :class:`~boardlab.core.errors.BoardlabError` becomes one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from typing import NoReturn

from boardlab import __version__
from boardlab.cli._command import Game
from boardlab.core.errors import BoardlabError

__all__ = ["GAMES", "TOOLS", "available_games", "load_game", "main", "played_games"]

#: Every game of the command line, in the order ``--help`` lists them.
GAMES: dict[str, str] = {
    "demo": "run every finished game on its built-in data and print a report",
    "hiq": "Hi-Q (Mid-Atlantic 1996): the deterministic peg-jumping simulation, contest I/O",
    "pegs": "peg solitaire boards: show, judge, solve, count, minmoves, classify",
    "pegged": "PEGGED (POTM 1997): reduce a board to one peg with fewest walks and jumps",
    "ioiwari": "Ioiwari (IOI 2001): perfect play, the IOI protocol and its judge",
    "hex": "Hex (IOI 1997): engine, exact solver, IOI library, GTP and matches",
    "mars": "Mars explorer (IOI 1997): optimal vehicle routes and their judge",
    "shongololo": "Toxic iShongololo (IOI 1997): most blocks eaten, and the judge",
    "serve": "the local web page for every game",
    "warm": "compile (or load) every game's kernels once, ahead of timed play",
}


#: The entries of :data:`GAMES` that are no game but serve them all.
TOOLS = frozenset({"demo", "serve", "warm"})


def available_games() -> list[str]:
    """The games whose command module exists in this installation."""
    return [name for name in GAMES if importlib.util.find_spec(f"boardlab.cli.{name}") is not None]


def played_games() -> list[str]:
    """:func:`available_games` less the :data:`TOOLS`: the games themselves."""
    return [name for name in available_games() if name not in TOOLS]


def load_game(name: str) -> Game:
    """Import ``boardlab.cli.<name>`` and return its :data:`GAME`."""
    module = importlib.import_module(f"boardlab.cli.{name}")
    game: Game = module.GAME
    return game


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _top_parser(games: list[str]) -> argparse.ArgumentParser:
    listing = "\n".join(f"  {name:<11} {GAMES[name]}" for name in games)
    parser = _Parser(
        prog="boardlab",
        description="Play, solve and judge classic contest games and puzzles.",
        epilog=f"games:\n{listing}\n\nRun 'boardlab <game> --help' for its verbs.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"boardlab {__version__}")
    parser.add_argument("game", nargs="?", help="the game to run (see the list below)")
    return parser


def _game_parser(game: Game, verb_name: str | None) -> argparse.ArgumentParser:
    if verb_name is None:
        lines = [f"  {verb.name:<11} {verb.help}" for verb in game.verbs]
        usage_tail = " [VERB] ..." if game.default else " VERB ..."
        epilog = "verbs:\n" + "\n".join(lines)
        if game.default is not None:
            epilog += f"\n\nwithout a verb: {game.default.help}"
        parser = _Parser(
            prog=f"boardlab {game.name}",
            usage=f"boardlab {game.name}{usage_tail}",
            description=game.help,
            epilog=epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        if game.default is not None:
            game.default.configure(parser)
        return parser
    verb = game.verb(verb_name)
    assert verb is not None
    parser = _Parser(
        prog=f"boardlab {game.name} {verb.name}",
        description=verb.description or verb.help,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verb.configure(parser)
    return parser


def _run_game(game: Game, argv: list[str]) -> int:
    if argv and game.verb(argv[0]) is not None:
        verb = game.verb(argv[0])
        assert verb is not None
        args = _game_parser(game, verb.name).parse_args(argv[1:])
        return verb.run(args)
    parser = _game_parser(game, None)
    if game.default is None:
        if not argv:
            parser.print_help()
            sys.stdout.flush()
            print(f"boardlab {game.name}: error: give a verb (listed above)", file=sys.stderr)
            return 2
        if argv[0].startswith("-"):
            parser.parse_args(argv)
        verbs = ", ".join(verb.name for verb in game.verbs)
        parser.error(f"unknown verb {argv[0]!r} (choose from {verbs})")
    args = parser.parse_args(argv)
    return game.default.run(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``boardlab`` with ``argv`` (default: the process arguments); returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    games = available_games()
    if not arguments or arguments[0].startswith("-"):
        parser = _top_parser(games)
        parser.parse_args(arguments)
        parser.print_help()
        if arguments:
            return 0
        sys.stdout.flush()
        print("boardlab: error: give a game (listed above)", file=sys.stderr)
        return 2
    name, rest = arguments[0], arguments[1:]
    if name not in games:
        _top_parser(games).error(f"unknown game {name!r} (choose from {', '.join(games)})")
    try:
        return _run_game(load_game(name), rest)
    except BoardlabError as exc:
        sys.stdout.flush()
        print(f"boardlab {name}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"boardlab {name}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 141


#: The games whose commands restart once with huge pages (:mod:`boardlab.core.huge_pages`):
#: those that allocate and free arrays of hundreds of MB a step.
HUGE_PAGE_GAMES = frozenset({"pegs"})


def entry_point() -> None:
    """Console-script wrapper that exits with :func:`main`'s status (a game of
    :data:`HUGE_PAGE_GAMES` first restarts with huge pages, before any work)."""
    if len(sys.argv) > 1 and sys.argv[1] in HUGE_PAGE_GAMES:
        from boardlab.core.huge_pages import restart_with_huge_pages

        restart_with_huge_pages()
    sys.exit(main())
