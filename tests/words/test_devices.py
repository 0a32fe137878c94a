"""The devices' problems are values (a code and its facts); their words are made at the edge, in each reader's
language, and no driver raises English words of its own."""

from __future__ import annotations

import ast
import json
import socket
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import daemon
from companion.cli import main
from companion.devices.base import DeviceMissing, problem_of
from companion.devices.presence import STATUS_FILE, write_status
from companion.gamelog import GameLog, next_log
from companion.i18n import language, speaking
from companion.words import schema
from companion.words.devices import SAID, DeviceProblem, Fact, Fault, device_words
from companion.words.messages import Message, Say
from companion.words.phrases import message_words
from tests.sample_deal import deal
from tests.words.bilingual import assert_said_apart

ENGLISH, GERMAN = language("en"), language("de")
PACKAGE = Path(__file__).parents[2] / "companion"
FACTS: dict[str, Fact] = {  # every fact a kind's words may name, filled
    "path": "/dev/input/event3", "error": "[Errno 5] Input/output error", "value": "sh1107", "port": "/dev/ttyACM0",
    "theirs": 2, "ours": 1, "most": 300, "count": 484, "code": 6, "firmware": "cribbage-pico 1.0", "program": "piper",
    "device": "plughw:1", "spec": "0c2e:0b61", "bus": 1, "address": 0x3C, "name": "rpigpio",
    "package": "python3-rpi.gpio", "setting": "--listen", "text": "localhost", "secure": "",
    "found": ("/dev/input/event3 'Honeywell' (0c2e:0b61)", "/dev/input/event5 'Dell KB216' (413c:2113)"),
}
CAUSE = DeviceProblem(Fault.PICO_SOURCES, {"error": "No such file or directory"})
VARIANTS: list[DeviceProblem] = [  # the kinds said differently with other facts (each of SAID's "kind/variant")
    DeviceProblem(Fault.ENGINE_FAILED, {"program": "espeak-ng", "status": 1}),
    DeviceProblem(Fault.APLAY_FAILED, {"device": "default", "status": 1}),
    DeviceProblem(Fault.SOUND_DEVICE, {"device": "default", "error": ""}),
    DeviceProblem(Fault.NO_ENGINE, {"program": "espeak-ng"}),
    DeviceProblem(Fault.LISTEN_BUSY, {"address": "0.0.0.0:8121", "secure": "0.0.0.0:8443", "error": "in use"}),
    DeviceProblem(Fault.PICO_REFUSED, {"code": 99}),  # a NAK code this program does not know
]
GIVEN = {Fault.FAILED, Fault.LAYOUT}  # said as given: a library's words, the layout reader's


def sample(kind: Fault) -> DeviceProblem:
    """A problem of `kind` with every fact its words may need (the listen address as HOST:PORT)."""
    facts = FACTS | {"address": "127.0.0.1:8121"} if kind is Fault.LISTEN_BUSY else FACTS
    return DeviceProblem(kind, facts, CAUSE if kind in (Fault.CAMERA_DRIVER, Fault.PICO_SIM, Fault.PICO_LOST,
                                                        Fault.SCANNER_GONE) else None)


def test_every_kind_has_its_words_and_every_words_a_kind():
    assert {str(key).split("/")[0] for key in SAID} == set(Fault)


@pytest.mark.parametrize("problem", [*(sample(kind) for kind in Fault), *VARIANTS], ids=str)
def test_every_kind_is_said_in_english_and_in_german_in_one_process(problem):
    english, german = device_words(problem, ENGLISH), device_words(problem, GERMAN)
    if problem.kind in GIVEN:
        assert english == german and english.endswith(str(FACTS["error"]))
    else:
        assert_said_apart(english, german)


def test_every_words_of_the_table_are_reached():
    said = {device_words(p, ENGLISH) for p in [*(sample(kind) for kind in Fault), *VARIANTS]}
    assert len(said) == len(SAID) + 1  # each entry once; the Pico's refusal with a code it knows and one it does not


def test_the_english_words_are_those_the_drivers_said_before():
    oled = DeviceProblem(Fault.OLED_SILENT, {"address": 0x3C, "bus": 1, "error": "[Errno 121] Remote I/O error"})
    assert device_words(oled, ENGLISH) == (
        "no OLED answers at address 0x3C on /dev/i2c-1 ([Errno 121] Remote I/O error): check the wiring (SDA GPIO 2, "
        "SCL GPIO 3, 3.3 V) and find the address with 'i2cdetect -y 1' (display.address)")
    lost = DeviceProblem(Fault.PICO_LOST, {"port": "/dev/ttyACM0"}, DeviceProblem(Fault.PICO_UNACKNOWLEDGED,
                                                                                  {"code": 1}))
    assert device_words(lost, ENGLISH) == ("lost the Pico on /dev/ttyACM0: the Pico did not acknowledge a message "
                                           "(CRC mismatch); check its USB cable")
    assert device_words(lost, GERMAN) == ("Verbindung zum Pico an /dev/ttyACM0 verloren: der Pico hat eine Nachricht "
                                          "nicht bestätigt (CRC stimmt nicht); prüfe sein USB-Kabel")
    assert device_words(VARIANTS[1], ENGLISH) == "aplay on 'default' failed (exit status 1)"


def test_an_error_carries_its_problem_and_says_it_in_the_language_current():
    error = DeviceMissing(Fault.SERIAL_PORT, port="/dev/ttyUSB0", error="[Errno 2] No such file or directory")
    assert error.refusal == DeviceProblem(Fault.SERIAL_PORT, {"port": "/dev/ttyUSB0",
                                                              "error": "[Errno 2] No such file or directory"})
    assert str(error).startswith("cannot open the scanner's serial port /dev/ttyUSB0 ([Errno 2]")
    with speaking(GERMAN):
        assert str(error).startswith("die serielle Schnittstelle /dev/ttyUSB0 des Scanners lässt sich nicht öffnen")
    assert str(error.refusal) == "serial_port port='/dev/ttyUSB0' error='[Errno 2] No such file or directory'"
    assert problem_of(error) is error.refusal
    assert problem_of(OSError()) == DeviceProblem(Fault.FAILED, {"error": "OSError"})  # no words of its own


def facts_like(given: dict[str, Fact]) -> st.SearchStrategy[dict[str, Fact]]:
    """Facts of the names and types of `given`'s, any values (the voice's program one of the two it names, an
    error's text never empty: that is a variant's, with the facts it needs)."""
    return st.fixed_dictionaries({name: st.sampled_from(("espeak-ng", "piper")) if name == "program" else
                                  st.text(min_size=name == "error", max_size=20) if isinstance(value, str) else
                                  st.integers(-2**40, 2**40) if isinstance(value, int) else
                                  st.lists(st.text(max_size=8), max_size=3).map(tuple)
                                  for name, value in given.items()})


def said_problems(cause: st.SearchStrategy[DeviceProblem | None]) -> st.SearchStrategy[DeviceProblem]:
    return st.sampled_from([*(sample(kind) for kind in Fault), *VARIANTS]).flatmap(lambda base: st.builds(
        DeviceProblem, st.just(base.kind), facts_like(dict(base.facts)), cause))


problems = st.recursive(said_problems(st.none()), said_problems, max_leaves=3)


@given(problems)
def test_a_problem_comes_back_from_its_json_as_it_was(problem):
    assert DeviceProblem.from_json(json.loads(json.dumps(problem.to_json()))) == problem


@pytest.mark.parametrize("data", [None, "no OLED", {"kind": "oled_silent"}, {"kind": "nothing", "facts": {}},
                                  {"kind": "rotate", "facts": {"value": [1]}},
                                  {"kind": "rotate", "facts": {"value": True}},
                                  {"kind": "oled_silent", "facts": {}},  # the facts its words need, missing
                                  {"kind": "oled_silent", "facts": {"address": "0x3C", "bus": 1, "error": ""}}])
def test_json_that_is_no_problem_is_refused(data):  # (read_status then sees no daemon's)
    with pytest.raises(ValueError):
        DeviceProblem.from_json(data)


def test_the_commands_say_a_device_error_in_the_readers_language(capsys):
    for lang, start in (("en", "crib scan-test: cannot open the scanner's serial port /dev/ttyUSB-none ("),
                        ("de", "crib scan-test: die serielle Schnittstelle /dev/ttyUSB-none des Scanners lässt sich "
                               "nicht öffnen (")):
        assert main(["--lang", lang, "scan-test", "--serial", "/dev/ttyUSB-none"]) == 2
        assert capsys.readouterr().err.startswith(start)


def test_crib_run_and_the_daemon_say_the_pages_address_taken_in_the_readers_language(tmp_path, capsys, monkeypatch):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        quiet = [f"--set={key}" for key in ("devices.display=dummy", "devices.strip=sim", "devices.keypad=none",
                                            "devices.buttons=none", "devices.scanner=none", f"web.listen={address}")]
        for lang, start in (("de", f"crib run: die Webseite kann nicht auf {address} lauschen ("),
                            ("en", f"crib run: the web page cannot listen on {address} (")):
            assert main(["--lang", lang, "run", "--state-dir", str(tmp_path), *quiet]) == 2
            assert capsys.readouterr().err.startswith(start)
        for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(variable, raising=False)
        monkeypatch.setenv("LANG", "de_DE.UTF-8")  # the service's system: the journal's reader's language
        assert daemon.main(["--state-dir", str(tmp_path), *quiet]) == 2
        assert capsys.readouterr().err.startswith(f"cribbage-companion: die Webseite kann nicht auf {address} ")


def test_crib_state_says_what_the_running_board_misses_in_the_readers_language_and_its_json_the_codes(tmp_path, capsys):
    log = GameLog.open(next_log(tmp_path))
    log.append(deal("4C")[0])
    oled = DeviceProblem(Fault.OLED_SILENT, {"address": 0x3C, "bus": 1, "error": "[Errno 121] Remote I/O error"})
    write_status(tmp_path / STATUS_FILE, {"scanner": None, "OLED": oled})  # as the board (this process) runs
    assert main(["state", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[1:3] == ["scanner: connected", "OLED: missing: " + device_words(
        oled, ENGLISH)]
    assert main(["--lang", "de", "state", "--state-dir", str(tmp_path)]) == 0
    german = capsys.readouterr().out.splitlines()
    assert german[1] == "Scanner: verbunden"  # the device's name in the reader's language too
    assert german[2].startswith("OLED: fehlt: kein OLED antwortet an Adresse 0x3C auf /dev/i2c-1 ([Errno 121] Remote "
                                "I/O error): prüfe")
    assert main(["state", "--state-dir", str(tmp_path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    schema.validate("board-state", shown)
    assert shown["devices"] == {"scanner": None, "OLED": {"kind": "oled_silent", "facts": {
        "address": 60, "bus": 1, "error": "[Errno 121] Remote I/O error"}}}


def test_the_board_names_its_devices_in_its_language_when_they_go_and_come_back():
    news = Message(Say.DEVICES_GONE, names=("camera", "scanner"), then=Message(Say.DEVICES_BACK, names=("OLED",
                                                                                                     "loudspeaker")))
    assert message_words(news, GERMAN) == ("Nicht verbunden: Kamera, Scanner. Das Spiel geht weiter; Kabel prüfen. "
                                           "Wieder verbunden: OLED, Lautsprecher")
    assert message_words(news, ENGLISH) == ("Not connected: camera, scanner. The game goes on; check the cable. "
                                            "Connected again: OLED, loudspeaker")


# -- no English in the devices' raises

RAISING = [*sorted((PACKAGE / "devices").glob("*.py")), PACKAGE / "registry.py", PACKAGE / "web" / "server.py"]
DEVICE_ERRORS = {"DeviceError", "DeviceMissing", "DeviceUnplugged", "DeviceMiswired", "LinkLost"}


def words_raised(source: str) -> list[str]:
    """Where a device's error is made with words instead of a kind and its facts: its first argument no kind, or
    text with a space in it anywhere in its arguments (a fact may be formatted: f"{stem}.txt", f"{host}:{port}")."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in DEVICE_ERRORS:
            texts = [part.value for arg in [*node.args, *(k.value for k in node.keywords)] for part in ast.walk(arg)
                     if isinstance(part, ast.Constant) and isinstance(part.value, str)]
            kindless = node.args and not isinstance(node.args[0], ast.Attribute | ast.Name)
            if kindless or any(" " in text for text in texts):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", RAISING, ids=lambda p: p.name)
def test_no_device_error_is_raised_with_words(path):
    assert words_raised(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("line", ['raise DeviceError(f"cannot open {port}")', "raise DeviceMissing('no bus')",
                                  'raise LinkLost("the Pico " + why)',
                                  "raise DeviceMiswired(Fault.X, error=f'{e}: check it')",
                                  "raise DeviceError(str(error))"])
def test_the_scan_finds_words_raised(line):
    assert words_raised(line) != []


def test_the_scan_passes_a_kind_and_its_facts():
    assert words_raised("raise DeviceError(Fault.LAYOUT, error=str(error))") == []
    assert words_raised("raise DeviceUnplugged(device.problem)") == []
    assert words_raised('raise DeviceError(Fault.RECORD_WRITE, path=f"{stem}.txt", error=str(error.strerror))') == []



def test_the_picos_refusals_are_said_for_every_code_the_link_knows():
    from companion import ledlink
    from companion.words.devices import NAK_REASONS

    assert {code: ENGLISH.gettext(words) for code, words in NAK_REASONS.items()} == ledlink.NAK_REASONS
