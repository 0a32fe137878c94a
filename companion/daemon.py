"""The daemon: configuration, devices, the game log and the table controller, run by one loop.

`main(argv) -> int` is the `cribbage-companion` program that systemd starts (Type=notify): it tells systemd
READY=1 once the game is resumed and the outputs show it, and pings WATCHDOG=1 from the main loop, so a stuck
loop gets the service restarted. Signals only set a flag; the loop notices it, closes the devices and exits.
`crib run` and `crib sim` are this same loop (sim with simulated devices).
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from companion.base.clock import Clock, SystemClock
from companion.boards import BoardLayout, LayoutError, builtin_for, load_layout, misfit
from companion.config import (
    Config,
    ConfigError,
    add_config_arguments,
    board_language,
    config_from_args,
)
from companion.cribbage import transcript as t
from companion.cribbage.errors import CribbageError
from companion.cribbage.game import replay
from companion.cribbage.rules import VariantName
from companion.devices.base import DeviceError
from companion.devices.presence import STATUS_FILE, Status, remove_status, write_status
from companion.gamelog import GameLog, GameLogError, current_log, next_log, repair
from companion.i18n import N_, _, choose, current, journal, speaking
from companion.registry import Devices, open_devices, simulated_choice
from companion.table import Outcome, Table
from companion.table.announcer import Announcer
from companion.words.devices import STRIP
from companion.words.logbook import Finding, Found
from companion.words.messages import Message, Say
from companion.words.settings import Bad, Problem, problems_words

if TYPE_CHECKING:
    from companion.club.publisher import Publisher

log = logging.getLogger(__name__)

POLL_SECONDS = 0.01  # the keypad is scanned and time-outs checked this often
ADDRESS_SECONDS = (5.0, 120.0)
"""At start the board says its address on the network; without one yet, it looks again this often, this long."""
LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"
"""The daemon's log lines (the journal adds the time): the strip's connection changes, torn log lines, devices."""
JOURNAL = {  # what the daemon itself says in the journal, in the system's language (the journal's reader's)
    "address": N_("the board's address: {address}"),
    "page": N_("the board's page: {address}"),
    "club": N_("club: publishing board {board} of {club} to {broker}"),
    "notify": N_("cannot tell systemd {message!r} ({error}); the game goes on, but systemd may restart the board: "
                 "check NOTIFY_SOCKET and the unit's NotifyAccess=main"),
}
FULL = N_("{file}: {error}: the disk is full: free space on it, and start the board again")
NOT_ALLOWED = N_("{file}: {error}: let the board's user write there (the unit's StateDirectory=, or [state] dir), and "
                 "start the board again")
DISK = {  # a file the daemon cannot read or write at start, by what the system says (errno)
    errno.ENOSPC: FULL,
    errno.EDQUOT: FULL,
    errno.EACCES: NOT_ALLOWED,
    errno.EPERM: NOT_ALLOWED,
    errno.EROFS: N_("{file}: {error}: the disk is read-only: remount it writable or choose another [state] dir, and "
                    "start the board again"),
}
DISK_OTHER = N_("{file}: {error}: check the state directory ([state] dir, --state-dir) and its disk, and start the "
                "board again")



class Notifier:
    """sd_notify without a dependency: datagrams to $NOTIFY_SOCKET (nothing happens when it is unset)."""

    def __init__(self, environ: dict[str, str] | None = None, *, watchdog: bool = True) -> None:
        environ = dict(os.environ if environ is None else environ)
        address = environ.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = environ.get("WATCHDOG_USEC", "")
        for_us = environ.get("WATCHDOG_PID", str(os.getpid())) == str(os.getpid())
        self.watchdog = int(usec) / 2e6 if watchdog and usec.isdigit() and for_us else None
        self.last_ping = float("-inf")

    def notify(self, message: str) -> None:
        if not self.address:
            return
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect(self.address)
                sock.sendall(message.encode())
            except OSError as error:
                log.warning("%s", journal(JOURNAL["notify"], message=message, error=error.strerror or error))

    def ping(self, now: float) -> None:
        """WATCHDOG=1 at half the interval systemd asked for."""
        if self.watchdog is not None and now - self.last_ping >= self.watchdog:
            self.notify("WATCHDOG=1")
            self.last_ping = now


def device_news(before: Status, now: Status) -> Message | None:
    """What the table is told when devices go missing or come back (the strip's own news the table gives)."""
    gone = tuple(what for what, problem in now.items() if problem and not before.get(what) and what != STRIP)
    back = tuple(what for what, problem in now.items() if not problem and before.get(what) and what != STRIP)
    came = Message(Say.DEVICES_BACK, names=back) if back else None
    return Message(Say.DEVICES_GONE, names=gone, then=came) if gone else came


def local_address() -> str | None:
    """This machine's IPv4 address on its network (the one a packet out would leave from), None without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a datagram socket only picks its route; nothing is sent
            address: str = probe.getsockname()[0]
    except OSError:  # no route (no network yet), or no IPv4 sockets allowed
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


class Daemon:
    """The main loop. Devices going missing or coming back are told once each: on the screen, in the journal
    (by their watches) and in `status_path` (the state directory's devices.json, which `crib state` prints).
    With `address` (local_address on a board), the board says its address on the network at start, to reach its
    page or ssh from a fresh SD card."""

    def __init__(self, table: Table, board: Devices, *, clock: Clock, notifier: Notifier | None = None,
                 on_outcome: Callable[[Outcome], None] | None = None, status_path: Path | None = None,
                 club: Publisher | None = None, address: Callable[[], str | None] | None = None) -> None:
        self.table = table
        self.address = address
        self._address_at: tuple[float, float] | None = None  # (next look, last look) while it has none yet
        self.board = board
        self.clock = clock
        self.notifier = notifier or Notifier({})
        self.on_outcome = on_outcome
        self.club = club  # the club's broker, woken after each input logged (it never holds the loop up)
        self.status_path = status_path
        self.devices: Status = {}
        """Each device that can go missing and its problem (None when there), as last reported."""
        self.stopping = False
        self.announcer = table.announcer = Announcer(board.voice, board.speak)
        """The table's story said by the board's voice ([voice]) and by the page's."""

    def start(self) -> None:
        for device in self.board.entries:
            device.start(self.table.emit)
        if self.address is not None:
            now = self.clock.monotonic()
            self._address_at = (now, now + ADDRESS_SECONDS[1])
            self._say_address(now)
        self._report_devices()
        self.notifier.notify("READY=1\nSTATUS=" + self.table.prompt(choose(None)))  # systemctl status's reader's

    def step(self, timeout: float = POLL_SECONDS) -> None:
        """Wait up to `timeout` for an entry, apply what is queued, then poll devices and time-outs."""
        for outcome in self.table.drain(timeout):
            if self.club is not None and outcome.accepted is not None:
                self.club.wake()
            if self.on_outcome is not None:
                self.on_outcome(outcome)
        seat = self.club.take_seat() if self.club is not None else None
        if seat is not None:  # the club's scoreboard seats this table for a round
            self.table.announce(seat, error=False)
        now = self.clock.monotonic()
        for device in self.board.entries:
            device.poll(now)
        if self.board.strip is not None:
            self.board.strip.poll(now)
        if self.board.display is not None:
            self.board.display.poll(now)
        self._report_devices()
        if self._address_at is not None and now >= self._address_at[0]:
            self._say_address(now)
        self.table.tick(now)
        self.notifier.ping(now)

    def _say_address(self, now: float) -> None:
        assert self.address is not None and self._address_at is not None
        address = self.address()
        if address is not None:
            log.info("%s", journal(JOURNAL["address"], address=address))
            self.table.announce(Message(Say.ADDRESS, text=address), error=False)
        last = self._address_at[1]
        self._address_at = None if address is not None or now >= last else (now + ADDRESS_SECONDS[0], last)

    def _report_devices(self) -> None:
        status = self.board.status()
        if status == self.devices:
            return
        news = device_news(self.devices, status)
        self.devices = status
        if self.status_path is not None:
            write_status(self.status_path, status)
        if news is not None:
            self.table.announce(news, error=any(status.values()))

    def run(self, done: Callable[[], bool] = lambda: False) -> int:
        """Loop until a signal arrives or `done()` says so; always closes the devices."""
        handled = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
        previous = {sig: signal.signal(sig, self._signal) for sig in handled}
        try:
            self.start()
            while not self.stopping and not done():
                self.step()
        finally:
            self.notifier.notify("STOPPING=1")
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self.board.close()
            if self.status_path is not None:
                remove_status(self.status_path)
            if self.club is not None:
                self.club.close()
        return 0

    def _signal(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True


def setup_input(config: Config, players: Sequence[str] | None = None, dealer: str | None = None,
                target: int | None = None, variant: VariantName | None = None) -> t.GameInput:
    """The game input a new game starts with, from the configuration and any command-line choices (a variant
    chosen, or players named, replaces the configured variant)."""
    game = config.game
    chosen = tuple(players) if players else game.players
    dealer = dealer if dealer is not None else (game.dealer or None)
    return t.GameInput(players=chosen, dealer=dealer if dealer in chosen else None, target=target or game.target,
                       variant=variant or (None if players else game.variant), muggins=game.muggins,
                       match=game.match or None, match_scoring=game.match_scoring if game.match else None)


def fit_board(config: Config, games: Sequence[tuple[t.GameInput, Path | None]], *,
              physical: bool = False) -> tuple[Config, BoardLayout]:
    """The board for `games` (each with the log it is resumed from, None for a new game): with board.layout
    "auto" the builtin board that hosts them all (the configuration then names it, so the strip gets its LED
    count); otherwise the configured board, and a ConfigError saying what to change when it cannot host one of
    them. A `physical` strip (a real Pico) is on a board built with 121 holes: "auto" then keeps its LED map for
    a 61-point game too (once round, ending at hole 61), rather than the 61-hole board's, whose LEDs sit
    elsewhere."""
    where = config.origins.get("board.layout")
    rules = [(replay([game]).rules, game, log) for game, log in games]  # replay checks each game line
    try:
        if config.auto_layout:
            sides = max(r.sides for r, _, _ in rules)
            name = builtin_for(sides, 121 if physical else max(r.target for r, _, _ in rules))
            config = replace(config, board=replace(config.board, layout=name))
        layout = load_layout(config.board.layout)
    except LayoutError as error:
        raise ConfigError([Problem(Bad.LAYOUT_UNREADABLE, where, "board.layout", {"error": str(error)})]) from None
    for r, game, log in rules:
        problem = misfit(layout, r.sides, r.target)
        if problem is not None:
            facts = {"players": game.players, "target": r.target, "problem": problem}
            raise ConfigError([Problem(Bad.LAYOUT_NEW_GAME, where, "board.layout", facts) if log is None else
                               Problem(Bad.LAYOUT_RESUMED, where, "board.layout", {"log": str(log)} | facts)])
    return config, layout


def _prepare(config: Config, state_dir: Path, new: bool, setup: t.GameInput,
             physical: bool = False) -> tuple[GameLog, Config, BoardLayout]:
    """The game's log (the current one, or a new one when asked or when there is none) and the board for the
    games it will see: the one resumed, and those `setup` starts (NEW GAME twice)."""
    path = None if new else current_log(state_dir)
    resumed = _resume(path) if path is not None else None
    games: list[tuple[t.GameInput, Path | None]] = [(setup, None)]
    if resumed is not None:
        games += [(game, path) for game in resumed.inputs if isinstance(game, t.GameInput)]
    config, layout = fit_board(config, games, physical=physical)
    return resumed or GameLog.open(next_log(state_dir)), config, layout


def _resume(path: Path) -> GameLog:
    """The log at `path`; one that cannot be read past a line is repaired (as `crib repair` does) so the board
    comes up with the game as it stood before the damage, and says where the rest was set aside."""
    try:
        return GameLog.open(path)
    except GameLogError as error:
        if error.line == 0:  # unreadable as a whole (a newer version, a disk error): nothing to keep
            raise
        game_log, aside = repair(path)
        game_log.warnings.append(Finding(Found.RESUMED, str(path), error.line, {
            "damage": error.refusal, "kept": len(game_log.inputs), "aside": str(aside)}))
        return game_log


def _table(config: Config, board: Devices, game_log: GameLog, *, layout: BoardLayout, setup: t.GameInput,
           state_dir: Path, clock: Clock) -> Table:
    return Table(game_log, setup=setup, layout=layout, clock=clock, strip=board.strip, display=board.display,
                 colours=config.board.colours, coaching=config.game.coaching,
                 page_seconds=config.display.page_ms / 1000, new_log=lambda: GameLog.open(next_log(state_dir)))


def open_game(config: Config, *, state_dir: Path, clock: Clock, simulate: bool, new: bool = False,
              setup: t.GameInput | None = None, script: Path | None = None) -> tuple[Devices, Table]:
    """The devices and the table: the game resumed from `state_dir` (or a new one), on the board fitting it."""
    setup = setup or setup_input(config)
    physical = config.devices.strip == "pico" and not (simulate and simulated_choice(config, "strip"))
    game_log, config, layout = _prepare(config, state_dir, new, setup, physical)
    # the devices keep what they learn where the game is (the camera's taught deck, when camera.deck is not set)
    config = replace(config, state=replace(config.state, dir=str(state_dir)))
    board = open_devices(config, clock=clock, simulate=simulate, script=script)
    try:
        return board, _table(config, board, game_log, layout=layout, setup=setup, state_dir=state_dir, clock=clock)
    except BaseException:
        board.close()
        raise


def open_table(config: Config, board: Devices, *, state_dir: Path, clock: Clock, new: bool = False,
               setup: t.GameInput | None = None) -> Table:
    """The table on devices opened already with `config`: its board must be the one fitting the game."""
    setup = setup or setup_input(config)
    game_log, fitted, layout = _prepare(config, state_dir, new, setup)
    if board.strip is not None and board.strip.led_count != layout.led_count:
        raise ConfigError([Problem(Bad.STRIP_OPENED, facts={"layout": config.board.layout,
                                                             "needed": fitted.board.layout})])
    return _table(config, board, game_log, layout=layout, setup=setup, state_dir=state_dir, clock=clock)


def build_parser() -> argparse.ArgumentParser:
    setattr(argparse, "_", _)  # noqa: B010 (argparse's own words, "usage:", through the catalog: as crib's parser)
    parser = argparse.ArgumentParser(prog="cribbage-companion", description=_("The Cribbage Companion daemon."))
    add_run_arguments(parser)
    return parser


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument("--state-dir", type=Path, help=_("where the game logs live (default: [state] dir)"))
    parser.add_argument("--new", action="store_true", help=_("start a new game instead of resuming the last one"))


def serve(args: argparse.Namespace, *, simulate: bool = False) -> int:
    """Run the board until a signal: resume the game, show it, follow the table, in the board's language."""
    config = config_from_args(args)
    with speaking(board_language(config, args)):
        return _serve(args, config, simulate=simulate)


def _serve(args: argparse.Namespace, config: Config, *, simulate: bool) -> int:
    clock = SystemClock()
    state_dir = args.state_dir or config.state.path
    board, table = open_game(config, state_dir=state_dir, clock=clock, simulate=simulate, new=args.new)
    from companion.web.wiring import attach  # the page, and the computer players of a game against them

    try:
        attached = attach(config, board, table, state_dir=state_dir, clock=clock, simulate=simulate,
                          on_ready=lambda address: log.info("%s", journal(JOURNAL["page"], address=address)))
        publisher = club_publisher(config, state_dir)
    except BaseException:  # the page or the club cannot start: the devices are let go before it is said
        board.close()
        raise
    return Daemon(table, board, clock=clock, notifier=Notifier(watchdog=config.service.watchdog),
                  on_outcome=attached.outcome, status_path=state_dir / STATUS_FILE,
                  club=publisher, address=local_address).run()


def club_publisher(config: Config, state_dir: Path) -> Publisher | None:
    """The board's publisher to its club's broker (`[club]`), started; None when no broker is configured.
    The board never waits for it: an input is logged first, and the publisher is only woken."""
    club = config.club
    if not club.broker:
        return None
    from companion.club.publisher import Broker, Publisher

    secrets: list[str] = []
    for key in ("password_file", "signing_key_file"):
        place = getattr(club, key)
        try:
            secrets.append(Path(place).read_text(encoding="utf-8").strip() if place else "")
        except OSError as error:
            raise ConfigError([Problem(Bad.SECRET_UNREADABLE, key=f"club.{key}",
                                       facts={"place": place, "error": error.strerror})]) from None
    password, signing = secrets
    try:
        signing_key = bytes.fromhex(signing) if signing else None
    except ValueError:
        raise ConfigError([Problem(Bad.SIGNING_KEY, key="club.signing_key_file",
                                   facts={"place": club.signing_key_file})]) from None
    broker = Broker.from_url(club.broker, username=club.username, password=password, ca_file=club.ca_file,
                             cert_file=club.cert_file, key_file=club.key_file)  # load_config checked its URL
    publisher = Publisher(broker, club.club, club.board, state_dir, home_assistant=club.home_assistant,
                          signing_key=signing_key)
    publisher.start()
    log.info("%s", journal(JOURNAL["club"], board=club.board, club=club.club, broker=club.broker))
    return publisher


def main(argv: Sequence[str] | None = None) -> int:
    """The service: every word it says (its help, argparse's errors, why it cannot start) in the system's language,
    the journal's reader's; the board itself speaks its own ([game] language) once it runs."""
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    with speaking(choose(None)):
        args = build_parser().parse_args(argv)
        try:
            return serve(args)
        except ConfigError as error:  # said in the system's language: a configuration that fails cannot name one
            said = problems_words(error.problems, current())
        except (CribbageError, GameLogError, DeviceError) as error:
            from companion.words.saying import error_words  # every layer's words: only when one is raised

            said = error_words(error)
        except OSError as error:  # a file the board keeps (its page's token, a new log) refused by the system
            if error.filename is None and error.errno not in DISK:
                raise  # no file of ours: a fault to see whole
            place = error.filename or args.state_dir or _("the state directory")
            said = _(DISK.get(error.errno or 0, DISK_OTHER)).format(file=place, error=error.strerror or error)
    print(f"cribbage-companion: {said}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
