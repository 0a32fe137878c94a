"""The daemon with `[club]` configured: a board scores the same with its broker down, and sends it all later."""

from __future__ import annotations

from companion.club.mosquitto import PASSWORD, Mosquitto, wait_for
from companion.config import ConfigError, load_config
from companion.cribbage.game import replay
from companion.daemon import Daemon, Notifier, club_publisher, open_game, setup_input
from companion.devices.base import ManualClock
from companion.gamelog import GameLog, current_log
from companion.words.phrases import prompt_words
from tests.club.scoreboard import Scoreboard
from tests.facts import by_name, scores_of
from tests.sample_deal import DEAL


def test_a_board_scores_with_its_broker_down_and_the_scoreboard_gets_every_input_when_it_is_back(tmp_path):
    broker = Mosquitto(tmp_path / "broker", "thursday", ["scoreboard", "t4"])  # not started yet
    (tmp_path / "password").write_text(PASSWORD + "\n")
    script = tmp_path / "script.txt"
    script.write_text("\n".join(DEAL) + "\n")
    config = load_config(overrides=["devices.pin_factory=mock", f"club.broker=mqtt://127.0.0.1:{broker.port}",
                                    "club.club=thursday", "club.board=t4", "club.username=t4",
                                    f"club.password_file={tmp_path / 'password'}"], system_path=None)
    clock = ManualClock()
    state_dir = tmp_path / "state"
    board, table = open_game(config, state_dir=state_dir, clock=clock, simulate=True, script=script,
                             setup=setup_input(config, ["Ann", "Bob"], "Ann"))
    publisher = club_publisher(config, state_dir)
    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}), club=publisher)
    daemon.start()
    for _ in range(3000):  # the whole deal, with nobody to publish to
        daemon.step(timeout=0)
        clock.advance(0.01)
    game_log = GameLog.open(current_log(state_dir))
    logged = game_log.inputs
    assert replay(logged) == table.state and table.state.phase == "deal" and table.state.deal_number == 2
    assert not publisher.connected

    broker.start()
    scoreboard = Scoreboard(broker, tmp_path / "night")
    try:
        wait_for(lambda: scoreboard.tables().get("t4", {}).get("seq") == game_log.lines, "the deal at the scoreboard")
        shown = scoreboard.tables()["t4"]
        assert scores_of(shown["state"]) == by_name(table.state.scores)
        assert shown["state"]["prompt"] == prompt_words(table.state.awaited())
    finally:
        daemon.board.close()
        publisher.close()
        scoreboard.stop()
        broker.stop()


def test_a_club_broker_without_the_club_or_the_board_is_a_clear_error():
    try:
        load_config(overrides=["club.broker=mqtt://127.0.0.1:1883"], system_path=None)
    except ConfigError as error:
        assert "club.club is needed with club.broker" in str(error)
        assert "club.board is needed" in str(error)
    else:
        raise AssertionError("a broker without a club was accepted")
