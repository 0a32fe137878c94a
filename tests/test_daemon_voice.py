"""The daemon with a voice: each score is handed to the speaker's worker; a loudspeaker that fails is reported
like any device (on the screen, in the status file) and the game goes on; plugged back in, it is back."""

from __future__ import annotations

from companion.config import load_config
from companion.daemon import Daemon, Notifier, open_game, setup_input
from companion.devices.base import DeviceProblem, Entry, Fault, ManualClock
from companion.devices.presence import STATUS_FILE, Watch, read_status
from companion.devices.voice import SimulatedVoice, Speaker
from companion.words.phrases import message_words
from tests.golden import GOLDEN

DEAL = [line for line in (GOLDEN / "deal.txt").read_text().splitlines() if line and not line.startswith("#")]


def test_a_loudspeaker_that_fails_is_reported_and_comes_back_while_the_game_goes_on(tmp_path):
    config = load_config(overrides=["devices.pin_factory=mock"], system_path=None)
    clock = ManualClock()
    script = tmp_path / "script.txt"
    script.write_text("")  # entries come from this test, not the terminal
    board, table = open_game(config, state_dir=tmp_path, clock=clock, simulate=True, script=script,
                             setup=setup_input(config, ["Ann", "Bob"], "Ann"))
    voice = SimulatedVoice()
    board.voice = Speaker(Watch(Speaker.name, lambda: voice, clock), thread=False)
    told: list[str] = []
    announce = table.announce
    table.announce = lambda message, *, error: (told.append(message_words(message)), announce(message, error=error))
    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}), status_path=tmp_path / STATUS_FILE)
    daemon.start()
    try:
        def enter(*texts: str) -> None:
            for text in texts:
                table.emit(Entry(text, "terminal"))
                daemon.step(timeout=0)
            board.voice.run_pending()  # type: ignore[union-attr]
            daemon.step(timeout=0)

        enter(*DEAL[:6])
        assert [u.text for u in voice.said] == ["Ann: a run of three is three"]
        voice.problem = DeviceProblem(Fault.SOUND_DEVICE, {"device": "default", "error": "aplay: audio open error"})
        enter(*DEAL[6:9])
        assert told == ["Not connected: loudspeaker. The game goes on; check the cable"]
        assert read_status(tmp_path) == {"LED strip": None, "loudspeaker": voice.problem}  # the USB speaker pulled
        assert table.state.count == 7  # the play went on: 7S after the go's
        voice.problem = None
        clock.advance(1.0)
        enter(*DEAL[9:])
        assert told[1:] == ["Connected again: loudspeaker"]
        assert [u.text for u in voice.said][-1] == "Ann's crib: 4; fifteen two, fifteen four"
    finally:
        board.close()
