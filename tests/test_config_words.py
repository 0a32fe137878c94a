"""A configuration's problems are values (a kind, where it is written, the key and the facts); their words are
made at the edge in the reader's language, so one process says the same problem in English and in German."""

from __future__ import annotations

import tomllib
from pathlib import Path
from unittest import mock

import pytest

from companion.boards import Misfit, Short
from companion.cli import main
from companion.config import DEFAULTS_PATH, ConfigError, load_config
from companion.i18n import language
from companion.words.settings import (
    KEYED,
    SAID,
    Bad,
    From,
    Origin,
    Problem,
    Toml,
    problem_words,
    problems_words,
    where_words,
)

EN, DE = language("en"), language("de")
def at(path: str, line: int | None = None) -> Origin:
    return Origin(From.FILE, path, line)


HERE, THERE = at("board.toml", 3), at("defaults.toml", 9)
SAMPLES = [  # one problem of each kind, with its English words as the loader said them before they moved here
    (Problem(Bad.CHOICE, HERE, "devices.scanner", {"allowed": ("evdev", "none"), "value": "usb"}),
     'board.toml:3: devices.scanner must be one of "evdev", "none" (got "usb")'),
    (Problem(Bad.ONLY, HERE, "game.target", {"allowed": (61, 121), "value": 100}),
     "board.toml:3: game.target must be 61 or 121 (got 100)"),
    (Problem(Bad.RANGE, HERE, "board.brightness", {"low": 1, "high": 100, "value": 300}),
     "board.toml:3: board.brightness must be a whole number from 1 to 100 (got 300)"),
    (Problem(Bad.BOOLEAN, HERE, "game.muggins", {"value": "yes"}),
     'board.toml:3: game.muggins must be true or false (got "yes")'),
    (Problem(Bad.TEXT, HERE, "game.dealer", {"value": 5}),
     'board.toml:3: game.dealer must be a string in quotes, like "..." (got 5)'),
    (Problem(Bad.NAMES, HERE, "game.players", {"value": ["Ann"]}),
     'board.toml:3: game.players must be a list of 2 to 4 names, like ["Ann", "Bob"] (got ["Ann"])'),
    (Problem(Bad.NAME_LONG, HERE, "game.players", {"most": 12, "name": "Maximilianus1"}),
     "board.toml:3: game.players a name has at most 12 characters, for the screen: shorten 'Maximilianus1'"),
    (Problem(Bad.NAME_TWICE, HERE, "game.players", {"value": ["Ann", "Ann"]}),
     'board.toml:3: game.players must not name anyone twice (got ["Ann", "Ann"])'),
    (Problem(Bad.GPIO_PINS, HERE, "keypad.rows", {"count": 4, "value": [1]}),
     "board.toml:3: keypad.rows must be a list of 4 GPIO numbers from 2 to 27 (got [1])"),
    (Problem(Bad.PICO_PINS, HERE, "keypad.pico_rows", {"count": 4, "value": [-1]}),
     "board.toml:3: keypad.pico_rows must be a list of 4 Pico GP numbers, 0 to 22 or 26 to 28 (got [-1])"),
    (Problem(Bad.COLOURS, HERE, "board.colours", {"value": ["red"]}),
     'board.toml:3: board.colours must be a list of colours like "#e01010" (got ["red"])'),
    (Problem(Bad.VIDEO_DEVICE, HERE, "camera.device", {"value": "cam"}),
     'board.toml:3: camera.device must be a webcam\'s number like "0" (/dev/video0) or a /dev/... path like '
     '"/dev/v4l/by-id/usb-...-video-index0" (got "cam")'),
    (Problem(Bad.LISTEN, HERE, "web.listen", {"value": "8121"}),
     'board.toml:3: web.listen must be "HOST:PORT" like "127.0.0.1:8121" (got "8121")'),
    (Problem(Bad.OPTIONAL_LISTEN, HERE, "web.https", {"value": "on"}),
     'board.toml:3: web.https must be "" (off) or "HOST:PORT" like "0.0.0.0:8443" (got "on")'),
    (Problem(Bad.CLUB_ID, HERE, "club.club", {"value": "a b"}),
     "board.toml:3: club.club must be \"\" or 1 to 40 letters, digits, '-', '_' or '.' (got \"a b\")"),
    (Problem(Bad.SPOKEN, HERE, "voice.speak", {"choices": ("scores", "turn"), "value": ["all"]}),
     'board.toml:3: voice.speak must be a list of what is said, each once, from "scores", "turn" (got ["all"])'),
    (Problem(Bad.TOO_LARGE, at("big.toml"), facts={"most": 64}),
     "big.toml: larger than 64 KiB, far more than a configuration needs (the packaged defaults, every key with its "
     "comment, are 4 KiB): keep the keys you change"),
    (Problem(Bad.NO_FILE, at("gone.toml")), "gone.toml: no such configuration file: check the path"),
    (Problem(Bad.UNREADABLE, at("c.toml"), facts={"error": "[Errno 13] Permission denied"}),
     "c.toml: cannot read it ([Errno 13] Permission denied): check the file and its permissions"),
    (Problem(Bad.NOT_TOML, at("c.toml"), facts={"fault": Toml.VALUE, "error": "Invalid value", "detail": "",
                                                "line": 1, "column": 5, "end": False, "unclosed": None}),
     'c.toml: not valid TOML at line 1, column 5: a value is a "string" in quotes, a number, true or false, or a '
     "[list]"),
    (Problem(Bad.NOT_TOML, at("c.toml"), facts={"fault": Toml.ARRAY, "error": "Unclosed array", "detail": "",
                                                "line": 3, "column": 1, "end": True, "unclosed": 2}),
     "c.toml: not valid TOML at line 3, column 1, the end of the file: a list goes on with a comma or ends with ]: "
     "what begins at line 2 is never closed (a quote, bracket or brace)"),
    (Problem(Bad.OUTSIDE_TABLE, at("c.toml", 1), facts={"section": "colour", "tables": ("game", "board")}),
     "c.toml:1: colour: a key outside any table: put it under a [section] (game, board)"),
    (Problem(Bad.OVERRIDE, facts={"text": "scanner"}),
     "command line: 'scanner': write an override as section.key=value, for example devices.scanner=serial"),
    (Problem(Bad.UNKNOWN_TABLE, at("c.toml", 4), "screen.width", {"section": "screen", "tables": ("game", "board")}),
     "c.toml:4: screen.width: unknown table [screen]: the tables are game, board"),
    (Problem(Bad.UNKNOWN_KEY, at("c.toml", 6), "keypad.debounce", {"name": "debounce", "section": "keypad",
                                                             "known": ["rows", "debounce_ms"]}),
     "c.toml:6: keypad.debounce: unknown key 'debounce' in [keypad]: the keys there are rows, debounce_ms"),
    (Problem(Bad.DEALER, HERE, "game.dealer", {"dealer": "Zed", "players": ("Ann", "Bob")}),
     "board.toml:3: game.dealer 'Zed' is not one of the players (Ann, Bob): name one of them, or \"\" to cut for "
     "the deal"),
    (Problem(Bad.PLAYER_COUNT, HERE, "game.players", {"count": 3, "variant": "two", "wanted": 2}),
     "board.toml:3: game.players has 3 names but the 'two' variant needs 2"),
    (Problem(Bad.FIVE_CARD_TARGET, HERE, "game.target", {"target": 61}),
     "board.toml:3: game.target must be 61 for the five-card variant"),
    (Problem(Bad.FEW_COLOURS, HERE, "board.colours", {"sides": 3}),
     "board.toml:3: board.colours needs a colour for each of the 3 players or teams"),
    (Problem(Bad.LAYOUT_UNUSABLE, HERE, "board.layout", {"error": "no board layout 'x'"}),
     "board.toml:3: board.layout cannot be used: no board layout 'x'"),
    (Problem(Bad.LAYOUT_MISFIT, HERE, "board.layout", {"players": ("Ann", "Bob"), "target": 121,
                                                      "problem": Misfit("two-track-61", Short.HOLES, 61, 121)}),
     "board.toml:3: board.layout cannot host the configured game (Ann, Bob to 121): board 'two-track-61' has holes "
     'to 61 but the game is to 121: set board.layout = "auto" (the builtin board that fits each game), or name a '
     "board with enough tracks and holes"),
    (Problem(Bad.PIN_RESERVED, HERE, "keypad.rows", {"pin": 2, "on": "gpio", "reserved": "i2c"}),
     "board.toml:3: keypad.rows uses GPIO 2, which is the OLED's I2C bus (GPIO 2 and 3): pick another"),
    (Problem(Bad.PIN_TAKEN, HERE, "keypad.pico_rows", {"pin": 2, "on": "pico", "other": "strip.pin",
                                                      "other_where": THERE}),
     "board.toml:3: keypad.pico_rows uses GP2 of the Pico, which strip.pin (defaults.toml:9) uses too: give each "
     "its own pin"),
    (Problem(Bad.SAME_PORT, HERE, "scanner.port", {"port": "/dev/ttyACM0", "other_where": THERE}),
     "board.toml:3: scanner.port is /dev/ttyACM0, the Pico's port too (strip.port, defaults.toml:9): give the "
     "scanner its own port (a USB-serial scanner is usually /dev/ttyUSB0 or /dev/ttyACM1)"),
    (Problem(Bad.PIPER_VOICE, HERE, "voice.voice", {"voice": ""}),
     "board.toml:3: voice.voice is '': with engine = \"piper\" name the .onnx file of a Piper voice you installed "
     '(the board never downloads one), or use engine = "espeak-ng"'),
    (Problem(Bad.IMAGES_NEEDED, HERE, "camera.images"),
     'board.toml:3: camera.images is needed with camera.driver = "sim": a folder of card pictures to play'),
    (Problem(Bad.IMAGES_NOT_FOLDER, HERE, "camera.images", {"images": "/nowhere"}),
     "board.toml:3: camera.images is '/nowhere', which is not a folder: name a folder of .jpg or .png pictures"),
    (Problem(Bad.DECK_PATH, HERE, "camera.deck", {"deck": "deck"}),
     "board.toml:3: camera.deck is 'deck': give the whole path of a folder, like "
     "\"/var/lib/cribbage-companion/deck\", or leave it empty for the state directory's deck/"),
    (Problem(Bad.DECK_FILE, HERE, "camera.deck", {"deck": "/etc/hosts"}),
     "board.toml:3: camera.deck is '/etc/hosts', which is a file: name a folder to keep the taught deck in"),
    (Problem(Bad.DECK_PARENT, HERE, "camera.deck", {"deck": "/no/deck", "parent": "/no"}),
     "board.toml:3: camera.deck is '/no/deck', but '/no' is no folder: make it, or leave camera.deck empty for the "
     "state directory's deck/"),
    (Problem(Bad.CLUB_NEEDED, HERE, "club.board"),
     'board.toml:3: club.board is needed with club.broker: name the club and this board, like "t3"'),
    (Problem(Bad.BROKER_URL, HERE, "club.broker", {"broker": "tcp://x"}),
     "board.toml:3: club.broker is 'tcp://x': use mqtt://HOST:1883, or mqtts://HOST:8883 for TLS"),
    (Problem(Bad.PICO_KEYPAD, HERE, "devices.keypad", {"strip": "sim", "other_where": THERE}),
     'board.toml:3: devices.keypad is "pico" but devices.strip is "sim" (defaults.toml:9): the Pico\'s keys come '
     'over the strip\'s USB link, so set devices.strip = "pico" (or "pico-sim"), or wire the keypad to the Pi '
     '(devices.keypad = "gpio")'),
]
SAMPLES += [  # the drivers' and the daemon's, with their English words as they said them before they moved here
    (Problem(Bad.SCANNER_DEVICE, HERE, "scanner.device", {"spec": "usb"}),
     "board.toml:3: scanner.device must be the scanner's /dev/input/by-id/... path, its USB vendor:product as lsusb "
     "shows it (e.g. \"0c2e:0b61\"), or \"\" for the one input device that types letters and digits (got 'usb')"),
    (Problem(Bad.BROKER_PORT, HERE, "club.broker", {"broker": "mqtt://x:99999"}),
     "board.toml:3: club.broker is 'mqtt://x:99999': the port must be a number from 1 to 65535"),
    (Problem(Bad.LAYOUT_NEW_GAME, HERE, "board.layout", {"players": ("Ann", "Bob"), "target": 121,
                                                         "problem": Misfit("two-track-61", Short.HOLES, 61, 121)}),
     "board.toml:3: board.layout cannot host a new game (Ann, Bob to 121): board 'two-track-61' has holes to 61 but "
     'the game is to 121: set board.layout = "auto" (the builtin board that fits each game), or name a board with '
     "enough tracks and holes"),
    (Problem(Bad.LAYOUT_RESUMED, HERE, "board.layout", {"log": "/s/games/0001.jsonl", "players": ("Ann", "Bob"),
                                                        "target": 121,
                                                        "problem": Misfit("two-track-121", Short.TRACKS, 2, 3)}),
     "board.toml:3: board.layout cannot host the game resumed from /s/games/0001.jsonl (--new starts another) "
     "(Ann, Bob to 121): board 'two-track-121' has 2 tracks but the game has 3 players or teams: set board.layout = "
     '"auto" (the builtin board that fits each game), or name a board with enough tracks and holes'),
    (Problem(Bad.SECRET_UNREADABLE, key="club.password_file", facts={"place": "/x", "error": "Permission denied"}),
     "club.password_file: cannot read /x (Permission denied): make it readable by the service, or leave it empty"),
    (Problem(Bad.SIGNING_KEY, key="club.signing_key_file", facts={"place": "/k"}),
     "club.signing_key_file: /k does not hold a key from `crib club credentials` (boards/BOARD/signing.key)"),
    (Problem(Bad.STRIP_OPENED, facts={"layout": "two-track-121", "needed": "three-track-121"}),
     "the strip was opened for two-track-121 but this game needs three-track-121: open the devices and the table "
     "together (open_game)"),
]
PASSED_ON = [  # words another part made (the board layout reader's): said as they are, in any language
    (Problem(Bad.LAYOUT_UNREADABLE, HERE, "board.layout", {"error": "no board 'x'"}),
     "board.toml:3: board.layout: no board 'x'"),
]


def test_every_kind_is_sampled():
    assert {p.kind for p, _words in SAMPLES} | {p.kind for p, _words in PASSED_ON} == set(Bad)
    assert set(SAID) == set(Bad) - {Bad.LAYOUT_UNREADABLE}


@pytest.mark.parametrize(("problem", "english"), SAMPLES, ids=lambda v: getattr(v, "kind", ""))
def test_a_problem_is_said_in_english_and_in_german_by_one_process(problem, english):
    assert problem_words(problem, EN) == english
    german = problem_words(problem, DE)
    assert german != english and "{" not in german
    where = where_words(problem.where, EN)
    assert german.startswith(problem.key if problem.kind in KEYED else f"{where}: {problem.key}".rstrip(": ")
                             if problem.kind is not Bad.OVERRIDE else "")  # where and the key, in every language
    assert problem_words(problem, EN) == english  # German did not stay switched on


@pytest.mark.parametrize(("problem", "words"), PASSED_ON, ids=lambda v: getattr(v, "kind", ""))
def test_words_made_elsewhere_are_passed_on(problem, words):
    assert problem_words(problem, EN) == problem_words(problem, DE) == words


def test_loading_finds_typed_problems_and_the_edge_says_them(tmp_path: Path):
    path = tmp_path / "board.toml"
    path.write_text('[game]\ntarget = 100\nplayers = ["Ann", "Ann"]\n\n[board]\nbrightness = 300\n',
                    encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    assert [(p.kind, p.where, p.key) for p in caught.value.problems] == [
        (Bad.NAME_TWICE, Origin(From.FILE, str(path), 3), "game.players"),
        (Bad.ONLY, Origin(From.FILE, str(path), 2), "game.target"),
        (Bad.RANGE, Origin(From.FILE, str(path), 6), "board.brightness")]
    assert caught.value.problems[2].facts == {"low": 1, "high": 100, "value": 300}
    english, german = problems_words(caught.value.problems, EN), problems_words(caught.value.problems, DE)
    assert str(caught.value) == english  # the current language of the edge printing it
    assert english.splitlines()[1] == f"{path}:2: game.target must be 61 or 121 (got 100)"
    assert german.splitlines()[1] == f"{path}:2: game.target muss 61 oder 121 sein (erhalten: 100)"


def test_check_config_says_the_problem_in_the_readers_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    for lang, said in (("de", "Befehlszeile (board.brightness=300): board.brightness muss eine ganze Zahl von 1 bis "
                              "100 sein (erhalten: 300)"),
                       ("en", "command line (board.brightness=300): board.brightness must be a whole number from 1 "
                              "to 100 (got 300)")):
        assert main(["--lang", lang, "check-config", "--set", "board.brightness=300"]) == 2
        assert capsys.readouterr().err == f"crib check-config: {said}\n"


@pytest.mark.parametrize(("system", "said"), [
    ("de_DE.UTF-8", "Befehlszeile (board.brightness=300): board.brightness muss eine ganze Zahl von 1 bis 100 sein "
                    "(erhalten: 300)"),
    ("C.UTF-8", "command line (board.brightness=300): board.brightness must be a whole number from 1 to 100 (got "
                "300)")])
def test_the_daemon_says_a_configuration_problem_at_its_start_in_the_systems_language(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], system: str, said: str):
    from companion import daemon

    monkeypatch.setenv("LANG", system)  # the configuration, which would name the board's language, fails
    assert daemon.main(["--set", "board.brightness=300"]) == 2
    assert capsys.readouterr().err == f"cribbage-companion: {said}\n"


def test_where_a_value_comes_from_is_said_in_the_readers_language(capsys: pytest.CaptureFixture[str]):
    config = load_config(overrides=["board.brightness=40"], system_path=None)
    assert config.origins["board.brightness"] == Origin(From.OVERRIDE, "board.brightness=40")
    packaged = config.origins["game.target"]
    assert packaged.source is From.PACKAGED and isinstance(packaged.line, int)
    assert where_words(packaged, EN) == f"packaged defaults.toml:{packaged.line}"
    assert where_words(packaged, DE) == f"mitgelieferte defaults.toml:{packaged.line}"
    assert where_words(config.origins["board.brightness"], DE) == "Befehlszeile (board.brightness=40)"
    for lang, said in (("en", ("# command line (board.brightness=40)", "# packaged defaults.toml:",
                               "; two-track-121 for this game")),
                       ("de", ("# Befehlszeile (board.brightness=40)", "# mitgelieferte defaults.toml:",
                               "; two-track-121 für dieses Spiel"))):
        assert main(["--lang", lang, "check-config", "--set", "board.brightness=40"]) == 0
        printed = capsys.readouterr().out
        assert all(words in printed for words in said), printed


def test_an_address_given_with_listen_is_said_as_the_setting_it_stands_for(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]):
    script = tmp_path / "none.txt"
    script.write_text("")
    for lang, said in (("en", '--listen must be "HOST:PORT" like "127.0.0.1:8121" (got "nonsense")'),
                       ("de", '--listen muss "HOST:PORT" sein, etwa "127.0.0.1:8121" (erhalten: "nonsense")')):
        assert main(["--lang", lang, "sim", "--state-dir", str(tmp_path / "s"), "--script", str(script),
                     "--listen", "nonsense", "--set", "devices.pin_factory=mock"]) == 2
        assert capsys.readouterr().err == f"crib sim: {said}\n"
        assert main(["--lang", lang, "play", "--state-dir", str(tmp_path / "p"), "--listen", "nonsense"]) == 2
        assert capsys.readouterr().err == f"crib play: {said}\n"
    assert not (tmp_path / "s").exists() and not (tmp_path / "p").exists()  # nothing opened, no game begun
    assert main(["club", "--broker", "mqtt://b", "--club", "c1", "--listen", "8090"]) == 2
    assert capsys.readouterr().err == 'crib club: --listen must be "HOST:PORT" like "127.0.0.1:8121" (got "8090")\n'


@pytest.mark.parametrize(("game", "english", "german"), [
    ('players = ["Ann", "Bob", "Cy"]\nvariant = "three"\n',
     "board 'two-track-61' has 2 tracks but the game has 3 players or teams",
     "Brett 'two-track-61' hat 2 Bahnen, das Spiel aber 3 Spieler oder Teams"),
    ('players = ["Ann", "Bob"]\ntarget = 121\n',
     "board 'two-track-61' has holes to 61 but the game is to 121",
     "Brett 'two-track-61' hat Löcher bis 61, das Spiel geht aber bis 121")])
def test_a_board_that_cannot_host_the_game_is_said_wholly_in_the_readers_language(tmp_path: Path, game: str,
                                                                                  english: str, german: str):
    path = tmp_path / "board.toml"
    path.write_text(f'[game]\n{game}\n[board]\nlayout = "two-track-61"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    [problem] = caught.value.problems
    assert problem.kind is Bad.LAYOUT_MISFIT
    assert f": {english}: " in problem_words(problem, EN)
    assert problem_words(problem, DE).startswith(f"{path}:") and f": {german}: setze board.layout" in \
        problem_words(problem, DE)


@pytest.mark.parametrize(("text", "fault", "where", "german"), [
    ("[game\n", Toml.TABLE_END, (1, 6), "in Zeile 1, Spalte 6: eine [Tabelle]-Überschrift endet mit ]"),
    ("[game]\ntarget = 121 2\n", Toml.AFTER_VALUE, (2, 14),
     "in Zeile 2, Spalte 14: hinter einem Wert darf in seiner Zeile nur ein # Kommentar stehen"),
    ("[game]\ntarget\n", Toml.EQUALS, (2, 7), "in Zeile 2, Spalte 7: auf einen Schlüssel folgen = und sein Wert"),
    ('[game]\nplayers = ["Ann" "Bob"]\n', Toml.ARRAY, (2, 18),
     "in Zeile 2, Spalte 18: eine Liste geht mit einem Komma weiter oder endet mit ]"),
    ("[game]\ntarget = 121\ntarget = 61\n", Toml.VALUE_TWICE, (3, 12),
     "in Zeile 3, Spalte 12: dieser Schlüssel bekommt einen zweiten Wert: gib jeden Schlüssel nur einmal an"),
    ('[game]\ndealer = "A\x01"\n', Toml.ILLEGAL, (2, 12),
     "in Zeile 2, Spalte 12: das Zeichen '\\x01' ist in einer Zeichenkette nicht erlaubt"),
    ("[game]\n= 3\n", Toml.STATEMENT, (2, 1),
     "in Zeile 2, Spalte 1: eine Zeile enthält eine [Tabelle], ein Schlüssel = Wert oder einen # Kommentar"),
    ("[game]\nx = {a = 1, a = 2}\n", Toml.INLINE_TWICE, (2, 18), "in Zeile 2, Spalte 18: ein Schlüssel steht "
     "zweimal in { }"),
    ('[game]\ndealer = """Ann\n', Toml.STRING, (3, 1), "in Zeile 3, Spalte 1, am Ende der Datei: eine "
     "Zeichenkette wird nie mit ihrem Anführungszeichen geschlossen: was in Zeile 2 beginnt, wird nie geschlossen"),
    ('[game]\ndealer = "Ann\nseats = 2\n', Toml.LINE_END, (2, 14), "in Zeile 2, Spalte 14: eine Zeichenkette wird "
     "in ihrer Zeile nicht geschlossen: beende sie vor dem Zeilenende mit ihrem Anführungszeichen"),
    ("[game]\ndealer = 'Ann\nseats = 'b'\n", Toml.LINE_END, (2, 14), "in Zeile 2, Spalte 14: eine Zeichenkette "
     "wird in ihrer Zeile nicht geschlossen: beende sie vor dem Zeilenende mit ihrem Anführungszeichen"),
    ('[game]\r\ndealer = "Ann\r\nseats = 2\r\n', Toml.LINE_END, (2, 14), "in Zeile 2, Spalte 14: eine "
     "Zeichenkette wird in ihrer Zeile nicht geschlossen"),  # a file whose lines end in CR LF
    ("# note\rmore\n[game]\n", Toml.CHARACTER, (1, 7), "in Zeile 1, Spalte 7: das Zeichen '\\r' ist hier nicht "
     "erlaubt"),  # a CR alone, in no string: no string is said to be open
    ("[game]\ndealer = 'Ann", Toml.QUOTE, (2, 14), "in Zeile 2, Spalte 14, am Ende der Datei: "),
    ("[game]\ntarget =", Toml.VALUE, (2, 9), "in Zeile 2, Spalte 9, am Ende der Datei: ein Wert ist eine "
     '"Zeichenkette" in Anführungszeichen, eine Zahl, true oder false oder eine [Liste]'),  # nothing left open
])
def test_a_file_that_is_not_toml_is_said_with_its_line_and_column_in_the_readers_language(
        tmp_path: Path, text: str, fault: Toml, where: tuple[int, int], german: str):
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    [problem] = caught.value.problems
    assert (problem.kind, problem.facts["fault"], (problem.facts["line"], problem.facts["column"])) == (
        Bad.NOT_TOML, fault, where)
    said = problem_words(problem, DE)
    assert said.startswith(f"{path}: kein gültiges TOML {german}"), said
    assert problem.facts["error"] not in said  # tomllib's English words are not in the German
    assert ("beginnt, wird nie geschlossen" in said) == (fault in (Toml.STRING, Toml.QUOTE))  # only what is left open


def test_toml_words_a_newer_python_says_are_passed_on_with_where_it_says(tmp_path: Path):
    """Python 3.14's TOMLDecodeError gives its words, line and column apart; words we do not know are said as
    they are, rather than lost."""
    refusal = tomllib.TOMLDecodeError("Something new (at line 1, column 1)")  # the attributes are read, not this
    refusal.msg, refusal.doc, refusal.pos, refusal.lineno, refusal.colno = (  # type: ignore[attr-defined]
        "Something new", "[game]\nab\n", 9, 2, 3)
    path = tmp_path / "board.toml"
    path.write_text("[game]\nab\n", encoding="utf-8")
    defaults = tomllib.loads(DEFAULTS_PATH.read_text(encoding="utf-8"))
    with mock.patch("companion.config.tomllib.loads", side_effect=[defaults, refusal]), \
            pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    [problem] = caught.value.problems
    assert problem.facts["fault"] is None
    assert problem_words(problem, DE) == f"{path}: kein gültiges TOML in Zeile 2, Spalte 3: Something new"
    assert problem_words(problem, EN) == f"{path}: not valid TOML at line 2, column 3: Something new"


def test_toml_words_with_no_place_are_said_with_no_place_and_as_they_are(tmp_path: Path):
    """Words tomllib might say with no "(at line ..)": no place claimed (not the end of the file), nothing named
    as left open, and only tomllib's own "Expected \"'\"" taken for a literal string never closed."""
    path = tmp_path / "board.toml"
    path.write_text("[game]\ndealer = 'Ann\n", encoding="utf-8")
    defaults = tomllib.loads(DEFAULTS_PATH.read_text(encoding="utf-8"))
    with mock.patch("companion.config.tomllib.loads",
                    side_effect=[defaults, tomllib.TOMLDecodeError("Expected a new thing")]), \
            pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    [problem] = caught.value.problems
    assert (problem.facts["fault"], problem.facts["line"], problem.facts["unclosed"]) == (None, None, None)
    assert problem_words(problem, EN) == f"{path}: not valid TOML: Expected a new thing"
    assert problem_words(problem, DE) == f"{path}: kein gültiges TOML: Expected a new thing"
