"""Core layer: a Go Text Protocol (GTP 2) dispatcher that does no I/O.

:meth:`Dispatcher.handle_line` takes one line of input and returns ``(reply, quit)``;
the process loop that reads stdin and writes stdout lives at the edge (the CLI). The
dispatcher is generic: an engine hands it a table of command handlers, each taking the
argument words and returning the reply text, or raising :class:`GtpError` (or any
:class:`~boardlab.core.errors.BoardlabError`) for a ``?`` reply. The standard
administrative commands are built in.

>>> d = Dispatcher({"echo": lambda args: " ".join(args)}, name="demo", version="1")
>>> d.handle_line("7 echo hello  world")
('=7 hello world\\n\\n', False)
>>> d.handle_line("frobnicate")
('? unknown command\\n\\n', False)
>>> d.handle_line("quit")
('= \\n\\n', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from boardlab.core.errors import BoardlabError, ProtocolError

__all__ = ["Dispatcher", "GtpError", "Handler", "parse_line"]

#: Below this code a character is a control character (GTP drops them, tab and newline aside).
_SPACE = 32
#: The control character DEL.
_DELETE = 127

Handler = Callable[[list[str]], str]


class GtpError(ProtocolError):
    """A command that fails; its message becomes the text of a ``?`` reply."""


def parse_line(line: str) -> tuple[int | None, str, list[str]] | None:
    """``(id, command, arguments)`` of a GTP line, or None for an empty/comment line.

    Control characters other than tab and newline are dropped, tabs become spaces and a
    ``#`` starts a comment, as GTP 2 section 2.10 asks.

    :raises GtpError: when the line starts with an id but has no command.
    """
    kept = (ch for ch in line if ch in "\t\n" or (ord(ch) >= _SPACE and ord(ch) != _DELETE))
    cleaned = "".join(" " if ch == "\t" else ch for ch in kept)
    cleaned = cleaned.split("#", 1)[0]
    words = cleaned.split()
    if not words:
        return None
    ident: int | None = None
    if words[0].isdigit() and words[0].isascii():
        ident = int(words[0])
        words = words[1:]
        if not words:
            raise GtpError("missing command after the id")
    return ident, words[0], words[1:]


class Dispatcher:
    """Answers GTP commands with ``handlers`` plus the built-in administrative ones.

    Built in: ``protocol_version``, ``name``, ``version``, ``known_command``,
    ``list_commands`` and ``quit``. A handler may override none of them but ``name`` and
    ``version`` come from the constructor.
    """

    def __init__(self, handlers: Mapping[str, Handler], name: str, version: str) -> None:
        builtin: dict[str, Handler] = {
            "protocol_version": lambda args: "2",
            "name": lambda args: name,
            "version": lambda args: version,
            "known_command": self._known,
            "list_commands": lambda args: "\n".join(sorted(self.commands)),
            "quit": lambda args: "",
        }
        clash = set(builtin) & set(handlers)
        if clash:
            raise BoardlabError(f"handlers may not redefine {', '.join(sorted(clash))}")
        self.commands: dict[str, Handler] = {**builtin, **handlers}

    def _known(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("known_command takes one argument")
        return "true" if args[0] in self.commands else "false"

    def handle_line(self, line: str) -> tuple[str, bool]:
        """The full reply text to ``line`` (``""`` for an empty line) and whether to quit."""
        try:
            parsed = parse_line(line)
        except GtpError as exc:
            return f"? {exc}\n\n", False
        if parsed is None:
            return "", False
        ident, command, args = parsed
        tag = "" if ident is None else str(ident)
        handler = self.commands.get(command)
        if handler is None:
            return f"?{tag} unknown command\n\n", False
        try:
            text = handler(args)
        except BoardlabError as exc:
            message = " ".join(str(exc).split())
            return f"?{tag} {message}\n\n", False
        lead = "\n" if text.startswith("\n") else ""
        body = lead + "\n".join(part for part in text.split("\n") if part.strip())
        return f"={tag} {body}\n\n", command == "quit"
