"""A board in a tournament: the scoreboard seats it for a round and its screen says so."""

from __future__ import annotations

from companion.club.mosquitto import PASSWORD, Mosquitto, wait_for
from companion.club.night import Night
from companion.club.pairing import Seat
from companion.club.scoreboard import Listener
from companion.config import load_config
from companion.daemon import Daemon, Notifier, club_publisher, open_game, setup_input
from companion.devices.base import ManualClock
from companion.view.screen import screen_text


def test_the_boards_screen_shows_its_table_and_players_when_the_round_is_drawn(tmp_path):
    broker = Mosquitto(tmp_path / "broker", "thursday", ["scoreboard", "t4"])
    broker.start()
    (tmp_path / "password").write_text(PASSWORD + "\n")
    config = load_config(overrides=["devices.pin_factory=mock", f"club.broker=mqtt://127.0.0.1:{broker.port}",
                                    "club.club=thursday", "club.board=t4", "club.username=t4",
                                    f"club.password_file={tmp_path / 'password'}"], system_path=None)
    clock = ManualClock()
    (tmp_path / "script.txt").write_text("")
    board, table = open_game(config, state_dir=tmp_path / "state", clock=clock, simulate=True,
                             script=tmp_path / "script.txt", setup=setup_input(config, ["Ann", "Bob"], "Ann"))
    publisher = club_publisher(config, tmp_path / "state")
    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}), club=publisher)
    daemon.start()
    scoreboard = Listener(broker.broker("scoreboard"), "thursday", Night())
    scoreboard.start()
    try:
        wait_for(lambda: publisher.connected and scoreboard.client.is_connected(), "the board and the scoreboard")
        scoreboard.publish_seats(3, [Seat(4, "t4", ("Ann", "Bob"))], {"t4"})
        wait_for(lambda: publisher.seat is not None, "the seat at the board")
        daemon.step(timeout=0)
        shown = table.shown()
        assert shown.message == "Table 4: Ann against Bob" and not shown.error
        assert [line.strip() for line in screen_text(shown.screen)][-2:] == ["Table 4: Ann against", "Bob"]
        clock.advance(10)
        daemon.step(timeout=0)
        assert table.shown().message is None  # shown once, then the game's own screen again

        scoreboard.publish_seats(4, [], {"t4"})  # the next round leaves this board out
        wait_for(lambda: publisher.seat is not None and publisher.seat.round == 4, "the next round")
        daemon.step(timeout=0)
        assert table.shown().message == "Round 4: no game at this table"
    finally:
        scoreboard.close()
        daemon.board.close()
        publisher.close()
        broker.stop()
