"""The configuration's problems as values, and their words made at the edge in the language handed.

Loading the configuration (companion/config.py), the drivers' checks (companion/registry.py) and the daemon's
start find what is wrong as `Problem`s: a kind (`Bad`), where it is written (an `Origin`: a file and line, the
packaged defaults' line, or the command line's override) and the dotted key, and the facts its words need.
`crib check-config`, `crib sim`, `crib run` and the daemon's start say them (`problem_words`), and check-config
where each value comes from (`where_words`), each in its reader's language; nothing reads the words back.

    from companion.i18n import language
    problem_words(Problem(Bad.RANGE, Origin(From.FILE, "board.toml", 3), "board.brightness",
                          {"low": 1, "high": 100, "value": 300}), language("de"))
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.boards import Misfit, Short
from companion.i18n import N_, Language, current

from .joined import either


class Bad(StrEnum):
    """What is wrong with a setting (the value is its code); the facts each kind fills are listed."""

    # a value's form: where: the file and line (or the override), key: the dotted key
    CHOICE = "choice"  # allowed: the values allowed, value: the one given
    ONLY = "only"  # allowed: the whole numbers allowed, value
    RANGE = "range"  # low, high, value
    BOOLEAN = "boolean"  # value
    TEXT = "text"  # value
    NAMES = "names"  # value
    NAME_LONG = "name_long"  # most: characters a name may have, name
    NAME_TWICE = "name_twice"  # value
    GPIO_PINS = "gpio_pins"  # count, value
    PICO_PINS = "pico_pins"  # count, value
    COLOURS = "colours"  # value
    VIDEO_DEVICE = "video_device"  # value
    LISTEN = "listen"  # value
    OPTIONAL_LISTEN = "optional_listen"  # value
    CLUB_ID = "club_id"  # value
    SPOKEN = "spoken"  # choices: what may be said, value
    # a file or an override that cannot be read: where: the file (or the override's words), no key
    TOO_LARGE = "too_large"  # most: KiB
    NO_FILE = "no_file"
    UNREADABLE = "unreadable"  # error: the system's words
    NOT_TOML = "not_toml"  # fault: a `Toml` (None: tomllib's `error` as it is), detail, line, column (None: no
    # place said), end, unclosed
    OUTSIDE_TABLE = "outside_table"  # section: the key outside any table, tables; where: file and line
    OVERRIDE = "override"  # text: the override as given
    UNKNOWN_TABLE = "unknown_table"  # section, tables
    UNKNOWN_KEY = "unknown_key"  # name, section, known: the keys there
    # values fine alone but not together
    DEALER = "dealer"  # dealer, players
    PLAYER_COUNT = "player_count"  # count: names given, variant, wanted
    FIVE_CARD_TARGET = "five_card_target"  # target
    FEW_COLOURS = "few_colours"  # sides
    LAYOUT_UNUSABLE = "layout_unusable"  # error: the layout's reader's words
    LAYOUT_MISFIT = "layout_misfit"  # players, target, problem: the layout's `Misfit`
    LAYOUT_NEW_GAME = "layout_new_game"  # players, target, problem: the `Misfit` of a new game
    LAYOUT_RESUMED = "layout_resumed"  # log: the log of the game resumed, players, target, problem: its `Misfit`
    LAYOUT_UNREADABLE = "layout_unreadable"  # error: the layout's reader's words, said as they are
    PIN_RESERVED = "pin_reserved"  # pin, on: "gpio" or "pico", reserved: "i2c"
    PIN_TAKEN = "pin_taken"  # pin, on, other: the key using it, other_where: where that is set
    SAME_PORT = "same_port"  # port, other_where: where strip.port is set
    PIPER_VOICE = "piper_voice"  # voice
    IMAGES_NEEDED = "images_needed"
    IMAGES_NOT_FOLDER = "images_not_folder"  # images
    DECK_PATH = "deck_path"  # deck: not a whole path
    DECK_FILE = "deck_file"  # deck
    DECK_PARENT = "deck_parent"  # deck, parent
    CLUB_NEEDED = "club_needed"  # the club or the board, with a broker
    BROKER_URL = "broker_url"  # broker
    BROKER_PORT = "broker_port"  # broker
    SECRET_UNREADABLE = "secret_unreadable"  # place: the file, error: the system's words
    SIGNING_KEY = "signing_key"  # place: the file
    PICO_KEYPAD = "pico_keypad"  # strip: devices.strip, other_where: where it is set
    SCANNER_DEVICE = "scanner_device"  # spec: what scanner.device names
    # the daemon's: no where, no key
    STRIP_OPENED = "strip_opened"  # layout: the board the strip was opened for, needed: the game's


MISFIT = {Short.TRACKS: N_("board {board!r} has {has} tracks but the game has {needs} players or teams"),
          Short.HOLES: N_("board {board!r} has holes to {has} but the game is to {needs}")}
LAYOUT_ADVICE = N_('set board.layout = "auto" (the builtin board that fits each game), or name a board with '
                   "enough tracks and holes")

SAID: dict[Bad, str] = {
    Bad.CHOICE: N_("must be one of {allowed} (got {value})"),
    Bad.ONLY: N_("must be {allowed} (got {value})"),
    Bad.RANGE: N_("must be a whole number from {low} to {high} (got {value})"),
    Bad.BOOLEAN: N_("must be true or false (got {value})"),
    Bad.TEXT: N_('must be a string in quotes, like "..." (got {value})'),
    Bad.NAMES: N_('must be a list of 2 to 4 names, like ["Ann", "Bob"] (got {value})'),
    Bad.NAME_LONG: N_("a name has at most {most} characters, for the screen: shorten {name!r}"),
    Bad.NAME_TWICE: N_("must not name anyone twice (got {value})"),
    Bad.GPIO_PINS: N_("must be a list of {count} GPIO numbers from 2 to 27 (got {value})"),
    Bad.PICO_PINS: N_("must be a list of {count} Pico GP numbers, 0 to 22 or 26 to 28 (got {value})"),
    Bad.COLOURS: N_('must be a list of colours like "#e01010" (got {value})'),
    Bad.VIDEO_DEVICE: N_('must be a webcam\'s number like "0" (/dev/video0) or a /dev/... path like '
                         '"/dev/v4l/by-id/usb-...-video-index0" (got {value})'),
    Bad.LISTEN: N_('must be "HOST:PORT" like "127.0.0.1:8121" (got {value})'),
    Bad.OPTIONAL_LISTEN: N_('must be "" (off) or "HOST:PORT" like "0.0.0.0:8443" (got {value})'),
    Bad.CLUB_ID: N_("must be \"\" or 1 to 40 letters, digits, '-', '_' or '.' (got {value})"),
    Bad.SPOKEN: N_("must be a list of what is said, each once, from {choices} (got {value})"),
    Bad.TOO_LARGE: N_("{path}: larger than {most} KiB, far more than a configuration needs (the packaged defaults, "
                      "every key with its comment, are 4 KiB): keep the keys you change"),
    Bad.NO_FILE: N_("{path}: no such configuration file: check the path"),
    Bad.UNREADABLE: N_("{path}: cannot read it ({error}): check the file and its permissions"),
    Bad.NOT_TOML: N_("{path}: not valid TOML {place}: {why}"),
    Bad.OUTSIDE_TABLE: N_("{where}: {section}: a key outside any table: put it under a [section] ({tables})"),
    Bad.OVERRIDE: N_("command line: {text!r}: write an override as section.key=value, for example "
                     "devices.scanner=serial"),
    Bad.UNKNOWN_TABLE: N_("unknown table [{section}]: the tables are {tables}"),
    Bad.UNKNOWN_KEY: N_("unknown key {name!r} in [{section}]: the keys there are {known}"),
    Bad.DEALER: N_('{dealer!r} is not one of the players ({players}): name one of them, or "" to cut for the deal'),
    Bad.PLAYER_COUNT: N_("has {players} names but the {variant!r} variant needs {wanted}"),
    Bad.FIVE_CARD_TARGET: N_("must be {target} for the five-card variant"),
    Bad.FEW_COLOURS: N_("needs a colour for each of the {sides} players or teams"),
    Bad.LAYOUT_UNUSABLE: N_("cannot be used: {error}"),
    Bad.LAYOUT_MISFIT: N_("cannot host the configured game ({players} to {target}): {problem}: {advice}"),
    Bad.PIN_RESERVED: N_("uses {pin}, which is {reserved}: pick another"),
    Bad.PIN_TAKEN: N_("uses {pin}, which {other} ({where}) uses too: give each its own pin"),
    Bad.SAME_PORT: N_("is {port}, the Pico's port too (strip.port, {where}): give the scanner its own port (a "
                      "USB-serial scanner is usually /dev/ttyUSB0 or /dev/ttyACM1)"),
    Bad.PIPER_VOICE: N_('is {voice!r}: with engine = "piper" name the .onnx file of a Piper voice you installed (the '
                        'board never downloads one), or use engine = "espeak-ng"'),
    Bad.IMAGES_NEEDED: N_('is needed with camera.driver = "sim": a folder of card pictures to play'),
    Bad.IMAGES_NOT_FOLDER: N_("is {images!r}, which is not a folder: name a folder of .jpg or .png pictures"),
    Bad.DECK_PATH: N_("is {deck!r}: give the whole path of a folder, like \"/var/lib/cribbage-companion/deck\", or "
                      "leave it empty for the state directory's deck/"),
    Bad.DECK_FILE: N_("is {deck!r}, which is a file: name a folder to keep the taught deck in"),
    Bad.DECK_PARENT: N_("is {deck!r}, but {parent!r} is no folder: make it, or leave camera.deck empty for the "
                        "state directory's deck/"),
    Bad.CLUB_NEEDED: N_('is needed with club.broker: name the club and this board, like "t3"'),
    Bad.BROKER_URL: N_("is {broker!r}: use mqtt://HOST:1883, or mqtts://HOST:8883 for TLS"),
    Bad.BROKER_PORT: N_("is {broker!r}: the port must be a number from 1 to 65535"),
    Bad.LAYOUT_NEW_GAME: N_("cannot host a new game ({players} to {target}): {problem}: {advice}"),
    Bad.LAYOUT_RESUMED: N_("cannot host the game resumed from {log} (--new starts another) ({players} to {target}): "
                           "{problem}: {advice}"),
    Bad.SECRET_UNREADABLE: N_("cannot read {place} ({error}): make it readable by the service, or leave it empty"),
    Bad.SIGNING_KEY: N_("{place} does not hold a key from `crib club credentials` (boards/BOARD/signing.key)"),
    Bad.SCANNER_DEVICE: N_("must be the scanner's /dev/input/by-id/... path, its USB vendor:product as lsusb shows it "
                           '(e.g. "0c2e:0b61"), or "" for the one input device that types letters and digits (got '
                           "{spec!r})"),
    Bad.STRIP_OPENED: N_("the strip was opened for {layout} but this game needs {needed}: open the devices and the "
                         "table together (open_game)"),
    Bad.PICO_KEYPAD: N_('is "pico" but devices.strip is "{strip}" ({where}): the Pico\'s keys come over the strip\'s '
                        'USB link, so set devices.strip = "pico" (or "pico-sim"), or wire the keypad to the Pi '
                        '(devices.keypad = "gpio")'),
}
WHOLE = {Bad.TOO_LARGE, Bad.NO_FILE, Bad.UNREADABLE, Bad.NOT_TOML, Bad.OUTSIDE_TABLE, Bad.OVERRIDE,  # say where
         Bad.STRIP_OPENED}
UNKNOWN = {Bad.UNKNOWN_TABLE, Bad.UNKNOWN_KEY, Bad.LAYOUT_UNREADABLE}  # "WHERE: KEY: words"; else "WHERE: KEY words"
KEYED = {Bad.SECRET_UNREADABLE, Bad.SIGNING_KEY}  # "KEY: words" (the file's own name says where)
PINS = {"gpio": N_("GPIO {pin}"), "pico": N_("GP{pin} of the Pico")}
RESERVED = {"i2c": N_("the OLED's I2C bus (GPIO 2 and 3)")}
UNCLOSED = N_("{why}: what begins at line {line} is never closed (a quote, bracket or brace)")
AT_LINE, AT_END = N_("at line {line}, column {column}"), N_("at line {line}, column {column}, the end of the file")
NOT_TOML_NOWHERE = N_("{path}: not valid TOML: {why}")  # tomllib said no place


class Toml(StrEnum):
    """What the TOML parser refuses (the value is its code)."""

    STATEMENT = "statement"
    AFTER_VALUE = "after_value"
    TABLE_END = "table_end"
    ARRAY_TABLE_END = "array_table_end"
    EQUALS = "equals"
    QUOTE = "quote"
    CHARACTER = "character"  # detail: the character, quoted
    TABLE_TWICE = "table_twice"
    VALUE_TWICE = "value_twice"
    TABLE_CLOSED = "table_closed"
    KEY = "key"
    ARRAY = "array"
    INLINE_TWICE = "inline_twice"
    INLINE = "inline"
    BACKSLASH = "backslash"
    HEX = "hex"
    SCALAR = "scalar"
    STRING = "string"
    ILLEGAL = "illegal"  # detail: the character, quoted
    LINE_END = "line_end"  # a string on one line meets the line's end (tomllib: an illegal '\n')
    DATE = "date"
    VALUE = "value"


TOML_SAID = {
    Toml.STATEMENT: N_("a line holds a [table], a key = value or a # comment"),
    Toml.AFTER_VALUE: N_("only a # comment may follow a value on its line"),
    Toml.TABLE_END: N_("a [table] heading ends with ]"),
    Toml.ARRAY_TABLE_END: N_("a [[table]] heading ends with ]]"),
    Toml.EQUALS: N_("a key is followed by = and its value"),
    Toml.QUOTE: N_("a string in 'single quotes' is never closed"),
    Toml.CHARACTER: N_("the character {detail} is not allowed here"),
    Toml.TABLE_TWICE: N_("this table is declared a second time: declare each [table] once"),
    Toml.VALUE_TWICE: N_("this key is given a second value: give each key once"),
    Toml.TABLE_CLOSED: N_("this adds to a table already written whole elsewhere"),
    Toml.KEY: N_("a key is letters, digits, - and _, or a string in quotes"),
    Toml.ARRAY: N_("a list goes on with a comma or ends with ]"),
    Toml.INLINE_TWICE: N_("a key is given twice inside {{ }}"),
    Toml.INLINE: N_("a table in {{ }} goes on with a comma or ends with }}"),
    Toml.BACKSLASH: N_("a \\ in a \"string\" begins an escape like \\n or \\\\ (or write the string in 'single "
                       "quotes')"),
    Toml.HEX: N_("a \\u or \\U escape needs hexadecimal digits"),
    Toml.SCALAR: N_("this \\u or \\U escape names no character"),
    Toml.STRING: N_("a string is never closed with its quote"),
    Toml.ILLEGAL: N_("the character {detail} is not allowed in a string"),
    Toml.LINE_END: N_("a string is not closed on its line: end it with its quote before the line ends"),
    Toml.DATE: N_("not a valid date or time"),
    Toml.VALUE: N_('a value is a "string" in quotes, a number, true or false, or a [list]'),
}


class From(StrEnum):
    """Where a value comes from (the value is its code)."""

    FILE = "file"  # a configuration file, named by its path
    PACKAGED = "packaged"  # the packaged defaults.toml
    OVERRIDE = "override"  # a --set on the command line


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a value (or a problem) is written: a file (`text`: its path) and line, a line of the packaged
    defaults, or an override (`text`: KEY=VALUE as given). Said by `where_words`: "board.toml:3", "packaged
    defaults.toml:12", "command line (board.brightness=300)"."""

    source: From
    text: str = ""
    line: int | None = None


ORIGINS = {From.PACKAGED: N_("packaged defaults.toml:{line}"), From.OVERRIDE: N_("command line ({override})")}
FOR_THIS_GAME = N_("{origin}; {layout} for this game")  # board.layout = "auto", as `crib check-config` prints it


def where_words(origin: Origin | None, lang: Language | None = None) -> str:
    """Where a value is written, in `lang` ("" when nowhere: a value the program set)."""
    if origin is None:
        return ""
    if origin.source is From.FILE:
        return origin.text if origin.line is None else f"{origin.text}:{origin.line}"
    return (lang or current()).gettext(ORIGINS[origin.source]).format(line=origin.line, override=origin.text)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the configuration: its kind, where it is written (a file and line, an override, or a
    file as a whole; None for the daemon's problems of no setting), the dotted key ("" for a file's problem) and
    the facts its words need (which, `Bad` says)."""

    kind: Bad
    where: Origin | None = None
    key: str = ""
    facts: Mapping[str, Any] = field(default_factory=dict)


class Invalid(ValueError):
    """A value that a check refuses: its kind and facts; the loader adds where it is written and its key."""

    def __init__(self, kind: Bad, **facts: object) -> None:
        super().__init__(kind.value, facts)
        self.kind, self.facts = kind, facts


def _shown(value: object) -> str:
    """A value as the file writes it: "serial", 5, ["Ann", "Bob"]."""
    return json.dumps(value, ensure_ascii=False, default=str)


def problem_words(problem: Problem, lang: Language | None = None) -> str:
    """One problem in words, with where it is and its key: "board.toml:3: board.brightness must be ..."."""
    lang = lang or current()
    _ = lang.gettext
    where = where_words(problem.where, lang)
    facts: dict[str, Any] = dict(problem.facts)
    if "value" in facts:
        facts["value"] = _shown(facts["value"])
    if problem.kind is Bad.CHOICE:
        facts["allowed"] = ", ".join(_shown(a) for a in facts["allowed"])
    elif problem.kind is Bad.ONLY:
        facts["allowed"] = either(facts["allowed"], lang)
    elif problem.kind is Bad.SPOKEN:
        facts["choices"] = ", ".join(f'"{c}"' for c in facts["choices"])
    elif problem.kind in (Bad.OUTSIDE_TABLE, Bad.UNKNOWN_TABLE):
        facts["tables"] = ", ".join(facts["tables"])
    elif problem.kind is Bad.UNKNOWN_KEY:
        facts["known"] = ", ".join(facts["known"])
    elif problem.kind in (Bad.DEALER, Bad.LAYOUT_MISFIT, Bad.LAYOUT_NEW_GAME, Bad.LAYOUT_RESUMED):
        facts["players"] = ", ".join(facts["players"])
    elif problem.kind is Bad.PLAYER_COUNT:
        facts["players"] = facts.pop("count")
    elif problem.kind is Bad.NOT_TOML:
        fault, line, unclosed = facts["fault"], facts["line"], facts["unclosed"]
        why = facts["error"] if fault is None else _(TOML_SAID[fault]).format(detail=facts["detail"])
        facts["why"] = why if unclosed is None else _(UNCLOSED).format(why=why, line=unclosed)
        if line is not None:
            facts["place"] = _(AT_END if facts["end"] else AT_LINE).format(line=line, column=facts["column"])
    if problem.kind in (Bad.PIN_RESERVED, Bad.PIN_TAKEN):
        facts["pin"] = _(PINS[facts["on"]]).format(pin=facts["pin"])
        if "reserved" in facts:
            facts["reserved"] = _(RESERVED[facts["reserved"]])
    if problem.kind in (Bad.LAYOUT_MISFIT, Bad.LAYOUT_NEW_GAME, Bad.LAYOUT_RESUMED):
        misfit: Misfit = facts["problem"]
        facts["problem"] = _(MISFIT[misfit.short]).format(board=misfit.board, has=misfit.has, needs=misfit.needs)
        facts["advice"] = _(LAYOUT_ADVICE)
    if "other_where" in facts:
        facts["where"] = where_words(facts.pop("other_where"), lang)
    if problem.kind is Bad.LAYOUT_UNREADABLE:
        words = str(facts["error"])
    else:
        said = NOT_TOML_NOWHERE if problem.kind is Bad.NOT_TOML and "place" not in facts else SAID[problem.kind]
        words = _(said).format(**({"path": where, "where": where} | facts))
    if problem.kind in WHOLE:
        return words
    if problem.kind in KEYED:
        return f"{problem.key}: {words}"
    keyed = f"{problem.key}{':' if problem.kind in UNKNOWN else ''} {words}"
    return f"{where}: {keyed}" if where else keyed  # nowhere: an option given on a command line (--listen)


def problems_words(problems: Sequence[Problem], lang: Language | None = None) -> str:
    """Every problem found, a line each."""
    return "\n".join(problem_words(problem, lang) for problem in problems)
