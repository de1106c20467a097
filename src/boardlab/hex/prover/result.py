"""Prover layer: the verdict an exact Hex solver returns, with its evidence and text forms."""

from __future__ import annotations

from dataclasses import dataclass

from boardlab.hex.rules import BLACK, WHITE, Cell

__all__ = ["SolveResult", "format_result"]


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of :func:`solve`.

    ``winner`` is 1 or 2 when proven (None when the search ran out of its limit);
    ``winning_moves`` are the side to move's winning cells (indices ``row * n + col``) and
    ``losing_moves`` the moves proven to lose; ``complete`` is True when every legal move
    was classified; ``size`` is the board's (the cells' names come from it);
    ``pruned_moves`` are the moves a must-play question left unclassified (see
    :func:`boardlab.hex.prover.solver.solve`), ``complete`` then counting the others.
    """

    winner: int | None
    to_move: int
    winning_moves: tuple[int, ...]
    losing_moves: tuple[int, ...]
    complete: bool
    nodes: int
    seconds: float
    size: int
    pruned_moves: tuple[int, ...] = ()

    @property
    def proven(self) -> bool:
        """True when the winner is proven."""
        return self.winner is not None

    @property
    def winning_cells(self) -> tuple[Cell, ...]:
        """The winning moves as cells."""
        return tuple(Cell.of_index(i, self.size) for i in self.winning_moves)

    def as_dict(self) -> dict[str, object]:
        """The verdict and its evidence as JSON-ready values (cells named ``c5``)."""
        return {
            "winner": self.winner,
            "to_move": self.to_move,
            "winning_moves": [str(cell) for cell in self.winning_cells],
            "losing_moves": [str(Cell.of_index(i, self.size)) for i in self.losing_moves],
            "pruned_moves": [str(Cell.of_index(i, self.size)) for i in self.pruned_moves],
            "complete": self.complete,
            "proven": self.proven,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def format_result(result: SolveResult) -> str:
    """A one-line summary: winner and winning moves."""
    names = " ".join(str(cell) for cell in result.winning_cells)
    who = {None: "unknown", BLACK: "player 1", WHITE: "player 2"}[result.winner]
    return f"winner: {who}; winning moves: {names or '-'}"
