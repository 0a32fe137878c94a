"""`crib repair`: the good lines kept, the rest set aside, the game resumable again."""

from __future__ import annotations

from companion.cli import main
from companion.cribbage.game import replay
from companion.gamelog import GameLog, next_log
from tests.sample_deal import deal

INPUTS = deal("8H")


def test_a_damaged_log_is_cut_at_the_damage_and_the_rest_set_aside(tmp_path, capsys):
    path = next_log(tmp_path)
    game_log = GameLog.open(path)
    for inp in INPUTS:
        game_log.append(inp)
    lines = path.read_bytes().splitlines(keepends=True)
    damaged = b"".join(lines[:5]) + b'{"type":"play","card":"ZZ"}\n' + b"".join(lines[5:])
    path.write_bytes(damaged)
    assert main(["state", "--state-dir", str(tmp_path)]) == 2
    assert f"{path}: line 6 is not a table input" in capsys.readouterr().err
    assert main(["repair", "--state-dir", str(tmp_path)]) == 0
    aside = path.with_name("0001.jsonl.set-aside")
    assert capsys.readouterr().out == f"{path}: kept the 4 inputs before the damage; the rest is in {aside}\n"
    assert path.read_bytes() + aside.read_bytes() == damaged
    assert replay(GameLog.open(path).inputs).inputs == tuple(INPUTS[:4])
    assert main(["repair", str(path)]) == 0
    assert "reads whole (4 inputs): nothing to repair" in capsys.readouterr().out


def test_nothing_to_repair_says_so(tmp_path, capsys):
    assert main(["repair", "--state-dir", str(tmp_path)]) == 2
    assert "no game log in" in capsys.readouterr().err
    assert main(["repair", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such game log" in capsys.readouterr().err


def test_repair_speaks_the_readers_language(tmp_path, capsys):
    path = next_log(tmp_path)
    GameLog.open(path).append(INPUTS[0])
    assert main(["--lang", "de", "repair", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: ist ganz lesbar (1 Eingabe): nichts zu reparieren\n"
    assert main(["repair", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: reads whole (1 input): nothing to repair\n"
    assert main(["--lang", "de", "repair", "--state-dir", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err == f"crib repair: kein Spielprotokoll in {tmp_path / 'none'}: nichts zu reparieren\n"
