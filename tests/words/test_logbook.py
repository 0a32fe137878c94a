"""What reading a game log finds is a value (a kind, the file, the line and the facts); its words are made at the
edge in the reader's language, so one process says the same finding in English and in German."""

from __future__ import annotations

import ast
import errno
from pathlib import Path

import pytest

from companion import i18n
from companion.cribbage.cards import Card
from companion.cribbage.refusals import Refusal, Why
from companion.gamelog import CannotSave, GameLog, GameLogError
from companion.i18n import language
from companion.words.logbook import Finding, Found, finding_words

EN, DE = language("en"), language("de")
LOG = "games/0001.jsonl"
REFUSAL = Refusal(Why.CARD_CUT_ALREADY, Card.parse("5C"))
SAMPLES = [  # one finding of each kind, with its English words as the log's reader said them before they moved here
    (Finding(Found.NUL_TAIL, LOG, 8, {"kept": 6}),
     f"{LOG}: line 8 holds only NUL bytes, left by a power cut during a write; they are dropped, the 6 inputs before "
     "them are kept"),
    (Finding(Found.TORN, LOG, 8, {"size": 11, "kept": 6}),
     f"{LOG}: line 8 was cut short by a crash (11 bytes) and is dropped; the 6 inputs before it are kept"),
    (Finding(Found.NOT_REPAIRED, LOG, facts={"error": "Read-only file system"}),
     f"{LOG}: cannot repair it now (Read-only file system); the next write will"),
    (Finding(Found.HELD_UNKEPT, "0001.pending.json", facts={"error": "No space left on device"}),
     "0001.pending.json: cannot keep the held cards (No space left on device); the entry is logged"),
    (Finding(Found.PENDING_UNREADABLE, "0001.pending.json", facts={"error": "Expecting value"}),
     "0001.pending.json: unreadable (Expecting value); the cards held are dropped"),
    (Finding(Found.PENDING_SHAPE, "0001.pending.json"),
     '0001.pending.json: not a list of cards like ["5H","JS"] and a deal number; the cards held are dropped: enter '
     "them again"),
    (Finding(Found.PENDING_CARD, "0001.pending.json", facts={"why": REFUSAL}),
     "0001.pending.json: 5C was cut already: check the card and enter it again; the cards held are dropped"),
    (Finding(Found.RESUMED, LOG, 5, {"damage": Finding(Found.LONE_UNDO, LOG, 5), "kept": 3, "aside": "x.set-aside"}),
     f"{LOG}: line 5 holds an undo with no input before it to take back. The game cannot be resumed past it: run "
     "`crib repair` (it keeps the lines before it and sets the rest aside in a file), or start a new game. Resumed "
     "from the 3 inputs before line 5; the rest is kept in x.set-aside"),
    (Finding(Found.UNREADABLE, LOG, facts={"error": "Permission denied"}),
     f"{LOG}: cannot read it (Permission denied): check the disk and its permissions"),
    (Finding(Found.NEWER, LOG, facts={"version": 2, "reads": 1}),
     f"{LOG}: line 1 says it is a version 2 log, written by a newer Cribbage Companion (this one reads version 1): "
     "update the program"),
    (Finding(Found.CANNOT_SAVE, LOG, facts={"message": CannotSave(Path(LOG), OSError(errno.EROFS, "x")).message}),
     "Cannot save: the disk is read-only. Nothing was entered; try again once there is room"),
]
CANNOT_RESUME = (". The game cannot be resumed past it: run `crib repair` (it keeps the lines before it and sets "
                 "the rest aside in a file), or start a new game")
SAMPLES += [(Finding(kind, LOG, 4, facts), f"{LOG}: line 4 {what}{CANNOT_RESUME}") for kind, facts, what in [
    (Found.NUL_LINE, {}, "holds NUL bytes where a line was due (the disk lost a write)"),
    (Found.DAMAGED, {"error": "Expecting value: line 1 column 1 (char 0)"},
     "is damaged (Expecting value: line 1 column 1 (char 0))"),
    (Found.FIELD_TWICE, {"name": "card"}, "is damaged (the field 'card' is given twice)"),
    (Found.NOT_A_NUMBER, {"name": "NaN"}, "is damaged (NaN is not a number JSON allows)"),
    (Found.HEADER_MISPLACED, {"header": '{"log":"cribbage-companion","version":1}\n'},
     'is not a table input (a header belongs on line 1: \'{"log":"cribbage-companion","version":1}\\n\')'),
    (Found.NOT_INPUT, {"why": Refusal(Why.NOT_AN_OBJECT)},
     'is not a table input (an input is a JSON object, like {"type":"play","card":"5H"})'),
    (Found.LONE_UNDO, {}, "holds an undo with no input before it to take back"),
    (Found.REFUSED, {"input": '{"type":"cut","card":"5C"}', "why": REFUSAL},
     'holds {"type":"cut","card":"5C"}, which the game refuses there (5C was cut already: check the card and enter it '
     "again)"),
]]


def test_every_kind_is_sampled():
    assert sorted(finding.kind for finding, _words in SAMPLES) == sorted(Found)


@pytest.mark.parametrize(("finding", "english"), SAMPLES, ids=lambda v: getattr(v, "kind", ""))
def test_a_finding_is_said_in_english_and_in_german_by_one_process(finding: Finding, english: str):
    assert finding_words(finding, EN) == english
    german = finding_words(finding, DE)
    assert german != english and "{" not in german.replace('{"', "")
    assert german.startswith(finding.path) or finding.kind is Found.CANNOT_SAVE  # the file, in every language
    assert finding_words(finding, EN) == english and i18n.current() is EN  # German did not stay switched on


def test_a_log_that_cannot_be_read_is_refused_as_a_finding_its_words_in_the_language_current(tmp_path: Path):
    path = tmp_path / "0001.jsonl"
    path.write_text('{"type":"game","players":["Ann","Bob"]}\n{"type":"undo"}\n{"type":"undo"}\n[\n{}\n',
                    encoding="utf-8")
    with pytest.raises(GameLogError) as caught:
        GameLog.open(path)
    assert caught.value.refusal == Finding(Found.LONE_UNDO, str(path), 3)
    assert str(caught.value).startswith(f"{path}: line 3 holds an undo with no input before it")
    with i18n.speaking(DE):
        assert str(caught.value).startswith(f"{path}: Zeile 3 enthält ein Zurücknehmen")


def words_kept(source: str) -> list[str]:
    """Each error raised, or warning kept, with a string or f-string of its own."""
    return [ast.unparse(node) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(("Error", "warnings.append", "Unlike"))
            and any(isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str))
                    for arg in node.args)]


def test_the_log_reader_makes_findings_not_words():
    source = (Path(__file__).parents[2] / "companion" / "gamelog.py").read_text(encoding="utf-8")
    assert words_kept(source) == []
    assert words_kept('raise GameLogError(f"{path}: cannot read it")\nwarnings.append("torn")') == [
        "GameLogError(f'{path}: cannot read it')", "warnings.append('torn')"]
