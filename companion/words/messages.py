"""What the table says to the people at it, as values: a kind (`Say`) and its facts, never words.

A `Message` is a frozen value like the engine's `Refusal`: `kind` names the message, the other fields are the
facts its words need (a card, a player, counts, the engine's prompt, the table's own prompt as a message inside,
the refusal it carries). The table, the held cards, the doubtful card and the entry decoder make them; the words
are made at the edge (the OLED, the page, the terminal, the voice), in the language of whoever reads them:

    from companion.words.phrases import message_words
    message_words(outcome.message, language("de"))     # "Rückgängig: 7♠ (Crib: 1 von 4)"

A client decides what to do from `kind` (a stable string code) and never from the words. Standard library
only; the types named in the fields are the engine's own (imported for the type checker).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the facts named are the engine's
    from companion.cribbage import transcript as t
    from companion.cribbage.cards import Card
    from companion.cribbage.facts import Prompt, Seen
    from companion.cribbage.refusals import Refusal


class Say(StrEnum):
    """What a message says (the value is its code). The fields each one fills are listed."""

    # what the table waits for (its prompt)
    WAITING = "waiting"  # prompt, player: the first player (who deals when the cut is skipped)
    SEATED = "seated"  # prompt, player: the person at a virtual table, other: who cut and card: the starter (or None)
    PROGRESS = "progress"  # count: cards held, total: cards wanted, player: whose coached hand (None: the crib)
    QUESTION = "question"  # card: a card a camera was not sure of
    # the doubtful card (entry/doubt.py)
    NOT_ENTERED = "not_entered"  # card: the card asked about, dropped by an undo
    ANSWER_FIRST = "answer_first"  # asked: the card asked about, card: another card shown meanwhile (or None)
    # refused
    REFUSED = "refused"  # refusal: the engine's
    WORDS = "words"  # text: words an error brought from above the engine, said as they are
    CANNOT_SAVE = "cannot_save"  # count: the disk's errno, text: the system's words for it
    CARD_SEEN = "card_seen"  # seen: where a card entered is already
    NO_CARD_WANTED = "no_card_wanted"  # prompt
    SCAN_NEW_GAME = "scan_new_game"  # prompt: the game's end, text: the new game's command card
    PLAY_AGAIN = "play_again"  # then: the table's prompt (a virtual table)
    DECK_DEALS = "deck_deals"  # card: entered, then: the table's prompt (a virtual table)
    NO_DECK_INPUT = "no_deck_input"  # text: what the virtual deck sent
    NO_GO_NOW = "no_go_now"  # then: the table's prompt (a virtual table)
    PLAY_PEGGED = "play_pegged"  # a claim in the play at a virtual table
    CLAIM_AFTER_CARD = "claim_after_card"  # a claim in the play not right after a card
    NOTHING_OF_YOURS = "nothing_of_yours"  # count: the cards to lay away (an undo at a virtual table)
    NO_VOICE = "no_voice"
    PEG_WHOSE = "peg_whose"  # player: the first player
    NO_PLAYER_NAMED = "no_player_named"  # text: the name given, players
    NO_PLAYER_SEAT = "no_player_seat"  # count: the seat given (from 1), total: the players
    NO_STATE_DIRECTORY = "no_state_directory"
    START_OF_GAME = "start_of_game"  # an undo with nothing before it
    # done, or asked to confirm
    UNDONE = "undone"  # taken: each input taken back with who made it
    UNDONE_HELD = "undone_held"  # card: taken back, then: the progress of the cards still held
    UNDO_AGAIN = "undo_again"  # prompt: the game's end
    LAST_GAME = "last_game"  # prompt: where the last game ended
    REOPENED = "reopened"  # then: the table's prompt
    CONFIRM_NEW = "confirm_new"  # text: the new game's command card
    LOSER_DEALS = "loser_deals"  # player: the loser
    NO_CUT = "no_cut"  # player: the dealer
    NO_HANDS = "no_hands"
    HELP = "help"  # text: the new game's command card, voice: MENU again mutes, page: where the board's page is
    SEATED_HELP = "seated_help"  # voice, page: as HELP
    VOICE_OFF = "voice_off"
    VOICE_ON = "voice_on"
    LOG_CARED = "log_cared"  # count: the inputs kept
    DEVICES_GONE = "devices_gone"  # names: the devices gone, then: DEVICES_BACK when others came back at once
    DEVICES_BACK = "devices_back"  # names: the devices back
    ADDRESS = "address"  # text: the board's IP address
    SEAT = "seat"  # count: the club's table, players: who plays at it this round
    SIT_OUT = "sit_out"  # count: the round this board sits out
    WRONG_TOKENS = "wrong_tokens"  # count: wrong control tokens, text: from which address, total: seconds to wait
    STRIP_MISSING = "strip_missing"
    STRIP_BACK = "strip_back"
    # an entry that is none (entry/commands.py, entry/keymap.py)
    NOTHING_SCANNED = "nothing_scanned"
    NOTHING_TYPED = "nothing_typed"
    NO_KEYPAD = "no_keypad"  # text: the key's label
    NOT_A_KEY = "not_a_key"  # text: the label given
    SHOP_CODE = "shop_code"  # names: the command cards
    NOT_OURS = "not_ours"  # names: the command cards
    NOT_AN_ENTRY = "not_an_entry"  # text: as entered, names: the command words
    NO_SEAT = "no_seat"  # text: the seat given
    PEG_RANGE = "peg_range"  # text: the points given ("" for too many digits), total: the most
    KEYPAD = "keypad"  # keys: the labels pressed, then: what was wrong
    KEY_FACE = "key_face"  # a wrong key after *
    KEY_SUIT = "key_suit"  # text: the rank waiting for its suit
    KEY_PLAYER = "key_player"  # a wrong key after #
    KEY_POINTS = "key_points"  # a wrong key in the points
    WAIT_FACE = "wait_face"  # * waited too long
    WAIT_SUIT = "wait_suit"  # text: the rank that waited for its suit
    WAIT_PLAYER = "wait_player"
    WAIT_POINTS = "wait_points"
    CARD_HELP = "card_help"  # how a card is keyed


@dataclass(frozen=True, slots=True)
class PageAddress:
    """Where the board's page is, as the menu says it after the help: the address it listens on, the control token
    (None where controls need none), and for phones over HTTPS their page and the certificate's short
    fingerprint."""

    listen: str
    token: str | None = None
    phones: str | None = None
    cert: str | None = None


@dataclass(frozen=True, slots=True)
class Message:
    """A message of the table: what it says (`kind`) and the facts its words need (which fields, `Say` says)."""

    kind: Say
    card: Card | None = None
    asked: Card | None = None  # the card a camera was not sure of
    player: str | None = None
    other: str | None = None  # a second person: who cut
    players: tuple[str, ...] = ()
    count: int | None = None
    total: int | None = None
    prompt: Prompt | None = None  # the engine's: what the game waits for
    then: Message | None = None  # a message inside: the table's prompt, the held cards' progress, a key's problem
    refusal: Refusal | None = None
    seen: Seen | None = None
    taken: tuple[tuple[t.Input, str | None], ...] = ()  # inputs taken back, each with who made it
    keys: tuple[str, ...] = ()  # keypad keys as pressed, by their printed names (5, GO)
    names: tuple[str, ...] = ()  # the choices there are (command words, command cards)
    voice: bool = False  # the help says MENU again mutes the voice
    text: str = ""  # text as given (an entry, a name, a label: not a word of ours)
    page: PageAddress | None = None  # where the board's page is (the help)

    def __repr__(self) -> str:
        facts = "".join(f", {f.name}={getattr(self, f.name)!r}" for f in fields(self)[1:]
                        if getattr(self, f.name) not in (None, (), "", False))
        return f"Message(Say.{self.kind.name}{facts})"

    @property
    def why(self) -> Say:
        """Its kind, by the name every refusal's code has (a CommandMistake carries a message as its refusal)."""
        return self.kind
