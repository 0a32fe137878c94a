"""The daemon loop on simulated devices (MockFactory keypad, luma dummy OLED, recording strip) and sd_notify."""

from __future__ import annotations

import socket

import pytest

from companion.base.clock import ManualClock
from companion.config import ConfigError, load_config
from companion.cribbage.game import replay
from companion.cribbage.transcript import GameInput
from companion.daemon import Daemon, Notifier, fit_board, open_game, open_table, setup_input
from companion.entry import Entry
from companion.gamelog import GameLog, current_log
from companion.i18n import language
from companion.registry import open_devices
from companion.view.leds import Celebrate
from companion.view.pegs import FINISH, MARKER, dim
from companion.words.logbook import Found, finding_words
from tests.daemon_script import SIM, run_script
from tests.facts import by_name, name
from tests.golden import assert_golden
from tests.sample_deal import DEAL


def test_a_game_through_the_simulated_scanner_and_keypad(tmp_path):
    # The sample deal with some cards on the keypad (rank, then suit 1-4 = clubs, diamonds, hearts, spades):
    # 5H is key:53, 6D key:62, JH key:*13; the rest typed or scanned; then pegging ends the game.
    keyed = {"5H": "key:53", "6D": "key:62", "JH": "key:*13"}
    entries = [keyed.get(text, text) for text in DEAL] + ["peg 1 60", "peg 2 70", "peg 1 44"]
    daemon, board, table = run_script(tmp_path, entries)
    assert name(table.state.winner) == "Ann" and by_name(table.state.scores) == {"Ann": 121, "Bob": 91}
    assert table.state.skunk is None  # Bob reached 91: past the skunk line
    logged = GameLog.open(current_log(tmp_path / "state")).inputs
    assert replay(logged) == table.state and len(logged) == 16
    assert board.display.image is not None
    assert_golden(board.display.image, "daemon-game-over")
    frame, effects = board.strip.shown[-1]
    assert effects and type(effects[-1]).__name__ == "Celebrate"
    layout = table.layout
    assert frame[layout.led_for(0, 121)] != (0, 0, 0) and frame[layout.led_for(1, 91)] != (0, 0, 0)
    daemon.board.close()


def test_the_daemon_tells_systemd_it_is_ready_and_pings_the_watchdog(tmp_path):
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        systemd.settimeout(5)
        clock = ManualClock()
        notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "2000000"})
        _, board, _ = run_script(tmp_path, ["5C"], clock=clock, notifier=notifier)
        messages = []
        systemd.setblocking(False)
        while True:
            try:
                messages.append(systemd.recv(1024).decode())
            except BlockingIOError:
                break
        board.close()
    assert messages[0].startswith("READY=1\nSTATUS=Ann deals. Enter the starter")
    pings = messages.count("WATCHDOG=1")
    assert pings >= 1 and pings <= clock.now / 1.0 + 1  # every second: half of WatchdogSec=2


def test_signals_stop_the_loop_and_close_the_devices(tmp_path):
    daemon, board, table = run_script(tmp_path, ["5C", "10C"])
    daemon.stopping = False
    daemon.run(done=lambda: (daemon._signal(15, None), daemon.stopping)[1])
    assert daemon.stopping and not board.strip.connected
    assert len(table.log.inputs) == 3


def test_each_outcome_is_reported_with_the_table_as_that_entry_left_it(tmp_path):
    # crib sim prints "ok N" and writes snapshots per outcome: entries queued together are reported one by one
    daemon, board, table = run_script(tmp_path, [])
    seen = []
    daemon.on_outcome = lambda outcome: seen.append((outcome.entry.text, len(table.log.inputs), table.state.count))
    for text in ("5C", "10C", "4C"):
        table.emit(Entry(text))
    daemon.step(timeout=0)
    assert seen == [("5C", 2, 0), ("10C", 3, 10), ("4C", 4, 14)]
    board.close()


def test_a_match_set_in_the_configuration_reaches_the_game():
    single = setup_input(load_config(overrides=SIM, system_path=None))
    assert (single.match, single.match_scoring) == (None, None)
    config = load_config(overrides=[*SIM, "game.match=7", 'game.match_scoring="acc"'], system_path=None)
    setup = setup_input(config, ["Ann", "Bob"], "Ann")
    state = replay([setup])
    assert (setup.match, setup.match_scoring) == (7, "acc")
    assert state.match_target == 7


# The three-player deal of tests/cribbage/test_sample_games.py (Ann deals; Bob leads, then Cat, then Ann), 4C, 6C
# and 5H on the keypad: Bob 2 + 29 = 31, Cat 1 + 3 + 24 = 28, Ann 4 + 1 + 12 + 6 = 23.
THREE = ["5S", "JS", "key:41", "7C", "5C", "4D", "go", "go", "go", "7D", "5D", "key:61", "8C", "key:53", "6H", "8H",
         "AH", "3D", "9C", "9H"]


def test_a_three_player_deal_ends_with_three_pegs_where_the_scores_say(tmp_path):
    daemon, board, table = run_script(tmp_path, THREE, players=("Ann", "Bob", "Cat"))
    assert table.layout.name == "three-track-121" and board.strip.led_count == 366
    assert by_name(table.state.scores) == {"Ann": 23, "Bob": 31, "Cat": 28}
    frame, _ = board.strip.shown[-1]
    for track, side in enumerate(table.state.sides):
        front, back = table.state.scores[side], table.state.back_pegs[side]
        assert frame[table.layout.led_for(track, front)] == table.colours[track]
        assert frame[table.layout.led_for(track, back)] == dim(table.colours[track])
    pegs = [led for led, colour in enumerate(frame) if colour in table.colours[:3]]
    assert len(pegs) == 3  # one front peg on each of the three tracks, nothing else as bright
    daemon.board.close()


def test_a_61_point_game_gets_the_61_hole_board_and_its_skunk_marks(tmp_path):
    daemon, board, table = run_script(tmp_path, ["peg 2 40"], target=61)
    assert table.layout.name == "two-track-61" and board.strip.led_count == 124
    frame, _ = board.strip.shown[-1]
    layout = table.layout
    assert frame[layout.led_for(1, 40)] == table.colours[1]
    assert {led for led, colour in enumerate(frame) if colour == MARKER} == {
        layout.led_for(track, hole) for track in (0, 1) for hole in (16, 31)}
    daemon.board.close()


GAMES = [
    (GameInput(("Ann", "Bob")), "two-track-121"),
    (GameInput(("Ann", "Bob"), target=61), "two-track-61"),
    (GameInput(("Ann", "Bob"), variant="five-card"), "two-track-61"),
    (GameInput(("Ann", "Bob", "Cat")), "three-track-121"),
    (GameInput(("Ann", "Bob", "Cat"), target=61), "three-track-61"),
    (GameInput(("Ann", "Bob", "Cat", "Dan")), "two-track-121"),  # two partnerships, two tracks
    (GameInput(("Ann", "Bob", "Cat", "Dan"), target=61), "two-track-61"),
]


@pytest.mark.parametrize(("game", "board"), GAMES)
def test_the_auto_board_fits_each_variant_and_target(game, board):
    config = load_config(overrides=SIM, system_path=None)
    fitted, layout = fit_board(config, [(game, None)])
    assert layout.name == fitted.board.layout == board
    assert load_config(overrides=SIM, system_path=None) == config  # the configuration itself is untouched


def test_the_auto_board_hosts_the_resumed_game_and_the_next_one(tmp_path):
    config = load_config(overrides=SIM, system_path=None)
    resumed, new = GameInput(("Ann", "Bob", "Cat"), target=61), GameInput(("Ann", "Bob"))
    _, layout = fit_board(config, [(new, None), (resumed, tmp_path / "0001.jsonl")])
    assert layout.name == "three-track-121"  # three tracks for the one, 121 holes for the other


@pytest.mark.parametrize(
    ("layout", "game", "wanted"),
    [
        ("two-track-121", GameInput(("Ann", "Bob", "Cat")), "has 2 tracks but the game has 3 players or teams"),
        ("two-track-61", GameInput(("Ann", "Bob")), "has holes to 61 but the game is to 121"),
        ("three-track-61", GameInput(("Ann", "Bob", "Cat")), "has holes to 61 but the game is to 121"),
    ],
)
def test_a_named_board_that_cannot_host_the_game_is_an_error_saying_what_to_change(tmp_path, layout, game, wanted):
    configured = ["game.target=61"] if layout.endswith("-61") else []  # a game the board can host
    config = load_config(overrides=[*SIM, *configured, f"board.layout={layout}"], system_path=None)
    with pytest.raises(ConfigError) as error:
        open_game(config, state_dir=tmp_path, clock=ManualClock(), simulate=True, setup=game)
    message = str(error.value)
    assert message.startswith(f"command line (board.layout={layout}): board.layout cannot host a new game")
    assert wanted in message and 'set board.layout = "auto"' in message
    assert not list(tmp_path.iterdir())  # nothing started: no game log


def test_a_shorter_game_fits_a_longer_named_board_and_finishes_at_its_target(tmp_path):
    daemon, board, table = run_script(tmp_path, ["peg 1 40", "peg 1 40"], target=61,
                                      overrides=["board.layout=two-track-121"])
    layout = table.layout
    assert layout.name == "two-track-121" and name(table.state.winner) == "Ann"
    frame, effects = board.strip.shown[-1]
    assert frame[layout.led_for(0, 61)] == table.colours[0] and frame[layout.led_for(1, 61)] == FINISH
    assert {led for led, colour in enumerate(frame) if colour == MARKER} == {
        layout.led_for(track, hole) for track in (0, 1) for hole in (16, 31)}
    assert effects[-1] == Celebrate(layout.track_leds(0)[:62], table.colours[0])
    daemon.board.close()


def test_a_resumed_game_the_named_board_cannot_host_says_so(tmp_path):
    run_script(tmp_path, ["5S"], players=("Ann", "Bob", "Cat"))[1].close()
    config = load_config(overrides=[*SIM, "board.layout=two-track-121"], system_path=None)
    with pytest.raises(ConfigError, match=r"cannot host the game resumed from .*0001.jsonl \(--new starts another\) "
                                          r"\(Ann, Bob, Cat to 121\)"):
        open_game(config, state_dir=tmp_path / "state", clock=ManualClock(), simulate=True,
                  setup=GameInput(("Ann", "Bob")))
    board, table = open_game(config, state_dir=tmp_path / "state", clock=ManualClock(), simulate=True, new=True,
                             setup=GameInput(("Ann", "Bob")))
    assert [side.players for side in table.state.sides] == [("Ann",), ("Bob",)]
    board.close()


def test_devices_opened_for_another_board_are_refused_before_anything_is_shown(tmp_path):
    config = load_config(overrides=SIM, system_path=None)  # auto: the two-track board for Ann and Bob
    board = open_devices(config, clock=ManualClock(), simulate=True)
    with pytest.raises(ConfigError, match="the strip was opened for two-track-121 but this game needs three-track-121"):
        open_table(config, board, state_dir=tmp_path, clock=ManualClock(), setup=GameInput(("Ann", "Bob", "Cat")))
    assert not board.strip.shown
    board.close()


def test_a_log_damaged_in_the_middle_is_repaired_at_start_and_the_rest_kept_aside(tmp_path):
    _, board, table = run_script(tmp_path, DEAL[:6])
    board.close()
    path = table.log.path
    lines = path.read_bytes().splitlines(keepends=True)
    damaged = b"".join(lines[:4]) + b'{"type":"play","card":"10C"}\n' + b"".join(lines[4:])  # 10C twice
    path.write_bytes(damaged)
    config = load_config(overrides=SIM, system_path=None)
    board, table = open_game(config, state_dir=tmp_path / "state", clock=ManualClock(), simulate=True,
                             setup=setup_input(config, ["Ann", "Bob"], "Ann"))
    aside = path.with_name(path.name + ".set-aside")
    assert path.read_bytes() + aside.read_bytes() == damaged and len(table.log.inputs) == 3
    said = finding_words(table.log.warnings[-1], language("en"))
    assert "line 5 holds" in said and f"the rest is kept in {aside}" in said
    assert table.log.warnings[-1].kind is Found.RESUMED and table.log.warnings[-1].facts["damage"].line == 5
    assert table.message == "The game log needed care on start: 3 inputs kept (the system log says more)"
    board.close()


def test_a_61_point_game_on_a_real_strip_keeps_the_121_hole_boards_led_map_with_auto(tmp_path):
    # A real Pico drives the board the maker built (121 holes unless a 61-hole layout is named): with
    # layout = "auto" a 61-point game keeps that board's LED map, going once round to hole 61
    from companion.boards import load_layout
    from companion.devices.pegstrip import PicoPegStrip

    config = load_config(overrides=["devices.keypad=none", "devices.buttons=none", "devices.scanner=none",
                                    "devices.display=none", f"strip.port={tmp_path / 'ttyACM0'}"], system_path=None)
    board, table = open_game(config, state_dir=tmp_path / "state", clock=ManualClock(), simulate=False,
                             setup=setup_input(config, ["Ann", "Bob"], "Ann", 61))
    try:
        assert isinstance(board.strip, PicoPegStrip) and table.state.target == 61
        assert table.layout.name == "two-track-121" and board.strip.led_count == load_layout("two-track-121").led_count
        table.emit(Entry("peg 1 10"))
        list(table.drain())
        assert table.picture.frame[table.layout.led_for(0, 10)] != (0, 0, 0)
    finally:
        board.close()
    # the simulator's strip is no board anyone built: there "auto" draws the 61-hole board
    (tmp_path / "sim").mkdir()
    _, sim_board, sim_table = run_script(tmp_path / "sim", [], target=61)
    assert sim_table.layout.name == "two-track-61"
    sim_board.close()


def test_the_board_says_its_address_on_the_oled_at_start_once_it_has_one(tmp_path):
    # from a fresh SD card the network may come up after the board: it looks again every 5 s for 2 minutes
    from companion.daemon import ADDRESS_SECONDS
    from companion.view.screen import screen_text

    script = tmp_path / "script.txt"
    script.write_text("")
    config = load_config(overrides=SIM, system_path=None)
    clock = ManualClock()
    board, table = open_game(config, state_dir=tmp_path / "state", clock=clock, simulate=True, script=script)
    looked = []
    answers = iter([None, None, "192.168.1.23"])
    daemon = Daemon(table, board, clock=clock, address=lambda: looked.append(clock.now) or next(answers))
    try:
        daemon.start()
        assert table.presenter.message is None
        for _ in range(1200):  # 12 s
            daemon.step(timeout=0)
            clock.advance(0.01)
            if table.presenter.message is not None:
                break
        assert looked == pytest.approx([0, ADDRESS_SECONDS[0], 2 * ADDRESS_SECONDS[0]], abs=0.02)
        assert board.display.image.tobytes() == table.picture.image.tobytes()  # what the OLED shows
        assert "IP address 192.168.1.23" in " ".join(line.strip() for line in screen_text(table.presenter.view))
        for _ in range(1000):
            daemon.step(timeout=0)
            clock.advance(0.01)
        assert len(looked) == 3  # said once; the message goes after its time
        assert table.presenter.message is None
    finally:
        board.close()


def test_without_a_network_the_board_stops_looking_after_two_minutes(tmp_path):
    from companion.daemon import ADDRESS_SECONDS, local_address

    script = tmp_path / "script.txt"
    script.write_text("")
    config = load_config(overrides=SIM, system_path=None)
    clock = ManualClock()
    board, table = open_game(config, state_dir=tmp_path / "state", clock=clock, simulate=True, script=script)
    looked = []
    daemon = Daemon(table, board, clock=clock, address=lambda: looked.append(clock.now))
    try:
        daemon.start()
        for _ in range(300):
            daemon.step(timeout=0)
            clock.advance(1.0)
        assert len(looked) == ADDRESS_SECONDS[1] / ADDRESS_SECONDS[0] + 1 and table.presenter.message is None
    finally:
        board.close()
    address = local_address()  # this machine's, when it has one: never the loopback
    assert address is None or not address.startswith("127.")
