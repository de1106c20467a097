"""Prover layer: the verdict an exact Hex solver returns, with its evidence and text forms."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from boardlab.hex.rules import BLACK, WHITE, Cell, Position

__all__ = ["SolveResult", "format_result"]


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of :func:`solve`.

    ``winner`` is 1 or 2 when proven (None when the search ran out of its limit);
    ``winning_moves`` are the side to move's winning cells and ``losing_moves`` the
    cells proven to lose; ``complete`` is True when every legal move was classified.
    The evidence: ``nodes`` counts the positions the search analysed (DFPN) or visited
    (alpha-beta), ``seconds`` the time, ``proven`` whether the winner is known; a
    win or a loss has no ``bound`` (None). ``pruned_moves`` are the moves a must-play
    question left unclassified (see :func:`boardlab.hex.prover.solver.solve`),
    ``complete`` then counting the others.
    """

    winner: int | None
    to_move: int
    winning_moves: tuple[Cell, ...]
    losing_moves: tuple[Cell, ...]
    complete: bool
    nodes: int
    seconds: float
    pruned_moves: tuple[Cell, ...] = ()
    #: what stopped the search before it finished: "memory" (its memory budget) or
    #: "limit" (time, nodes or an outside stop); None when it finished
    stopped: str | None = None

    @classmethod
    def of_indices(
        cls,
        position: Position,
        winner: int | None,
        winning: Iterable[int],
        losing: Iterable[int],
        complete: bool,
        nodes: int,
        seconds: float,
        pruned: Iterable[int] = (),
    ) -> SolveResult:
        """The result of a search of ``position`` whose moves are cell indices."""
        return cls(
            winner,
            position.to_move,
            tuple(position.cell(i) for i in winning),
            tuple(position.cell(i) for i in losing),
            complete,
            nodes,
            seconds,
            tuple(position.cell(i) for i in pruned),
        )

    def stopped_by(self, reason: str | None) -> SolveResult:
        """This result with what stopped its search."""
        return replace(self, stopped=reason)

    @property
    def proven(self) -> bool:
        """True when the winner is proven."""
        return self.winner is not None

    @property
    def bound(self) -> None:
        """A win or a loss has no bound (the evidence every game's result has)."""
        return None

    def as_dict(self) -> dict[str, object]:
        """The verdict and its evidence as JSON-ready values, cells named as HexGui does
        (:meth:`Cell.vertex`: ``c5`` is column c, row 5 of HexGui's board, where black,
        player 1, joins top and bottom); the command line and the web print it as it is."""
        return {
            "winner": self.winner,
            "to_move": self.to_move,
            "winning_moves": [cell.vertex() for cell in self.winning_moves],
            "losing_moves": [cell.vertex() for cell in self.losing_moves],
            "pruned_moves": [cell.vertex() for cell in self.pruned_moves],
            "complete": self.complete,
            "stopped": self.stopped,
            "proven": self.proven,
            "bound": self.bound,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def format_result(result: SolveResult) -> str:
    """A one-line summary: winner and winning moves (named as HexGui does)."""
    names = " ".join(cell.vertex() for cell in result.winning_moves)
    who = {None: "unknown", BLACK: "black (player 1)", WHITE: "white (player 2)"}[result.winner]
    return f"winner: {who}; winning moves: {names or '-'}"
