"""Core layer: tokenizer, file reading and diagnostics for contest text formats.

Contest inputs are whitespace-separated tokens whose line breaks often carry no
meaning; every token remembers its line and column so a parse error can name them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.words import number, span

__all__ = ["Token", "TokenReader", "read_source", "read_text", "tokenize"]

MAX_INPUT_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Token:
    """One whitespace-separated word of an input, with its 1-based line and column."""

    text: str
    line: int
    column: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens, keeping where each one starts.

    >>> [(t.text, t.line, t.column) for t in tokenize("4\\n 10 12\\n")]
    [('4', 1, 1), ('10', 2, 2), ('12', 2, 5)]
    """
    tokens: list[Token] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        column = 0
        length = len(line)
        while column < length:
            if line[column].isspace():
                column += 1
                continue
            start = column
            while column < length and not line[column].isspace():
                column += 1
            tokens.append(Token(line[start:column], line_number, start + 1))
    return tokens


class TokenReader:
    """Reads typed values from a token stream; every failure is a :class:`ParseError`."""

    def __init__(self, text: str, source: str = "<stdin>") -> None:
        self.source = source
        self._tokens = tokenize(text)
        self._index = 0
        lines = text.splitlines()
        self._end_line = max(len(lines), 1)
        self._end_column = (len(lines[-1]) + 1) if lines else 1

    def __iter__(self) -> Iterator[Token]:
        while self._index < len(self._tokens):
            yield self.next_token("a token")

    @property
    def at_end(self) -> bool:
        """True when every token has been read."""
        return self._index >= len(self._tokens)

    def error(self, message: str, token: Token | None = None) -> ParseError:
        """A parse error at ``token`` (or at the end of the input when None)."""
        if token is None:
            return ParseError(
                message, source=self.source, line=self._end_line, column=self._end_column
            )
        return ParseError(message, source=self.source, line=token.line, column=token.column)

    def next_token(self, what: str) -> Token:
        """The next token; ``what`` names it in the error when the input has ended.

        :raises ParseError: when no token is left.
        """
        if self._index >= len(self._tokens):
            raise self.error(f"missing {what}: the input ends here")
        token = self._tokens[self._index]
        self._index += 1
        return token

    def next_int(self, what: str, low: int | None = None, high: int | None = None) -> int:
        """The next token as an integer in ``low..high`` (bounds inclusive, None = open).

        :raises ParseError: when the token is missing, not an integer or out of range.
        """
        token = self.next_token(what)
        return self.int_of(token, what, low, high)

    def int_of(self, token: Token, what: str, low: int | None, high: int | None) -> int:
        """``token`` as an integer in ``low..high``.

        :raises ParseError: when it is not an integer or out of range.
        """
        text = token.text
        digits = text[1:] if text[:1] in "+-" else text
        if not digits.isdigit() or not digits.isascii():
            raise self.error(f"{what} must be an integer, got {text!r}", token)
        value = int(text)
        if (low is not None and value < low) or (high is not None and value > high):
            if low is None:
                bound = f"at most {number(high or 0)}"
            elif high is None:
                bound = f"at least {number(low)}"
            else:
                bound = span(low, high)
            raise self.error(f"{what} must be {bound}, got {value}", token)
        return value

    def expect_end(self, what: str = "input") -> None:
        """Check that nothing is left.

        :raises ParseError: naming the first unexpected token.
        """
        if self._index < len(self._tokens):
            token = self._tokens[self._index]
            raise self.error(f"unexpected {token.text!r} after the end of the {what}", token)


def read_text(path: str | Path) -> str:
    """The whole text of a file, or of stdin for ``-``, read up to
    :data:`MAX_INPUT_BYTES` (a device or a pipe that never ends is cut off there).

    :raises BoardlabError: when the file cannot be read, is larger than that, or is not
        UTF-8 text (naming the line and column of the first byte that is not).
    """
    name = str(path)
    if not name:
        raise BoardlabError("cannot read '': no file name given")
    try:
        if name == "-":
            binary = getattr(sys.stdin, "buffer", None)
            if binary is None:  # a text stream stands in for stdin (embedding, tests)
                text = sys.stdin.read(MAX_INPUT_BYTES + 1)
                if len(text) > MAX_INPUT_BYTES:
                    raise _too_large(name)
                return text
            data: bytes = binary.read(MAX_INPUT_BYTES + 1)
        else:
            file_path = Path(path)
            if file_path.is_dir():
                raise BoardlabError(f"cannot read {name!r}: it is a directory")
            with file_path.open("rb") as stream:
                data = stream.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise BoardlabError(f"cannot read {name!r}: {exc.strerror or exc}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise _too_large(name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise BoardlabError(
            f"cannot read {name!r}: line {line}, column {column}: not UTF-8 text ({exc.reason})"
        ) from None
    # as text mode reads it: universal newlines
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _too_large(name: str) -> BoardlabError:
    """The error for an input past :data:`MAX_INPUT_BYTES`."""
    return BoardlabError(f"cannot read {name!r}: larger than {MAX_INPUT_BYTES} bytes")


def read_source(path: str | Path) -> tuple[str, str]:
    """``(text, source name)`` of a file or of stdin for ``-`` (for diagnostics)."""
    name = "<stdin>" if str(path) == "-" else str(path)
    return read_text(path), name
