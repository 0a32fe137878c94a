"""The 4x4 keypad: the printed key layout and the decoder from key presses to entries (docs/keypad.md).

    1 A♣   2 ♦    3 ♥    A GO
    4 ♠    5      6      B UNDO
    7      8      9      C OK
    * JQK  0 10   # PEG  D MENU

A card is its rank and then its suit: rank keys 1 (ace) to 9 and 0 (ten), or * followed by 1, 2 or 3 for a
jack, queen or king; then a suit key 1 ♣, 2 ♦, 3 ♥, 4 ♠. So 5 3 is the five of hearts and * 2 4 the queen of
spades: every card in two or three presses. GO, UNDO, OK and MENU are one press each. UNDO with a half-entered
card clears it (and nothing else). Manual pegging: # then the player's number (1-4, or * for the player whose
turn it is) then the points (one or two digits) then OK: # 2 1 2 OK pegs 12 for player 2.

`KeySequence` turns presses into entry texts ("5H", "go", "peg 2 12"). A sequence that cannot be completed,
or that waits longer than the timeout, comes out as "keys 5 A" (the labels pressed), which
`companion.entry.commands.decode_entry` rejects with a message from `explain_keys` (a typed message: the words
are companion.words.phrases').
"""

from __future__ import annotations

from companion.base.clock import Clock, ManualClock
from companion.cribbage.cards import RANK_NAMES
from companion.i18n import _
from companion.words.messages import Message, Say

LAYOUT: tuple[tuple[str, ...], ...] = (
    ("1", "2", "3", "A"),
    ("4", "5", "6", "B"),
    ("7", "8", "9", "C"),
    ("*", "0", "#", "D"),
)
"""Key labels by row and column, as wired: row 0 is the top row, column 0 the left column."""
KEYS = frozenset(label for row in LAYOUT for label in row)
COMMAND_KEYS = {"A": "go", "B": "undo", "C": "ok", "D": "menu"}
KEY_NAMES = {"A": "GO", "B": "UNDO", "C": "OK", "D": "MENU"}
RANK_KEYS = {str(n): n for n in range(1, 10)} | {"0": 10}
FACE_KEYS = {"1": 11, "2": 12, "3": 13}
SUIT_KEYS = {"1": "C", "2": "D", "3": "H", "4": "S"}
PLAYER_KEYS = {"1": 1, "2": 2, "3": 3, "4": 4, "*": None}
REJECTED_PREFIX = "keys "


def not_a_key(label: str) -> Message:
    """What to say of a label that is on no key."""
    return Message(Say.NOT_A_KEY, text=label)


def key_name(label: str) -> str:
    return KEY_NAMES.get(label, label)


class KeySequence:
    """Key presses in, entry texts out. Time comes from `clock`; nothing sleeps."""

    def __init__(self, clock: Clock, timeout: float = 4.0) -> None:
        self.clock = clock
        self.timeout = timeout
        self.keys: list[str] = []
        self.problem: Message | None = None
        """Why the last sequence was rejected, for `explain_keys`."""
        self._last_press = 0.0
        self._rank = 0  # 0: none yet
        self._stage = "idle"  # idle, face, suit, peg-player, peg-points

    @property
    def pending(self) -> tuple[str, ...]:
        """The keys of a half-entered sequence, to show on the screen."""
        return tuple(self.keys)

    def press(self, key: str, at: float | None = None) -> str | None:
        """One key press (made `at` that time on the clock, or now); returns an entry text when this key
        completes (or spoils) a sequence."""
        if key not in KEYS:
            raise ValueError(_("{key!r} is not a key label: the keys are {keys}")
                             .format(key=key, keys=' '.join(sorted(KEYS))))
        now = self.clock.monotonic() if at is None else at
        if self.keys and now - self._last_press >= self.timeout:
            self._start_over()  # the driver's poll reports stale sequences; a fresh press starts anew
        self._last_press = now
        self.keys.append(key)
        stage = self._stage
        if key == "B" and stage != "idle":
            self._start_over()  # UNDO clears the half-entered sequence only
            return None
        if stage == "idle":
            return self._idle(key)
        if stage == "face":
            if key in FACE_KEYS:
                self._rank, self._stage = FACE_KEYS[key], "suit"
                return None
            return self._reject(Message(Say.KEY_FACE))
        if stage == "suit":
            if key in SUIT_KEYS:
                return self._done(RANK_NAMES[self._rank] + SUIT_KEYS[key])
            if key in RANK_KEYS or key in "*#":
                self.keys = [key]  # a new rank replaces the one waiting for its suit
                return self._idle(key)
            return self._reject(Message(Say.KEY_SUIT, text=RANK_NAMES[self._rank]))
        if stage == "peg-player":
            if key in PLAYER_KEYS:
                self._stage = "peg-points"
                return None
            return self._reject(Message(Say.KEY_PLAYER))
        # peg-points: digits, then OK
        digits = self.keys[2:-1]
        if key == "C" and digits:
            player = PLAYER_KEYS[self.keys[1]]
            points = int("".join(digits))
            return self._done(f"peg {points}" if player is None else f"peg {player} {points}")
        if key.isdigit() and len(digits) < 2:
            return None
        return self._reject(Message(Say.KEY_POINTS))

    def poll(self) -> str | None:
        """The rejected text of a half-entered sequence that has waited longer than the timeout."""
        if self.keys and self.clock.monotonic() - self._last_press >= self.timeout:
            return self._reject(self._incomplete())
        return None

    def _idle(self, key: str) -> str | None:
        if key in COMMAND_KEYS:
            return self._done(COMMAND_KEYS[key])
        if key == "*":
            self._stage = "face"
        elif key == "#":
            self._stage = "peg-player"
        else:
            self._rank, self._stage = RANK_KEYS[key], "suit"
        return None

    def _incomplete(self) -> Message:
        if self._stage == "suit":
            return Message(Say.WAIT_SUIT, text=RANK_NAMES[self._rank])
        return Message({"face": Say.WAIT_FACE, "peg-player": Say.WAIT_PLAYER,
                        "peg-points": Say.WAIT_POINTS}.get(self._stage, Say.CARD_HELP))

    def _done(self, text: str) -> str:
        self._start_over()
        self.problem = None
        return text

    def _reject(self, problem: Message) -> str:
        text = REJECTED_PREFIX + " ".join(self.keys)
        self._start_over()
        self.problem = problem
        return text

    def _start_over(self) -> None:
        self.keys = []
        self._rank = 0
        self._stage = "idle"


def explain_keys(keys: list[str]) -> Message:
    """Why a rejected key sequence ("keys 5 A" without the prefix) was not an entry, and what to press."""
    unknown = [k for k in keys if k not in KEYS]
    if unknown:
        return not_a_key(unknown[0])
    sequence = KeySequence(ManualClock())
    for key in keys:
        if sequence.press(key) is not None:
            break
    else:
        sequence.problem = sequence._incomplete()
    return Message(Say.KEYPAD, keys=tuple(key_name(k) for k in keys), then=sequence.problem or Message(Say.CARD_HELP))
