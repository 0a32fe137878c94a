"""A board whose configuration the daemon cannot use says what is wrong and what to do, in one clean line,
and starts nothing: the club's broker URL, the drivers' settings; said in English and German by one process."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import daemon
from companion.cli import main
from companion.club.publisher import Broker
from companion.config import ConfigError, load_config
from companion.i18n import language
from companion.registry import check_config
from companion.words.settings import Bad, Invalid, problems_words

EN, DE = language("en"), language("de")
CLUB = ["--set", "club.club=c1", "--set", "club.board=t1"]


@pytest.mark.parametrize("case", [
    ("C.UTF-8", "mqtt://broker:99999", "is 'mqtt://broker:99999': the port must be a number from 1 to 65535"),
    ("de_DE.UTF-8", "mqtt://broker:99999", "ist 'mqtt://broker:99999': der Port muss eine Zahl von 1 bis 65535 sein"),
    ("C.UTF-8", "mqtt://:1883", "is 'mqtt://:1883': use mqtt://HOST:1883, or mqtts://HOST:8883 for TLS"),
    ("de_DE.UTF-8", "mqtt://:1883", "ist 'mqtt://:1883': nimm mqtt://HOST:1883, oder mqtts://HOST:8883 für TLS")])
def test_a_daemon_started_with_a_bad_broker_url_says_so_and_starts_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: tuple[str, ...]):
    system, broker, said = case
    where = "Befehlszeile" if system.startswith("de") else "command line"
    monkeypatch.setenv("LANG", system)
    state = tmp_path / "state"
    assert daemon.main(["--set", f"club.broker={broker}", *CLUB, "--state-dir", str(state)]) == 2
    assert capsys.readouterr().err == f"cribbage-companion: {where} (club.broker={broker}): club.broker {said}\n"
    assert not state.exists()  # no game log, no device opened


def test_check_config_says_a_bad_broker_url_in_the_readers_language(capsys: pytest.CaptureFixture[str]):
    for lang, said in (("de", "der Port muss eine Zahl von 1 bis 65535 sein"),
                       ("en", "the port must be a number from 1 to 65535")):
        assert main(["--lang", lang, "check-config", "--set", "club.broker=mqtt://b:x", *CLUB]) == 2
        assert capsys.readouterr().err.endswith(f"club.broker {'ist' if lang == 'de' else 'is'} 'mqtt://b:x': {said}\n")


def test_a_broker_url_given_on_a_command_line_is_refused_as_a_value_said_at_the_edge():
    with pytest.raises(Invalid) as caught:
        Broker.from_url("ftp://b")
    assert caught.value.kind is Bad.BROKER_URL and isinstance(caught.value, ValueError)
    with pytest.raises(Invalid) as caught:
        Broker.from_url("b:0x")
    assert caught.value.kind is Bad.BROKER_PORT
    assert Broker.from_url("b") == Broker("b", 1883) and Broker.from_url("mqtts://b").port == 8883


def test_the_drivers_checks_are_typed_problems_said_in_either_language():
    config = load_config(overrides=["scanner.device=usb", "keypad.pico_rows=[2, 3, 4, 24]"], system_path=None)
    with pytest.raises(ConfigError) as caught:
        check_config(config)
    problems = caught.value.problems
    assert [(p.kind, p.key) for p in problems] == [(Bad.SCANNER_DEVICE, "scanner.device"),
                                                    (Bad.PICO_PINS, "keypad.pico_rows")]
    english, german = problems_words(problems, EN).splitlines(), problems_words(problems, DE).splitlines()
    assert english[0].startswith("command line (scanner.device=usb): scanner.device must be the scanner's")
    assert english[0].endswith("(got 'usb')")
    assert english[1] == ("command line (keypad.pico_rows=[2, 3, 4, 24]): keypad.pico_rows must be a list of 4 Pico "
                          "GP numbers, 0 to 22 or 26 to 28 (got [2, 3, 4, 24])")
    assert german[1].endswith("muss eine Liste von 4 Pico-GP-Nummern sein, 0 bis 22 oder 26 bis 28 "
                              "(erhalten: [2, 3, 4, 24])")
    assert german[0] != english[0] and "{" not in german[0]


def test_the_scoreboard_given_a_bad_broker_says_so_in_the_readers_language(capsys: pytest.CaptureFixture[str]):
    assert main(["club", "--broker", "ftp://x", "--club", "c1"]) == 2
    said = "--broker is 'ftp://x': use mqtt://HOST:1883, or mqtts://HOST:8883 for TLS"  # as club.broker is said
    assert capsys.readouterr().err == f"crib club: {said}\n"
    assert main(["--lang", "de", "club", "--broker", "b:0x", "--club", "c1"]) == 2
    assert capsys.readouterr().err == "crib club: --broker ist 'b:0x': der Port muss eine Zahl von 1 bis 65535 sein\n"


@pytest.mark.parametrize(("system", "said"), [
    ("C.UTF-8", "line 1 says it is a version 9 log, written by a newer Cribbage Companion (this one reads version 1): "
                "update the program"),
    ("de_DE.UTF-8", "Zeile 1 sagt, es ist ein Protokoll der Version 9, geschrieben von einem neueren Cribbage "
                    "Companion (dieser liest Version 1): aktualisiere das Programm")])
def test_a_log_the_daemon_cannot_read_is_said_in_the_systems_language_and_left_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], system: str, said: str):
    monkeypatch.setenv("LANG", system)
    log = tmp_path / "games" / "0001.jsonl"
    log.parent.mkdir()
    log.write_text('{"log":"cribbage-companion","version":9}\n', encoding="utf-8")
    assert daemon.main(["--state-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"cribbage-companion: {log}: {said}\n"
    assert log.read_text(encoding="utf-8") == '{"log":"cribbage-companion","version":9}\n'
    assert sorted(p.name for p in log.parent.iterdir()) == ["0001.jsonl"]
