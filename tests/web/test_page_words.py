"""The page's own words name no field, type or value a player never typed: every string
and template literal of its scripts that holds a sentence, and every text of its HTML,
read without a browser (the server's words: ``test_openapi.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from boardlab.web import answers, answers_games
from boardlab.web.schemas import ENDPOINTS

STATIC = Path(answers.__file__).resolve().parent / "static"
#: A string or template literal of JavaScript (a regular expression literal holds none).
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`', re.S)
#: A template literal's ``${...}`` (one level of braces inside).
PLACEHOLDER = re.compile(r"\$\{(?:[^{}]|\{[^{}]*\})*\}")


def keys() -> list[str]:
    """Every request and answer field's key that no sentence holds (those with ``_``)."""
    structs = [*ENDPOINTS.values()]
    for module in (answers, answers_games):
        structs += [
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, msgspec.Struct)
        ]
    found = {f.encode_name for s in structs for f in msgspec.structs.fields(s)}
    return sorted(key for key in found if "_" in key)


FOREIGN = re.compile(
    r"\b(field|NoneType|undefined|null|NaN|int|str|float|bool|dict|"
    + "|".join(re.escape(key) for key in keys())
    + r")\b|\[object |`"
)


def sentences(path: Path) -> list[str]:
    """The texts of ``path`` a player may read: its literals that hold a space (a
    sentence, not an id, a class or a key), placeholders blanked; an HTML file's text."""
    text = path.read_text()
    if path.suffix == ".js":
        text = re.sub(r"^\s*//[^\n]*|\s//\s[^\n]*", "", text, flags=re.M)
        found = [PLACEHOLDER.sub(" ", literal[1:-1]) for literal in LITERAL.findall(text)]
        return [words for words in found if " " in words.strip()]
    text = re.sub(r"<script.*?</script>|<style.*?</style>|<!--.*?-->", "", text, flags=re.S)
    return [line for line in re.sub(r"<[^>]*>", "\n", text).split("\n") if line.strip()]


def test_keys_are_found() -> None:
    assert {"to_move", "peg_count", "win_rate", "board_file"} <= set(keys())
    assert FOREIGN.search("the to_move is 1") and FOREIGN.search("expected int, got str")
    assert not FOREIGN.search(PLACEHOLDER.sub(" ", "Player ${NAMES[state.to_move]} to move"))


def test_no_sentence_of_the_page_names_a_field_or_a_type() -> None:
    files = [p for p in sorted(STATIC.glob("*.js")) if not p.name.startswith("three")]
    files.append(STATIC / "index.html")
    read = 0
    for path in files:
        for words in sentences(path):
            assert not FOREIGN.search(words), (path.name, words)
            read += 1
    assert read > 300  # the page's sentences were read, not skipped
