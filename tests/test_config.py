from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.config import ConfigError, find_line, load_config
from companion.i18n import language
from companion.registry import check_config
from companion.words.settings import From, Origin, where_words


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_packaged_defaults_use_the_documented_pins() -> None:
    config = load_config(system_path=None)
    assert config.keypad.rows == (5, 6, 13, 19)
    assert config.keypad.columns == (12, 16, 20, 26)
    assert (config.keypad.pico_rows, config.keypad.pico_columns) == ((6, 7, 8, 9), (10, 11, 12, 13))
    assert (config.buttons.go, config.buttons.undo, config.buttons.ok) == (17, 27, 22)
    assert (config.display.i2c_port, config.display.address) == (1, 0x3C)
    assert (config.strip.port, config.strip.baud, config.strip.pin) == ("/dev/ttyACM0", 115200, 2)
    assert config.state.path == Path("/var/lib/cribbage-companion")
    assert config.board.colours[0] == (0xE0, 0x10, 0x10)


def test_layers_override_in_order_and_remember_where_values_came_from(tmp_path: Path) -> None:
    system = write(tmp_path, "system.toml", '[devices]\nscanner = "serial"\nstrip = "sim"\n')
    mine = write(tmp_path, "mine.toml", '# mine\n[devices]\nstrip = "none"\n\n[game]\nplayers = ["Cy", "Di"]\n')
    config = load_config(mine, ["game.players=['Eve', 'Flo']", "scanner.port=/dev/ttyS0"], system_path=system)
    assert config.devices.scanner == "serial"
    assert config.devices.strip == "none"
    assert config.game.players == ("Eve", "Flo")
    assert config.scanner.port == "/dev/ttyS0"  # a bare word on the command line is a string
    said = {key: where_words(origin, language("en")) for key, origin in config.origins.items()}
    assert said["devices.scanner"] == f"{system}:2"
    assert said["devices.strip"] == f"{mine}:3"
    assert said["game.players"] == "command line (game.players=['Eve', 'Flo'])"
    assert said["game.target"].startswith("packaged defaults.toml:")


def test_a_missing_system_file_is_skipped(tmp_path: Path) -> None:
    assert load_config(system_path=tmp_path / "absent.toml") == load_config(system_path=None)


def test_unknown_key_names_file_line_and_key_and_lists_the_known_ones(tmp_path: Path) -> None:
    path = write(tmp_path, "c.toml", '[game]\ntarget = 61\n\n[keypad]\n# the pins\ndebounce = 30\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    message = str(caught.value)
    assert message.startswith(f"{path}:6: keypad.debounce: unknown key 'debounce' in [keypad]")
    assert "debounce_ms" in message


def test_unknown_table_and_dotted_keys_are_found_on_their_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "c.toml", 'devices.scanner = "serial"\n\n[screen]\nwidth = 128\n')
    with pytest.raises(ConfigError, match=rf"{path}:4: screen.width: unknown table \[screen\]: the tables are game"):
        load_config(path, system_path=None)
    path.write_text('devices.scanner = "serial"\n', encoding="utf-8")
    assert load_config(path, system_path=None).origins["devices.scanner"] == Origin(From.FILE, str(path), 1)


def test_every_bad_value_is_reported_with_what_is_allowed(tmp_path: Path) -> None:
    path = write(tmp_path, "c.toml", '[game]\ntarget = 100\nmuggins = "yes"\n[devices]\nscanner = "usb"\n'
                                     '[keypad]\nrows = [5, 6, 13]\n[board]\ncolours = ["red"]\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    lines = str(caught.value).splitlines()
    assert lines == [
        f"{path}:2: game.target must be 61 or 121 (got 100)",
        f'{path}:3: game.muggins must be true or false (got "yes")',
        f'{path}:9: board.colours must be a list of colours like "#e01010" (got ["red"])',
        f'{path}:5: devices.scanner must be one of "evdev", "serial", "terminal", "none" (got "usb")',
        f"{path}:7: keypad.rows must be a list of 4 GPIO numbers from 2 to 27 (got [5, 6, 13])",
    ]


def test_values_that_disagree_are_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"game.dealer 'Zed' is not one of the players \(Ann, Bob\)"):
        load_config(overrides=["game.dealer=Zed"], system_path=None)
    with pytest.raises(ConfigError, match=r"buttons.go uses GPIO 5, which keypad.rows \(packaged defaults.toml:\d+\)"):
        load_config(overrides=["buttons.go=5"], system_path=None)
    with pytest.raises(ConfigError, match=r"keypad.rows uses GPIO 2, which is the OLED's I2C bus"):
        load_config(overrides=["keypad.rows=[2, 6, 13, 19]"], system_path=None)
    with pytest.raises(ConfigError, match=r"board.layout cannot host the configured game \(Ann, Bob to 121\): "
                                          r"board 'two-track-61' has holes to 61 but the game is to 121: "
                                          r'set board.layout = "auto"'):
        load_config(overrides=["board.layout=two-track-61"], system_path=None)
    three = ['game.players=["Ann", "Bob", "Cat"]', "game.variant=three"]
    with pytest.raises(ConfigError, match=r"board 'two-track-121' has 2 tracks but the game has 3 players or teams"):
        load_config(overrides=[*three, "board.layout=two-track-121"], system_path=None)
    with pytest.raises(ConfigError, match=r"board.layout cannot be used: no board layout"):
        load_config(overrides=["board.layout=round"], system_path=None)
    # without a keypad or buttons their pins are free
    config = load_config(overrides=["devices.keypad=none", "devices.buttons=none", "buttons.go=5"], system_path=None)
    assert config.buttons.go == 5


def test_a_keypad_on_the_pico_needs_the_pico_strip_and_pins_of_its_own(tmp_path: Path) -> None:
    config = load_config(overrides=["devices.keypad=pico"], system_path=None)
    assert (config.devices.keypad, config.devices.strip) == ("pico", "pico")
    path = write(tmp_path, "c.toml", '[devices]\nkeypad = "pico"\nstrip = "sim"\n\n[keypad]\n'
                                     "pico_rows = [2, 7, 8, 9]\npico_columns = [10, 11, 12, 7]\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    assert str(caught.value).splitlines() == [
        f'{path}:2: devices.keypad is "pico" but devices.strip is "sim" ({path}:3): the Pico\'s keys come over the '
        'strip\'s USB link, so set devices.strip = "pico" (or "pico-sim"), or wire the keypad to the Pi '
        '(devices.keypad = "gpio")',
        f"{path}:6: keypad.pico_rows uses GP2 of the Pico, which strip.pin "
        f"({where_words(config.origins['strip.pin'])}) uses too: give each its own pin",
        f"{path}:7: keypad.pico_columns uses GP7 of the Pico, which keypad.pico_rows ({path}:6) uses too: "
        "give each its own pin",
    ]
    # which GP numbers the Pico has, its driver says: the registry checks them (crib check-config, the board's start)
    with pytest.raises(ConfigError, match=r"^command line \(keypad.pico_columns=\[10, 11, 12, 24\]\): "
                                          r"keypad.pico_columns must be a list of 4 Pico GP numbers, 0 to 22 or "
                                          r"26 to 28 \(got \[10, 11, 12, 24\]\)$"):
        check_config(load_config(overrides=["keypad.pico_columns=[10, 11, 12, 24]"], system_path=None))
    with pytest.raises(ConfigError, match=r"keypad.pico_rows must be a list of 4 Pico GP numbers"):
        load_config(overrides=["keypad.pico_rows=[1, 2, 3]"], system_path=None)  # the form: the configuration's
    simulated = load_config(overrides=["devices.keypad=pico", "devices.strip=pico-sim"], system_path=None)
    assert (simulated.devices.keypad, simulated.devices.strip) == ("pico", "pico-sim")
    # with the keypad on the Pi, the Pico's pins are not in use
    assert load_config(overrides=["keypad.pico_rows=[2, 7, 8, 9]"], system_path=None).keypad.pico_rows[0] == 2


def test_toml_syntax_errors_and_bad_overrides_say_where(tmp_path: Path) -> None:
    path = write(tmp_path, "c.toml", "[game\n")
    with pytest.raises(ConfigError, match=rf"{path}: not valid TOML at line 1, column 6: a \[table\] heading ends"):
        load_config(path, system_path=None)
    with pytest.raises(ConfigError, match=r"write an override as section.key=value"):
        load_config(overrides=["scanner"], system_path=None)
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml", system_path=None)


def test_find_line_skips_multiline_strings() -> None:
    source = '[game]\nnote = """\n[devices]\nscanner = 1\n"""\n[devices]\nscanner = "x"\n'
    assert find_line(source, ["devices", "scanner"]) == 7
    assert find_line(source, ["game", "note"]) == 2
    assert find_line(source, ["state"]) is None


def test_effective_config_round_trips_through_its_own_output(tmp_path: Path) -> None:
    config = load_config(overrides=["devices.display=dummy", "display.address=0x3D"], system_path=None)
    printed = config.to_toml(language("en"))
    assert "address = 0x3D" in printed
    again = load_config(write(tmp_path, "printed.toml", printed), system_path=None)
    assert again == config


def test_check_config_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.toml", '[devices]\nscanner = "serial"\n')
    assert main(["check-config", str(good), "--set", "strip.baud=230400"]) == 0
    out = capsys.readouterr().out
    assert 'scanner = "serial"' in out and f"{good}:2" in out
    assert "baud = 230400" in out
    bad = write(tmp_path, "bad.toml", "[devices]\nscaner = 'serial'\n")
    assert main(["check-config", str(bad)]) == 2
    assert f"{bad}:2: devices.scaner: unknown key" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("overrides", "board"),
    [
        ([], "two-track-121"),
        (["game.target=61"], "two-track-61"),
        (["game.variant=five-card", "game.target=61"], "two-track-61"),
        (['game.players=["Ann", "Bob", "Cat"]', "game.variant=three"], "three-track-121"),
        (['game.players=["Ann", "Bob", "Cat"]', "game.variant=three", "game.target=61"], "three-track-61"),
        (['game.players=["Ann", "Bob", "Cat", "Dan"]', "game.variant=four"], "two-track-121"),  # two partnerships
        (['game.players=["Ann", "Bob", "Cat", "Dan"]', "game.variant=four", "game.target=61"], "two-track-61"),
    ],
)
def test_the_auto_layout_is_the_builtin_board_for_the_configured_game(overrides: list[str], board: str) -> None:
    config = load_config(overrides=overrides, system_path=None)
    assert config.auto_layout and config.board.layout == board


def test_a_named_board_may_host_a_shorter_game_and_check_config_shows_what_auto_chose(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = load_config(overrides=["board.layout=two-track-121", "game.target=61"], system_path=None)
    assert not config.auto_layout and config.board.layout == "two-track-121"  # once round, finishing at 61
    assert main(["check-config", "--set", "game.target=61"]) == 0
    assert "two-track-61 for this game" in capsys.readouterr().out
    assert main(["check-config", "--set", "board.layout=two-track-61"]) == 2
    assert "board 'two-track-61' has holes to 61 but the game is to 121" in capsys.readouterr().err


def test_a_serial_scanner_cannot_share_the_picos_port(tmp_path: Path) -> None:
    path = write(tmp_path, "c.toml", '[devices]\nscanner = "serial"\n\n[scanner]\nport = "/dev/ttyACM0"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    assert str(caught.value).startswith(f"{path}:5: scanner.port is /dev/ttyACM0, the Pico's port too (strip.port, ")
    assert "give the scanner its own port" in str(caught.value)
    assert load_config(overrides=["devices.scanner=serial"], system_path=None).scanner.port == "/dev/ttyUSB0"


def test_a_name_longer_than_the_screen_allows_is_refused() -> None:
    assert load_config(None, ['game.players=["Bartholomäus", "Bob"]']).game.players[0] == "Bartholomäus"
    with pytest.raises(ConfigError, match="a name has at most 12 characters, for the screen: shorten 'Maximilianus1'"):
        load_config(None, ['game.players=["Maximilianus1", "Bob"]'])


def test_the_voice_section_checks_what_is_said_and_a_piper_voice_needs_its_file():
    config = load_config(overrides=["voice.enabled=true", 'voice.speak=["scores", "count", "turn"]'], system_path=None)
    assert config.voice.speak == ("scores", "count", "turn") and config.voice.engine == "espeak-ng"
    with pytest.raises(ConfigError, match=r'voice.speak must be a list of what is said, each once, from "scores"'):
        load_config(overrides=['voice.speak=["scores", "scores"]'], system_path=None)
    with pytest.raises(ConfigError, match=r"voice.voice is '': with engine = \"piper\" name the .onnx file"):
        load_config(overrides=["voice.enabled=true", "voice.engine=piper"], system_path=None)


def test_the_camera_section_says_what_each_value_may_be(tmp_path: Path) -> None:
    assert load_config(system_path=None).camera.driver == "none"  # no camera unless one is chosen
    path = write(tmp_path, "c.toml", '[camera]\ndriver = "webcam"\ndevice = "video0"\nframe_ms = 10\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    said = str(caught.value).splitlines()
    assert said[0] == (f'{path}:2: camera.driver must be one of "picamera2", "opencv", "sim", "none" '
                       '(got "webcam")')
    assert said[1].startswith(f'{path}:3: camera.device must be a webcam\'s number like "0" (/dev/video0) or a '
                              '/dev/... path')
    assert said[2] == f"{path}:4: camera.frame_ms must be a whole number from 50 to 5000 (got 10)"
    with pytest.raises(ConfigError, match=r'camera\.images is needed with camera\.driver = "sim": a folder of '
                                          r"card pictures to play"):
        load_config(overrides=["camera.driver=sim"], system_path=None)
    with pytest.raises(ConfigError, match=r"camera\.images is '/nowhere', which is not a folder"):
        load_config(overrides=["camera.driver=sim", "camera.images=/nowhere"], system_path=None)
    config = load_config(overrides=["camera.driver=opencv", "camera.device=/dev/v4l/by-id/usb-cam-video-index0"],
                         system_path=None)
    assert config.camera.device == "/dev/v4l/by-id/usb-cam-video-index0"


def test_the_taught_deck_is_the_state_directorys_unless_camera_deck_names_a_folder(tmp_path: Path) -> None:
    from companion.devices.camera import taught_folder

    config = load_config(overrides=[f"state.dir={tmp_path}"], system_path=None)
    assert taught_folder(config.camera.deck, config.state.path) == tmp_path / "deck"
    (tmp_path / "decks").mkdir()
    config = load_config(overrides=[f"camera.deck={tmp_path / 'decks' / 'ours'}"], system_path=None)
    assert config.camera.deck == str(tmp_path / "decks" / "ours")  # not taught yet: /scan's teaching makes it
    (tmp_path / "a-file").write_text("")
    path = write(tmp_path, "c.toml", f'[camera]\ndeck = "{tmp_path / "a-file"}"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path, system_path=None)
    assert str(caught.value) == (f"{path}:2: camera.deck is '{tmp_path / 'a-file'}', which is a file: name a folder "
                                 "to keep the taught deck in")
    for value, said in (("deck", "give the whole path of a folder"),
                        (str(tmp_path / "nowhere" / "deck"), f"but '{tmp_path / 'nowhere'}' is no folder: make it"),
                        (7, "must be a string in quotes")):
        with pytest.raises(ConfigError, match=said):
            load_config(overrides=[f"camera.deck={value}"], system_path=None)
