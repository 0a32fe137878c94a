"""The peg strip on the LED co-processor (a Pico running firmware/), over USB serial with pyserial.

`show` only records what to show and wakes a link thread, so the table controller never waits on the cable.
The link thread owns the port: it opens it, shakes hands (HELLO, CONFIG, BRIGHTNESS), sends the effects and
then the picture (the whole frame after a (re)connection, only the changed LEDs after that), one message at a
time, each acknowledged or resent. A lost port is closed and reopened after `retry_s` (measured on the
injected clock, driven by `poll`), then twice, four times ... as long, at most RETRY_MAX_S, while it stays
away; the whole picture is sent again once it is back. See firmware/PROTOCOL.md.

With a keypad on the Pico (`keypad=PicoKeypad(...)`) the handshake also sends KEYPAD, after every
(re)connection, and the link thread hands each KEY message to the keypad as it reads it: while waiting for an
acknowledgement, and while idle, when it waits on the port and on a pipe that `show`, `poll` and `close`
write to (so it needs a port with a file descriptor, as pyserial's are on Linux and macOS).

Every change of the connection is logged once (connected; or why not, with what to check: the port missing, no
permission, the port in use, the firmware too old), and `problem` keeps the words for the status screen.
`wait_delivered(timeout)` waits until the Pico has acknowledged everything shown so far (the simulator uses it).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import select
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.base.clock import Clock, SystemClock
from companion.view.leds import Celebrate, Effect, Flash, Frame, Walk
from companion.words.devices import STRIP, journal_words

from .. import ledlink
from ..ledlink import Message
from .base import DeviceError, DeviceProblem, Fault, PegStrip, problem_of

if TYPE_CHECKING:
    from .picokeys import PicoKeypad

log = logging.getLogger(__name__)

WALK_STEP_MS = 80
FLASH_TIMES, FLASH_PERIOD_MS = 3, 300
CELEBRATE_MS = 6000
RETRY_MAX_S = 8.0
"""The longest wait between two tries to reach a Pico that is not there."""
SPARSE_LIMIT = 64
"""More changed LEDs than this go as a whole frame."""


class LinkLost(DeviceError):
    """The Pico stopped answering as it should (`refusal` says how)."""


class PicoPegStrip(PegStrip):
    name = "Pico peg strip"

    def __init__(
        self,
        port: str,
        led_count: int,
        *,
        baud: int = 115200,
        pin: int = 2,
        color_order: str = "GRB",
        max_current_ma: int = 500,
        brightness: int = 64,
        watchdog_s: int = 3,
        clock: Clock | None = None,
        retry_s: float = 2.0,
        keepalive_s: float = 1.0,
        ack_timeout_s: float = 0.5,
        open_port: Callable[..., Any] | None = None,
        keypad: PicoKeypad | None = None,
    ) -> None:
        if not 0 <= brightness <= 255:
            raise DeviceError(Fault.BRIGHTNESS, value=brightness)
        self._config = ledlink.config_body(led_count, pin, color_order, max_current_ma, watchdog_s)
        self._port_name = port
        self._baud = baud
        self._count = led_count
        self._brightness = brightness
        self._clock = clock or SystemClock()
        self._retry_s = retry_s
        self._keepalive_s = keepalive_s
        self._ack_timeout_s = ack_timeout_s
        self._open_port = open_port
        self._keypad = keypad
        self._nudge_read, self._nudge_write = os.pipe()  # wakes the link thread while it listens to the port
        os.set_blocking(self._nudge_write, False)
        self._wake = threading.Condition()
        self.changed = self._wake
        """Notified whenever the connection comes or goes (and on every request to the link thread)."""
        self._wanted: Frame = ((0, 0, 0),) * led_count
        self._effects: list[Effect] = []
        self._closing = False
        self._connected = False
        self.problem: DeviceProblem | None = None
        """Why the strip is not connected (or what is wrong while it is), for the status screen and the log."""
        self._logged: tuple[bool, DeviceProblem | None] = (False, None)
        self._asked = self._delivered = 0  # show() calls made, and how many of them the Pico has acknowledged
        self._thread = threading.Thread(target=self._run, name="pico-peg-strip", daemon=True)
        self._thread.start()

    @property
    def led_count(self) -> int:
        return self._count

    @property
    def connected(self) -> bool:
        return self._connected

    def show(self, frame: Frame, effects: tuple[Effect, ...] = ()) -> None:
        if len(frame) != self._count:
            raise ValueError(f"a frame for this strip has {self._count} colours, not {len(frame)}")
        with self._wake:
            self._wanted = tuple(frame)
            self._effects.extend(effects)
            del self._effects[:-16]  # the Pico queues no more; the picture itself is never dropped
            self._asked += 1
            self._wake.notify_all()
        self._nudge()

    def wait_delivered(self, timeout: float) -> bool:
        """Wait (at most `timeout` seconds) until the Pico has acknowledged every picture and effect shown so far;
        False when it has not by then (not connected, or busy)."""
        with self._wake:
            asked = self._asked
            return self._wake.wait_for(lambda: self._connected and self._delivered >= asked, timeout)

    def poll(self, now: float) -> None:
        with self._wake:
            self._wake.notify_all()
        self._nudge()

    def close(self) -> None:
        """Stop the link thread and let go of the port; closing again does nothing."""
        with self._wake:
            closed, self._closing = self._closing, True
            self._wake.notify_all()
        if closed:
            return
        self._nudge()
        self._thread.join(5)
        if not self._thread.is_alive():
            os.close(self._nudge_read)
            os.close(self._nudge_write)

    def _nudge(self) -> None:
        with contextlib.suppress(OSError):  # a full pipe already wakes the thread (and a closed one has none)
            os.write(self._nudge_write, b"\0")

    # -- the link thread

    def _run(self) -> None:
        next_try = self._clock.monotonic()
        delay = self._retry_s  # doubled by each failed try, up to RETRY_MAX_S; back to retry_s after a connection
        while not self._closing:
            if self._clock.monotonic() < next_try:
                with self._wake:
                    self._wake.wait(0.25)
                continue
            # the next try is timed before anyone hears of the failure (a test's clock may move right after)
            try:
                port = self._open()
            except Exception as error:  # any failure to open means "not there (yet)"
                next_try, delay = self._clock.monotonic() + delay, min(2 * delay, max(RETRY_MAX_S, self._retry_s))
                self._set_connected(False, open_problem(self._port_name, error))
                continue
            try:
                self._serve(port)
            except Exception as error:  # whatever went wrong, the daemon goes on and the link starts again
                delay = self._retry_s if self._connected else delay
                next_try, delay = self._clock.monotonic() + delay, min(2 * delay, max(RETRY_MAX_S, self._retry_s))
                self._set_connected(False, DeviceProblem(Fault.PICO_LOST, {"port": self._port_name},
                                                         problem_of(error)))
            finally:
                with contextlib.suppress(OSError):
                    port.close()

    def _set_connected(self, connected: bool, problem: DeviceProblem | None, firmware: str = "") -> None:
        if (connected, problem) != self._logged:  # retries that fail (in whatever words) are not news
            was_connected, was_problem = self._logged
            self._logged = (connected, problem)
            if connected:
                log.info(journal_words("connected_to", device=STRIP, firmware=firmware, port=self._port_name)
                         if firmware else journal_words("connected_to_pico", device=STRIP, port=self._port_name))
            if problem and (connected or was_connected or not was_problem):
                log.warning(journal_words("refused" if connected else "not_connected", device=STRIP,
                                          problem=problem))
            elif problem:
                log.debug("LED strip: still not connected: %s", problem)
        with self._wake:
            self._connected = connected
            self.problem = problem
            self._wake.notify_all()

    def _open(self) -> Any:
        if self._open_port is not None:
            return self._open_port(self._port_name, self._baud, self._ack_timeout_s)
        import serial

        return serial.Serial(self._port_name, self._baud, timeout=self._ack_timeout_s, write_timeout=2, exclusive=True)

    def _serve(self, port: Any) -> None:
        self._seq = 0
        self._decoder = ledlink.Decoder()
        port.reset_input_buffer()
        reply = self._request(port, ledlink.HELLO, ledlink.hello_body())
        hello = ledlink.parse_hello_reply(reply.body)
        if hello.version != ledlink.VERSION:
            raise LinkLost(Fault.PICO_PROTOCOL, theirs=hello.version, ours=ledlink.VERSION)
        if hello.max_leds < self._count:
            raise LinkLost(Fault.PICO_LEDS, most=hello.max_leds, count=self._count)
        self._request(port, ledlink.CONFIG, self._config)
        self._request(port, ledlink.BRIGHTNESS, bytes((self._brightness,)))
        problem = None
        if self._keypad is not None:
            if hello.capabilities & ledlink.CAP_KEYPAD:
                self._request(port, ledlink.KEYPAD, self._keypad.keypad_body)
            else:
                problem = DeviceProblem(Fault.PICO_NO_KEYPAD, {"firmware": hello.firmware})
        shown: Frame | None = None
        with self._wake:
            self._effects.clear()  # animations meant for a picture the Pico never had
            self._delivered = 0  # this Pico has had nothing yet: wait_delivered waits for the whole picture
        self._set_connected(True, problem, hello.firmware)
        last_sent = self._clock.monotonic()
        while not self._closing:
            with self._wake:
                wanted, effects, asked = self._wanted, self._effects[:], self._asked
                self._effects.clear()
                idle = wanted == shown and not effects and self._clock.monotonic() - last_sent < self._keepalive_s
            if idle:
                self._listen(port, 0.25)
                continue
            for effect in effects:
                self._request(port, *_effect_message(effect))
            if wanted != shown:
                self._send_picture(port, wanted, shown)
                shown = wanted
            if not effects and wanted == shown and self._clock.monotonic() - last_sent >= self._keepalive_s:
                self._request(port, ledlink.PING, b"")
            last_sent = self._clock.monotonic()
            with self._wake:
                self._delivered = asked
                self._wake.notify_all()

    def _send_picture(self, port: Any, wanted: Frame, shown: Frame | None) -> None:
        changes = [] if shown is None else [(i, c) for i, c in enumerate(wanted) if c != shown[i]]
        if shown is None or len(changes) > SPARSE_LIMIT:
            self._request(port, ledlink.FRAME, ledlink.frame_body(wanted))
        else:
            self._request(port, ledlink.SET, ledlink.set_body(changes))

    def _request(self, port: Any, kind: int, body: bytes, attempts: int = 3) -> Message:
        """Send one message and wait for its answer; resend on NAK or silence."""
        self._seq = self._seq % 255 + 1
        wire = ledlink.encode(Message(self._seq, kind, body))
        nak = None  # the Pico's code for its last NAK; None: no answer
        for _ in range(attempts):
            port.write(wire)
            answer = self._answer(port)
            if answer is None:
                nak = None
            elif answer.type == ledlink.NAK:
                nak = ledlink.nak_code(answer.body)
                if nak == ledlink.BAD_VERSION:
                    raise LinkLost(Fault.PICO_OLD, ours=ledlink.VERSION)
                if nak in (ledlink.UNKNOWN_TYPE, ledlink.BAD_BODY, ledlink.NOT_CONFIGURED):  # resending will not help
                    raise LinkLost(Fault.PICO_REFUSED, code=nak)
            else:
                return answer
        if nak is None:
            raise LinkLost(Fault.PICO_SILENT)
        raise LinkLost(Fault.PICO_UNACKNOWLEDGED, code=nak)

    def _answer(self, port: Any) -> Message | None:
        """The Pico's reply to the current message (key events on the way go to the keypad), None on silence."""
        while True:
            data = port.read(max(1, port.in_waiting))
            if not data:
                return None
            answer = self._heard(data)
            if answer is not None:
                return answer

    def _listen(self, port: Any, timeout: float) -> None:
        """Wait for the controller (a nudge) or for key events from the Pico, at most `timeout` seconds."""
        ready, _, _ = select.select([port, self._nudge_read], [], [], timeout)
        if self._nudge_read in ready:
            os.read(self._nudge_read, 4096)
        if port in ready:
            self._heard(port.read(max(1, port.in_waiting)))  # an unplugged port raises here: reconnect

    def _heard(self, data: bytes) -> Message | None:
        """Bytes from the Pico: KEY messages go to the keypad; returns the reply to the current message, if any."""
        answer = None
        for item in self._decoder.feed(data):
            if not isinstance(item, Message):
                continue
            if item.type == ledlink.KEY:
                if self._keypad is not None:
                    self._keypad.key_event(item.body)
            elif item.seq == self._seq and answer is None:
                answer = item
        return answer


def open_problem(port: str, error: Exception) -> DeviceProblem:
    """Why `port` would not open."""
    code = getattr(error, "errno", None)
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return DeviceProblem(Fault.PORT_MISSING, {"port": port})
    if code in (errno.EACCES, errno.EPERM):
        return DeviceProblem(Fault.PORT_PERMISSION, {"port": port})
    if code in (errno.EAGAIN, errno.EBUSY):
        return DeviceProblem(Fault.PORT_BUSY, {"port": port})
    return DeviceProblem(Fault.PORT_FAILED, {"port": port, "error": str(error)})


def _effect_message(effect: Effect) -> tuple[int, bytes]:
    leds = effect.leds[:1000]
    if isinstance(effect, Walk):
        return ledlink.WALK, ledlink.walk_body(effect.color, WALK_STEP_MS, leds)
    if isinstance(effect, Flash):
        return ledlink.FLASH, ledlink.flash_body(effect.color, FLASH_TIMES, FLASH_PERIOD_MS, leds)
    assert isinstance(effect, Celebrate)
    return ledlink.CELEBRATE, ledlink.celebrate_body(effect.color, CELEBRATE_MS, leds)
