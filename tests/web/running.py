"""A board running in a thread with its page on a free port: the daemon's loop as `crib sim` runs it (simulated
devices), for the tests that talk to the page through a real socket."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from companion.config import load_config
from companion.cribbage.transcript import GameInput
from companion.daemon import Daemon, Notifier, open_game
from companion.devices.base import SystemClock
from companion.play.computer import ComputerGame, Settings, write_settings
from companion.table import Outcome, Table
from companion.web.server import Hub, WebServer, create_app
from companion.web.tls import board_certificate

DEVICES = ["devices.display=dummy", "devices.strip=sim", "devices.keypad=none", "devices.buttons=none",
           "devices.scanner=none"]


@dataclass
class Running:
    table: Table
    web: WebServer
    computer: ComputerGame
    daemon: Daemon

    @property
    def url(self) -> str:
        return self.web.address


@contextmanager
def running_board(state_dir: Path, settings: Settings | None = None, *, token: str | None = None,
                  move_seconds: float = 0.05, port: int = 0, https: bool = False,
                  setup: GameInput | None = None) -> Iterator[Running]:
    """The board in a thread; `https`: the page over HTTPS too (web.secure_address), with a certificate made in
    `state_dir`; `setup`: a table game (no computer players) started afresh."""
    config = load_config(overrides=DEVICES, system_path=None)
    clock = SystemClock()
    board, table = open_game(config, state_dir=state_dir, clock=clock, simulate=False,
                             new=settings is not None or setup is not None,
                             setup=settings.game_input() if settings else setup)
    if settings is not None:
        write_settings(table.log.path, settings)
    computer = ComputerGame(table, clock=clock, delay=move_seconds)
    web = WebServer(table, listen=("127.0.0.1", port), token=token, clock=clock, state_dir=state_dir,
                    computer=computer, https=("127.0.0.1", 0) if https else None,
                    certificate=board_certificate(state_dir) if https else None)
    board.entries += [computer, web]

    def outcome(outcome: Outcome) -> None:
        computer.outcome(outcome)
        web.outcome(outcome)
    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}), on_outcome=outcome)
    stop = threading.Event()
    started = threading.Event()

    def loop() -> None:
        try:
            daemon.start()
            started.set()
            while not stop.is_set():
                daemon.step()
        finally:
            board.close()
            started.set()

    thread = threading.Thread(target=contextvars.copy_context().run, args=(loop,), name="daemon",
                              daemon=True)  # the board speaks the language of the test that starts it
    thread.start()
    started.wait(20)
    try:
        yield Running(table, web, computer, daemon)
    finally:
        stop.set()
        thread.join(10)


def serve(hub: Hub, check: Callable[[TestClient], Awaitable[None]]) -> None:
    """The page's app for `hub` on aiohttp's test server, `check` run against it with a client."""
    async def main() -> None:
        async with TestClient(TestServer(create_app(hub))) as client:
            await check(client)
    asyncio.run(main())
